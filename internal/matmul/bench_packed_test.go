package matmul

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// matmulShapes are the products of issue 20's bench, (m, k, n): cubes and
// the skinny shapes of an MLP and a regression.
var matmulShapes = [][3]int{
	{64, 64, 64}, {128, 128, 128}, {256, 256, 256}, {512, 512, 512}, {1024, 1024, 1024},
	{1000, 8, 1}, {64, 128, 10}, {64, 784, 128}, {4096, 256, 64},
}

// BenchmarkMatmul runs Gemm on row-major float64 and float32 operands at
// GOMAXPROCS workers, reporting GFLOP/s (2·m·k·n per product): "packed" is
// the default path, "blas" the same product after UseBLAS(true), gonum's
// gemm, which was the default before the packed GEMM.
func BenchmarkMatmul(b *testing.B) {
	b.Run("float64", benchMatmul[float64])
	b.Run("float32", benchMatmul[float32])
}

func benchMatmul[F float](b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, s := range matmulShapes {
		m, k, n := s[0], s[1], s[2]
		x, y := RowMajor(randSlice[F](r, m*k), m, k), RowMajor(randSlice[F](r, k*n), k, n)
		dst := RowMajor(make([]F, m*n), m, n)
		for _, blas := range []bool{false, true} {
			path := map[bool]string{false: "packed", true: "blas"}[blas]
			b.Run(fmt.Sprintf("%dx%dx%d/%s", m, k, n, path), func(b *testing.B) {
				defer UseBLAS(UseBLAS(blas))
				b.SetBytes(int64(sizeOf[F]() * (m*k + k*n + m*n)))
				workers := runtime.GOMAXPROCS(0)
				for b.Loop() {
					gemm(dst, x, y, Goroutines(workers), nil)
				}
				reportFlops(b, m, k, n)
			})
		}
	}
}
