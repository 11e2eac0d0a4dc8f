package vmath

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

var exhaustive = flag.Bool("vmath.exhaustive", false, "check the float32 kernels on every float32 of their fast paths' ranges (minutes)")

// err32 is |got - ref| in units of the float32 ulp at ref: below 1 when
// got is one of the two float32 neighbours of ref (faithful), at most 0.5
// when it is ref correctly rounded.
func err32(got float32, ref float64) float64 {
	if math.IsNaN(ref) {
		if math.IsNaN(float64(got)) {
			return 0
		}
		return math.Inf(1)
	}
	if math.IsInf(ref, 0) || math.IsInf(float64(got), 0) {
		if got == float32(ref) {
			return 0
		}
		return math.Inf(1)
	}
	_, e := math.Frexp(ref)
	ulp := math.Ldexp(1, max(e-24, -149))
	return math.Abs(float64(got)-ref) / ulp
}

// f32Case is a float32 kernel and its float64 reference (the math
// package's, whose error is a few 2^-29 of a float32 ulp).
type f32Case struct {
	name string
	fn   func(d, a []float32)
	ref  func(float64) float64
	// bound is the largest error, in ulp, the tests allow; lo, hi the range of
	// the random arguments.
	bound  float64
	lo, hi float64
}

var f32Cases = []f32Case{
	{"exp", Exp[float32], math.Exp, 1, -88, 88},
	{"log", Log[float32], math.Log, 1, 0, 100},
	{"sin", Sin[float32], math.Sin, 1, -6000, 6000},
	{"cos", Cos[float32], math.Cos, 1, -6000, 6000},
	{"tanh", Tanh[float32], math.Tanh, 1.5, -10, 10},
	{"sigmoid", Sigmoid[float32], func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }, 2.5, -20, 20},
}

// special32 are arguments every float32 kernel is checked on.
func special32() []float32 {
	inf := float32(math.Inf(1))
	xs := []float32{0, float32(math.Copysign(0, -1)), inf, -inf, float32(math.NaN()),
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 0x1p-126, 0x1.fffffep-127, -0x1p-126,
		math.MaxFloat32, -math.MaxFloat32, 1, -1, 0.5, 2, 1e-7, -1e-7, 1e-20, 1e-38,
		86.4, 86.5, -86.4, -86.5, 88.72, 88.73, -87.33, -103.9, -104, 5999, 6000, -6001, 1e5, 1e10, 1e30,
		math.Pi / 2, math.Pi, 3 * math.Pi / 2, 0.7071067, 0.7071068, 1.4142135, 1.4142137}
	return xs
}

// TestAccuracy32 checks every float32 kernel against its float64 reference
// on random arguments in and beyond its fast path and on special ones.
func TestAccuracy32(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, c := range f32Cases {
		t.Run(c.name, func(t *testing.T) {
			xs := special32()
			for range 20000 {
				xs = append(xs, float32(c.lo+(c.hi-c.lo)*r.Float64()))
			}
			for range 2000 { // every scale
				xs = append(xs, math.Float32frombits(r.Uint32()))
			}
			got := make([]float32, len(xs))
			c.fn(got, xs)
			worst := 0.0
			for i, x := range xs {
				e := err32(got[i], c.ref(float64(x)))
				worst = max(worst, e)
				if !assert.LessOrEqual(t, e, c.bound, "%s(%v) = %v, want %v", c.name, x, got[i], c.ref(float64(x))) {
					return
				}
			}
			t.Logf("worst error %.3f ulp over %d arguments", worst, len(xs))
		})
	}
}

// sweep32 calls f on the float32s of bits lo, lo+stride, ... below hi, of
// either sign, in batches of up to 65536.
func sweep32(lo, hi, stride uint32, f func(xs []float32)) {
	xs := make([]float32, 0, 1<<16)
	for sign := uint32(0); sign < 2; sign++ {
		for b := lo; b < hi; b += stride {
			if xs = append(xs, math.Float32frombits(b|sign<<31)); len(xs) == cap(xs) {
				f(xs)
				xs = xs[:0]
			}
		}
		f(xs)
		xs = xs[:0]
	}
}

// TestExhaustive32 checks the float32 kernels on every 16th float32 of
// their fast paths' ranges and on every float32 of [1024, 6000) for sin and
// cos, where the reduction is hardest (with -vmath.exhaustive; a minute).
func TestExhaustive32(t *testing.T) {
	if !*exhaustive {
		t.Skip("with -vmath.exhaustive")
	}
	for _, c := range f32Cases {
		t.Run(c.name, func(t *testing.T) {
			top := math.Float32bits(float32(max(math.Abs(c.lo), math.Abs(c.hi))))
			worst, at := 0.0, float32(0)
			sweep := func(lo, hi, stride uint32) {
				got := make([]float32, 1<<16)
				sweep32(lo, hi, stride, func(xs []float32) {
					c.fn(got[:len(xs)], xs)
					for i, x := range xs {
						if e := err32(got[i], c.ref(float64(x))); e > worst {
							worst, at = e, x
						}
					}
				})
			}
			sweep(0, top, 16)
			if c.name == "sin" || c.name == "cos" {
				sweep(math.Float32bits(1024), top, 1)
			}
			t.Logf("worst error %.3f ulp at %v", worst, at)
			assert.LessOrEqual(t, worst, c.bound)
		})
	}
}
