package simd_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/internal/simd"
)

// TestTransposeOf checks the lookup for the element types: Transpose and
// its rows for every numeric type and bool, nothing for the others.
func TestTransposeOf(t *testing.T) {
	type myFloat float64
	tests := []struct {
		name   string
		lookup func() (found bool, rows int)
		want   int
	}{
		{"float32", lookupOf[float32], 16},
		{"uint32", lookupOf[uint32], 16},
		{"int64", lookupOf[int64], 8},
		{"complex64", lookupOf[complex64], 8},
		{"complex128", lookupOf[complex128], 4},
		{"int16", lookupOf[int16], 8},
		{"bool", lookupOf[bool], 8},
		{"uint8", lookupOf[uint8], 8},
		{"string", lookupOf[string], 0},
		{"a named float64", lookupOf[myFloat], 0},
	}
	for _, tt := range tests {
		want := tt.want
		if !simd.Enabled {
			want = 0
		}
		found, rows := tt.lookup()
		assert.Equal(t, want, rows, tt.name)
		assert.Equal(t, want > 0, found, tt.name)
	}
	if f, _ := simd.TransposeOf[float64](); f != nil {
		d, s := make([]float64, 8*3), make([]float64, 2*10+8)
		for i := range s {
			s[i] = float64(i)
		}
		f(d, 3, s, 10, 3)
		assert.Equal(t, []float64{0, 10, 20}, d[:3], "row 0")
		assert.Equal(t, []float64{7, 17, 27}, d[21:], "row 7")
	}
}

// lookupOf reports what TransposeOf returns for T: whether a loop, and its
// rows.
func lookupOf[T any]() (bool, int) {
	f, k := simd.TransposeOf[T]()
	return f != nil, k
}

func TestTransposeRows(t *testing.T) {
	if !simd.Enabled {
		assert.Zero(t, simd.TransposeRows[float64]())
		return
	}
	assert.Equal(t, 16, simd.TransposeRows[float32]())
	assert.Equal(t, 16, simd.TransposeRows[uint32]())
	assert.Equal(t, 8, simd.TransposeRows[float64]())
	assert.Equal(t, 8, simd.TransposeRows[int64]())
	assert.Equal(t, 8, simd.TransposeRows[complex64]())
	assert.Equal(t, 4, simd.TransposeRows[complex128]())
	assert.Equal(t, 8, simd.TransposeRows[int16]())
	assert.Equal(t, 8, simd.TransposeRows[uint8]())
	assert.Equal(t, 8, simd.TransposeRows[bool]())
}

// checkTranspose fills s with distinct values and transposes n columns,
// for n on both sides of every multiple of the loops' block, at random
// offsets and strides (runs that overlap, sStride < k, included), and
// compares all of d with the definition: what it writes, and the zeros
// around and between its rows that it must not touch.
func checkTranspose[T simd.Transposable](t *testing.T, val func(i int) T) {
	k := simd.TransposeRows[T]()
	if k == 0 {
		t.Skip("no transpose loops")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 3*k+3; n++ {
		for range 4 {
			sStride := 1 + rng.IntN(k+7)
			dStride := n + rng.IntN(5)
			sOff, dOff := rng.IntN(k), rng.IntN(k)
			s := make([]T, sOff+max(0, (n-1)*sStride+k)+2)
			for i := range s {
				s[i] = val(i + 1)
			}
			d := make([]T, dOff+(k-1)*dStride+n+2)
			want := make([]T, len(d))
			for c := 0; c < n; c++ {
				for r := 0; r < k; r++ {
					want[dOff+r*dStride+c] = s[sOff+c*sStride+r]
				}
			}
			simd.Transpose(d[dOff:], dStride, s[sOff:sOff+max(0, (n-1)*sStride+k)], sStride, n)
			require.Equal(t, want, d, "n=%d strides %d,%d offsets %d,%d", n, dStride, sStride, dOff, sOff)
		}
	}
}

func TestTranspose(t *testing.T) {
	t.Run("bool", func(t *testing.T) { checkTranspose(t, func(i int) bool { return i%3 == 0 }) })
	t.Run("int8", func(t *testing.T) { checkTranspose(t, func(i int) int8 { return int8(i*7 + 3) }) })
	t.Run("uint8", func(t *testing.T) { checkTranspose(t, func(i int) uint8 { return uint8(i) }) })
	t.Run("int16", func(t *testing.T) { checkTranspose(t, func(i int) int16 { return int16(-i * 131) }) })
	t.Run("uint16", func(t *testing.T) { checkTranspose(t, func(i int) uint16 { return uint16(i) }) })
	t.Run("float32", func(t *testing.T) { checkTranspose(t, func(i int) float32 { return float32(i) }) })
	t.Run("uint32", func(t *testing.T) { checkTranspose(t, func(i int) uint32 { return uint32(i) * 0x01010101 }) })
	t.Run("float64", func(t *testing.T) { checkTranspose(t, func(i int) float64 { return float64(i) + 0.5 }) })
	t.Run("int64", func(t *testing.T) { checkTranspose(t, func(i int) int64 { return -int64(i) << 40 }) })
	t.Run("complex64", func(t *testing.T) {
		checkTranspose(t, func(i int) complex64 { return complex(float32(i), -float32(i)) })
	})
	t.Run("complex128", func(t *testing.T) {
		checkTranspose(t, func(i int) complex128 { return complex(float64(i), 1/float64(i)) })
	})
}

func TestTransposePanics(t *testing.T) {
	if simd.TransposeRows[float64]() == 0 {
		t.Skip("no transpose loops")
	}
	for _, c := range []struct {
		name             string
		d, s             int
		dStride, sStride int
		n                int
	}{
		{"short d", 8*8 - 1, 100, 8, 8, 8},
		{"short s", 64, 7*8 + 7, 8, 8, 8},
		{"dStride below n", 100, 100, 7, 8, 8},
		{"sStride 0", 100, 100, 8, 0, 8},
		// 1<<62 and 1<<61 on 64-bit, 1<<30 and 1<<29 on 32-bit: 3 sStrides
		// and 7 dStrides overflow int on either.
		{"sStride overflowing", 64, 64, 8, 1 << (strconv.IntSize - 2), 4},
		{"dStride overflowing", 64, 64, 1 << (strconv.IntSize - 3), 8, 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.PanicsWithValue(t, fmt.Sprintf("simd: Transpose of 8×%d from %d elements (stride %d) into %d (stride %d)",
				c.n, c.s, c.sStride, c.d, c.dStride), func() {
				simd.Transpose(make([]float64, c.d), c.dStride, make([]float64, c.s), c.sStride, c.n)
			})
		})
	}
}

// BenchmarkTranspose copies a transposed 256×256 float64 matrix (512 KiB,
// in cache) with Transpose, k rows at a time, and with the scalar loop a
// transposed view otherwise takes.
func BenchmarkTranspose(b *testing.B) {
	const n = 256
	k := simd.TransposeRows[float64]()
	s, d := make([]float64, n*n), make([]float64, n*n)
	for i := range s {
		s[i] = float64(i)
	}
	b.Run("simd", func(b *testing.B) {
		if k == 0 {
			b.Skip("no transpose loops")
		}
		b.SetBytes(2 * 8 * n * n)
		for b.Loop() {
			for i := 0; i < n; i += k {
				simd.Transpose(d[i*n:], n, s[i:], n, n)
			}
		}
	})
	b.Run("scalar", func(b *testing.B) {
		b.SetBytes(2 * 8 * n * n)
		for b.Loop() {
			for i := 0; i < n; i++ {
				row, o := d[i*n:(i+1)*n], i
				for j := range row {
					row[j] = s[o]
					o += n
				}
			}
		}
	})
}
