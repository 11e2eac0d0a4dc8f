package vmath

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkMax checks Max against a Go loop for lengths around the vector
// loop's groups (16) and sets (64), with a special value at the start, in
// the middle or at the end: the same maximum, NaN when a NaN is in a, and
// of ±0 either.
func checkMax[T float32 | float64](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	nan, inf := T(math.NaN()), T(math.Inf(1))
	specials := []T{nan, inf, -inf, 0, T(math.Copysign(0, -1)), 1e30}
	for _, n := range []int{0, 1, 15, 16, 17, 63, 64, 65, 127, 1023, 1024, 1025, 3000} {
		for _, sp := range append([]T{2}, specials...) {
			for _, at := range []int{0, n / 2, n - 1} {
				xs := make([]T, n)
				for i := range xs {
					xs[i] = T(4*r.Float64() - 3)
				}
				if sp != 2 && n > 0 {
					xs[at] = sp
				}
				want := -inf
				for _, x := range xs {
					want = max(want, x)
				}
				got := Max(xs)
				if want != want {
					assert.True(t, got != got, "n %d, %v at %d: %v is not NaN", n, sp, at, got)
					continue
				}
				require.Equal(t, want, got, "n %d, %v at %d", n, sp, at) // +0 == -0: either
			}
		}
	}
	assert.Equal(t, -inf, Max[T](nil), "the maximum of nothing")
	allNeg := make([]T, 100)
	for i := range allNeg {
		allNeg[i] = -inf
	}
	assert.Equal(t, -inf, Max(allNeg))
}

func TestMax32(t *testing.T) { checkMax[float32](t) }

func TestMax64(t *testing.T) { checkMax[float64](t) }
