package vmath

import "math"

// exp32 computes e**x in float32 arithmetic, in the lanes of eight or
// sixteen and in Go alike: with k = round(x/ln2), x = k*ln2 + rhi + rlo,
// where rhi = x - k*ln2hi is exact (ln2hi has 16 bits and |k| < 2^8) and
// rlo = -k*ln2lo, and e**x = 2^k * (1 + (rhi + (rlo + r²P(r)))) with the
// minimax P of Cephes' expf, evaluated by fused multiply-adds. Keeping rhi
// out of the rounded sums leaves 0.5 ulp from the last addition and under
// 0.35 ulp from the rest (TestAccuracy32 measures the worst case). The Go
// code computes each fused multiply-add with fma32 and rounds every other
// product on its own (a conversion to float32, so that no compiler fuses
// it): the vector loops (exp32AVX2, exp32AVX512) do the same operations
// in the same order and get the same bits.
const (
	exp32InvLn2 = float32(0x1.715476p+00)
	exp32Ln2Hi  = float32(0x1.62e4p-01)
	exp32Ln2Lo  = float32(0x1.7f7d1cp-20)
	shift32     = float32(0x1.8p23) // adding it rounds to an integer, left in the low bits

	exp32P0 = float32(1.9875691500e-4)
	exp32P1 = float32(1.3981999507e-3)
	exp32P2 = float32(8.3334519073e-3)
	exp32P3 = float32(4.1665795894e-2)
	exp32P4 = float32(1.6666665459e-1)
	exp32P5 = float32(5.0000001201e-1)

	// exp32Fast bounds the fast path, |x| < 86.5: 2^k*(1+...) is then a
	// normal float32.
	exp32Fast = float32(86.5)
)

// exp32Go is the Go loop of float32 exp.
func exp32Go(d, a []float32) {
	a = a[:len(d)]
	for i, x := range a {
		if !(abs32(x) < exp32Fast) {
			d[i] = float32(math.Exp(float64(x))) // large, ±Inf or NaN
			continue
		}
		d[i] = exp32Fast1(x)
	}
}

// exp32Fast1 is the fast path of exp32 for |x| < exp32Fast: exp32Exact's
// operations with each fma32 taken as fma32Fast, inlined, and exp32Exact
// itself where one of those may differ from fma32 (a float64 sum on a
// float32 tie or below float32's normal range, which random arguments
// almost never give). Each fma32, a call, had made the Go loop take 34 ns
// an element (BenchmarkFloat32, exp/go).
func exp32Fast1(x float32) float32 {
	kd, h0 := fma32Fast(x, exp32InvLn2, shift32)
	ki := math.Float32bits(kd)
	kd -= shift32
	rhi := x - float32(kd*exp32Ln2Hi)
	rlo := float32(kd * -exp32Ln2Lo)
	r := rhi + rlo
	z := float32(r * r)
	p, h1 := fma32Fast(exp32P0, r, exp32P1)
	p, h2 := fma32Fast(p, r, exp32P2)
	p, h3 := fma32Fast(p, r, exp32P3)
	p, h4 := fma32Fast(p, r, exp32P4)
	p, h5 := fma32Fast(p, r, exp32P5)
	q, h6 := fma32Fast(p, z, rlo)
	if h0 || h1 || h2 || h3 || h4 || h5 || h6 {
		return exp32Exact(x)
	}
	y := 1 + (rhi + q)
	return math.Float32frombits(math.Float32bits(y) + ki<<23)
}

// exp32Exact is exp32's fast path as the vector loops compute it, each
// fused multiply-add by fma32.
func exp32Exact(x float32) float32 {
	kd := fma32(x, exp32InvLn2, shift32)
	ki := math.Float32bits(kd)
	kd -= shift32
	rhi := x - float32(kd*exp32Ln2Hi) // the product is exact: a fused x - kd*ln2hi
	rlo := float32(kd * -exp32Ln2Lo)
	r := rhi + rlo
	z := float32(r * r)
	p := fma32(exp32P0, r, exp32P1)
	p = fma32(p, r, exp32P2)
	p = fma32(p, r, exp32P3)
	p = fma32(p, r, exp32P4)
	p = fma32(p, r, exp32P5)
	y := 1 + (rhi + fma32(p, z, rlo))
	return math.Float32frombits(math.Float32bits(y) + ki<<23)
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }
