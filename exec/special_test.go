package exec_test

import (
	"math"
	"testing"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// Table tests of the values the semantics name: NaN propagation, integer
// division by zero, the signs of floor division, rounding half to even.

var (
	nan  = math.NaN()
	inf  = math.Inf(1)
	negZ = math.Copysign(0, -1)
)

// binaryTable evaluates op over the pairs (a[i], b[i]), both as vectors and
// with each side a scalar, and compares with want.
func binaryTable[T, U dtype.Elem](t *testing.T, name string, op func(x, y expr.Expr[T]) expr.Expr[U], a, b []T, want []U) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		t.Helper()
		n := len(a)
		for _, x := range testExecutors {
			got := evalWith(t, x.x, op(expr.Of(fromValues(t, a, n)), expr.Of(fromValues(t, b, n))))
			assertValues(t, want, got.Values(), "vector-vector, %s executor (a=%v b=%v)", x.name, a, b)
		}
		for i := range a {
			got := evalWith(t, tiled, op(expr.Of(fromValues(t, a[i:i+1], 1)).Expand(19), expr.Scalar(b[i])))
			want19 := make([]U, 19)
			for k := range want19 {
				want19[k] = want[i]
			}
			assertValues(t, want19, got.Values(), "vector-scalar %v, %v", a[i], b[i])
			got = evalWith(t, tiled, op(expr.Scalar(a[i]), expr.Of(fromValues(t, b[i:i+1], 1)).Expand(19)))
			assertValues(t, want19, got.Values(), "scalar-vector %v, %v", a[i], b[i])
		}
	})
}

func unaryTable[T, U dtype.Elem](t *testing.T, name string, op func(x expr.Expr[T]) expr.Expr[U], a []T, want []U) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		t.Helper()
		for _, x := range testExecutors {
			got := evalWith(t, x.x, op(expr.Of(fromValues(t, a, len(a)))))
			assertValues(t, want, got.Values(), "%s executor (a=%v)", x.name, a)
		}
	})
}

func TestMaximumMinimumNaN(t *testing.T) {
	a := []float64{nan, 1, nan, inf, -inf, 1, 2, nan}
	b := []float64{1, nan, nan, nan, 1, 2, 1, -inf}
	binaryTable(t, "maximum/f64", expr.Expr[float64].Maximum, a, b, []float64{nan, nan, nan, nan, 1, 2, 2, nan})
	binaryTable(t, "minimum/f64", expr.Expr[float64].Minimum, a, b, []float64{nan, nan, nan, nan, -inf, 1, 1, nan})
	a32 := []float32{float32(nan), 1, float32(inf), 3}
	b32 := []float32{1, float32(nan), float32(nan), -3}
	binaryTable(t, "maximum/f32", expr.Expr[float32].Maximum, a32, b32, []float32{float32(nan), float32(nan), float32(nan), 3})
	binaryTable(t, "minimum/f32", expr.Expr[float32].Minimum, a32, b32, []float32{float32(nan), float32(nan), float32(nan), -3})
	// relu and sign keep NaN.
	unaryTable(t, "relu", expr.Expr[float64].Relu, []float64{nan, -1, 2, negZ}, []float64{nan, 0, 2, 0})
	unaryTable(t, "sign", expr.Expr[float64].Sign, []float64{nan, -3, 2, 0, inf, -inf}, []float64{nan, -1, 1, 0, 1, -1})
}

func TestIntegerDivision(t *testing.T) {
	// Division by zero gives 0 (NumPy), trunc rounds toward zero, floor
	// toward negative infinity.
	a := []int32{7, -7, 7, -7, 6, -6, 0, 5, -5, 0, math.MinInt32, math.MinInt32}
	b := []int32{2, 2, -2, -2, -3, 3, -3, 0, 0, 0, -1, 2}
	binaryTable(t, "div_trunc/i32", expr.Expr[int32].DivTrunc, a, b, []int32{3, -3, -3, 3, -2, -2, 0, 0, 0, 0, math.MinInt32, math.MinInt32 / 2})
	binaryTable(t, "div_floor/i32", expr.Expr[int32].DivFloor, a, b, []int32{3, -4, -4, 3, -2, -2, 0, 0, 0, 0, math.MinInt32, math.MinInt32 / 2})
	a8 := []int8{-128, -128, 127, -1, 1}
	b8 := []int8{-1, 3, -128, 3, -3}
	binaryTable(t, "div_floor/i8", expr.Expr[int8].DivFloor, a8, b8, []int8{-128, -43, -1, -1, -1})
	binaryTable(t, "div_trunc/i8", expr.Expr[int8].DivTrunc, a8, b8, []int8{-128, -42, 0, 0, 0})
	au := []uint8{7, 255, 0, 9}
	bu := []uint8{2, 0, 0, 10}
	binaryTable(t, "div_floor/u8", expr.Expr[uint8].DivFloor, au, bu, []uint8{3, 0, 0, 0})
	binaryTable(t, "div_trunc/u8", expr.Expr[uint8].DivTrunc, au, bu, []uint8{3, 0, 0, 0})
	a64 := []int64{math.MaxInt64, math.MinInt64, -1}
	b64 := []int64{0, 0, 0}
	binaryTable(t, "div_floor/i64 by zero", expr.Expr[int64].DivFloor, a64, b64, []int64{0, 0, 0})
}

func TestFloorDivision(t *testing.T) {
	// The signs of floor division, and the rounding modes of float division.
	a := []float64{7.5, -7.5, 7.5, -7.5, 6, -6, 0, negZ, 1, -1, 0}
	b := []float64{2, 2, -2, -2, -3, 3, -3, 3, 0, 0, 0}
	binaryTable(t, "div_floor/f64", expr.Expr[float64].DivFloor, a, b, []float64{3, -4, -4, 3, -2, -2, negZ, negZ, inf, -inf, nan})
	binaryTable(t, "div_trunc/f64", expr.Expr[float64].DivTrunc, a, b, []float64{3, -3, -3, 3, -2, -2, negZ, negZ, inf, -inf, nan})
	a32 := []float32{7.5, -7.5, 7.5, -7.5}
	b32 := []float32{2, 2, -2, -2}
	binaryTable(t, "div_floor/f32", expr.Expr[float32].DivFloor, a32, b32, []float32{3, -4, -4, 3})

	t.Run("python semantics", func(t *testing.T) {
		// Python: 1.0 // 0.1 == 9.0, 0.7 // 0.1 == 6.0, float('inf') // 2 is
		// nan, -1.0 // float('inf') == -1.0, 1.0 // -float('inf') == -1.0.
		binaryTable(t, "div_floor/f64 inexact quotient", expr.Expr[float64].DivFloor,
			[]float64{1, 0.7, inf, -1, 1, 5},
			[]float64{0.1, 0.1, 2, inf, -inf, 0.5},
			[]float64{9, 6, nan, -1, -1, 10})
	})

	t.Run("float32 rounds each step to float32", func(t *testing.T) {
		// Quotients of 2^23 and more, where computing in float64 and
		// rounding once gave one unit in the last place more or less. The
		// results are NumPy's npy_divmodf, compiled from its C source with
		// gcc on x86-64: NumPy float32 a // b.
		bits := [][3]uint32{
			{0xc6105b26, 0x3a04b805, 0xcb8b3936}, // -9238.787 // 0.00050628214 == -18248300
			{0x4625124b, 0xba5c3e8b, 0xcb3fdebf}, // -12574399
			{0x46227d76, 0xba4f6caa, 0xcb488aed}, // -13142765
			{0x460bd44a, 0xba2aa23b, 0xcb51c8cf}, // -13748431
			{0x45bed800, 0xb9ce45b1, 0xcb6cda1f}, // -15522335
			{0x460dee73, 0x3ab0bec6, 0x4acd9344}, // 6736290
			{0x460403ef, 0x3a8ed589, 0x4aec9c10}, // 7753224
			{0x448f56bc, 0xb93ed474, 0xcac04a52}, // -6300969
		}
		var a, b, want []float32
		for _, p := range bits {
			a = append(a, math.Float32frombits(p[0]))
			b = append(b, math.Float32frombits(p[1]))
			want = append(want, math.Float32frombits(p[2]))
		}
		binaryTable(t, "div_floor/f32 large quotients", expr.Expr[float32].DivFloor, a, b, want)
	})
}

func TestRoundHalfToEven(t *testing.T) {
	a := []float64{0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 0.49999999999999994, 2.5000000000000004, negZ, 1e300, nan, inf}
	want := []float64{0, 2, 2, 4, negZ, -2, -2, 0, 3, negZ, 1e300, nan, inf}
	unaryTable(t, "f64", expr.Expr[float64].Round, a, want)
	a32 := []float32{0.5, 1.5, 2.5, -2.5, 8388609.5 - 0.5, 1.4999999}
	want32 := []float32{0, 2, 2, -2, 8388609, 1}
	unaryTable(t, "f32", expr.Expr[float32].Round, a32, want32)
	unaryTable(t, "floor", expr.Expr[float64].Floor, []float64{-0.5, 0.5, -1, negZ}, []float64{-1, 0, -1, negZ})
	unaryTable(t, "ceil", expr.Expr[float64].Ceil, []float64{-0.5, 0.5, -1, 1.0000001}, []float64{negZ, 1, -1, 2})
}

// TestIntegerPow checks integer powers that wrap; negative exponents are
// refused (TestIntegerPowNegativeExponent).
func TestIntegerPow(t *testing.T) {
	a := []int32{2, -2, 0, 3, 1, -1, -1, 0, 2, 7}
	b := []int32{10, 3, 0, 1, 5, 3, 2, 5, 31, 0}
	binaryTable(t, "i32", expr.Expr[int32].Pow, a, b, []int32{1024, -8, 1, 3, 1, -1, 1, 0, math.MinInt32, 1})
	binaryTable(t, "i8 wraps", expr.Expr[int8].Pow, []int8{2, 3, -2}, []int8{7, 5, 7}, []int8{-128, -13, -128})
	binaryTable(t, "u8 wraps", expr.Expr[uint8].Pow, []uint8{2, 3, 0}, []uint8{8, 5, 0}, []uint8{0, 243, 1})
	binaryTable(t, "f64", expr.Expr[float64].Pow, []float64{0, nan, 1, -8, 4}, []float64{0, 0, nan, 1.0 / 3, -0.5}, []float64{1, 1, 1, nan, 0.5})
}

func TestIntegerAbsNeg(t *testing.T) {
	// Wrap like NumPy: |int8(-128)| is -128; -uint8(1) is 255.
	unaryTable(t, "abs/i8", expr.Expr[int8].Abs, []int8{-128, -1, 0, 127}, []int8{-128, 1, 0, 127})
	unaryTable(t, "neg/u8", expr.Expr[uint8].Neg, []uint8{1, 0, 255}, []uint8{255, 0, 1})
	unaryTable(t, "sign/i16", expr.Expr[int16].Sign, []int16{-300, 0, 5}, []int16{-1, 0, 1})
	unaryTable(t, "sign/u16", expr.Expr[uint16].Sign, []uint16{0, 5}, []uint16{0, 1})
}

func TestComparisonsWithNaN(t *testing.T) {
	a := []float64{nan, 1, nan, 1, negZ}
	b := []float64{nan, nan, 1, 1, 0}
	binaryTable(t, "eq", expr.Expr[float64].Eq, a, b, []bool{false, false, false, true, true})
	binaryTable(t, "ne", expr.Expr[float64].Ne, a, b, []bool{true, true, true, false, false})
	binaryTable(t, "lt", expr.Expr[float64].Lt, a, b, []bool{false, false, false, false, false})
	binaryTable(t, "ge", expr.Expr[float64].Ge, a, b, []bool{false, false, false, true, true})
	binaryTable(t, "eq/complex", expr.Expr[complex128].Eq, []complex128{1 + 1i, complex(nan, 0), 2}, []complex128{1 + 1i, complex(nan, 0), 2 + 1e-300i}, []bool{true, false, false})
}
