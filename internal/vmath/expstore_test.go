package vmath

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
)

// TestExpStoreSumLanes checks ExpStoreSumLanes against its definition,
// the subtract, Exp and SumLanes one after another: the same bits in d and
// in the lanes, for lengths around the vector loop's groups, with an
// argument off exp's fast path (or NaN) at the start, middle or end, or
// at the start and in the middle (the vector loop stopping and starting
// again), in place or not, with ahead nil, shorter than a, or as long.
// The vector loop runs for float32 on CPUs with AVX-512; elsewhere the
// function is its definition.
func TestExpStoreSumLanes(t *testing.T) {
	t.Run("float32", func(t *testing.T) { testExpStoreSumLanes[float32](t) })
	t.Run("float64", func(t *testing.T) { testExpStoreSumLanes[float64](t) })
}

func testExpStoreSumLanes[T dtype.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	specials := []T{T(math.NaN()), T(math.Inf(-1)), -200, 95}
	for _, n := range []int{0, 1, 7, 8, 15, 16, 17, 63, 64, 65, 100, 130, 1024, 2049} {
		for _, sp := range []int{-1, 0, n / 2, n - 1, -2} {
			for _, inPlace := range []bool{false, true} {
				aheadLen := []int{-1, n / 2, n}[r.IntN(3)]
				a := make([]T, n)
				for i := range a {
					a[i] = T(r.NormFloat64() * 3)
				}
				if sp >= 0 && sp < n {
					a[sp] = specials[r.IntN(len(specials))]
				}
				if sp == -2 && n > 0 { // two groups off the fast path
					a[0], a[n/2] = specials[r.IntN(len(specials))], specials[r.IntN(len(specials))]
				}
				k := T(1.5)
				want := make([]T, n)
				for i, x := range a {
					want[i] = x - k
				}
				Exp(want, want)
				wantLanes := [8]T{1, 2, 3, 4, 5, 6, 7, 8}
				SumLanes(&wantLanes, want)

				d := make([]T, n)
				src := a
				if inPlace {
					d = append([]T(nil), a...)
					src = d
				}
				var ahead []T
				if aheadLen >= 0 {
					ahead = make([]T, aheadLen)
				}
				lanes := [8]T{1, 2, 3, 4, 5, 6, 7, 8}
				ExpStoreSumLanes(&lanes, d, src, k, ahead)
				for i := range want {
					require.Equal(t, bitsOf(want[i]), bitsOf(d[i]), "d[%d] of %d (special at %d, in place %v)", i, n, sp, inPlace)
				}
				for l := range lanes {
					assert.Equal(t, bitsOf(wantLanes[l]), bitsOf(lanes[l]), "lane %d of %d (special at %d, in place %v)", l, n, sp, inPlace)
				}
			}
		}
	}
}

// bitsOf is v's bits, NaNs made one (the payload an add keeps is not pinned).
func bitsOf[T dtype.Float](v T) uint64 {
	if v != v {
		return math.MaxUint64
	}
	return math.Float64bits(float64(v))
}
