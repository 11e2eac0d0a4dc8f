package simd_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/internal/simd"
)

// truncRef and floorRef are the reference divisions, taken in int64 and
// wrapped back to int32 (so MinInt32 / -1 is MinInt32, as in Go), with 0
// for a zero divisor.
func truncRef(x, y int32) int32 {
	if y == 0 {
		return 0
	}
	return int32(int64(x) / int64(y))
}

func floorRef(x, y int32) int32 {
	if y == 0 {
		return 0
	}
	n, d := int64(x), int64(y)
	q, r := n/d, n%d
	if r != 0 && (r < 0) != (d < 0) {
		q--
	}
	return int32(q)
}

// divOperands are the values the tests divide: the edges of int32, zero,
// small values of both signs, values near multiples of each other, and
// random ones of every magnitude.
func divOperands(r *rand.Rand, n int) []int32 {
	v := []int32{0, 1, -1, 2, -2, 3, -3, 7, -7, math.MaxInt32, math.MinInt32, math.MaxInt32 - 1,
		math.MinInt32 + 1, 1 << 30, -1 << 30, 46341, -46341, 65536, -65536, 99999, -100000}
	for len(v) < n {
		switch r.IntN(3) {
		case 0:
			v = append(v, int32(r.Uint32()))
		case 1:
			v = append(v, int32(r.Uint32())>>r.IntN(31))
		default:
			v = append(v, int32(r.IntN(41)-20))
		}
	}
	return v[:n]
}

func TestIntDiv(t *testing.T) {
	for _, floor := range []bool{false, true} {
		ref := truncRef
		name := "trunc"
		if floor {
			ref, name = floorRef, "floor"
		}
		t.Run(name, func(t *testing.T) {
			k, ok := simd.IntDivOf[int32](floor)
			if !simd.Enabled {
				require.False(t, ok)
				t.Skip("no AVX2 loops")
			}
			require.True(t, ok)
			r := rand.New(rand.NewPCG(1, 2))
			xs, ys := divOperands(r, 4096), divOperands(r, 4096)
			r.Shuffle(len(ys), func(i, j int) { ys[i], ys[j] = ys[j], ys[i] })
			// Every pair of the edge values, then random pairs, at every
			// length up to 37 and offset up to 3 (whole vectors of 8 and 4
			// and the scalar rest).
			for i := range 21 {
				for j := range 21 {
					xs = append(xs, xs[i])
					ys = append(ys, ys[j])
				}
			}
			d := make([]int32, len(xs))
			k.VV(d, xs, ys)
			for i := range d {
				require.Equal(t, ref(xs[i], ys[i]), d[i], "%d %s %d", xs[i], name, ys[i])
			}
			for n := range 38 {
				for off := range 4 {
					d := make([]int32, n)
					k.VV(d, xs[off:], ys[off+n:])
					for i := range d {
						require.Equal(t, ref(xs[off+i], ys[off+n+i]), d[i], "VV length %d offset %d element %d", n, off, i)
					}
				}
			}
			// Vector and scalar operands: the scalars include 0, ±1 and the
			// edges; the vector zeros, -1 and the edges too.
			vec := append([]int32{0, -1, 1, 0, math.MinInt32, math.MaxInt32, 0, 3}, ys[100:129]...)
			for _, s := range xs[:64] {
				d := make([]int32, len(vec))
				k.VS(d, vec, s)
				for i := range d {
					require.Equal(t, ref(vec[i], s), d[i], "VS %d %s %d", vec[i], name, s)
				}
				k.SV(d, s, vec)
				for i := range d {
					require.Equal(t, ref(s, vec[i]), d[i], "SV %d %s %d", s, name, vec[i])
				}
			}
		})
	}
}

// TestIntDivLeavesNeighbours: the loops write d and nothing around it, at
// every length up to 40 and every offset in a cache line.
func TestIntDivLeavesNeighbours(t *testing.T) {
	const canary = 0x5a5a5a5a
	x, y := make([]int32, 64), make([]int32, 64)
	for i := range x {
		x[i], y[i] = int32(i*7919-100), int32(i%5-2)
	}
	buf := make([]int32, 128)
	for _, floor := range []bool{false, true} {
		k, ok := simd.IntDivOf[int32](floor)
		if !ok {
			t.Skip("no AVX2 loops")
		}
		for n := 0; n <= 40; n++ {
			for off := range 8 {
				for i := range buf {
					buf[i] = canary
				}
				d := buf[16+off : 16+off+n]
				k.VV(d, x, y)
				k.VS(d, x, 3)
				k.SV(d, 9, y)
				for i, v := range buf {
					if i < 16+off || i >= 16+off+n {
						require.Equal(t, int32(canary), v, "n=%d off=%d wrote buf[%d]", n, off, i)
					}
				}
			}
		}
	}
}

// TestIntDivOnlyInt32: the other integer types have no division loops.
func TestIntDivOnlyInt32(t *testing.T) {
	_, ok := simd.IntDivOf[int64](false)
	assert.False(t, ok)
	_, ok = simd.IntDivOf[uint32](true)
	assert.False(t, ok, "uint32 is beyond what the signed conversion reads")
	_, ok = simd.IntDivOf[int16](false)
	assert.False(t, ok)
	type named int32
	_, ok = simd.IntDivOf[named](false)
	assert.False(t, ok, "named types have no loops")
}

func BenchmarkIntDiv(b *testing.B) {
	const n = 4096
	r := rand.New(rand.NewPCG(3, 4))
	x, y, d := make([]int32, n), make([]int32, n), make([]int32, n)
	for i := range x {
		x[i], y[i] = int32(r.Uint32()), int32(r.IntN(1000)+1)
	}
	k, ok := simd.IntDivOf[int32](false)
	if !ok {
		b.Skip("no AVX2 loops")
	}
	b.Run("avx2", func(b *testing.B) {
		b.SetBytes(3 * 4 * n)
		for b.Loop() {
			k.VV(d, x, y)
		}
	})
	b.Run("go", func(b *testing.B) { // the executor's Go loop: int32 IDIV
		b.SetBytes(3 * 4 * n)
		for b.Loop() {
			for i := range d {
				if y[i] != 0 {
					d[i] = x[i] / y[i]
				}
			}
		}
	})
}
