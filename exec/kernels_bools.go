package exec

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
)

// The AVX2 loops with bools on one side: comparisons of float32, float64,
// int64 and int32 (a one-hot mask, labels == classes, is one), where over
// the floats, and the cast of bools to a float (a mask used as weights).
// They compute what the Go loops compute, bit for bit; where they are
// missing the lookups fall through to the Go loops.

var simdCmpOps = map[expr.Op]simd.CmpOp{
	expr.OpEq: simd.Eq,
	expr.OpNe: simd.Ne,
	expr.OpLt: simd.Lt,
	expr.OpLe: simd.Le,
	expr.OpGt: simd.Gt,
	expr.OpGe: simd.Ge,
}

// withSIMDCompare puts the AVX2 comparison loops in front of m's.
func withSIMDCompare[T interface {
	dtype.Elem
	simd.CmpElem
}](m *impl[T]) *impl[T] {
	lookup := func(o simd.CmpOp) (cmpFns[T], bool) {
		k, ok := simd.CompareOf[T](o)
		return cmpFns[T]{vv: k.VV, vs: k.VS, sv: k.SV}, ok
	}
	m.cmp = firstOf(viaSIMD(simdCmpOps, lookup), m.cmp)
	return m
}

// whereFns are where's loops for one element type: both operands vectors,
// the second a scalar, the first a scalar.
type whereFns[T any] struct {
	vv func(d []T, c []bool, a, b []T)
	vs func(d []T, c []bool, a []T, s T)
	sv func(d []T, c []bool, s T, b []T)
}

// simdWhere returns the AVX2 where loops for T: float32 and float64 where
// the loops are on.
func simdWhere[T any]() (whereFns[T], bool) {
	var w any
	var ok bool
	switch any(*new(T)).(type) {
	case float64:
		var k simd.Where[float64]
		k, ok = simd.WhereOf[float64]()
		w = whereFns[float64]{k.VV, k.VS, k.SV}
	case float32:
		var k simd.Where[float32]
		k, ok = simd.WhereOf[float32]()
		w = whereFns[float32]{k.VV, k.VS, k.SV}
	}
	f, _ := w.(whereFns[T])
	return f, ok
}

// directBools casts bools to float32 or float64 in one step (by the AVX2
// loop where it is on), not through the float64 buffer.
func directBools(d, a any) bool {
	c, ok := a.(*[]bool)
	if !ok {
		return false
	}
	switch d := d.(type) {
	case *[]float64:
		if f, ok := simd.BoolsTo[float64](); ok {
			f(*d, *c)
		} else {
			boolsTo(*d, *c)
		}
		return true
	case *[]float32:
		if f, ok := simd.BoolsTo[float32](); ok {
			f(*d, *c)
		} else {
			boolsTo(*d, *c)
		}
		return true
	}
	return false
}
