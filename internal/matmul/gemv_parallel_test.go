package matmul

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gemvShapes are (m, k, n) products with one column or one row that are
// large enough to split: tall row-major a (split by rows), its transpose
// and a row vector times a tall matrix (split by pieces of k, with a last
// partial piece), and a wide one with few rows.
var gemvShapes = [][3]int{
	{20000, 16, 1}, {16, 3*gemvChunk + 5, 1}, {1, 2*gemvChunk + 1, 12}, {70, 2100, 1}, {1, 9000, 40},
}

// TestGemvParallel checks the split products against the naive loop on
// integer values (exact), in every layout of a, for 1, 2, 3 and 8 workers,
// and that random values give the same bits for every worker count.
func TestGemvParallel(t *testing.T) {
	for _, s := range gemvShapes {
		m, k, n := s[0], s[1], s[2]
		for _, la := range []layout{operandLayouts[0], operandLayouts[1], operandLayouts[2], operandLayouts[4]} {
			t.Run(fmt.Sprintf("%dx%dx%d/a=%s", m, k, n, la.name), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(m), uint64(k)))
				a := newMatrix(la, m, k, fillFloat[float64](r))
				b := newMatrix(operandLayouts[0], k, n, fillFloat[float64](r))
				want := naive(a, b)
				for _, w := range []int{1, 2, 3, 8} {
					dst := newMatrix(dstLayouts[0], m, n, fillSentinel[float64])
					gemm(dst, a, b, Goroutines(w), nil)
					require.Equal(t, want, elements(dst), "workers %d", w)
				}
				fr := rand.New(rand.NewPCG(3, uint64(k)))
				af := newMatrix(la, m, k, func(s []float32) {
					for i := range s {
						s[i] = float32(fr.NormFloat64())
					}
				})
				bf := newMatrix(operandLayouts[0], k, n, func(s []float32) {
					for i := range s {
						s[i] = float32(fr.NormFloat64())
					}
				})
				var first []float32
				for _, w := range []int{1, 2, 3, 8} {
					dst := newMatrix(dstLayouts[0], m, n, fillSentinel[float32])
					gemm(dst, af, bf, Goroutines(w), nil)
					if first == nil {
						first = elements(dst)
						continue
					}
					assert.Equal(t, first, elements(dst), "workers %d against 1", w)
				}
			})
		}
	}
}

// TestGemvSplitKPieces checks that a column-major gemv with k above
// gemvChunk sums each piece on its own and adds the pieces in order: the
// result is bit for bit that sum, computed here by hand.
func TestGemvSplitKPieces(t *testing.T) {
	m, k := 9, 2*gemvChunk+7 // m*k above gemvParallelMin
	r := rand.New(rand.NewPCG(9, 9))
	a := newMatrix(operandLayouts[1], m, k, func(s []float32) {
		for i := range s {
			s[i] = float32(r.NormFloat64())
		}
	})
	x := newMatrix(operandLayouts[0], k, 1, func(s []float32) {
		for i := range s {
			s[i] = float32(r.NormFloat64())
		}
	})
	dst := newMatrix(dstLayouts[0], m, 1, fillSentinel[float32])
	gemm(dst, a, x, Goroutines(2), nil)
	want := make([]float32, m)
	for lo := 0; lo < k; lo += gemvChunk {
		hi := min(k, lo+gemvChunk)
		piece := make([]float32, m)
		kernel32.gemvColumns(m, hi-lo, a.Data[a.Offset+lo*a.ColStride:], a.ColStride, x.Data[x.Offset+lo:], 1, piece)
		for i := range want {
			if lo == 0 {
				want[i] = piece[i]
			} else {
				want[i] += piece[i]
			}
		}
	}
	assert.Equal(t, want, elements(dst))
}

// countingRunner is a Runner of w workers that runs parts on the caller
// and records how many parts each Run call asked for.
type countingRunner struct {
	w     int
	calls []int
}

func (c *countingRunner) Workers() int { return c.w }

func (c *countingRunner) Run(n int, t Task) {
	c.calls = append(c.calls, n)
	for i := range n {
		t.RunTask(i)
	}
}

// taskFunc is a Task whose part i is f(i), for tests.
type taskFunc func(i int)

func (f taskFunc) RunTask(i int) { f(i) }

// TestGemvParallelSplits checks who splits: a large row-major gemv into
// 4 parts per worker, a column-major one with long k into its pieces of k
// (on one worker too), and a small one not at all.
func TestGemvParallelSplits(t *testing.T) {
	fill := fillFloat[float64](rand.New(rand.NewPCG(1, 1)))
	for _, tc := range []struct {
		name    string
		a, x    layout
		m, k, w int
		want    []int
	}{
		{"rows", operandLayouts[0], operandLayouts[0], 20000, 16, 2, []int{8}},
		{"rows, strided x copied once", operandLayouts[0], operandLayouts[4], 20000, 16, 2, []int{8}},
		{"pieces of k", operandLayouts[1], operandLayouts[0], 16, 3*gemvChunk + 5, 1, []int{4}},
		{"small", operandLayouts[0], operandLayouts[0], 100, 16, 2, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newMatrix(tc.a, tc.m, tc.k, fill)
			x := newMatrix(tc.x, tc.k, 1, fill)
			dst := newMatrix(dstLayouts[0], tc.m, 1, fillSentinel[float64])
			r := &countingRunner{w: tc.w}
			gemm(dst, a, x, r, nil)
			assert.Equal(t, tc.want, r.calls)
			assert.Equal(t, naive(a, x), elements(dst))
		})
	}
}
