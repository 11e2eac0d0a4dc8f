package matmul

import "unsafe"

// fewMax is the most columns of dst a product runs as that many
// matrix-vector products (gemvFew) instead of packed. A panel of B is nr
// columns wide (32 float32 or 16 float64 for the AVX-512 kernels, half
// that for their half kernels): a product of 4 columns would leave most of every
// multiply-add's lanes empty, and with a short k the kernels' call and the
// copy out of their edge tile cost more than the arithmetic. On [1000,8]@
// [8,4] float64 (k-means' distances), on one core, the packed product
// takes 6µs, four gemv calls, each reading a from cache, 3µs. Few rows
// stay packed, though one gemv per row down the columns of bᵀ is faster
// ([4,1000]@[1000,8], k-means' means, 4.2 against 6.0µs): a row's bits
// must not depend on how many rows are computed with it, for stacked
// batches and for the mapped product's pieces of rows, and gemv's order
// is not the packed kernels'. The columns of a product are never split
// that way, so few columns may sum as gemv does.
const fewMax = 4

// fewFits reports whether m, whose vectors gemvFew multiplies fewMax times
// at most, fits in half of a core's L2 cache, so that every pass but the
// first reads it from cache.
func fewFits[F float](m Matrix[F]) bool {
	var size F
	return m.Rows*m.Cols*int(unsafe.Sizeof(size)) <= machineCaches().l2/2
}

// gemvFew computes dst = a @ b, whose dst has n ≤ fewMax columns, as n
// products of a with a column of b, each summed as gemv sums it (the order
// depends on a's layout alone, never on the number of workers or of
// columns). Unless gemv reads them in place (down a's columns, at any
// stride), the columns of b are copied together into one pooled buffer
// first, so that no gemv copies its own.
func gemvFew[F float](dst, a, b Matrix[F], kern microKernel[F], r Runner) {
	k, n := b.Rows, b.Cols
	down := a.RowStride == 1 && a.ColStride != 1 && a.Rows > 1 // gemvColumns
	if b.RowStride != 1 && k > 1 && !down {
		buf := getBuffer[F](gemvPartials, k*n)
		defer putBuffer(gemvPartials, buf)
		cols := Matrix[F]{Data: *buf, Rows: k, Cols: n, RowStride: 1, ColStride: k}
		copyTo(cols, b)
		b = cols
	}
	for j := range n {
		gemvParallel(dst.Slice(0, dst.Rows, j, j+1), a, b.Slice(0, k, j, j+1), kern, r)
	}
}
