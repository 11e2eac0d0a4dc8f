package matmul

// A matrix-vector product of a matrix larger than a core's L2 cache runs at
// the speed memory delivers a, and one core cannot draw all of the
// machine's bandwidth: tpbench's probe copied 1e7 float64 at 18.3 GB/s on
// one goroutine and 24.0 GB/s on two (one run, 2 vCPUs). Linear
// regression's X@w and its gradient Xᵀ@r on [100000,32] are such products.
// Below gemvParallelMin multiply-adds the split would cost more than it
// saves.
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
		if x.RowStride != 1 && k > 1 { // copied once here, not by every part's gemv
			xs := getBuffer[F](gemvVector, k)
			defer putBuffer(gemvVector, xs)
			for p := range k {
				(*xs)[p] = x.At(p, 0)
			}
			x = RowMajor((*xs)[:k], k, 1)
		}
		parallel(r, parts, gemvRowsTask[F]{dst, a, x, kern, parts})
	default:
		gemv(dst, a, x, kern)
	}
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
	scratch := getBuffer[F](gemvPartials, pieces*m)
	defer putBuffer(gemvPartials, scratch)
	part := *scratch
	parallel(r, pieces, gemvPiecesTask[F]{part, a, x, kern})
	for j := range m {
		s := part[j]
		for i := 1; i < pieces; i++ {
			s += part[i*m+j]
		}
		dst.Data[dst.Offset+j*dst.RowStride] = s
	}
}

// gemvRowsTask is gemvParallel's bands of rows of a, parts of them.
type gemvRowsTask[F float] struct {
	dst, a, x Matrix[F]
	kern      microKernel[F]
	parts     int
}

func (t *gemvRowsTask[F]) RunTask(i int) {
	m, k := t.a.Rows, t.a.Cols
	lo, hi := i*m/t.parts, (i+1)*m/t.parts
	gemv(t.dst.Slice(lo, hi, 0, 1), t.a.Slice(lo, hi, 0, k), t.x, t.kern)
}

// gemvPiecesTask is gemvSplitK's pieces of gemvChunk columns of a, each
// summed into its own m partials of part.
type gemvPiecesTask[F float] struct {
	part []F
	a, x Matrix[F]
	kern microKernel[F]
}

func (t *gemvPiecesTask[F]) RunTask(i int) {
	m, k := t.a.Rows, t.a.Cols
	lo, hi := i*gemvChunk, min(k, (i+1)*gemvChunk)
	y := RowMajor(t.part[i*m:(i+1)*m], m, 1)
	gemv(y, t.a.Slice(0, m, lo, hi), t.x.Slice(lo, hi, 0, 1), t.kern)
}
