package vmath

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkLeaves checks SumLeaves and SqDevLeaves against their definition,
// one leaf at a time through the Go loops: the same bits, for runs of
// whole leaves (the vector loops' eight or four side by side) and a
// short last leaf, with a special value dropped in.
func checkLeaves[T float32 | float64](t *testing.T, goFn func(f foldKind, s *[8]T, a []T, k T), special []T, bits func(T) uint64) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{0, 1, 8, 127, 128, 129, 511, 512, 513, 1023, 1024, 1025, 2*1024 + 77, 3 * 1024} {
		for _, sp := range []int{-1, 0, n / 2, n - 1} {
			xs := make([]T, n)
			for i := range xs {
				xs[i] = T(4*r.Float64() - 3)
			}
			if sp >= 0 && sp < n {
				xs[sp] = special[r.IntN(len(special))]
			}
			const k = 0.375
			leaves := (n + LeafLen - 1) / LeafLen
			sum, sq, ex := make([]T, leaves), make([]T, leaves), make([]T, leaves)
			SumLeaves(sum, xs)
			SqDevLeaves(sq, xs, k)
			ExpSumLeaves(ex, xs, 1)
			// The prefetching form, with nothing, a short run and a whole
			// block ahead: hints only, the same bits.
			for _, ahead := range [][]T{nil, xs[:min(n, 5)], make([]T, 8*LeafLen)} {
				exA := make([]T, leaves)
				ExpSumLeavesAhead(exA, xs, 1, ahead)
				for j := range exA {
					if ex[j] == ex[j] || exA[j] == exA[j] {
						require.Equal(t, bits(ex[j]), bits(exA[j]), "ahead %d: leaf %d of %d elements, special at %d", len(ahead), j, n, sp)
					}
				}
			}
			for j := range leaves {
				leaf := xs[j*LeafLen : min((j+1)*LeafLen, n)]
				var s, q, e [8]T
				goFn(foldSum, &s, leaf, 0)
				goFn(foldSqDev, &q, leaf, k)
				goFn(foldExpSum, &e, leaf, 1)
				for _, c := range []struct {
					name      string
					want, got T
				}{{"sum", LanesTotal(&s), sum[j]}, {"sqdev", LanesTotal(&q), sq[j]}, {"expsum", LanesTotal(&e), ex[j]}} {
					if c.want != c.want && c.got != c.got {
						continue // NaN payloads are left open
					}
					require.Equal(t, bits(c.want), bits(c.got), "%s of leaf %d of %d elements, special at %d", c.name, j, n, sp)
				}
			}
		}
	}
}

func TestLeaves32(t *testing.T) {
	checkLeaves(t, lanes32Go, special32(), func(x float32) uint64 { return uint64(math.Float32bits(x)) })
}

func TestLeaves64(t *testing.T) {
	checkLeaves(t, lanes64Go, special64(), math.Float64bits)
}

// TestLeavesValues checks the leaf totals against plain sums on values
// whose sums are exact.
func TestLeavesValues(t *testing.T) {
	xs := make([]float64, 300)
	for i := range xs {
		xs[i] = float64(i % 10)
	}
	sum, sq := make([]float64, 3), make([]float64, 3)
	SumLeaves(sum, xs)
	SqDevLeaves(sq, xs, 1)
	want := func(lo, hi int, f func(x float64) float64) float64 {
		s := 0.0
		for _, x := range xs[lo:hi] {
			s += f(x)
		}
		return s
	}
	id := func(x float64) float64 { return x }
	dev := func(x float64) float64 { return (x - 1) * (x - 1) }
	assert.Equal(t, []float64{want(0, 128, id), want(128, 256, id), want(256, 300, id)}, sum)
	assert.Equal(t, []float64{want(0, 128, dev), want(128, 256, dev), want(256, 300, dev)}, sq)
	// The lanes start from +0: leaves of -0s total +0, as the Go loop's
	// do (a vector loop that started its lanes from the first elements
	// would give -0).
	negZero := make([]float64, 9*LeafLen)
	for i := range negZero {
		negZero[i] = math.Copysign(0, -1)
	}
	zeros := make([]float64, 9)
	SumLeaves(zeros, negZero)
	for j, v := range zeros {
		assert.False(t, math.Signbit(v), "leaf %d of -0s", j)
	}
	f := make([]float32, 1024)
	for i := range f {
		f[i] = 1
	}
	t32 := make([]float32, 8)
	SumLeaves(t32, f)
	assert.Equal(t, []float32{128, 128, 128, 128, 128, 128, 128, 128}, t32)
}
