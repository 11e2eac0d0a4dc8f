package tensor_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// valuesByAt is the reference for Values: every element read with At, in
// row-major order.
func valuesByAt(t *testing.T, x *tensor.Tensor[int64]) []int64 {
	t.Helper()
	shape := x.Shape()
	out := []int64{}
	if x.Numel() == 0 {
		return out
	}
	idx := make([]int, len(shape))
	for {
		v, err := x.At(idx...)
		require.NoError(t, err)
		out = append(out, v)
		a := len(idx) - 1
		for ; a >= 0; a-- {
			if idx[a]++; idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
		if a < 0 {
			return out
		}
	}
}

// arange is a contiguous int64 tensor of the shape holding 0, 1, 2, ….
func arange(t *testing.T, shape ...int) *tensor.Tensor[int64] {
	t.Helper()
	n := 1
	for _, s := range shape {
		n *= s
	}
	data := make([]int64, n)
	for i := range data {
		data[i] = int64(i)
	}
	x, err := tensor.FromSlice(data, shape...)
	require.NoError(t, err)
	return x
}

// TestValuesOfViews: Values (and so Clone and Contiguous) of views whose
// sides cross the copy's tiles (32 int64 rows by 16), with the unit-stride
// dim last, elsewhere, or nowhere, against element-by-element reads.
func TestValuesOfViews(t *testing.T) {
	must := func(x *tensor.Tensor[int64], err error) *tensor.Tensor[int64] {
		t.Helper()
		require.NoError(t, err)
		return x
	}
	tests := []struct {
		name string
		x    *tensor.Tensor[int64]
	}{
		{"0-d", must(arange(t, 5).Index(0, 3))},
		{"empty transposed", must(arange(t, 0, 40).T())},
		{"row-major slice", must(arange(t, 40, 70).Slice(1, 3, 68, 1))},
		{"every third column", must(arange(t, 40, 70).Slice(1, 1, 70, 3))},
		{"expanded row", must(arange(t, 1, 45).Expand(33, 45))},
		{"expanded row transposed", must(must(arange(t, 1, 45).Expand(33, 45)).T())},
		{"overlapping strides", must(tensor.AsStrided(arange(t, 100).Data(), tensor.Shape{40, 40}, []int{1, 1}, 3))},
		{"transposed, strided rows", must(must(arange(t, 70, 90).Slice(0, 1, 70, 2)).T())},
	}
	for _, rc := range [][2]int{{1, 70}, {31, 33}, {32, 32}, {33, 64}, {70, 45}} {
		tests = append(tests, struct {
			name string
			x    *tensor.Tensor[int64]
		}{fmt.Sprintf("%dx%d transposed", rc[0], rc[1]), must(arange(t, rc[0], rc[1]).T())})
	}
	for _, perm := range [][]int{{0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}} {
		tests = append(tests, struct {
			name string
			x    *tensor.Tensor[int64]
		}{fmt.Sprintf("[5,37,41] permuted %v", perm), must(arange(t, 5, 37, 41).Permute(perm...))})
	}
	for _, perm := range [][]int{{3, 0, 1, 2}, {0, 3, 2, 1}, {3, 2, 0, 1}, {1, 3, 0, 2}} {
		tests = append(tests, struct {
			name string
			x    *tensor.Tensor[int64]
		}{fmt.Sprintf("[3,4,5,35] permuted %v", perm), must(must(arange(t, 3, 4, 5, 35).Permute(perm...)).Slice(0, 1, 35, 2))})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := valuesByAt(t, tt.x)
			assert.Equal(t, want, tt.x.Values())
			c := tt.x.Contiguous()
			assert.True(t, c.IsContiguous())
			assert.Equal(t, tt.x.Shape(), c.Shape())
			assert.Equal(t, want, c.Values())
		})
	}
}

// TestValuesOfTransposedBands: transposed views of every element type that
// simd.Transpose moves (and two it does not), with row counts on both
// sides of its bands (8 or 16 rows, 4 for complex128) and columns on both
// sides of the copy's 512-column strips, against element-by-element reads.
func TestValuesOfTransposedBands(t *testing.T) {
	t.Run("float32", func(t *testing.T) { checkTransposedBands(t, func(i int) float32 { return float32(i) }) })
	t.Run("int32", func(t *testing.T) { checkTransposedBands(t, func(i int) int32 { return int32(-i) }) })
	t.Run("float64", func(t *testing.T) { checkTransposedBands(t, func(i int) float64 { return float64(i) / 3 }) })
	t.Run("uint64", func(t *testing.T) { checkTransposedBands(t, func(i int) uint64 { return uint64(i) << 40 }) })
	t.Run("complex64", func(t *testing.T) {
		checkTransposedBands(t, func(i int) complex64 { return complex(float32(i), -float32(i)) })
	})
	t.Run("complex128", func(t *testing.T) {
		checkTransposedBands(t, func(i int) complex128 { return complex(float64(i), 0.5) })
	})
	t.Run("int16", func(t *testing.T) { checkTransposedBands(t, func(i int) int16 { return int16(i) }) })
	t.Run("uint8", func(t *testing.T) { checkTransposedBands(t, func(i int) uint8 { return uint8(i) }) })
}

func checkTransposedBands[T dtype.Numeric](t *testing.T, val func(i int) T) {
	for _, rc := range [][2]int{{3, 9}, {7, 1100}, {8, 513}, {17, 512}, {33, 40}, {1025, 5}} {
		// x is rc[1]×rc[0]: its transpose has rc[0] rows of rc[1] columns.
		x := tensor.Must(tensor.Zeros[T](rc[1], rc[0]))
		for i := range x.Data() {
			x.Data()[i] = val(i)
		}
		xt := tensor.Must(x.T())
		want := make([]T, 0, xt.Numel())
		for i := range rc[0] {
			for j := range rc[1] {
				v, err := xt.At(i, j)
				require.NoError(t, err)
				want = append(want, v)
			}
		}
		assert.Equal(t, want, xt.Values(), "%dx%d", rc[0], rc[1])
	}
}

// TestValuesOfRandomViews: random permutations and steps of random shapes.
func TestValuesOfRandomViews(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for i := range 200 {
		rank := 1 + r.IntN(4)
		shape := make([]int, rank)
		for a := range shape {
			shape[a] = 1 + r.IntN(40)
		}
		x := arange(t, shape...)
		perm := r.Perm(rank)
		x, err := x.Permute(perm...)
		require.NoError(t, err)
		axis := r.IntN(rank)
		x, err = x.Slice(axis, r.IntN(2), shape[perm[axis]], 1+r.IntN(3))
		require.NoError(t, err)
		assert.Equal(t, valuesByAt(t, x), x.Values(), "case %d: shape %v strides %v offset %d", i, x.Shape(), x.Strides(), x.Offset())
	}
}

// BenchmarkValuesTransposed copies transposed float64 squares, allocation
// included.
func BenchmarkValuesTransposed(b *testing.B) {
	b.Run("float64", func(b *testing.B) { benchValuesTransposed[float64](b) })
	b.Run("float32", func(b *testing.B) { benchValuesTransposed[float32](b) })
}

func benchValuesTransposed[T float32 | float64](b *testing.B) {
	for _, n := range []int{1000, 3162} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			x, err := tensor.Rand[T](1, n, n)
			require.NoError(b, err)
			xt, err := x.T()
			require.NoError(b, err)
			b.SetBytes(int64(2 * dtype.Of[T]().Size() * n * n))
			for b.Loop() {
				_ = xt.Values()
			}
		})
	}
}
