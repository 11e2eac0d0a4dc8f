package matmul

import (
	"fmt"
	"runtime"
	"unsafe"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/blas/cblas128"
	"gonum.org/v1/gonum/blas/cblas64"

	"github.com/tensorplay/tensorplay/dtype"
)

// Gemm computes the matrix product dst = a @ b, overwriting dst. It is:
//
//	for i := range dst.Rows {
//		for j := range dst.Cols {
//			var s T
//			for p := range a.Cols {
//				s += a.At(i, p) * b.At(p, j)
//			}
//			dst.Data[dst.Offset+i*dst.RowStride+j*dst.ColStride] = s
//		}
//	}
//
// float32, float64, complex64 and complex128 run on the packed GEMM with
// fused multiply-adds (or on gonum's BLAS after UseBLAS(true)); the integer
// types and named element types use a cache-blocked Go loop, with Go's
// wrapping integer arithmetic. Large products use up to GOMAXPROCS
// goroutines; the order in which each element is summed does not depend on
// their number, so results are the same from run to run.
//
// Preconditions, the caller's: a.Rows == dst.Rows, b.Cols == dst.Cols and
// a.Cols == b.Rows; every view lies inside its Data; no two elements of dst
// share memory (dst is not a broadcast view); dst does not overlap a or b.
// Gemm panics on a shape mismatch or a view outside its Data (these checks
// are O(1)); a violated aliasing precondition gives wrong results.
func Gemm[T dtype.Numeric](dst, a, b Matrix[T]) {
	gemm(dst, a, b, Goroutines(runtime.GOMAXPROCS(0)), nil)
}

// gemm is Gemm with its parts run by r (gonum's BLAS takes GOMAXPROCS),
// and epi, when not nil, finishing each block of dst once it is final.
func gemm[T dtype.Numeric](dst, a, b Matrix[T], r Runner, epi Epilogue) {
	checkShapes(dst, a, b)
	if dst.Rows == 0 || dst.Cols == 0 {
		return
	}
	if a.Cols == 0 {
		dst.zero()
		finish(dst, r, epi)
		return
	}
	switch {
	case dst.rowMajor():
		gemmRowMajor(dst, a, b, r, epi)
	case dst.T().rowMajor():
		// dstᵀ = bᵀ @ aᵀ, with dstᵀ row-major.
		gemmRowMajor(dst.T(), b.T(), a.T(), r, nil)
		finish(dst, r, epi)
	default:
		tmp := RowMajor(make([]T, dst.Rows*dst.Cols), dst.Rows, dst.Cols)
		gemmRowMajor(tmp, a, b, r, nil)
		copyTo(dst, tmp)
		finish(dst, r, epi)
	}
}

// finish calls epi, if not nil, on the whole of dst, in bands of rows run
// by r.
func finish[T dtype.Numeric](dst Matrix[T], r Runner, epi Epilogue) {
	if epi == nil {
		return
	}
	parts := min(r.Workers(), dst.Rows)
	if dst.Rows*dst.Cols < finishParallelMin {
		parts = 1
	}
	parallel(r, parts, finishTask[T]{dst, parts, epi})
}

// finishTask is finish's bands of rows, one a part.
type finishTask[T dtype.Numeric] struct {
	dst   Matrix[T]
	parts int
	epi   Epilogue
}

func (t *finishTask[T]) RunTask(w int) {
	lo, hi := w*t.dst.Rows/t.parts, (w+1)*t.dst.Rows/t.parts
	t.epi(t.dst.Offset+lo*t.dst.RowStride, hi-lo, t.dst.Cols)
}

// finishParallelMin is the size of dst from which finish splits its rows
// over the workers (the executor's default grain).
const finishParallelMin = 1 << 15

// checkShapes panics unless dst = a @ b is well formed.
func checkShapes[T dtype.Numeric](dst, a, b Matrix[T]) {
	dst.check("dst")
	a.check("a")
	b.check("b")
	if a.Rows != dst.Rows || b.Cols != dst.Cols || a.Cols != b.Rows {
		panic(fmt.Sprintf("matmul: shape mismatch: dst %dx%d = a %dx%d @ b %dx%d",
			dst.Rows, dst.Cols, a.Rows, a.Cols, b.Rows, b.Cols))
	}
}

// gemmRowMajor is gemm for a non-empty row-major dst and a.Cols > 0.
func gemmRowMajor[T dtype.Numeric](dst, a, b Matrix[T], r Runner, epi Epilogue) {
	switch d := any(dst).(type) {
	case Matrix[float32]:
		a, b := any(a).(Matrix[float32]), any(b).(Matrix[float32])
		if useBLAS.Load() {
			gemmBLAS(d, a, b, blas32.Implementation().Sgemm)
			finish(dst, r, epi)
			return
		}
		gemmFloat(d, a, b, r, kernel32, epi)
	case Matrix[float64]:
		a, b := any(a).(Matrix[float64]), any(b).(Matrix[float64])
		if useBLAS.Load() {
			gemmBLAS(d, a, b, blas64.Implementation().Dgemm)
			finish(dst, r, epi)
			return
		}
		gemmFloat(d, a, b, r, kernel64, epi)
	case Matrix[complex64]:
		a, b := any(a).(Matrix[complex64]), any(b).(Matrix[complex64])
		if useBLAS.Load() {
			gemmBLAS(d, a, b, cblas64.Implementation().Cgemm)
		} else {
			gemmComplex64(d, a, b, r)
		}
		finish(dst, r, epi)
	case Matrix[complex128]:
		a, b := any(a).(Matrix[complex128]), any(b).(Matrix[complex128])
		if useBLAS.Load() {
			gemmBLAS(d, a, b, cblas128.Implementation().Zgemm)
		} else {
			gemmComplex128(d, a, b, r)
		}
		finish(dst, r, epi)
	default:
		gemmLoop(dst, a, b, r)
		finish(dst, r, epi)
	}
}

// gemmFloat is gemmRowMajor for float32 and float64 off BLAS: a product
// with one column or one row goes to gemv (split across r's workers when
// large: gemvParallel), one with at most fewMax columns whose a fits in
// cache to that many (gemvFew), any other to gemmPacked.
func gemmFloat[F float](dst, a, b Matrix[F], r Runner, kern microKernel[F], epi Epilogue) {
	switch {
	case dst.Cols == 1:
		gemvParallel(dst, a, b, kern, r)
		finish(dst, r, epi)
	case dst.Rows == 1:
		gemvParallel(dst.T(), b.T(), a.T(), kern, r)
		finish(dst, r, epi)
	case dst.Cols <= fewMax && fewFits(a):
		gemvFew(dst, a, b, kern, r)
		finish(dst, r, epi)
	default:
		gemmPacked(dst, a, b, r, kern, blockingOf(kern), epi)
	}
}

// blockingOf is the blocking of kern's products on this machine.
func blockingOf[F float](kern microKernel[F]) blocking {
	var size F
	return blockingFor(machineCaches(), int(unsafe.Sizeof(size)), kern.mr, kern.nr)
}
