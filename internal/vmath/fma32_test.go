package vmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// fma32Exact is x*y + z rounded once to float32, by math/big: the product
// and sum exact at 200 bits, then one rounding to 24 (and the float32
// range: subnormals on their grid, overflow to ±Inf).
func fma32Exact(x, y, z float32) float32 {
	for _, v := range []float32{x, y, z} {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return float32(float64(x)*float64(y) + float64(z)) // Inf and NaN as IEEE 754 gives them
		}
	}
	xy := new(big.Float).SetPrec(200).Mul(big.NewFloat(float64(x)), big.NewFloat(float64(y)))
	s := new(big.Float).SetPrec(200).Add(xy, big.NewFloat(float64(z)))
	if s.Sign() == 0 {
		// The exact sum is zero: its sign is x*y's and z's when they agree,
		// else +0 (IEEE 754's rule for round to nearest).
		return float32(float64(x)*float64(y) + float64(z))
	}
	f, _ := s.Float32() // Float32 rounds to nearest even, with float32's subnormals and overflow
	return f
}

// TestFma32 checks fma32 against the exact reference: on random operands
// of every scale, on sums whose float64 rounding lands on a float32 tie
// (x*y a tie, z far below it, on either side), on results in float32's
// subnormal range, on zeros of either sign, and where float32 overflows.
func TestFma32(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	type trio struct{ x, y, z float32 }
	var cases []trio
	for range 20000 {
		cases = append(cases, trio{math.Float32frombits(r.Uint32()), math.Float32frombits(r.Uint32()), math.Float32frombits(r.Uint32())})
	}
	for range 20000 { // comparable scales: the usual case of a polynomial step
		f := func() float32 { return float32(r.NormFloat64()) }
		cases = append(cases, trio{f(), f(), f()})
	}
	// x*y a float32 tie, z too small to move the float64 sum off it: the
	// exact sum rounds to z's side, the float64 sum to the even neighbour.
	for _, xy := range [][2]float32{tieDown, tieUp} {
		for _, z := range []float32{0x1p-80, -0x1p-80, 0x1p-60, -0x1p-60, 0, 0x1p-149, -0x1p-149} {
			cases = append(cases, trio{xy[0], xy[1], z}, trio{-xy[0], xy[1], -z})
		}
	}
	for range 5000 { // ties made exact: x*y has 25 bits, z tiny
		x := float32(1 + float64(r.Uint32()>>20)*0x1p-12)
		y := float32(1 + float64(r.Uint32()>>20)*0x1p-12)
		z := float32(math.Ldexp(1, -60-r.IntN(80)))
		if r.IntN(2) == 0 {
			z = -z
		}
		cases = append(cases, trio{x, y, z})
	}
	for range 5000 { // results in and near the subnormal range
		x := float32(math.Ldexp(1+r.Float64(), -70-r.IntN(15)))
		y := float32(math.Ldexp(1+r.Float64(), -60-r.IntN(10)))
		z := float32(math.Ldexp(r.Float64()-0.5, -126-r.IntN(20)))
		cases = append(cases, trio{x, y, z})
	}
	max32 := float32(math.MaxFloat32)
	cases = append(cases,
		trio{0, 5, 0}, trio{0, 5, float32(math.Copysign(0, -1))}, trio{float32(math.Copysign(0, -1)), 5, float32(math.Copysign(0, -1))},
		trio{3, -2, 6}, trio{max32, 2, -max32}, trio{max32, 1, max32}, trio{0x1.fffffep63, 0x1p64, 0x1p103},
		trio{0x1.fffffep63, 0x1p64, 0x1p103 - 0x1p80}, trio{float32(math.Inf(1)), 1, 1}, trio{float32(math.NaN()), 1, 1},
		trio{float32(math.Inf(1)), 0, 1}, trio{float32(math.Inf(1)), 1, float32(math.Inf(-1))})
	hard := 0
	for _, c := range cases {
		got, want := fma32(c.x, c.y, c.z), fma32Exact(c.x, c.y, c.z)
		fast, h := fma32Fast(c.x, c.y, c.z)
		if h {
			hard++
		}
		if math.IsNaN(float64(want)) || math.IsNaN(float64(c.x*c.y+c.z)) {
			assert.True(t, math.IsNaN(float64(got)), "fma32(%v, %v, %v) = %v, want NaN", c.x, c.y, c.z, got)
			assert.True(t, h || math.IsNaN(float64(fast)), "fma32Fast(%v, %v, %v) = %v, want NaN", c.x, c.y, c.z, fast)
			continue
		}
		if !assert.Equal(t, math.Float32bits(want), math.Float32bits(got), "fma32(%x, %x, %x) = %x, want %x", c.x, c.y, c.z, got, want) {
			return
		}
		// fma32Fast is fma32 wherever it does not say it may differ.
		if !h && !assert.Equal(t, math.Float32bits(want), math.Float32bits(fast), "fma32Fast(%x, %x, %x) = %x, want %x", c.x, c.y, c.z, fast, want) {
			return
		}
	}
	assert.Positive(t, hard, "no case fma32Fast leaves to fma32")
}

// Products that are float32 ties: (1+2^-12)² = 1 + 2^-11 + 2^-24, whose
// even neighbour is below it, and (1+2^-12)(1+3·2^-12) = 1 + 2^-10 + 2^-23
// + 2^-24, whose even neighbour is above it.
var (
	tieDown = [2]float32{1 + 0x1p-12, 1 + 0x1p-12}
	tieUp   = [2]float32{1 + 0x1p-12, 1 + 0x3p-12}
)

// TestFma32DoubleRounding checks that the tie cases are real: the float64
// sum rounded again to float32 gets them wrong, and fma32 does not.
func TestFma32DoubleRounding(t *testing.T) {
	for _, c := range []struct {
		xy [2]float32
		z  float32
	}{{tieDown, 0x1p-80}, {tieUp, -0x1p-80}} {
		x, y := c.xy[0], c.xy[1]
		naive := float32(float64(x)*float64(y) + float64(c.z))
		want := fma32Exact(x, y, c.z)
		assert.NotEqual(t, want, naive, "%v*%v%+v: the float64 sum rounded again", x, y, c.z)
		assert.Equal(t, want, fma32(x, y, c.z), "%v*%v%+v", x, y, c.z)
	}
}
