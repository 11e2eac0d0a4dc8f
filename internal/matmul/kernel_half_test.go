package matmul

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHalfKernels checks that every variant's half kernels, packed and in
// place, write exactly the first nr/2 columns of what its whole kernels
// compute, bit for bit, leave the other columns of c alone, and add to c
// when asked.
func TestHalfKernels(t *testing.T) {
	t.Run("float64", testHalfKernels[float64])
	t.Run("float32", testHalfKernels[float32])
}

func testHalfKernels[F float](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range kernels64 {
		kern := kernelOf[F](i)
		mr, nr := kern.mr, kern.nr
		for _, k := range []int{1, 3, 4, 5, 9, 130} {
			for _, add := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/k=%d/add=%v", kern.name, k, add), func(t *testing.T) {
					a, b := randSlice[F](r, mr*k), randSlice[F](r, k*nr)
					lda, ldc := 131, nr+5 // strides wider than the blocks
					rowsA := make([]F, (mr-1)*lda+k)
					for p := range k {
						for i := range mr {
							rowsA[i*lda+p] = a[p*mr+i]
						}
					}
					c0 := randSlice[F](r, (mr-1)*ldc+nr)
					want := append([]F(nil), c0...)
					kern.run(k, a, b, want, ldc, add)
					wantRows := append([]F(nil), c0...)
					kern.rows(k, rowsA, lda, b, wantRows, ldc, add)
					require.Equal(t, want, wantRows, "whole kernels disagree")
					for i := range mr {
						// Columns nr/2.. of the whole result are left as they were.
						copy(want[i*ldc+nr/2:i*ldc+nr], c0[i*ldc+nr/2:i*ldc+nr])
					}
					half := append([]F(nil), c0...)
					kern.runHalf(k, a, b, half, ldc, add)
					assert.Equal(t, want, half, "runHalf")
					halfRows := append([]F(nil), c0...)
					kern.rowsHalf(k, rowsA, lda, b, halfRows, ldc, add)
					assert.Equal(t, want, halfRows, "rowsHalf")
				})
			}
		}
	}
}

// TestRows12HalfKernels checks the twelve-row half kernels, where a
// variant has them, against two calls of its six-row rowsHalf, bit for
// bit, with c's other columns left alone and add honoured.
func TestRows12HalfKernels(t *testing.T) {
	t.Run("float64", testRows12[float64])
	t.Run("float32", testRows12[float32])
}

func testRows12[F float](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	tested := 0
	for i := range kernels64 {
		kern := kernelOf[F](i)
		if kern.rowsHalf12 == nil {
			continue
		}
		tested++
		mr, nr := kern.mr, kern.nr
		for _, k := range []int{1, 3, 4, 5, 9, 130} {
			for _, add := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/k=%d/add=%v", kern.name, k, add), func(t *testing.T) {
					lda, ldc := 131, nr+5
					a := randSlice[F](r, (2*mr-1)*lda+k)
					b := randSlice[F](r, k*nr)
					c0 := randSlice[F](r, (2*mr-1)*ldc+nr)
					want := append([]F(nil), c0...)
					kern.rowsHalf(k, a, lda, b, want, ldc, add)
					kern.rowsHalf(k, a[mr*lda:], lda, b, want[mr*ldc:], ldc, add)
					got := append([]F(nil), c0...)
					kern.rowsHalf12(k, a, lda, b, got, ldc, add)
					assert.Equal(t, want, got)
				})
			}
		}
	}
	if tested == 0 {
		t.Skip("no variant with twelve-row half kernels on this CPU")
	}
}

// TestColumnTasks checks how many bands a product split by columns is cut
// into: four per worker, of at most one panel each, when a is read in
// place by every band, one per worker when a is packed.
func TestColumnTasks(t *testing.T) {
	rowMajor := RowMajor(make([]float64, 64*784), 64, 784)
	tests := []struct {
		name                   string
		a                      Matrix[float64]
		colBlocks, parts, want int
	}{
		{"in place, 16 panels, 2 workers", rowMajor, 16, 2, 8},
		{"in place, 3 panels, 2 workers", rowMajor, 3, 2, 3},
		{"in place, 100 panels: bands too wide to read a in place", rowMajor, 100, 2, 2},
		{"in place, 64 panels, 2 workers: 8 panels a band", rowMajor, 64, 2, 8},
		{"in place, 65 panels, 2 workers: 9 panels a band", rowMajor, 65, 2, 2},
		{"packed a", rowMajor.T(), 16, 2, 2},
		{"in place, 16 panels, 3 workers", rowMajor, 16, 3, 12},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ops := realOperands[float64]{a: tc.a}
			assert.Equal(t, tc.want, columnTasks[float64](ops, tc.colBlocks, tc.parts, 8))
		})
	}
}
