package exec

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/matmul"
)

// bandedGemm runs a batch of products of which an operand is mapped (see
// RangeReleaser) in bands of rows of a and dst, each about releaseBytes of
// the wider of the two, releasing each band's rows of the mapped ones once
// the band is done, and b (read by every band) at the end: resident memory
// stays a band, not the matrix. A row of the product is computed the same
// way whatever the band (the packed product sums over k in the same
// blocks for every row), and no band is a single row (that would take the
// gemv path), so the bits are those of the whole product.
func bandedGemm[T dtype.Numeric](dst, as, bs []matmul.Matrix[T], r matmul.Runner, epi matmul.Epilogue, ra, rb, ro RangeReleaser) {
	size := dtype.Of[T]().Size()
	for i := range dst {
		d, a := dst[i], as[i]
		band := max(2, releaseBytes/(max(1, a.Cols, d.Cols)*size))
		for r0 := 0; r0 < d.Rows; {
			h := min(band, d.Rows-r0)
			if d.Rows-r0-h == 1 {
				h++ // no band of one row
			}
			ab, db := a, d
			ab.Offset, ab.Rows = a.Offset+r0*a.RowStride, h
			db.Offset, db.Rows = d.Offset+r0*d.RowStride, h
			matmul.Batched([]matmul.Matrix[T]{db}, []matmul.Matrix[T]{ab}, bs[i:i+1], r, epi)
			releaseMatrix(ra, ab)
			releaseMatrix(ro, db)
			r0 += h
		}
		releaseMatrix(rb, bs[i])
	}
}

// releaseMatrix releases the storage span of m, if r is not nil.
func releaseMatrix[T dtype.Numeric](r RangeReleaser, m matmul.Matrix[T]) {
	if r == nil || m.Rows == 0 || m.Cols == 0 {
		return
	}
	r.ReleaseRange(m.Offset, (m.Rows-1)*m.RowStride+(m.Cols-1)*m.ColStride+1)
}
