package matmul

import (
	"os"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
)

// useBLAS routes float and complex products through gonum's BLAS.
var useBLAS atomic.Bool

// blasEnv is the environment variable that turns UseBLAS on at start-up,
// for programs outside this module, which cannot call UseBLAS.
const blasEnv = "TENSORPLAY_MATMUL"

func init() {
	useBLAS.Store(os.Getenv(blasEnv) == "blas")
}

// UseBLAS sets whether float32, float64, complex64 and complex128 products
// go to the BLAS implementation registered with gonum's blas32, blas64,
// cblas64 and cblas128 packages (see blas64.Use) rather than to this
// package's packed kernels, and returns the previous setting. It is off by
// default (on when the environment has TENSORPLAY_MATMUL=blas at start-up);
// turn it on to run products on another BLAS plugged into gonum, such as
// OpenBLAS through a cgo binding. Products already running finish on the
// path they started on.
func UseBLAS(on bool) (was bool) {
	return useBLAS.Swap(on)
}

// blasElem is an element type that goes through BLAS.
type blasElem interface {
	float32 | float64 | complex64 | complex128
}

// gemmFunc is the signature shared by Sgemm, Dgemm, Cgemm and Zgemm.
type gemmFunc[T blasElem] func(tA, tB blas.Transpose, m, n, k int, alpha T, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)

// gemmBLAS is gemmRowMajor through BLAS: C = 1·op(A)·op(B) + 0·C.
func gemmBLAS[T blasElem](dst, a, b Matrix[T], gemm gemmFunc[T]) {
	sa, tA := blasOperand(a)
	sb, tB := blasOperand(b)
	if tA == blas.Trans && (tB == blas.Trans || dst.Cols >= transCopyMin) {
		sa, tA = contiguous(a), blas.NoTrans
	}
	gemm(tA, tB, dst.Rows, dst.Cols, a.Cols,
		1, sa.Data[sa.Offset:], sa.leading(),
		sb.Data[sb.Offset:], sb.leading(),
		0, dst.Data[dst.Offset:], dst.leading())
}

// transCopyMin is the width of dst from which gemmBLAS copies a transposed a
// rather than pass it with blas.Trans. gonum's gemm is slow with a transposed
// first operand: at 512³ float64, NoTrans·NoTrans runs at 14.5 GFLOP/s,
// NoTrans·Trans at 14.7, Trans·NoTrans at 10 and Trans·Trans at 1.3 (at 128³
// Trans·NoTrans is 3x slower). The copy costs m·k moves against m·k·n
// multiply-adds; it breaks even near n = 64 and wins beyond. Trans·Trans is
// always copied, making it NoTrans·Trans.
const transCopyMin = 64

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
