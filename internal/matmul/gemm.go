package matmul

import (
	"fmt"
	"runtime"
	"unsafe"

	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
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
// float32 and float64 run on the packed GEMM with fused multiply-adds (or on
// gonum's BLAS after UseBLAS(true)); complex64 goes through gonum's BLAS
// (cblas64); complex128, the integer types and named element types use a
// cache-blocked Go loop, with Go's wrapping integer arithmetic. Large
// products use up to GOMAXPROCS goroutines; the order in which each element
// is summed does not depend on their number, so results are the same from
// run to run.
//
// Preconditions, the caller's: a.Rows == dst.Rows, b.Cols == dst.Cols and
// a.Cols == b.Rows; every view lies inside its Data; no two elements of dst
// share memory (dst is not a broadcast view); dst does not overlap a or b.
// Gemm panics on a shape mismatch or a view outside its Data (these checks
// are O(1)); a violated aliasing precondition gives wrong results.
func Gemm[T dtype.Numeric](dst, a, b Matrix[T]) {
	gemm(dst, a, b, runtime.GOMAXPROCS(0))
}

// gemm is Gemm on up to workers goroutines (gonum's BLAS takes GOMAXPROCS).
func gemm[T dtype.Numeric](dst, a, b Matrix[T], workers int) {
	checkShapes(dst, a, b)
	if dst.Rows == 0 || dst.Cols == 0 {
		return
	}
	if a.Cols == 0 {
		dst.zero()
		return
	}
	switch {
	case dst.rowMajor():
		gemmRowMajor(dst, a, b, workers)
	case dst.T().rowMajor():
		// dstᵀ = bᵀ @ aᵀ, with dstᵀ row-major.
		gemmRowMajor(dst.T(), b.T(), a.T(), workers)
	default:
		tmp := RowMajor(make([]T, dst.Rows*dst.Cols), dst.Rows, dst.Cols)
		gemmRowMajor(tmp, a, b, workers)
		copyTo(dst, tmp)
	}
}

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
func gemmRowMajor[T dtype.Numeric](dst, a, b Matrix[T], workers int) {
	switch d := any(dst).(type) {
	case Matrix[float32]:
		a, b := any(a).(Matrix[float32]), any(b).(Matrix[float32])
		if useBLAS.Load() {
			gemmBLAS(d, a, b, blas32.Implementation().Sgemm)
			return
		}
		gemmFloat(d, a, b, workers, kernel32)
	case Matrix[float64]:
		a, b := any(a).(Matrix[float64]), any(b).(Matrix[float64])
		if useBLAS.Load() {
			gemmBLAS(d, a, b, blas64.Implementation().Dgemm)
			return
		}
		gemmFloat(d, a, b, workers, kernel64)
	case Matrix[complex64]:
		gemmBLAS(d, any(a).(Matrix[complex64]), any(b).(Matrix[complex64]), cblas64.Implementation().Cgemm)
	default:
		// complex128 too: gonum's Zgemm is unblocked and serial, and the Go
		// loop runs 2x faster on one goroutine (256³: 2.8 against 1.3
		// GFLOP/s). For complex64, Cgemm beats the loop (0.92 against 0.69).
		gemmLoop(dst, a, b, workers)
	}
}

// gemmFloat is gemmRowMajor for float32 and float64 off BLAS: a product
// with one column or one row goes to gemv, any other to gemmPacked.
func gemmFloat[F float](dst, a, b Matrix[F], workers int, kern microKernel[F]) {
	switch {
	case dst.Cols == 1:
		gemv(dst, a, b, kern)
	case dst.Rows == 1:
		gemv(dst.T(), b.T(), a.T(), kern)
	default:
		var size F
		bl := blockingFor(machineCaches(), int(unsafe.Sizeof(size)), kern.mr, kern.nr)
		gemmPacked(dst, a, b, workers, kern, bl)
	}
}
