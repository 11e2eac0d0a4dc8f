package matmul

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
)

// Batched computes a batch of products as Gemm does, with its parts run by
// r, and epi, when not nil, finishing each block of every dst[i] once it is
// final (see Epilogue). It is:
//
//	for i := range dst {
//		Gemm(dst[i], a[i], b[i])
//	}
//
// When the products are small (on average below a few hundred thousand
// multiply-adds, parallelMin) but the batch is not (in all at least
// parallelMin) the batch is cut into up to r.Workers() contiguous ranges,
// one part each, and each product runs within one part; a batch smaller
// than that runs on the caller's goroutine (attention's two 32×32×32
// products on two workers took 1.5x the time of one); otherwise the
// products run one after another, each split over r (with UseBLAS, that
// split is gonum's, over GOMAXPROCS). Broadcast batch dimensions are the
// caller's: a[i] and b[i] may be the same view for many i.
//
// A batch whose b[i] are all one view, and whose a[i] and dst[i] are
// consecutive blocks of rows of one matrix each (x @ W for a batch of x),
// runs as one product, packing b once. Each element is summed exactly as
// its own product would sum it.
//
// Preconditions: those of Gemm for every i, len(a) == len(dst) == len(b), and
// no two dst[i] overlap. Shapes and bounds are all checked, on the caller's
// goroutine, before any product is computed; a violation, like a length
// mismatch of dst, a and b, is the caller's bug and panics, as in Gemm.
func Batched[T dtype.Numeric](dst, a, b []Matrix[T], r Runner, epi Epilogue) {
	if len(a) != len(dst) || len(b) != len(dst) {
		panic(fmt.Sprintf("matmul: batch length mismatch: dst %d, a %d, b %d", len(dst), len(a), len(b)))
	}
	work := 0
	for i := range dst {
		checkShapes(dst[i], a[i], b[i])
		work += dst[i].Rows * dst[i].Cols * a[i].Cols
	}
	if d, x, ok := stacked(dst, a, b); ok {
		gemm(d, x, b[0], r, epi)
		return
	}
	workers := r.Workers()
	if workers <= 1 || len(dst) <= 1 || work < parallelMin || work/len(dst) >= parallelMin {
		for i := range dst {
			gemm(dst[i], a[i], b[i], r, epi)
		}
		return
	}
	parallel(r, min(workers, len(dst)), batchTask[T]{dst, a, b, min(workers, len(dst)), epi})
}

// batchTask is Batched's split of the batch into parts runs of whole
// products, each on one goroutine.
type batchTask[T dtype.Numeric] struct {
	dst, a, b []Matrix[T]
	parts     int
	epi       Epilogue
}

func (t *batchTask[T]) RunTask(w int) {
	lo, hi := w*len(t.dst)/t.parts, (w+1)*len(t.dst)/t.parts
	for i := lo; i < hi; i++ {
		gemm(t.dst[i], t.a[i], t.b[i], serial, t.epi)
	}
}

// stacked returns the single product dst = a @ b[0] that computes the batch
// when every b[i] is b[0], a[i] and dst[i] are rows [i·m, (i+1)·m) of one
// strided matrix each, and m > 1 (a product of one row sums in another
// order). Products that go to BLAS are not stacked: its order of summation
// may depend on the number of rows.
func stacked[T dtype.Numeric](dst, a, b []Matrix[T]) (Matrix[T], Matrix[T], bool) {
	if len(dst) < 2 || dst[0].Rows < 2 || viaBLAS[T]() {
		return Matrix[T]{}, Matrix[T]{}, false
	}
	m := dst[0].Rows
	for i := range dst {
		if !sameView(b[i], b[0]) || !nextRows(a[i], a[0], i*m) || !nextRows(dst[i], dst[0], i*m) {
			return Matrix[T]{}, Matrix[T]{}, false
		}
	}
	d, x := dst[0], a[0]
	d.Rows, x.Rows = m*len(dst), m*len(dst)
	return d, x, within(d) && within(x)
}

// sameView reports whether x and y are views of the same elements: the same
// shape and strides from the same first element. Empty views are the same
// when their shapes and strides are.
func sameView[T dtype.Numeric](x, y Matrix[T]) bool {
	if x.Rows != y.Rows || x.Cols != y.Cols || x.RowStride != y.RowStride || x.ColStride != y.ColStride {
		return false
	}
	if x.Rows == 0 || x.Cols == 0 {
		return true
	}
	return x.Offset < len(x.Data) && y.Offset < len(y.Data) && &x.Data[x.Offset] == &y.Data[y.Offset]
}

// nextRows reports whether x is the view of rows [i, i+x.Rows) of first
// extended downwards.
func nextRows[T dtype.Numeric](x, first Matrix[T], i int) bool {
	y := first
	y.Offset += i * first.RowStride
	return sameView(x, y)
}

// within reports whether every element of m is inside m.Data.
func within[T dtype.Numeric](m Matrix[T]) bool {
	return m.Rows == 0 || m.Cols == 0 ||
		m.Offset+(m.Rows-1)*m.RowStride+(m.Cols-1)*m.ColStride < len(m.Data)
}

// viaBLAS reports whether products of T go to gonum's BLAS.
func viaBLAS[T dtype.Numeric]() bool {
	switch any(T(0)).(type) {
	case float32, float64, complex64, complex128:
		return useBLAS.Load()
	}
	return false
}
