package vmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// fma32Exact is a*b + c computed exactly with math/big and rounded once to
// float32 (to nearest, ties to even).
func fma32Exact(a, b, c float32) float32 {
	x := new(big.Float).SetPrec(0).SetFloat64(float64(a))
	x.SetPrec(200).Mul(x, new(big.Float).SetFloat64(float64(b)))
	x.Add(x, new(big.Float).SetFloat64(float64(c)))
	f, _ := x.Float32()
	return f
}

// TestFMA32 checks fma32 against the exactly rounded a*b + c: on the
// double-rounding cases (a*b a float32 midpoint, c a tiny push either
// way), on exp32's own operands, and on random operands of every scale.
func TestFMA32(t *testing.T) {
	one := float32(1)
	mid := float32(1 + 0x1p-12) // (1+2^-12)² = 1 + 2^-11 + 2^-24: a float32 midpoint
	cases := [][3]float32{
		{mid, mid, 0x1p-60}, {mid, mid, -0x1p-60}, {mid, mid, 0},
		{-mid, mid, 0x1p-60}, {mid, -mid, -0x1p-60},
		{one, one, 0x1p-25}, {one, one, -0x1p-26},
		{exp32InvLn2, 3.25, shift32}, {0x1p100, 0x1p100, -1}, {math.MaxFloat32, 2, -math.MaxFloat32},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		a := float32(r.NormFloat64()) * float32(math.Ldexp(1, r.IntN(40)-20))
		b := float32(r.NormFloat64()) * float32(math.Ldexp(1, r.IntN(40)-20))
		c := float32(r.NormFloat64()) * float32(math.Ldexp(1, r.IntN(80)-40))
		cases = append(cases, [3]float32{a, b, c})
	}
	bad := 0
	for _, c := range cases {
		got, want := fma32(c[0], c[1], c[2]), fma32Exact(c[0], c[1], c[2])
		if math.Float32bits(got) != math.Float32bits(want) && !(got != got && want != want) {
			if bad < 5 {
				t.Errorf("fma32(%g, %g, %g) = %g, want %g", c[0], c[1], c[2], got, want)
			}
			bad++
		}
	}
	assert.Zero(t, bad)
	// The naive double rounding gets the first two cases wrong: the test
	// would catch fma32 written as float32(math.FMA(…)) in float64.
	naive := float32(math.FMA(float64(mid), float64(mid), 0x1p-60))
	assert.NotEqual(t, fma32Exact(mid, mid, 0x1p-60), naive)
}
