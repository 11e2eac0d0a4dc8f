package exec

import (
	"gonum.org/v1/gonum/floats"

	"github.com/tensorplay/tensorplay/expr"
)

// float64Binary returns float64 kernels built on gonum's floats package,
// whose loops are SSE2 assembly on amd64 (two to three times the speed of a
// Go loop on data in cache). Where internal/simd's AVX2 loops are
// available they come first (see withSIMD) and these are not used. Only
// exact rewrites are used: s+t is 1*s+t, s-t is -1*t+s and s*c a scaling,
// all bit-identical to the plain operations. The other ops and variants fall through to the generic kernels
// (adding a scalar would take gonum two passes, a copy and AddConst, which
// loses to one Go loop once the block leaves L1).
func float64Binary(op expr.Op) (binFns[float64], bool) {
	g, _ := numericBinary[float64](op)
	switch op {
	case expr.OpAdd:
		g.vv = func(d, a, b []float64) { floats.AddTo(d, a, b) }
	case expr.OpSub:
		g.vv = func(d, a, b []float64) { floats.SubTo(d, a, b) }
	case expr.OpMul:
		g.vs = func(d, a []float64, s float64) { floats.ScaleTo(d, s, a) }
		g.sv = func(d []float64, s float64, b []float64) { floats.ScaleTo(d, s, b) }
	case expr.OpDiv:
		g, _ = inexactBinary[float64](op)
		g.vv = func(d, a, b []float64) { floats.DivTo(d, a, b) }
	default:
		return binFns[float64]{}, false
	}
	return g, true
}

func float64Impl() *impl[float64] {
	m := floatImpl[float64]()
	m.bin = firstOf(float64Binary, m.bin)
	m.unfused = divUnfused
	return m
}

// divUnfused keeps divisions out of fused pairs: gonum's DivTo divides two
// lanes at a time, which beats one loop doing both ops with scalar divides.
// (The AVX2 loops fuse divisions too, four lanes at a time: see withSIMD.)
func divUnfused(outer, _ expr.Op) bool { return outer == expr.OpDiv }
