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
	nodes     []*expr.Node
	stack     []walkFrame
	index     map[*expr.Node]int // for large graphs; small ones search nodes
	leaves    []tensor.Any       // the tensor of each leaf, in walk order
	leafNodes []*expr.Node
	sig       []uint64
}

type walkFrame struct {
	n   *expr.Node
	arg int
}

var walkers = sync.Pool{New: func() any { return new(walker) }}

const linearSearchMax = 32

func (w *walker) reset() {
	clear(w.nodes)
	clear(w.leaves)
	clear(w.leafNodes)
	w.nodes, w.leaves, w.leafNodes, w.sig, w.stack = w.nodes[:0], w.leaves[:0], w.leafNodes[:0], w.sig[:0], w.stack[:0]
	if w.index != nil {
		clear(w.index)
	}
}

func (w *walker) lookup(n *expr.Node) (int, bool) {
	if len(w.nodes) <= linearSearchMax {
		for i, m := range w.nodes {
			if m == n {
				return i, true
			}
		}
		return 0, false
	}
	if w.index == nil {
		w.index = make(map[*expr.Node]int)
	}
	if len(w.index) < len(w.nodes) {
		for i, m := range w.nodes {
			w.index[m] = i
		}
	}
	i, ok := w.index[n]
	return i, ok
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
				if _, ok := w.lookup(a); !ok && !w.onStack(a) {
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

func (w *walker) onStack(n *expr.Node) bool {
	for _, f := range w.stack {
		if f.n == n {
			return true
		}
	}
	return false
}

func (w *walker) visit(n *expr.Node, binds []Binding) {
	w.nodes = append(w.nodes, n)
	if w.index != nil {
		w.index[n] = len(w.nodes) - 1
	}
	args := n.Args()
	w.sig = append(w.sig, uint64(n.Op())<<56|uint64(n.DType())<<48|uint64(len(args))<<32|uint64(len(n.Shape())))
	for _, d := range n.Shape() {
		w.sig = append(w.sig, uint64(d))
	}
	for _, a := range args {
		i, _ := w.lookup(a)
		w.sig = append(w.sig, uint64(i))
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
		same := uint64(len(w.leaves))
		for i, l := range w.leaves {
			if t != nil && l == t {
				same = uint64(i)
				break
			}
		}
		w.leaves = append(w.leaves, t)
		w.leafNodes = append(w.leafNodes, n)
		w.sig = append(w.sig, same)
		if t != nil {
			w.sig = append(w.sig, uint64(t.DType()))
			w.layout(t)
		} else {
			w.sig = append(w.sig, uint64(dtype.Invalid)) // unbound: planning fails
		}
	case expr.ClassShape, expr.ClassReduce:
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

// leafOrdinal returns the position of leaf node n in the walk.
func (w *walker) leafOrdinal(n *expr.Node) int {
	for i, m := range w.leafNodes {
		if m == n {
			return i
		}
	}
	return -1
}
