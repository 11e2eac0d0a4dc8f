package expr

import (
	"sync/atomic"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Node is one operation in a graph. Nodes are immutable once built: every
// node knows its dtype and shape, or carries the error that made it invalid
// (the first error among its operands, or its own).
type Node struct {
	id      uint64
	op      Op
	dt      dtype.DType
	keepDim bool // reductions
	shape   tensor.Shape
	args    []*Node
	err     error
	abuf    [3]*Node // backing array of args, saving an allocation per node

	leaf tensor.Any // OpTensor, OpScalar
	name string     // OpPlaceholder, a parameter (Param)

	ext *nodeExt // what few nodes need: symbolic shapes, parameter and scope marks

	axes  []int     // reductions: sorted, non-negative; permute: the permutation; views: the encoded map
	slice sliceSpec // OpSlice, OpEmbed
}

type sliceSpec struct{ axis, start, stop, step int }

// nodeExt holds the rarely used parts of a node, so that the common node
// stays small.
type nodeExt struct {
	// dims is the shape when an extent is symbolic or unknown (shape then
	// holds -1 there); target is the shape a symbolic reshape or expand was
	// asked for (see symbolic.go).
	dims   Dims
	target Dims

	param bool // an OpTensor leaf made by Param

	// scope names the composite op this node is the root of; its members
	// are the nodes reachable from it without passing scopeIn (see Scope).
	scope   string
	scopeIn []*Node

	external *External // OpExternal: the computation
	window   *Window   // convolution and pooling (window.go)
	pieces   []Piece   // OpAssemble: where each operand's elements go (compose: issue 23)
}

// sym returns the node's symbolic shape, nil when the shape is concrete.
func (n *Node) sym() Dims {
	if n.ext == nil {
		return nil
	}
	return n.ext.dims
}

// extra returns n.ext, making it; only constructors call it, on nodes they
// have not yet returned.
func (n *Node) extra() *nodeExt {
	if n.ext == nil {
		n.ext = &nodeExt{}
	}
	return n.ext
}

var nextID atomic.Uint64

// newNode builds a node of op over args. When an operand carries an error the
// node carries the first such error and nothing else is checked.
func newNode(op Op, args ...*Node) (*Node, bool) {
	n := mk(op, dtype.Invalid)
	if len(args) <= len(n.abuf) {
		n.args = n.abuf[:copy(n.abuf[:], args)]
	} else {
		n.args = append([]*Node(nil), args...)
	}
	for _, a := range args {
		if a == nil {
			n.err = errZeroExpr
			return n, false
		}
		if a.err != nil {
			n.err = a.err
			return n, false
		}
	}
	return n, true
}

// setShape gives n its concrete shape. Every node gets its shape here (a
// symbolic node through setDims), so that every shape rule ends in this one
// check: a shape whose element count does not fit an int is a
// *tensor.ShapeError, and no node has one. A test holds the package to it.
func setShape(n *Node, s tensor.Shape) {
	if _, err := s.Numel(); err != nil {
		n.err, n.shape = err, nil
		return
	}
	n.shape = s
}

// errNode returns a node that carries err.
func errNode(op Op, err error) *Node {
	n := mk(op, dtype.Invalid)
	n.err = err
	return n
}

// mk returns a new node of op and dtype dt, numbered.
func mk(op Op, dt dtype.DType) *Node {
	n := new(Node)
	n.id, n.op, n.dt = nextID.Add(1), op, dt
	return n
}

// ID returns the node's unique id, increasing in creation order.
func (n *Node) ID() uint64 { return n.id }

// Op returns the node's operation.
func (n *Node) Op() Op { return n.op }

// DType returns the dtype of the node's values.
func (n *Node) DType() dtype.DType { return n.dt }

// Shape returns the node's shape; it must not be modified. An extent that
// is symbolic or unknown is -1 (see Dims).
func (n *Node) Shape() tensor.Shape { return n.shape }

// Dims returns the node's shape with its symbolic and unknown extents.
func (n *Node) Dims() Dims {
	if d := n.sym(); d != nil {
		return d
	}
	return dimsOfShape(n.shape)
}

// Symbolic reports whether an extent of the node's shape is symbolic or
// unknown. Such a graph can be built, checked and printed; it is evaluated
// after Specializer has given it concrete extents.
func (n *Node) Symbolic() bool { return n.sym() != nil }

// Args returns the node's operands; the slice must not be modified.
func (n *Node) Args() []*Node { return n.args }

// Err returns the error the node carries, if any.
func (n *Node) Err() error { return n.err }

// Tensor returns the tensor of an OpTensor or OpScalar leaf.
func (n *Node) Tensor() tensor.Any { return n.leaf }

// Name returns a placeholder's or a parameter's name.
func (n *Node) Name() string { return n.name }

// IsParam reports whether the node is a parameter leaf (see Param).
func (n *Node) IsParam() bool { return n.ext != nil && n.ext.param }

// Axes returns the reduced axes of a reduction (sorted, non-negative), the
// permutation of a permute, or a view's map encoded as integers (see
// ViewMap); it must not be modified.
func (n *Node) Axes() []int { return n.axes }

// KeepDim reports whether a reduction keeps its reduced axes with extent 1.
func (n *Node) KeepDim() bool { return n.keepDim }

// SliceArgs returns a slice node's axis, start, stop and step, normalised so
// that 0 <= start <= stop <= extent and step >= 1. For an embed node they
// are the slice of the result that holds the operand.
func (n *Node) SliceArgs() (axis, start, stop, step int) {
	s := n.slice
	return s.axis, s.start, s.stop, s.step
}

// Any is implemented by every Expr[T]: it gives the untyped node.
type Any interface {
	Node() *Node
}

// PostOrder returns every node reachable from roots, each once, operands
// before the nodes that use them (operands in order). It walks with a stack
// of its own, so a graph of any depth is walked.
func PostOrder(roots ...*Node) []*Node {
	seen := make(map[*Node]bool)
	var order []*Node
	type frame struct {
		n   *Node
		arg int
	}
	var stack []frame
	for _, r := range roots {
		if r == nil || seen[r] {
			continue
		}
		seen[r] = true
		stack = append(stack, frame{r, 0})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.arg < len(f.n.args) {
				a := f.n.args[f.arg]
				f.arg++
				if a != nil && !seen[a] {
					seen[a] = true
					stack = append(stack, frame{a, 0})
				}
				continue
			}
			order = append(order, f.n)
			stack = stack[:len(stack)-1]
		}
	}
	return order
}
