package matmul

import "sync"

// A matrix-vector product of a matrix larger than a core's L2 cache runs at
// the speed memory delivers a, and one core cannot draw all of the
// machine's bandwidth: a [100000,32] float64 gemv (linear regression's
// X@w, and its gradient Xᵀ@r) ran 1.3x faster split over two cores. Below
// gemvParallelMin multiply-adds the split costs more than it saves.
const gemvParallelMin = 1 << 17

// gemvChunk is the length of the pieces of k a column-major gemv sums
// separately (see gemvSplitK).
const gemvChunk = 8192

// gemvParallel is gemv split across r's workers where the product is
// large: by rows of a when its rows are contiguous (each row's sum is the
// same whoever computes it), by pieces of k when its columns are and k is
// long (gemvSplitK). Everything else, and every product below
// gemvParallelMin, is gemv on the calling goroutine.
func gemvParallel[F float](dst, a, x Matrix[F], kern microKernel[F], r Runner) {
	m, k := a.Rows, a.Cols
	columns := a.RowStride == 1 && a.ColStride != 1 && m > 1 // gemv's gemvColumns case
	switch {
	case columns && k > gemvChunk && m <= gemvChunk && m*k >= gemvParallelMin:
		gemvSplitK(dst, a, x, kern, r)
	case !columns && m*k >= gemvParallelMin && r.Workers() > 1 && m >= 4*r.Workers():
		parts := 4 * r.Workers()
		r.Parallel(parts, func(i int) {
			lo, hi := i*m/parts, (i+1)*m/parts
			gemv(dst.rowsOf(lo, hi), a.rowsOf(lo, hi), x, kern)
		})
	default:
		gemv(dst, a, x, kern)
	}
}

// rowsOf is rows [lo, hi) of m.
func (m Matrix[F]) rowsOf(lo, hi int) Matrix[F] {
	m.Offset += lo * m.RowStride
	m.Rows = hi - lo
	return m
}

// colsOf is columns [lo, hi) of m.
func (m Matrix[F]) colsOf(lo, hi int) Matrix[F] {
	m.Offset += lo * m.ColStride
	m.Cols = hi - lo
	return m
}

// gemvSplitK is gemv for a with contiguous columns and k above gemvChunk
// (a tall matrix transposed: Xᵀ@r): k is cut into pieces of gemvChunk, each
// piece's partial sums of the m rows are computed on its own (in order of
// p, as gemvColumns sums), and the partials are added piece after piece.
// The pieces depend on k alone, so the bits are the same for any number of
// workers, one included.
func gemvSplitK[F float](dst, a, x Matrix[F], kern microKernel[F], r Runner) {
	m, k := a.Rows, a.Cols
	pieces := (k + gemvChunk - 1) / gemvChunk
	scratch := gemvScratch[F](pieces * m)
	defer gemvPool.Put(scratch)
	part := (*scratch).([]F)[:pieces*m]
	r.Parallel(pieces, func(i int) {
		lo, hi := i*gemvChunk, min(k, (i+1)*gemvChunk)
		y := Matrix[F]{Data: part[i*m : (i+1)*m], Rows: m, Cols: 1, RowStride: 1, ColStride: 1}
		gemv(y, a.colsOf(lo, hi), x.rowsOf(lo, hi), kern)
	})
	for j := range m {
		s := part[j]
		for i := 1; i < pieces; i++ {
			s += part[i*m+j]
		}
		dst.Data[dst.Offset+j*dst.RowStride] = s
	}
}

// gemvPool holds gemvSplitK's partial sums between products, so a product
// allocates nothing once warm.
var gemvPool sync.Pool

// gemvScratch returns a pooled slice of at least n elements of F, boxed.
func gemvScratch[F float](n int) *any {
	if p, ok := gemvPool.Get().(*any); ok {
		if s, ok := (*p).([]F); ok && cap(s) >= n {
			return p
		}
	}
	p := new(any)
	*p = make([]F, n)
	return p
}
