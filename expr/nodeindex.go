package expr

// NodeIndex numbers distinct nodes in the order they are added: the
// position table of a walk over a graph, as executors and transforms make
// to sign, plan and differentiate graphs. Lookup takes constant time, and
// an index that is reset and refilled (a pooled one) allocates nothing
// once its table has grown to the graphs it sees.
//
// It is an open-addressing hash table keyed by the nodes' ids, whose
// entries carry the number of the filling that wrote them, so that Reset
// empties it in constant time. It keeps no pointer to a node beyond
// Nodes, which Reset clears, and writes nothing into the nodes: indexes
// over shared nodes may be filled on several goroutines at once. One
// NodeIndex is not safe for concurrent use.
type NodeIndex struct {
	nodes []*Node
	table []indexEntry // len a power of two, at least twice len(nodes)
	gen   uint32       // the filling: entries of another are empty
}

type indexEntry struct {
	id  uint64
	pos uint32
	gen uint32
}

// minTable is the size of a new index's table.
const minTable = 64

// Reset empties x, keeping its storage.
func (x *NodeIndex) Reset() {
	clear(x.nodes)
	x.nodes = x.nodes[:0]
	x.gen++
	if x.gen == 0 { // wrapped: entries of an old filling could match
		clear(x.table)
		x.gen = 1
	}
}

// Len returns the number of nodes added.
func (x *NodeIndex) Len() int { return len(x.nodes) }

// Nodes returns the nodes in the order they were added; the slice must not
// be modified and is valid until the next Add or Reset.
func (x *NodeIndex) Nodes() []*Node { return x.nodes }

// Add gives n the next position and returns it. n must not be in x
// already (Lookup first).
func (x *NodeIndex) Add(n *Node) int {
	i := len(x.nodes)
	if 2*(i+1) > len(x.table) {
		x.grow()
	}
	x.nodes = append(x.nodes, n)
	x.insert(n.id, i)
	return i
}

// Lookup returns n's position and true, or false when n was not added.
func (x *NodeIndex) Lookup(n *Node) (int, bool) {
	if len(x.table) == 0 {
		return 0, false
	}
	mask := uint64(len(x.table) - 1)
	for h := slot(n.id, mask); ; h = (h + 1) & mask {
		e := &x.table[h]
		if e.gen != x.gen {
			return 0, false
		}
		if e.id == n.id {
			return int(e.pos), true
		}
	}
}

// slot is where id's probe sequence starts (Fibonacci hashing: ids are
// consecutive numbers, which the multiplication spreads over the table).
func slot(id, mask uint64) uint64 { return (id * 0x9E3779B97F4A7C15 >> 32) & mask }

func (x *NodeIndex) insert(id uint64, pos int) {
	mask := uint64(len(x.table) - 1)
	h := slot(id, mask)
	for x.table[h].gen == x.gen {
		h = (h + 1) & mask
	}
	x.table[h] = indexEntry{id: id, pos: uint32(pos), gen: x.gen}
}

// grow doubles the table (or makes the first) and enters the nodes again.
func (x *NodeIndex) grow() {
	x.table = make([]indexEntry, max(minTable, 2*len(x.table)))
	x.gen = 1
	for i, n := range x.nodes {
		x.insert(n.id, i)
	}
}
