package matmul

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
)

// testBatched runs a batch whose a operand is one view broadcast over the
// batch, and whose b operands are transposed slices of one slice.
func testBatched[T dtype.Numeric](fill func([]T), batch, m, k, n, workers int) func(t *testing.T) {
	return func(t *testing.T) {
		a := newMatrix(operandLayouts[2], m, k, fill)
		bs := make([]T, batch*k*n)
		fill(bs)
		out := make([]T, batch*m*n)
		fillSentinel(out)
		dst, as, b := make([]Matrix[T], batch), make([]Matrix[T], batch), make([]Matrix[T], batch)
		for i := range batch {
			as[i] = a
			b[i] = RowMajor(bs[i*k*n:], n, k).T()
			dst[i] = RowMajor(out[i*m*n:], m, n)
		}

		r := &countingRunner{w: workers}
		Batched(dst, as, b, r, nil)
		if work := batch * m * k * n; batch > 0 && work/batch < parallelMin {
			// Products too small to split: a call of several parts is the
			// batch's split, which only a batch of parallelMin makes.
			split := workers > 1 && batch > 1 && work >= parallelMin
			assert.Equal(t, split, slices.ContainsFunc(r.calls, func(n int) bool { return n > 1 }),
				"the batch split over the workers (%d multiply-adds in all, calls %v)", work, r.calls)
		}

		for i := range batch {
			require.Equal(t, k, b[i].Rows)
			assert.Equal(t, naive(as[i], b[i]), elements(dst[i]), "batch %d", i)
		}
	}
}

func TestBatched(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		name                    string
		batch, m, k, n, workers int
	}{
		{"empty", 0, 2, 2, 2, 4},
		{"one", 1, 3, 4, 5, 4},
		{"serial", 7, 3, 4, 5, 1},
		{"small", 7, 3, 4, 5, 3},     // below parallelMin in all: on the caller's goroutine
		{"split", 40, 16, 32, 16, 3}, // small products, 327680 multiply-adds in all: split
		{"more-workers-than-batches", 3, 40, 50, 50, 8},
		{"zero-workers", 3, 3, 0, 5, 0},
		{"large", 3, 70, 64, 64, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Run("int16", testBatched(fillInt[int16](r), tc.batch, tc.m, tc.k, tc.n, tc.workers))
			t.Run("float64", testBatched(fillFloat[float64](r), tc.batch, tc.m, tc.k, tc.n, tc.workers))
			t.Run("complex64", testBatched(fillComplex[complex64](r), tc.batch, tc.m, tc.k, tc.n, tc.workers))
		})
	}
}

// TestBatchedPanicsEarly checks that a bad product anywhere in the batch
// panics on the caller's goroutine before any product is written.
func TestBatchedPanicsEarly(t *testing.T) {
	good := RowMajor([]uint8{1, 2, 3, 4}, 2, 2)
	out := make([]uint8, 8)
	dst := []Matrix[uint8]{RowMajor(out, 2, 2), RowMajor(out[4:], 1, 2)}
	const msg = "matmul: shape mismatch: dst 1x2 = a 2x2 @ b 2x2"
	assert.PanicsWithValue(t, msg, func() {
		Batched(dst, []Matrix[uint8]{good, good}, []Matrix[uint8]{good, good}, Goroutines(2), nil)
	})
	assert.Equal(t, make([]uint8, 8), out)
}

// TestBatchedStacked checks a batch that runs as one product (one b, the
// a[i] and dst[i] consecutive rows of one matrix each) against the products
// one by one, bit for bit, and batches that almost stack and must not.
func TestBatchedStacked(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 6))
	const batch, m, k, n = 5, 7, 30, 20
	normal := func(s []float64) {
		for i := range s {
			s[i] = r.NormFloat64()
		}
	}
	x := RowMajor(make([]float64, batch*m*k), batch*m, k)
	normal(x.Data)
	w := newMatrix(operandLayouts[1], k, n, normal)
	w2 := newMatrix(operandLayouts[1], k, n, func(s []float64) { copy(s, w.Data) })
	for _, tc := range []struct {
		name  string
		b     func(i int) Matrix[float64]
		a     func(i int) Matrix[float64]
		stack bool
	}{
		{"stacked", func(int) Matrix[float64] { return w }, func(i int) Matrix[float64] { return x.Slice(i*m, (i+1)*m, 0, k) }, true},
		{"other-b", func(i int) Matrix[float64] { return [2]Matrix[float64]{w, w2}[i%2] }, func(i int) Matrix[float64] { return x.Slice(i*m, (i+1)*m, 0, k) }, false},
		{"same-a", func(int) Matrix[float64] { return w }, func(int) Matrix[float64] { return x.Slice(0, m, 0, k) }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := make([]float64, batch*m*n)
			dst, as, bs := make([]Matrix[float64], batch), make([]Matrix[float64], batch), make([]Matrix[float64], batch)
			for i := range batch {
				dst[i], as[i], bs[i] = RowMajor(out[i*m*n:], m, n), tc.a(i), tc.b(i)
			}
			_, _, ok := stacked(dst, as, bs)
			require.Equal(t, tc.stack, ok)
			Batched(dst, as, bs, Goroutines(2), nil)
			for i := range batch {
				want := RowMajor(make([]float64, m*n), m, n)
				Gemm(want, as[i], bs[i])
				assert.Equal(t, want.Data, elements(dst[i]), "product %d", i)
			}
		})
	}
}
