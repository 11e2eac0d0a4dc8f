package matmul

import (
	"fmt"
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
)

// Batched computes a batch of products as Gemm does, using up to workers
// goroutines. It is:
//
//	for i := range dst {
//		Gemm(dst[i], a[i], b[i])
//	}
//
// When the products are small (on average below a few hundred thousand
// multiply-adds) the batch is cut into up to workers contiguous ranges, one
// goroutine each, and each product runs on one goroutine; otherwise the
// products run one after another, each split over workers goroutines (with
// UseBLAS, and for complex64, that split is gonum's, over GOMAXPROCS).
// workers < 1 counts as 1. Broadcast batch dimensions are the caller's: a[i]
// and b[i] may be the same view for many i.
//
// Preconditions: those of Gemm for every i, len(a) == len(dst) == len(b), and
// no two dst[i] overlap. Shapes and bounds are all checked, on the caller's
// goroutine, before any product is computed; a violation, like a length
// mismatch of dst, a and b, is the caller's bug and panics, as in Gemm.
func Batched[T dtype.Numeric](dst, a, b []Matrix[T], workers int) {
	if len(a) != len(dst) || len(b) != len(dst) {
		panic(fmt.Sprintf("matmul: batch length mismatch: dst %d, a %d, b %d", len(dst), len(a), len(b)))
	}
	work := 0
	for i := range dst {
		checkShapes(dst[i], a[i], b[i])
		work += dst[i].Rows * dst[i].Cols * a[i].Cols
	}
	workers = max(1, workers)
	if workers == 1 || len(dst) <= 1 || work/len(dst) >= parallelMin {
		for i := range dst {
			gemm(dst[i], a[i], b[i], workers)
		}
		return
	}
	parts := min(workers, len(dst))
	var wg sync.WaitGroup
	for w := range parts {
		lo, hi := w*len(dst)/parts, (w+1)*len(dst)/parts
		wg.Go(func() {
			for i := lo; i < hi; i++ {
				gemm(dst[i], a[i], b[i], 1)
			}
		})
	}
	wg.Wait()
}
