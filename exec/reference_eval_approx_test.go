package exec_test

import (
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/dtype"
)

// The reference evaluator's inexact values: what a float sum, mean,
// product, matmul or 1-ulp kernel is checked against, and within what bound.

// approx is what an inexact node's value is checked against: a value
// computed in float64 (or better) and the distance allowed from it. skip
// marks elements whose value the docs leave open (a sum whose partial sums
// may overflow).
type approx struct {
	want, bound []float64
	skip        []bool
}

// within reports whether got (a []float32 or []float64) matches a, and the
// first element that does not.
func (a *approx) within(got any) (int, bool) {
	var g []float64
	inf := math.Inf(1)
	big := math.MaxFloat64
	switch got := got.(type) {
	case []float64:
		g = got
	case []float32:
		g = castReal[float64](got)
		big = math.MaxFloat32
	}
	for i, w := range a.want {
		x := g[i]
		switch {
		case a.skip[i]:
		case w != w:
			if x == x {
				return i, false
			}
		case math.IsInf(w, 0) || math.Abs(w) > big:
			if x != math.Copysign(inf, w) && math.Abs(x-w) > a.bound[i] {
				return i, false
			}
		case !(math.Abs(x-w) <= a.bound[i]):
			return i, false
		}
	}
	return 0, true
}

func epsOf(dt dtype.DType) float64 {
	if dt == dtype.Float32 {
		return 0x1p-24
	}
	return 0x1p-53
}

// ulp returns the spacing of floats of type dt at x.
func ulp(dt dtype.DType, x float64) float64 {
	x = math.Abs(x)
	if dt == dtype.Float32 {
		f := float32(x)
		return float64(math.Nextafter32(f, float32(math.Inf(1))) - f)
	}
	return math.Nextafter(x, math.Inf(1)) - x
}

// sumApprox is the reference of a float sum: the exact class (NaN, ±Inf) or
// a compensated sum, with the error bound of any summation order,
// (n+1)·eps·Σ|x|.
func sumApprox(dt dtype.DType, xs []float64) (want, bound float64, skip bool) {
	var posInf, negInf, nan bool
	var s, c, abs float64
	for _, x := range xs {
		switch {
		case x != x:
			nan = true
		case math.IsInf(x, 1):
			posInf = true
		case math.IsInf(x, -1):
			negInf = true
		default:
			t := s + x
			if math.Abs(s) >= math.Abs(x) {
				c += (s - t) + x
			} else {
				c += (x - t) + s
			}
			s = t
			abs += math.Abs(x)
		}
	}
	switch {
	case nan || posInf && negInf:
		return math.NaN(), 0, false
	case posInf:
		return math.Inf(1), 0, false
	case negInf:
		return math.Inf(-1), 0, false
	}
	limit, tiny := 1e300, 1e-300 // tiny: products that underflow in T (matmul)
	if dt == dtype.Float32 {
		limit, tiny = 1e37, 1e-37
	}
	if abs > limit {
		return 0, 0, true
	}
	return s + c, float64(len(xs)+1) * (epsOf(dt)*abs + tiny), false
}

// prodApprox is the reference of a float product.
func prodApprox(dt dtype.DType, xs []float64) (want, bound float64, skip bool) {
	var nan, inf, zero bool
	big, small, p := 1.0, 1.0, 1.0
	for _, x := range xs {
		switch a := math.Abs(x); {
		case x != x:
			nan = true
		case math.IsInf(x, 0):
			inf = true
		case x == 0:
			zero = true
		case a > 1:
			big *= a
		default:
			small *= a
		}
		p *= x
	}
	switch {
	case nan || inf && zero:
		return math.NaN(), 0, false
	case inf || zero:
		return p, 0, false // ±Inf or ±0 (a ±0 compares equal to either zero)
	}
	hi, lo := 1e300, 1e-290
	if dt == dtype.Float32 {
		hi, lo = 1e37, 1e-36
	}
	if big > hi || small < lo {
		return 0, 0, true
	}
	return p, float64(2*len(xs)+2) * epsOf(dt) * math.Abs(p), false
}

func toF64(data any) []float64 {
	switch d := data.(type) {
	case []float64:
		return d
	case []float32:
		return castReal[float64](d)
	}
	panic(fmt.Sprintf("toF64 %T", data))
}

func fromF64(dt dtype.DType, v []float64) any {
	if dt == dtype.Float32 {
		return castReal[float32](v)
	}
	return v
}

// ulpApprox checks an elementwise result within k ulps of T of want.
func ulpApprox(dt dtype.DType, want []float64, k float64) *approx {
	ap := &approx{want: want, bound: make([]float64, len(want)), skip: make([]bool, len(want))}
	for i, w := range want {
		tiny := 1e-300 // below it (subnormal results) any small value will do
		if dt == dtype.Float32 {
			tiny = 1e-37
		}
		ap.bound[i] = max(k*ulp(dt, w), tiny)
	}
	return ap
}
