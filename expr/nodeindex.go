package expr

import "sync/atomic"

// NodeIndex numbers distinct nodes in the order they are added: the
// position table of a walk over a graph, as executors and transforms make
// to sign, plan and differentiate graphs. Lookup takes constant time and
// allocates nothing for graphs of any size.
//
// One NodeIndex at a time in the process holds the stamp lease: it writes
// each node's position, with a number unique to this filling of the index,
// into the node itself (nodes stay immutable: the stamp is invisible), and
// Lookup reads it back. Any other NodeIndex, filled while the lease is
// held, searches its nodes (up to 32) or keeps a map. Either way the
// answers are exact, and NodeIndexes over shared nodes may be filled on
// several goroutines at once; one NodeIndex is not safe for concurrent use.
type NodeIndex struct {
	nodes  []*Node
	epoch  uint32 // the stamps of this filling, while leased
	leased bool
	mapped bool          // index holds every node (no lease, more than linearMax nodes)
	index  map[*Node]int // kept across Reset
}

// stampLease is held by the NodeIndex whose stamps are current; stampEpoch
// numbers its fillings.
var (
	stampLease atomic.Bool
	stampEpoch atomic.Uint32
)

// linearMax is the most nodes an index without the lease searches before
// it keeps a map.
const linearMax = 32

// maxStamped is the most nodes a stamp can number.
const maxStamped = 1<<32 - 1

// Reset empties x and gives up the lease, if x held it. An index that is
// not reset keeps the lease: reset it when done (a pooled index is reset
// before it is pooled).
func (x *NodeIndex) Reset() {
	x.Release()
	clear(x.nodes)
	x.nodes = x.nodes[:0]
	if x.mapped {
		clear(x.index)
		x.mapped = false
	}
}

// Release gives up the lease, if x held it, and keeps x's contents: later
// lookups search them or a map, made by the first of them. An index
// releases the lease once filled when it will be kept for long (while a
// plan runs).
func (x *NodeIndex) Release() {
	if !x.leased {
		return
	}
	x.leased = false
	stampLease.Store(false)
}

// Len returns the number of nodes added.
func (x *NodeIndex) Len() int { return len(x.nodes) }

// Nodes returns the nodes in the order they were added; the slice must not
// be modified and is valid until the next Add or Reset.
func (x *NodeIndex) Nodes() []*Node { return x.nodes }

// Add gives n the next position and returns it. n must not be in x
// already (Lookup first).
func (x *NodeIndex) Add(n *Node) int {
	if i := len(x.nodes); x.leased && i < maxStamped {
		n.stamp = uint64(x.epoch)<<32 | uint64(i)
		x.nodes = append(x.nodes, n)
		return i
	}
	return x.add(n)
}

// add is Add off the leased path.
//
//go:noinline
func (x *NodeIndex) add(n *Node) int {
	i := len(x.nodes)
	if i == 0 && !x.leased && stampLease.CompareAndSwap(false, true) {
		x.leased = true
		x.epoch = stampEpoch.Add(1)
	}
	x.nodes = append(x.nodes, n)
	switch {
	case x.leased && i < maxStamped:
		n.stamp = uint64(x.epoch)<<32 | uint64(i)
	case x.leased:
		x.Release() // numbers past what a stamp holds: a map from here on
	case x.mapped:
		x.index[n] = i
	case i+1 > linearMax:
		x.fillMap()
	}
	return i
}

// Lookup returns n's position and true, or false when n was not added.
func (x *NodeIndex) Lookup(n *Node) (int, bool) {
	if x.leased {
		// A stamp of this epoch is this filling's unless the epochs have
		// wrapped around since it was written: the node at its position
		// tells. Only the lease holder writes stamps, so a node added
		// now carries its stamp. Only the lease holder reads them either,
		// and the lease passes through stampLease, so the plain reads and
		// writes of stamps do not race.
		s := n.stamp
		if i := uint32(s); s>>32 == uint64(x.epoch) && uint(i) < uint(len(x.nodes)) && x.nodes[i] == n {
			return int(i), true
		}
		return 0, false
	}
	return x.search(n)
}

// search is Lookup without the lease.
//
//go:noinline
func (x *NodeIndex) search(n *Node) (int, bool) {
	if !x.mapped && len(x.nodes) > linearMax {
		x.fillMap() // released after more than linearMax nodes
	}
	if x.mapped {
		i, ok := x.index[n]
		return i, ok
	}
	for i, m := range x.nodes {
		if m == n {
			return i, true
		}
	}
	return 0, false
}

func (x *NodeIndex) fillMap() {
	if x.index == nil {
		x.index = make(map[*Node]int, len(x.nodes))
	}
	for i, m := range x.nodes {
		x.index[m] = i
	}
	x.mapped = true
}
