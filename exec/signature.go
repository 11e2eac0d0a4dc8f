package exec

import (
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// A graph's signature identifies it up to the identity of its tensors: the
// ops, dtypes, shapes and attributes of its nodes, the layouts of its leaf
// and destination tensors, which leaves are the same tensor, and which share
// storage with a destination. Graphs with equal signatures compile to the
// same plan, so a graph rebuilt every iteration (as user code and autograd
// do) is planned once; the plan binds the new graph's tensors by position.
type walker struct {
	idx       expr.NodeIndex // every node's position in walk order
	nodes     []*expr.Node   // idx.Nodes()
	stack     []walkFrame
	leaves    []tensor.Any // the tensor of each leaf, in walk order
	leafNodes []*expr.Node
	leafOf    []int              // per node in walk order: its leaf ordinal, or -1
	argPos    []int32            // the walk positions of every node's operands, node after node
	argStart  []int32            // per node in walk order: where its operands start in argPos
	sameLeaf  map[tensor.Any]int // for many leaves: a tensor's first leaf ordinal
	sig       []uint64
	probes    int // node and tensor comparisons and lookups: the walk's work, tested to grow linearly
}

type walkFrame struct {
	n   *expr.Node
	arg int
}

// walkers keeps walkers between evaluations, storage and all. It is a
// sync.Pool, not a stash: a reset walker still holds the nodes of the last
// graph it walked (its index is emptied by a filling number, not cleared),
// and so their tensors, which a garbage collection must be free to drop.
var walkers = sync.Pool{New: func() any { return new(walker) }}

// getWalker returns a pooled walker; putWalker returns it.
func getWalker() *walker { return walkers.Get().(*walker) }

// putWalker resets w and returns it to the pool.
func putWalker(w *walker) {
	w.reset()
	walkers.Put(w)
}

const linearSearchMax = 32

// reset empties w, keeping its storage.
func (w *walker) reset() {
	w.idx.Reset()
	clear(w.leaves)
	clear(w.leafNodes)
	clear(w.stack)
	w.nodes, w.leaves, w.leafNodes, w.sig, w.stack = nil, w.leaves[:0], w.leafNodes[:0], w.sig[:0], w.stack[:0]
	w.leafOf, w.probes = w.leafOf[:0], 0
	w.argPos, w.argStart = w.argPos[:0], w.argStart[:0]
	if w.sameLeaf != nil {
		clear(w.sameLeaf)
	}
}

func (w *walker) lookup(n *expr.Node) (int, bool) {
	w.probes++
	return w.idx.Lookup(n)
}

// walk visits the graphs of roots in post-order and computes their
// signature together with dsts and binds.
//
// Every variable-length part carries its length, so that two different
// graphs can never encode to the same sequence.
func (w *walker) walk(roots []*expr.Node, dsts []tensor.Any, binds []Binding) {
	w.reset()
	w.sig = append(w.sig, 0) // the node count, filled in below
	for _, r := range roots {
		if _, ok := w.lookup(r); ok {
			continue
		}
		w.stack = append(w.stack, walkFrame{r, 0})
		for len(w.stack) > 0 {
			f := &w.stack[len(w.stack)-1]
			args := f.n.Args()
			if f.arg < len(args) {
				a := args[f.arg]
				f.arg++
				// The stack is a path of operands, and a node's operands
				// are built before it, so a node on the stack is never
				// met again before it is visited: only visited nodes are
				// skipped.
				if _, ok := w.lookup(a); !ok {
					w.stack = append(w.stack, walkFrame{a, 0})
				}
				continue
			}
			w.stack = w.stack[:len(w.stack)-1]
			w.visit(f.n, binds)
		}
	}
	w.sig[0] = uint64(len(w.nodes))
	w.sig = append(w.sig, uint64(len(roots)))
	for _, r := range roots {
		i, _ := w.lookup(r)
		w.sig = append(w.sig, uint64(i))
	}
	w.sig = append(w.sig, uint64(len(dsts)))
	for _, d := range dsts {
		if d == nil {
			w.sig = append(w.sig, 0)
			continue
		}
		w.sig = append(w.sig, uint64(d.DType()))
		w.layout(d)
		at := len(w.sig)
		w.sig = append(w.sig, 0) // how many leaves share its storage
		for i, l := range w.leaves {
			if l != nil && d.SameStorage(l) {
				base := uint64(0)
				if d.SameBase(l) {
					base = 1
				}
				w.sig = append(w.sig, uint64(i)<<1|base)
				w.sig[at]++
			}
		}
	}
}

func (w *walker) visit(n *expr.Node, binds []Binding) {
	w.idx.Add(n)
	w.nodes = w.idx.Nodes()
	w.leafOf = append(w.leafOf, -1)
	w.argStart = append(w.argStart, int32(len(w.argPos)))
	args := n.Args()
	w.sig = append(w.sig, uint64(n.Op())<<56|uint64(n.DType())<<48|uint64(len(args))<<32|uint64(len(n.Shape())))
	for _, d := range n.Shape() {
		w.sig = append(w.sig, uint64(d))
	}
	for _, a := range args {
		i, _ := w.lookup(a)
		w.sig = append(w.sig, uint64(i))
		w.argPos = append(w.argPos, int32(i))
	}
	switch n.Op().Class() {
	case expr.ClassLeaf:
		t := n.Tensor()
		if n.Op() == expr.OpPlaceholder {
			t = nil
			for _, b := range binds {
				if b.node == n {
					t = b.t
				}
			}
		}
		same := uint64(w.firstLeaf(t))
		w.leafOf[len(w.leafOf)-1] = len(w.leaves)
		w.leaves = append(w.leaves, t)
		w.leafNodes = append(w.leafNodes, n)
		w.sig = append(w.sig, same)
		if t != nil {
			w.sig = append(w.sig, uint64(t.DType()))
			w.layout(t)
		} else {
			w.sig = append(w.sig, uint64(dtype.Invalid)) // unbound: planning fails
		}
	case expr.ClassShape, expr.ClassReduce, expr.ClassScan, expr.ClassIndex:
		ax, s0, s1, s2 := n.SliceArgs()
		w.sig = append(w.sig, uint64(ax), uint64(s0), uint64(s1), uint64(s2), uint64(len(n.Axes())))
		for _, a := range n.Axes() {
			w.sig = append(w.sig, uint64(a))
		}
		keep := uint64(0)
		if n.KeepDim() {
			keep = 1
		}
		w.sig = append(w.sig, keep)
		w.sig = expr.PieceKey(w.sig, n)
	case expr.ClassExternal:
		w.sig = append(w.sig, n.ExternalKey())
	case expr.ClassWindow:
		w.sig = append(w.sig, n.Window().Key()...)
	}
}

func (w *walker) layout(t tensor.Any) {
	w.sig = append(w.sig, uint64(len(t.Shape())), uint64(t.Offset()))
	for i, d := range t.Shape() {
		w.sig = append(w.sig, uint64(d), uint64(t.Strides()[i]))
	}
}

// hash is FNV-1a over the signature.
func (w *walker) hash() uint64 {
	h := uint64(14695981039346656037)
	for _, v := range w.sig {
		h ^= v
		h *= 1099511628211
	}
	return h
}

// firstLeaf returns the ordinal of the first leaf walked so far whose
// tensor is t, or the ordinal t's leaf is about to get.
func (w *walker) firstLeaf(t tensor.Any) int {
	if t == nil {
		return len(w.leaves)
	}
	if len(w.leaves) <= linearSearchMax {
		for i, l := range w.leaves {
			w.probes++
			if l == t {
				return i
			}
		}
		return len(w.leaves)
	}
	if w.sameLeaf == nil {
		w.sameLeaf = make(map[tensor.Any]int)
	}
	if len(w.sameLeaf) == 0 {
		for i := len(w.leaves) - 1; i >= 0; i-- { // the first ordinal wins
			if l := w.leaves[i]; l != nil {
				w.sameLeaf[l] = i
			}
		}
	}
	w.probes++
	if i, ok := w.sameLeaf[t]; ok {
		return i
	}
	w.sameLeaf[t] = len(w.leaves)
	return len(w.leaves)
}

// argsAt returns the walk positions of the operands of the node at
// position i.
func (w *walker) argsAt(i int) []int32 {
	s := w.argStart[i]
	return w.argPos[s : int(s)+len(w.nodes[i].Args())]
}

// leafOrdinal returns the position of leaf node n in the walk, or -1.
func (w *walker) leafOrdinal(n *expr.Node) int {
	if i, ok := w.lookup(n); ok {
		return w.leafOf[i]
	}
	return -1
}
