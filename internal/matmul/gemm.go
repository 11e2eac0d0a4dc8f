package matmul

import (
	"fmt"
	"runtime"

	"gonum.org/v1/gonum/blas"
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
// float32, float64, complex64 and complex128 go through gonum's BLAS (the
// implementation registered with blas32, blas64, cblas64 and cblas128);
// integer element types, and named types whose underlying type is one of
// these, use a cache-blocked loop with Go's wrapping arithmetic. Either way
// the summation order of each element does not depend on GOMAXPROCS, so results are
// reproducible from run to run. Large products use up to GOMAXPROCS
// goroutines, as gonum's Dgemm does.
//
// Preconditions, the caller's: a.Rows == dst.Rows, b.Cols == dst.Cols and
// a.Cols == b.Rows; every view lies inside its Data; no two elements of dst
// share memory (dst is not a broadcast view); dst does not overlap a or b.
// Gemm panics on a shape mismatch or a view outside its Data (these checks
// are O(1)); a violated aliasing precondition gives wrong results.
func Gemm[T dtype.Numeric](dst, a, b Matrix[T]) {
	gemm(dst, a, b, runtime.GOMAXPROCS(0))
}

// gemm is Gemm with the integer loop limited to workers goroutines.
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
		gemmBLAS(d, any(a).(Matrix[float32]), any(b).(Matrix[float32]), blas32.Implementation().Sgemm)
	case Matrix[float64]:
		gemmBLAS(d, any(a).(Matrix[float64]), any(b).(Matrix[float64]), blas64.Implementation().Dgemm)
	case Matrix[complex64]:
		gemmBLAS(d, any(a).(Matrix[complex64]), any(b).(Matrix[complex64]), cblas64.Implementation().Cgemm)
	case Matrix[complex128]:
		gemmBLAS(d, any(a).(Matrix[complex128]), any(b).(Matrix[complex128]), cblas128.Implementation().Zgemm)
	default:
		gemmLoop(dst, a, b, workers)
	}
}

// blasElem is an element type with a BLAS gemm.
type blasElem interface {
	float32 | float64 | complex64 | complex128
}

// gemmFunc is the signature shared by Sgemm, Dgemm, Cgemm and Zgemm.
type gemmFunc[T blasElem] func(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)

// gemmBLAS is gemmRowMajor through BLAS: C = 1·op(A)·op(B) + 0·C.
func gemmBLAS[T blasElem](dst, a, b Matrix[T], gemm gemmFunc[T]) {
	sa, tA := blasOperand(a)
	sb, tB := blasOperand(b)
	gemm(tA, tB, dst.Rows, dst.Cols, a.Cols,
		1, sa.Data[sa.Offset:], sa.leading(),
		sb.Data[sb.Offset:], sb.leading(),
		0, dst.Data[dst.Offset:], dst.leading())
}

// blasOperand returns the row-major matrix BLAS reads for m and whether BLAS
// is to transpose it: m itself, m's transpose (m has unit row stride), or, for
// any other layout (broadcast, overlapping or doubly strided), a contiguous copy.
func blasOperand[T blasElem](m Matrix[T]) (Matrix[T], blas.Transpose) {
	switch {
	case m.rowMajor():
		return m, blas.NoTrans
	case m.T().rowMajor():
		return m.T(), blas.Trans
	default:
		return contiguous(m), blas.NoTrans
	}
}
