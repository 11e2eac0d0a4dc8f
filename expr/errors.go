package expr

import (
	"errors"
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
)

var errZeroExpr = errors.New("expr: use of a zero Expr (build expressions with Of, Scalar or Placeholder)")

// DTypeError reports an op applied to a dtype it is not defined for.
type DTypeError struct {
	Op    Op
	DType dtype.DType
	Hint  string
}

func (e *DTypeError) Error() string {
	s := fmt.Sprintf("expr: %s is not defined for %s", e.Op, e.DType)
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// ShapeOpError reports a shape op (reshape, permute, expand, squeeze, slice,
// matmul, a reduction axis) whose arguments do not fit the operand's shape.
type ShapeOpError struct {
	Op     string
	Reason string
}

func (e *ShapeOpError) Error() string { return "expr: " + e.Op + ": " + e.Reason }
