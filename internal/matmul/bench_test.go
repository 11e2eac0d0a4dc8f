package matmul

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/mat"

	"github.com/tensorplay/tensorplay/dtype"
)

// reportFlops reports the rate of an m×k×n product as GFLOP/s, counting a
// multiply and an add per term (whatever the element type).
func reportFlops(b *testing.B, m, k, n int) {
	b.ReportMetric(2*float64(m*k*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func randSlice[T dtype.Float](r *rand.Rand, n int) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = T(r.NormFloat64())
	}
	return s
}

// BenchmarkGemm512 is workload W11: 512×512 float64 and float32 products
// against gonum used directly (mat.Dense.Mul for float64, blas32.Gemm for
// float32), at the same GOMAXPROCS, in one run.
func BenchmarkGemm512(b *testing.B) {
	const n = 512
	r := rand.New(rand.NewPCG(7, 8))
	a64, b64 := randSlice[float64](r, n*n), randSlice[float64](r, n*n)
	a32, b32 := randSlice[float32](r, n*n), randSlice[float32](r, n*n)

	b.Run("float64/Gemm", func(b *testing.B) {
		dst := RowMajor(make([]float64, n*n), n, n)
		x, y := RowMajor(a64, n, n), RowMajor(b64, n, n)
		for b.Loop() {
			Gemm(dst, x, y)
		}
		reportFlops(b, n, n, n)
	})
	b.Run("float64/Gemm-a-transposed", func(b *testing.B) {
		// Copied: gonum's Trans·NoTrans is slower than the copy.
		dst := RowMajor(make([]float64, n*n), n, n)
		x, y := RowMajor(a64, n, n).T(), RowMajor(b64, n, n)
		for b.Loop() {
			Gemm(dst, x, y)
		}
		reportFlops(b, n, n, n)
	})
	b.Run("float64/Gemm-b-transposed", func(b *testing.B) {
		dst := RowMajor(make([]float64, n*n), n, n)
		x, y := RowMajor(a64, n, n), RowMajor(b64, n, n).T()
		for b.Loop() {
			Gemm(dst, x, y)
		}
		reportFlops(b, n, n, n)
	})
	b.Run("float64/Gemm-both-transposed", func(b *testing.B) {
		dst := RowMajor(make([]float64, n*n), n, n)
		x, y := RowMajor(a64, n, n).T(), RowMajor(b64, n, n).T()
		for b.Loop() {
			Gemm(dst, x, y)
		}
		reportFlops(b, n, n, n)
	})
	b.Run("float64/Gemm-strided-copy", func(b *testing.B) {
		// b is every other column of a 512×1024 slice: one contiguous copy.
		wide := append(append([]float64(nil), b64...), b64...)
		dst := RowMajor(make([]float64, n*n), n, n)
		x := RowMajor(a64, n, n)
		y := Matrix[float64]{Data: wide, Rows: n, Cols: n, RowStride: 2 * n, ColStride: 2}
		for b.Loop() {
			Gemm(dst, x, y)
		}
		reportFlops(b, n, n, n)
	})
	b.Run("float64/mat.Dense.Mul", func(b *testing.B) {
		dst := mat.NewDense(n, n, nil)
		x, y := mat.NewDense(n, n, a64), mat.NewDense(n, n, b64)
		for b.Loop() {
			dst.Mul(x, y)
		}
		reportFlops(b, n, n, n)
	})
	b.Run("float32/Gemm", func(b *testing.B) {
		dst := RowMajor(make([]float32, n*n), n, n)
		x, y := RowMajor(a32, n, n), RowMajor(b32, n, n)
		for b.Loop() {
			Gemm(dst, x, y)
		}
		reportFlops(b, n, n, n)
	})
	b.Run("float32/blas32.Gemm", func(b *testing.B) {
		dst := blas32.General{Rows: n, Cols: n, Stride: n, Data: make([]float32, n*n)}
		x := blas32.General{Rows: n, Cols: n, Stride: n, Data: a32}
		y := blas32.General{Rows: n, Cols: n, Stride: n, Data: b32}
		for b.Loop() {
			blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, x, y, 0, dst)
		}
		reportFlops(b, n, n, n)
	})
}

// BenchmarkGemmInt64 measures the blocked Go loop on 256×256 int64, on one
// goroutine and split over GOMAXPROCS.
func BenchmarkGemmInt64(b *testing.B) {
	const n = 256
	r := rand.New(rand.NewPCG(9, 10))
	x, y := make([]int64, n*n), make([]int64, n*n)
	for i := range x {
		x[i], y[i] = r.Int64N(100), r.Int64N(100)
	}
	dst := RowMajor(make([]int64, n*n), n, n)
	b.Run("serial", func(b *testing.B) {
		for b.Loop() {
			gemm(dst, RowMajor(x, n, n), RowMajor(y, n, n), serial, nil)
		}
		reportFlops(b, n, n, n)
	})
	b.Run("Gemm", func(b *testing.B) {
		for b.Loop() {
			Gemm(dst, RowMajor(x, n, n), RowMajor(y, n, n))
		}
		reportFlops(b, n, n, n)
	})
	b.Run("Gemm-transposed-b", func(b *testing.B) {
		for b.Loop() {
			Gemm(dst, RowMajor(x, n, n), RowMajor(y, n, n).T())
		}
		reportFlops(b, n, n, n)
	})
}

// BenchmarkGemmComplex compares the complex products on the packed real
// kernels (the default), the blocked Go loop (complex128's path before) and
// gonum's Cgemm and Zgemm (complex64's), at GOMAXPROCS workers, in GFLOP/s
// of real arithmetic (8·m·k·n per product).
func BenchmarkGemmComplex(b *testing.B) {
	b.Run("complex64", benchComplex[complex64])
	b.Run("complex128", benchComplex[complex128])
}

func benchComplex[C complex64 | complex128](b *testing.B) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{64, 256, 512} {
		x, y := RowMajor(make([]C, n*n), n, n), RowMajor(make([]C, n*n), n, n)
		for i := range x.Data {
			x.Data[i], y.Data[i] = C(complex(r.NormFloat64(), r.NormFloat64())), C(complex(r.NormFloat64(), r.NormFloat64()))
		}
		dst := RowMajor(make([]C, n*n), n, n)
		run := Goroutines(runtime.GOMAXPROCS(0))
		for _, path := range []string{"packed", "loop", "blas"} {
			b.Run(fmt.Sprintf("%d/%s", n, path), func(b *testing.B) {
				defer UseBLAS(UseBLAS(path == "blas"))
				for b.Loop() {
					if path == "loop" {
						gemmLoop(dst, x, y, run)
					} else {
						gemm(dst, x, y, run, nil)
					}
				}
				reportFlops(b, 4*n, n, n)
			})
		}
	}
}
