package matmul

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
)

// layout places a rows×cols view in a slice: its offset and strides.
type layout struct {
	name string
	of   func(rows, cols int) (offset, rowStride, colStride int)
}

// Every operand kind: contiguous, transposed, sliced (padded rows and an
// offset) either way, strided both ways, broadcast rows, columns or both, and
// overlapping rows (element (i, j) at i+j).
var operandLayouts = []layout{
	{"rowmajor", func(r, c int) (int, int, int) { return 0, c, 1 }},
	{"colmajor", func(r, c int) (int, int, int) { return 0, 1, r }},
	{"sliced", func(r, c int) (int, int, int) { return 3, c + 2, 1 }},
	{"slicedT", func(r, c int) (int, int, int) { return 2, 1, r + 3 }},
	{"strided", func(r, c int) (int, int, int) { return 1, 2*c + 1, 2 }},
	{"bcastrow", func(r, c int) (int, int, int) { return 1, 0, 1 }},
	{"bcastcol", func(r, c int) (int, int, int) { return 1, 1, 0 }},
	{"scalar", func(r, c int) (int, int, int) { return 2, 0, 0 }},
	{"overlap", func(r, c int) (int, int, int) { return 0, 1, 1 }},
}

// dstLayouts are the operand layouts whose elements are distinct.
var dstLayouts = operandLayouts[:5]

// sentinel fills the storage of dst around and under the view.
const sentinel = 7

// newMatrix returns a rows×cols view laid out by l in a slice filled by fill,
// with spare elements after the view.
func newMatrix[T dtype.Numeric](l layout, rows, cols int, fill func([]T)) Matrix[T] {
	off, rs, cs := l.of(rows, cols)
	n := off + 3
	if rows > 0 && cols > 0 {
		n += (rows-1)*rs + (cols-1)*cs + 1
	}
	data := make([]T, n)
	fill(data)
	return Matrix[T]{Data: data, Offset: off, Rows: rows, Cols: cols, RowStride: rs, ColStride: cs}
}

// naive is the reference loop of Gemm, into a new row-major slice.
func naive[T dtype.Numeric](a, b Matrix[T]) []T {
	c := make([]T, a.Rows*b.Cols)
	for i := range a.Rows {
		for j := range b.Cols {
			var s T
			for p := range a.Cols {
				s += a.At(i, p) * b.At(p, j)
			}
			c[i*b.Cols+j] = s
		}
	}
	return c
}

// elements returns m's elements in row-major order.
func elements[T dtype.Numeric](m Matrix[T]) []T {
	s := make([]T, 0, m.Rows*m.Cols)
	for i := range m.Rows {
		for j := range m.Cols {
			s = append(s, m.At(i, j))
		}
	}
	return s
}

// outside returns the elements of m's storage that are not in the view.
func outside[T dtype.Numeric](m Matrix[T]) []T {
	in := make([]bool, len(m.Data))
	for i := range m.Rows {
		for j := range m.Cols {
			in[m.Offset+i*m.RowStride+j*m.ColStride] = true
		}
	}
	var s []T
	for k, v := range m.Data {
		if !in[k] {
			s = append(s, v)
		}
	}
	return s
}

// Random operands: full-range integers, so products wrap; floats and complex
// numbers with small integer parts, so every summation order is exact.
func fillInt[T dtype.Integer](r *rand.Rand) func([]T) {
	return func(s []T) {
		for i := range s {
			s[i] = T(r.Uint64())
		}
	}
}

func fillFloat[T dtype.Float](r *rand.Rand) func([]T) {
	return func(s []T) {
		for i := range s {
			s[i] = T(r.IntN(17) - 8)
		}
	}
}

// fillNormal fills with normally distributed values (tolerance tests).
func fillNormal[T dtype.Float](r *rand.Rand) func([]T) {
	return func(s []T) {
		for i := range s {
			s[i] = T(r.NormFloat64())
		}
	}
}

func fillComplex[T dtype.Complex](r *rand.Rand) func([]T) {
	return func(s []T) {
		for i := range s {
			s[i] = T(complex(float64(r.IntN(17)-8), float64(r.IntN(17)-8)))
		}
	}
}

func fillSentinel[T dtype.Numeric](s []T) {
	for i := range s {
		s[i] = sentinel
	}
}

// shapes are (m, k, n) for dst m×n = a m×k @ b k×n.
var shapes = [][3]int{
	{0, 3, 4}, {3, 0, 4}, {3, 4, 0}, {0, 0, 0}, {1, 1, 1},
	{1, 5, 1}, {2, 3, 4}, {5, 1, 7}, {7, 9, 3}, {6, 6, 6},
}

// blockShapes cross the panel edges of the Go loop and, at 2¹⁸ multiply-adds
// or more, its split into row bands (m >= n) and column bands (m < n).
var blockShapes = [][3]int{
	{3, panelDepth + 5, panelWidth + 3}, {70, 64, 64}, {8, 128, 300},
}

// testGemm runs Gemm over every shape and layout for one element type.
func testGemm[T dtype.Numeric](fill func([]T)) func(t *testing.T) {
	return func(t *testing.T) {
		run := func(t *testing.T, shape [3]int, la, lb, ld layout, workers int) {
			m, k, n := shape[0], shape[1], shape[2]
			a := newMatrix(la, m, k, fill)
			b := newMatrix(lb, k, n, fill)
			dst := newMatrix(ld, m, n, fillSentinel[T])
			require.Equal(t, m*k, len(elements(a)))
			aData, bData := append([]T(nil), a.Data...), append([]T(nil), b.Data...)
			want := naive(a, b)

			gemm(dst, a, b, Goroutines(workers), nil)

			assert.Equal(t, want, elements(dst), "dst")
			for _, v := range outside(dst) {
				if !assert.Equal(t, T(sentinel), v, "dst storage outside the view") {
					break
				}
			}
			assert.Equal(t, aData, a.Data, "a changed")
			assert.Equal(t, bData, b.Data, "b changed")
		}
		for si, s := range shapes {
			if testing.Short() && si%2 == 1 {
				continue // the race detector's pass: half the shapes
			}
			for _, la := range operandLayouts {
				for _, lb := range operandLayouts {
					name := fmt.Sprintf("%dx%dx%d/a=%s/b=%s", s[0], s[1], s[2], la.name, lb.name)
					t.Run(name, func(t *testing.T) { run(t, s, la, lb, dstLayouts[0], 2) })
				}
			}
			for _, ld := range dstLayouts {
				for _, la := range operandLayouts[:2] {
					name := fmt.Sprintf("%dx%dx%d/a=%s/dst=%s", s[0], s[1], s[2], la.name, ld.name)
					t.Run(name, func(t *testing.T) { run(t, s, la, operandLayouts[1], ld, 2) })
				}
			}
		}
		for _, s := range blockShapes {
			for _, l := range []layout{operandLayouts[0], operandLayouts[3], operandLayouts[4]} {
				name := fmt.Sprintf("%dx%dx%d/all=%s", s[0], s[1], s[2], l.name)
				t.Run(name, func(t *testing.T) { run(t, s, l, l, l, 3) })
			}
		}
	}
}

func TestGemm(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		run  func(*testing.T)
	}{
		{"int8", testGemm(fillInt[int8](r))},
		{"int16", testGemm(fillInt[int16](r))},
		{"int32", testGemm(fillInt[int32](r))},
		{"int64", testGemm(fillInt[int64](r))},
		{"int", testGemm(fillInt[int](r))},
		{"uint8", testGemm(fillInt[uint8](r))},
		{"uint16", testGemm(fillInt[uint16](r))},
		{"uint32", testGemm(fillInt[uint32](r))},
		{"uint64", testGemm(fillInt[uint64](r))},
		{"uint", testGemm(fillInt[uint](r))},
		{"float32", testGemm(fillFloat[float32](r))},
		{"float64", testGemm(fillFloat[float64](r))},
		{"complex64", testGemm(fillComplex[complex64](r))},
		{"complex128", testGemm(fillComplex[complex128](r))},
		{"celsius", testGemm(fillFloat[celsius](r))},
	} {
		t.Run(tc.name, tc.run)
	}
}

// celsius is a named float type: the type switch misses it, so it takes the
// Go loop.
type celsius float64

// TestGemmOverwrites checks that dst is written, not accumulated, even where
// it holds NaN, as BLAS's beta = 0 promises.
func TestGemmOverwrites(t *testing.T) {
	for _, k := range []int{0, 3} {
		t.Run(fmt.Sprint("k=", k), func(t *testing.T) {
			a := RowMajor(make([]float64, 2*k), 2, k)
			b := RowMajor(make([]float64, k*2), k, 2)
			for i := range a.Data {
				a.Data[i], b.Data[i] = float64(i), 1
			}
			dst := RowMajor([]float64{math.NaN(), math.Inf(1), math.NaN(), 5}, 2, 2)
			Gemm(dst, a, b)
			want := naive(a, b)
			assert.Equal(t, want, dst.Data)
		})
	}
}

// TestGemmRealValues compares BLAS with the reference loop on values whose
// sums round, so only up to a tolerance.
func TestGemmRealValues(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const m, k, n = 33, 65, 17
	for _, la := range operandLayouts[:5] {
		t.Run(la.name, func(t *testing.T) {
			fill := func(s []float64) {
				for i := range s {
					s[i] = r.NormFloat64()
				}
			}
			a := newMatrix(la, m, k, fill)
			b := newMatrix(operandLayouts[1], k, n, fill)
			dst := RowMajor(make([]float64, m*n), m, n)
			Gemm(dst, a, b)
			assert.InDeltaSlice(t, naive(a, b), dst.Data, 1e-12)
		})
	}
}

func TestGemmPanics(t *testing.T) {
	ok := RowMajor(make([]int32, 6), 2, 3)
	for _, tc := range []struct {
		name      string
		dst, a, b Matrix[int32]
		msg       string
	}{
		{"inner", RowMajor(make([]int32, 4), 2, 2), ok, ok, "matmul: shape mismatch: dst 2x2 = a 2x3 @ b 2x3"},
		{"rows", RowMajor(make([]int32, 9), 3, 3), ok, ok.T(), "matmul: shape mismatch: dst 3x3 = a 2x3 @ b 3x2"},
		{"range", RowMajor(make([]int32, 3), 2, 2), ok, ok.T(), "matmul: dst: element 3 out of range of 3 in {2x2 offset 0 strides (2, 1) len 3}"},
		{"negative", RowMajor(make([]int32, 4), 2, 2), ok.Slice(0, 2, 0, 3), Matrix[int32]{Data: ok.Data, Rows: 3, Cols: 2, RowStride: -1, ColStride: 1},
			"matmul: b: negative size, stride or offset in {3x2 offset 0 strides (-1, 1) len 6}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.PanicsWithValue(t, tc.msg, func() { Gemm(tc.dst, tc.a, tc.b) })
		})
	}
	t.Run("batch", func(t *testing.T) {
		assert.PanicsWithValue(t, "matmul: batch length mismatch: dst 1, a 2, b 1", func() {
			Batched([]Matrix[int32]{ok}, []Matrix[int32]{ok, ok}, []Matrix[int32]{ok}, Goroutines(2), nil)
		})
	})
}
