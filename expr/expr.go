package expr

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/goint"
	"github.com/tensorplay/tensorplay/tensor"
)

// Expr is a typed handle on a graph node whose values have element type T.
// Exprs are cheap values; methods build new nodes and never compute. The
// zero Expr is invalid (its Err is non-nil).
type Expr[T dtype.Elem] struct {
	n *Node
}

// Wrap returns the typed handle of n. It fails (the result carries an error)
// when n's dtype is not T's.
func Wrap[T dtype.Elem](n *Node) Expr[T] {
	if n == nil {
		return Expr[T]{errNode(OpInvalid, errZeroExpr)}
	}
	if n.err == nil && n.dt != dtype.Of[T]() {
		return Expr[T]{errNode(n.op, fmt.Errorf("expr: node is %s, not %s", n.dt, dtype.Of[T]()))}
	}
	return Expr[T]{n}
}

// nodeOf returns a's node; a nil a gives a node carrying a *tensor.ArgError.
func nodeOf(a Any) *Node {
	if a == nil {
		return errNode(OpInvalid, errZeroExpr)
	}
	return a.Node()
}

// Node returns the untyped node.
func (x Expr[T]) Node() *Node {
	if x.n == nil {
		return errNode(OpInvalid, errZeroExpr)
	}
	return x.n
}

// Err returns the first error met while building x, or nil.
func (x Expr[T]) Err() error { return x.Node().err }

// Shape returns x's shape (nil when x carries an error).
func (x Expr[T]) Shape() tensor.Shape { return x.Node().shape }

// DType returns the dtype of T.
func (x Expr[T]) DType() dtype.DType { return dtype.Of[T]() }

// Of makes a leaf of a tensor (any strided view). The graph reads the tensor
// when it is evaluated, not before: later writes to it are seen.
func Of[T dtype.Elem](t *tensor.Tensor[T]) Expr[T] {
	if t == nil {
		return Expr[T]{errNode(OpTensor, &tensor.ArgError{Op: "expr.Of", Reason: "tensor is nil"})}
	}
	if err := goIntErr[T](); err != nil {
		return Expr[T]{errNode(OpTensor, err)}
	}
	// A tensor's shape never changes, so the node shares it. A tensor of
	// Go's int or uint is read through a view typed int64 or uint64.
	n := mk(OpTensor, dtype.Of[T]())
	n.leaf = goint.Sized(t)
	setShape(n, t.Shape())
	return Expr[T]{n}
}

// From makes a leaf of the result of a tensor constructor, so that
// constructors chain without error checks: From(tensor.FromSlice(d, 2, 3)).
// A non-nil err becomes the expression's sticky error.
func From[T dtype.Elem](t *tensor.Tensor[T], err error) Expr[T] {
	if err != nil {
		return Expr[T]{errNode(OpTensor, err)}
	}
	return Of(t)
}

// Scalar makes a 0-d constant leaf. It broadcasts against any shape.
func Scalar[T dtype.Elem](v T) Expr[T] {
	if err := goIntErr[T](); err != nil {
		return Expr[T]{errNode(OpScalar, err)}
	}
	// The node and the value are one allocation, the tensor another.
	l := &scalarLeaf[T]{v: [1]T{v}}
	l.n.id, l.n.op, l.n.dt = nextID.Add(1), OpScalar, dtype.Of[T]()
	t, _ := tensor.FromSlice(l.v[:])
	l.n.leaf = goint.Sized(t)
	setShape(&l.n, tensor.Shape{})
	return Expr[T]{&l.n}
}

// scalarLeaf is a Scalar's node with the storage of its value.
type scalarLeaf[T dtype.Elem] struct {
	n Node
	v [1]T
}

// Placeholder makes a named leaf of the given shape whose tensor is supplied
// when the graph is evaluated (exec.Bind). Graphs can be built, checked and
// printed before any data exists.
func Placeholder[T dtype.Elem](name string, shape ...int) Expr[T] {
	if err := goIntErr[T](); err != nil {
		return Expr[T]{errNode(OpPlaceholder, err)}
	}
	n := mk(OpPlaceholder, dtype.Of[T]())
	n.name = name
	setShape(n, tensor.Shape(shape).Clone())
	return Expr[T]{n}
}

// checkAccepts returns a *DTypeError when op is not defined for d.
func checkAccepts(op Op, d dtype.DType) error {
	if opTable[op].accept&kindBit(d) != 0 {
		return nil
	}
	e := &DTypeError{Op: op, DType: d}
	switch {
	case op == OpDiv && d.IsInteger():
		e.Hint = "use DivTrunc, DivFloor or expr.TrueDiv"
	case op == OpAbs && d.IsComplex():
		e.Hint = "use expr.CAbs for the modulus"
	case opTable[op].accept&kFloat != 0 && d.IsInteger():
		e.Hint = "cast to a float type first with expr.Cast"
	}
	return e
}

func resultDType(op Op, d dtype.DType) dtype.DType {
	switch opTable[op].result {
	case boolDType:
		return dtype.Bool
	case realDType:
		return realOf(d)
	}
	return d
}
