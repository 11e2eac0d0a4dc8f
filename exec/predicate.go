package exec

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// Predicates are the unary ops from any element type to bool (isnan, isinf,
// isfinite, signbit, logical_not). Their kernels read the operand's type and
// write bools, as comparisons do, so they are looked up by the operand's
// dtype in predTable rather than by the result's in typedTable.

// isPredicate reports whether op is a unary op with a bool result.
func isPredicate(op expr.Op) bool {
	switch op {
	case expr.OpIsNaN, expr.OpIsInf, expr.OpIsFinite, expr.OpSignbit, expr.OpLogicalNot:
		return true
	}
	return false
}

// predicater builds the kernel call of a predicate reading one element type.
type predicater interface {
	predicateTo(op expr.Op, d *slot[bool], a slotAny) (func(n int), error)
}

type predImpl[T dtype.Elem] struct {
	look func(expr.Op) (func(d []bool, a []T), bool)
}

var predTable = map[dtype.DType]predicater{
	dtype.Bool:       predImpl[bool]{boolPredicate[bool]},
	dtype.Int8:       predImpl[int8]{integerPredicate[int8]},
	dtype.Int16:      predImpl[int16]{integerPredicate[int16]},
	dtype.Int32:      predImpl[int32]{integerPredicate[int32]},
	dtype.Int64:      predImpl[int64]{integerPredicate[int64]},
	dtype.Uint8:      predImpl[uint8]{integerPredicate[uint8]},
	dtype.Uint16:     predImpl[uint16]{integerPredicate[uint16]},
	dtype.Uint32:     predImpl[uint32]{integerPredicate[uint32]},
	dtype.Uint64:     predImpl[uint64]{integerPredicate[uint64]},
	dtype.Float32:    predImpl[float32]{floatPredicate[float32]},
	dtype.Float64:    predImpl[float64]{floatPredicate[float64]},
	dtype.Complex64:  predImpl[complex64]{complexPredicate[complex64]},
	dtype.Complex128: predImpl[complex128]{complexPredicate[complex128]},
}

// predicateInstr is the kernel call of predicate op on an operand of
// dtype argType, writing the bool slot d.
func predicateInstr(op expr.Op, d *slot[bool], a slotAny, argType dtype.DType) (func(n int), error) {
	p, ok := predTable[argType]
	if !ok {
		return nil, fmt.Errorf("exec: no %s kernel for %s", op, argType)
	}
	return p.predicateTo(op, d, a)
}

func (p predImpl[T]) predicateTo(op expr.Op, d *slot[bool], as slotAny) (func(n int), error) {
	f, ok := p.look(op)
	if !ok {
		return nil, fmt.Errorf("exec: no %s kernel for %s", op, dtype.Of[T]())
	}
	a := as.(*slot[T])
	if d.scalar {
		return func(int) {
			a.one[0] = a.s
			f(d.one[:], a.one[:])
			d.s = d.one[0]
		}, nil
	}
	return func(n int) { f(d.v[:n], a.v[:n]) }, nil
}
