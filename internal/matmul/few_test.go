package matmul

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGemvFew checks the products of at most fewMax columns: on
// every kernel variant and 1, 2, 3 and 8 workers, each gives the bits of
// its columns computed one at a time by gemv, whatever the
// layout of the other operand, within the error bound of the reference
// loop; and one whose other operand does not fit in cache gives the packed
// product's bits.
func TestGemvFew(t *testing.T) {
	t.Run("float64", testGemvFew[float64](0x1p-52))
	t.Run("float32", testGemvFew[float32](0x1p-23))
}

func testGemvFew[F float](eps float64) func(t *testing.T) {
	return func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 9))
		normal := fillNormal[F](r)
		// (m, k, n): few columns, and an a of half of L2 (float64 on
		// 1 MiB); few rows, which are packed.
		for _, s := range [][3]int{{1000, 8, 4}, {37, 11, 2}, {2, 9, 3}, {8000, 8, 3}, {4, 1000, 8}, {3, 70, 50}} {
			m, k, n := s[0], s[1], s[2]
			for _, lb := range []layout{operandLayouts[0], operandLayouts[1], operandLayouts[4]} {
				a := newMatrix(operandLayouts[0], m, k, normal)
				b := newMatrix(lb, k, n, normal)
				name := fmt.Sprintf("%dx%dx%d/b=%s", m, k, n, lb.name)
				t.Run(name, func(t *testing.T) {
					want, abs := naive(a, b), naive(absMatrix(a), absMatrix(b))
					for v := range kernels64 {
						kern := kernelOf[F](v)
						// The documented order: column by column, each
						// one gemv; a few rows are packed.
						ref := RowMajor(make([]F, m*n), m, n)
						if n <= fewMax {
							for j := range n {
								col := RowMajor(make([]F, k), k, 1)
								copyTo(col, b.Slice(0, k, j, j+1))
								gemv(ref.Slice(0, m, j, j+1), a, col, kern)
							}
						} else {
							gemmPacked(ref, a, b, serial, kern, blockingOf(kern), nil)
						}
						for _, w := range []int{1, 2, 3, 8} {
							dst := RowMajor(make([]F, m*n), m, n)
							gemmFloat(dst, a, b, Goroutines(w), kern, nil)
							require.Equal(t, ref.Data, dst.Data, "%s on %d workers", kern.name, w)
						}
						for j := range want {
							tol := 2 * float64(k) * eps * float64(abs[j])
							require.InDelta(t, float64(want[j]), float64(ref.Data[j]), tol, "%s element %d", kern.name, j)
						}
					}
				})
			}
		}
		t.Run("beyond cache", func(t *testing.T) {
			k := machineCaches().l2/int(sizeOf[F]())/3 + 1 // a [3,k] over half of L2
			a := newMatrix(operandLayouts[0], 3, k, normal)
			b := newMatrix(operandLayouts[0], k, 3, normal)
			require.False(t, fewFits(a))
			dst, packed := RowMajor(make([]F, 9), 3, 3), RowMajor(make([]F, 9), 3, 3)
			kern := kernelOf[F](len(kernels64) - 1)
			gemmFloat(dst, a, b, Goroutines(2), kern, nil)
			gemmPacked(packed, a, b, Goroutines(2), kern, blockingOf(kern), nil)
			assert.Equal(t, packed.Data, dst.Data)
		})
	}
}
