package expr

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/goint"
	"github.com/tensorplay/tensorplay/tensor"
)

// errZeroExpr is the error of a zero Expr, a nil node or a nil Any.
var errZeroExpr = &tensor.ArgError{Op: "expr", Reason: "use of a zero Expr (build expressions with Of, Scalar or Placeholder)"}

// firstErr returns a node of op carrying the first error among the
// operands ns, or nil when every operand is valid.
func firstErr(op Op, ns ...*Node) *Node {
	for _, n := range ns {
		if n.err != nil {
			return errNode(op, n.err)
		}
	}
	return nil
}

// DTypeError reports an op applied to a dtype it is not defined for.
type DTypeError struct {
	Op    Op
	DType dtype.DType
	Hint  string
}

// Error returns the message.
func (e *DTypeError) Error() string {
	s := fmt.Sprintf("expr: %s is not defined for %s", e.Op, e.DType)
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// GoIntError reports a leaf of Go's int or uint on a platform where they
// are not 64 bits wide: expressions and the executor work on the sized
// types, and there int and uint read as int64 and uint64 (their dtypes), a
// view of the same storage (see internal/goint). Elsewhere such a tensor is
// refused rather than read as another type.
type GoIntError struct {
	Type string // "int" or "uint"
}

// Error returns the message.
func (e *GoIntError) Error() string {
	return fmt.Sprintf("expr: tensors of Go's %s are not supported on this platform: use %s64 (tensor.Tensor[%s64])", e.Type, e.Type, e.Type)
}

// goIntErr returns a *GoIntError when T is int or uint and they are not
// 64 bits wide.
func goIntErr[T dtype.Elem]() error {
	if goint.Supported {
		return nil
	}
	switch any(*new(T)).(type) {
	case int:
		return &GoIntError{Type: "int"}
	case uint:
		return &GoIntError{Type: "uint"}
	}
	return nil
}

// ShapeOpError reports a shape op (reshape, permute, expand, squeeze, slice,
// matmul, a reduction axis) whose arguments do not fit the operand's shape.
type ShapeOpError struct {
	Op     string
	Reason string
}

// Error returns the message.
func (e *ShapeOpError) Error() string { return "expr: " + e.Op + ": " + e.Reason }

// RestrictedRankError reports a broadcast of a restricted dtype (complex64,
// complex128, float64, int16, uint16, uint64) whose merged rank is 6 or more.
// compat.SetRestrictedRank(false) lifts the rule.
type RestrictedRankError struct {
	DType  dtype.DType
	A, B   tensor.Shape
	Cond   tensor.Shape // Where's condition; nil for a binary op
	Merged tensor.Shape
}

// Error returns the message.
func (e *RestrictedRankError) Error() string {
	with := ""
	if e.Cond != nil {
		with = fmt.Sprintf(" under a condition of shape %v", e.Cond)
	}
	return fmt.Sprintf("expr: broadcasting %s tensors of shapes %v and %v%s merges to rank %d (%v); %s broadcasts must merge to fewer than %d dimensions",
		e.DType, e.A, e.B, with, len(e.Merged), e.Merged, e.DType, MaxRestrictedRank)
}

// IntegerPowerError reports an integer raised to a negative integer power,
// which NumPy refuses (the result is not an integer).
type IntegerPowerError struct {
	DType dtype.DType
}

// Error returns NumPy's message, naming the dtype.
func (e *IntegerPowerError) Error() string {
	return fmt.Sprintf("expr: pow of %s: Integers to negative integer powers are not allowed.", e.DType)
}
