//go:build !amd64 || purego

package simd

// Without the assembly every lookup reports false; the tables below only
// give the lookups something to compile against.

var hasAVX2 = false

var (
	binary64 [4]Binary[float64]
	binary32 [4]Binary[float32]
	fused64  [4][3][2]func(d, x, y, z []float64)
	fused32  [4][3][2]func(d, x, y, z []float32)
	fusedS64 [4][3][2]func(d, x []float64, y float64, z []float64)
	fusedS32 [4][3][2]func(d, x []float32, y float32, z []float32)
	unary64  [4]func(d, x []float64)
	unary32  [4]func(d, x []float32)
)
