//go:build !amd64 || purego

package simd

// Without the assembly every lookup reports false; the tables below only
// give the lookups something to compile against.

var hasAVX2 = false

var hasBMI2 = false

var (
	binary64 [2][4]Binary[float64]
	binary32 [2][4]Binary[float32]
	fused64  [2][4][3][2]func(d, x, y, z []float64)
	fused32  [2][4][3][2]func(d, x, y, z []float32)
	fusedS64 [2][4][3][2]func(d, x []float64, y float64, z []float64)
	fusedS32 [2][4][3][2]func(d, x []float32, y float32, z []float32)
	unary64  [2][7]func(d, x []float64)
	unary32  [2][7]func(d, x []float32)

	binaryI64 [2][4]Binary[int64]
	binaryU64 [2][4]Binary[uint64]
	binaryI32 [2][4]Binary[int32]
	binaryU32 [2][4]Binary[uint32]
	binaryI16 [2][4]Binary[int16]
	binaryU16 [2][4]Binary[uint16]
	binaryI8  [2][4]Binary[int8]
	binaryU8  [2][4]Binary[uint8]

	compare64  [6]Compare[float64]
	compare32  [6]Compare[float32]
	compareI64 [6]Compare[int64]
	compareI32 [6]Compare[int32]
	where64    Where[float64]
	where32    Where[float32]
	boolsTo64  func(d []float64, c []bool)
	boolsTo32  func(d []float32, c []bool)
)

// Fence does nothing: there are no streaming loops here.
func Fence() {}

// splitLoads has no loops to choose for.
var splitLoads = false
