package matmul

// gemv is gemm for a product with one column (n == 1), which packing would
// only slow down: each element of x is used once per row of a, so the
// product runs at the speed a can be read. It is:
//
//	for i := range dst.Rows {
//		var s F
//		for p := range a.Cols {
//			s += a.At(i, p) * x.At(p, 0)
//		}
//		dst.Data[dst.Offset+i*dst.RowStride] = s
//	}
//
// When a's rows are contiguous (or it has one row), each sum is the
// variant's gemv dot product, with x copied first unless it is contiguous
// too; when a's columns are, the variant's gemvColumns runs down columns of
// a, summing each row in order of p; otherwise a is read element by element, summed as the dot
// product sums. The order depends on the layout of a alone, never on the
// number of workers. A row vector times a matrix (m == 1) comes here
// transposed: dstᵀ = bᵀ @ aᵀ.
func gemv[F float](dst, a, x Matrix[F], kern microKernel[F]) {
	m, k := a.Rows, a.Cols
	if a.RowStride == 1 && a.ColStride != 1 && m > 1 {
		y := dst.Data[dst.Offset:]
		if dst.RowStride != 1 {
			y = make([]F, m)
		}
		kern.gemvColumns(m, k, a.Data[a.Offset:], a.ColStride, x.Data[x.Offset:], x.RowStride, y)
		if dst.RowStride != 1 {
			for i, v := range y {
				dst.Data[dst.Offset+i*dst.RowStride] = v
			}
		}
		return
	}
	xs := x.Data[x.Offset:]
	if x.RowStride != 1 && k > 1 {
		xs = make([]F, k)
		for p := range xs {
			xs[p] = x.At(p, 0)
		}
	}
	y := dst.Data[dst.Offset:]
	if a.ColStride == 1 || k == 1 {
		lda := a.RowStride
		if m == 1 {
			lda = k
		}
		kern.gemv(m, k, a.Data[a.Offset:], lda, xs, y, dst.RowStride)
		return
	}
	row := make([]F, k)
	for i := range m {
		for p := range row {
			row[p] = a.At(i, p)
		}
		kern.gemv(1, k, row, k, xs, y[i*dst.RowStride:], 1)
	}
}
