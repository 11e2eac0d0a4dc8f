//go:build linux

package matmul

import (
	"fmt"
	"math/rand/v2"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestColsKernels checks every variant's rowsCols, where it has one,
// against its whole kernel read in place: the first cols columns bit for
// bit, for every cols from nr/2 to nr (from 1 for the Go variant), with
// and without add, b's rows wider apart than cols, dense, or overlapping.
// b (its rows ldb apart, only cols of each used) and c
// each end at the end of a page that is followed by an inaccessible one,
// so a read or write past their last element crashes the test.
func TestColsKernels(t *testing.T) {
	t.Run("float64", testColsKernels[float64])
	t.Run("float32", testColsKernels[float32])
}

func testColsKernels[F float](t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := range kernels64 {
		kern := kernelOf[F](i)
		if kern.rowsCols == nil {
			continue
		}
		mr, nr := kern.mr, kern.nr
		first := nr / 2
		if kern.name == "go" {
			first = 1
		}
		for _, k := range []int{1, 3, 4, 5, 9, 130} {
			for cols := first; cols <= nr; cols++ {
				for _, c := range []struct {
					add bool
					ldb int
				}{{false, cols + 3}, {true, cols + 3}, {false, cols}, {true, cols}, {false, max(1, cols/2)}} {
					add, ldb := c.add, c.ldb
					t.Run(fmt.Sprintf("%s/k=%d/cols=%d/add=%v/ldb=%d", kern.name, k, cols, add, ldb), func(t *testing.T) {
						lda, ldc := 131, cols+2
						a := randSlice[F](r, (mr-1)*lda+k)
						packed := randSlice[F](r, k*nr)
						c0 := randSlice[F](r, (mr-1)*ldc+cols)
						// b's rows ldb apart, dense (ldb = cols) or
						// overlapping (ldb < cols); the packed panel
						// holds what each row of b reads.
						b := guarded[F](t, (k-1)*ldb+cols)
						for p := range k {
							copy(b[p*ldb:p*ldb+cols], packed[p*nr:])
						}
						for p := range k {
							copy(packed[p*nr:p*nr+cols], b[p*ldb:])
						}
						// The whole kernel on a tile nr wide.
						tile := make([]F, mr*nr)
						for i := range mr {
							copy(tile[i*nr:], c0[i*ldc:i*ldc+cols])
						}
						kern.rows(k, a, lda, packed, tile, nr, add)
						want := append([]F(nil), c0...)
						for i := range mr {
							copy(want[i*ldc:i*ldc+cols], tile[i*nr:])
						}

						c := guarded[F](t, len(c0))
						copy(c, c0)
						kern.rowsCols(k, a, lda, b, ldb, c, ldc, add, cols)
						assert.Equal(t, want, c)
					})
				}
			}
		}
	}
}

// guarded returns n elements that end at the end of a page whose next page
// can be neither read nor written; the pages are unmapped when t ends.
func guarded[F float](t *testing.T, n int) []F {
	size := int(unsafe.Sizeof(F(0)))
	page := syscall.Getpagesize()
	pages := (n*size+page-1)/page + 1
	mem, err := syscall.Mmap(-1, 0, pages*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, syscall.Munmap(mem)) })
	require.NoError(t, syscall.Mprotect(mem[(pages-1)*page:], syscall.PROT_NONE))
	end := (pages - 1) * page
	return unsafe.Slice((*F)(unsafe.Pointer(&mem[end-n*size])), n)
}
