package exec_test

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Every elementwise op is checked against a reference loop written here,
// for every dtype it accepts, on random data, over operand layouts that
// reach each kernel variant: vector-vector, vector-scalar, scalar-vector,
// broadcast rows and columns, transposed and strided views, 0-d and empty.

type binCase[T, U dtype.Elem] struct {
	name  string
	build func(x, y expr.Expr[T]) expr.Expr[U]
	ref   func(x, y T) U
	gen   func(r *rand.Rand, n int) []T // the second operand's values, when not randomValues
	// finite restricts the first operand to finite values.
	finite bool
}

type unCase[T, U dtype.Elem] struct {
	name  string
	build func(x expr.Expr[T]) expr.Expr[U]
	ref   func(x T) U
}

// vmathOps are the unary ops whose float kernels come from internal/vmath:
// within 1 ulp of the exact result (tanh and sigmoid 2 or 2.5, see its
// accuracy table), within 2 ulp of the math package's on these operands.
var vmathOps = map[string]bool{"exp": true, "sigmoid": true, "log": true, "sin": true, "cos": true, "tanh": true}

// pair is two operands of a binary op.
type pair[T dtype.Elem] struct {
	name string
	a, b *tensor.Tensor[T]
}

const rows, cols = 5, 13

// layouts returns tensors of the operand layouts, filled by gen.
func operandPairs[T dtype.Elem](t testing.TB, r *rand.Rand, genA, genB func(n int) []T) []pair[T] {
	mk := func(gen func(int) []T, shape ...int) *tensor.Tensor[T] {
		n, _ := tensor.Shape(shape).Numel()
		return fromValues(t, gen(n), shape...)
	}
	transposed := tensor.Must(mk(genA, cols, rows).T())
	strided := tensor.Must(mk(genA, rows, 2*cols+1).Slice(1, 1, math.MaxInt, 2))
	expanded := tensor.Must(mk(genB, 1, cols).Expand(rows, cols))
	return []pair[T]{
		{"same", mk(genA, rows, cols), mk(genB, rows, cols)},
		{"row", mk(genA, rows, cols), mk(genB, 1, cols)},
		{"col", mk(genA, rows, 1), mk(genB, rows, cols)},
		{"outer", mk(genA, rows, 1), mk(genB, cols)},
		{"scalarB", mk(genA, rows, cols), mk(genB)},
		{"scalarA", mk(genA), mk(genB, rows, cols)},
		{"0d", mk(genA), mk(genB)},
		{"transposed", transposed, mk(genB, rows, cols)},
		{"strided", strided, expanded},
		{"long", mk(genA, 3*rows*cols), mk(genB, 3*rows*cols)},
		{"empty", mk(genA, 0, cols), mk(genB, 1, cols)},
	}
}

func runBinary[T, U dtype.Elem](t *testing.T, seed uint64, cases ...binCase[T, U]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRand(seed)
			genA := func(n int) []T { return randomValues[T](r, n) }
			if c.finite {
				genA = func(n int) []T { return finiteValues[T](r, n) }
			}
			genB := genA
			if c.gen != nil {
				genB = func(n int) []T { return c.gen(r, n) }
			}
			for _, p := range operandPairs(t, r, genA, genB) {
				checkBinary(t, p, c.build, c.ref)
			}
		})
	}
}

// finiteValues is randomValues without NaN and infinities.
func finiteValues[T dtype.Elem](r *rand.Rand, n int) []T {
	v := randomValues[T](r, n)
	for i, x := range v {
		if !isFinite(x) {
			var z T
			v[i] = z
		}
	}
	return v
}

func isFinite[T dtype.Elem](x T) bool {
	switch v := any(x).(type) {
	case float32:
		return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0)
	case float64:
		return !math.IsNaN(v) && !math.IsInf(v, 0)
	case complex64:
		return isFinite(real(v)) && isFinite(imag(v))
	case complex128:
		return isFinite(real(v)) && isFinite(imag(v))
	}
	return true
}

func checkBinary[T, U dtype.Elem](t *testing.T, p pair[T], build func(x, y expr.Expr[T]) expr.Expr[U], ref func(x, y T) U) {
	t.Helper()
	e := build(expr.Of(p.a), expr.Of(p.b))
	require.NoError(t, e.Err(), p.name)
	shape, err := tensor.BroadcastShapes(p.a.Shape(), p.b.Shape())
	require.NoError(t, err)
	require.Equal(t, shape, e.Shape(), p.name)
	av, bv := broadcastValues(t, p.a, shape), broadcastValues(t, p.b, shape)
	want := make([]U, len(av))
	for i := range want {
		want[i] = ref(av[i], bv[i])
	}
	for _, x := range testExecutors {
		got := evalWith(t, x.x, e)
		assertValues(t, want, got.Values(), "%s with %s executor", p.name, x.name)
	}
}

// unaryOperands are the layouts a unary op is checked on.
func unaryOperands[T dtype.Elem](t testing.TB, r *rand.Rand) map[string]*tensor.Tensor[T] {
	return map[string]*tensor.Tensor[T]{
		"contiguous": randomTensor[T](t, r, rows, cols),
		"transposed": tensor.Must(randomTensor[T](t, r, cols, rows).T()),
		"strided":    tensor.Must(randomTensor[T](t, r, rows, 3*cols).Slice(1, 2, math.MaxInt, 3)),
		"expanded":   tensor.Must(randomTensor[T](t, r, rows, 1).Expand(rows, cols)),
		"0d":         randomTensor[T](t, r),
		"long":       randomTensor[T](t, r, 4*rows*cols),
		"empty":      randomTensor[T](t, r, 0, 3),
	}
}

func runUnary[T, U dtype.Elem](t *testing.T, seed uint64, cases ...unCase[T, U]) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for name, a := range unaryOperands[T](t, newRand(seed)) {
				e := c.build(expr.Of(a))
				require.NoError(t, e.Err(), name)
				require.Equal(t, a.Shape(), e.Shape(), name)
				av := a.Values()
				want := make([]U, len(av))
				for i, v := range av {
					want[i] = c.ref(v)
				}
				eq := sameValue[U]
				if vmathOps[c.name] {
					eq = withinULPs[U](2)
				}
				for _, x := range testExecutors {
					got := evalWith(t, x.x, e)
					assertWith(t, eq, want, got.Values(), "%s with %s executor", name, x.name)
				}
			}
		})
	}
}

// Case tables, one per family of dtypes. Reference results are computed in
// T the way the op is documented (transcendental functions of floats through
// float64 and back, complex ones through complex128).

func numericBinaryCases[T dtype.Numeric]() []binCase[T, T] {
	return []binCase[T, T]{
		{name: "add", build: expr.Expr[T].Add, ref: func(x, y T) T { return x + y }},
		{name: "sub", build: expr.Expr[T].Sub, ref: func(x, y T) T { return x - y }},
		{name: "mul", build: expr.Expr[T].Mul, ref: func(x, y T) T { return x * y }},
	}
}

func realBinaryCases[T dtype.Real]() []binCase[T, T] {
	return []binCase[T, T]{
		{name: "maximum", build: expr.Expr[T].Maximum, ref: func(x, y T) T {
			switch {
			case x != x:
				return x
			case y != y:
				return y
			case x > y:
				return x
			}
			return y
		}},
		{name: "minimum", build: expr.Expr[T].Minimum, ref: func(x, y T) T {
			switch {
			case x != x:
				return x
			case y != y:
				return y
			case x < y:
				return x
			}
			return y
		}},
	}
}

func integerBinaryCases[T dtype.Integer]() []binCase[T, T] {
	return []binCase[T, T]{
		{name: "div_trunc", build: expr.Expr[T].DivTrunc, ref: func(x, y T) T {
			if y == 0 {
				return 0
			}
			return x / y
		}},
		{name: "div_floor", build: expr.Expr[T].DivFloor, ref: floorDivInt[T]},
		{name: "pow", build: expr.Expr[T].Pow, ref: powIntRef[T], gen: smallExponents[T]},
	}
}

// floorDivInt is Python's //: the quotient rounded toward -inf, and 0 for
// division by zero (NumPy).
func floorDivInt[T dtype.Integer](x, y T) T {
	if y == 0 {
		return 0
	}
	q, m := x/y, x%y
	if m != 0 && (m < 0) != (y < 0) {
		q--
	}
	return q
}

// powIntRef multiplies y times (y >= 0).
func powIntRef[T dtype.Integer](x, y T) T {
	p := T(1)
	for i := T(0); i < y; i++ {
		p *= x
	}
	return p
}

// smallExponents are exponents 0 to 23: a negative one is refused
// (TestIntegerPowNegativeExponent).
func smallExponents[T dtype.Integer](r *rand.Rand, n int) []T {
	v := make([]T, n)
	for i := range v {
		v[i] = T(r.IntN(24))
	}
	return v
}

func floatBinaryCases[T dtype.Float]() []binCase[T, T] {
	return []binCase[T, T]{
		{name: "div", build: expr.Expr[T].Div, ref: func(x, y T) T { return x / y }},
		{name: "div_trunc", build: expr.Expr[T].DivTrunc, ref: func(x, y T) T { return T(math.Trunc(float64(x / y))) }},
		{name: "pow", build: expr.Expr[T].Pow, ref: func(x, y T) T { return T(math.Pow(float64(x), float64(y))) }},
	}
}

// floatFloorDivCases is div_floor on finite operands; the specials are in
// TestFloorDivision.
func floatFloorDivCases[T dtype.Float]() []binCase[T, T] {
	return []binCase[T, T]{
		{name: "div_floor", build: expr.Expr[T].DivFloor, ref: pyFloorDiv[T], finite: true,
			gen: func(r *rand.Rand, n int) []T { return finiteValues[T](r, n) }},
	}
}

// pyFloorDiv is Python's (and NumPy's npy_divmod, and PyTorch's
// div_floor_floating) float floor division, computed in T.
func pyFloorDiv[T dtype.Float](a, b T) T {
	if b == 0 {
		return a / b
	}
	mod := T(math.Mod(float64(a), float64(b)))
	div := (a - mod) / b
	if mod != 0 && (b < 0) != (mod < 0) {
		div--
	}
	if div == 0 {
		return T(math.Copysign(0, float64(a/b)))
	}
	fl := T(math.Floor(float64(div)))
	if div-fl > 0.5 {
		fl++
	}
	return fl
}

func complexBinaryCases[T dtype.Complex]() []binCase[T, T] {
	return []binCase[T, T]{
		{name: "div", build: expr.Expr[T].Div, ref: func(x, y T) T { return x / y }},
		{name: "pow", build: expr.Expr[T].Pow, ref: func(x, y T) T { return T(cmplx.Pow(complex128(x), complex128(y))) }},
	}
}

func boolBinaryCases() []binCase[bool, bool] {
	return []binCase[bool, bool]{
		{name: "and", build: expr.Expr[bool].And, ref: func(x, y bool) bool { return x && y }},
		{name: "or", build: expr.Expr[bool].Or, ref: func(x, y bool) bool { return x || y }},
	}
}

func equalityCases[T dtype.Elem]() []binCase[T, bool] {
	return []binCase[T, bool]{
		{name: "eq", build: expr.Expr[T].Eq, ref: func(x, y T) bool { return x == y }},
		{name: "ne", build: expr.Expr[T].Ne, ref: func(x, y T) bool { return x != y }},
	}
}

// equalityOperands makes eq/ne see equal pairs often.
func equalityGen[T dtype.Elem](cases []binCase[T, bool]) []binCase[T, bool] {
	for i := range cases {
		cases[i].gen = func(r *rand.Rand, n int) []T {
			v := randomValues[T](r, n)
			for i := range v {
				if r.IntN(3) == 0 {
					var z T
					v[i] = z
				}
			}
			return v
		}
	}
	return cases
}

func orderCases[T dtype.Real]() []binCase[T, bool] {
	return []binCase[T, bool]{
		{name: "lt", build: expr.Expr[T].Lt, ref: func(x, y T) bool { return x < y }},
		{name: "le", build: expr.Expr[T].Le, ref: func(x, y T) bool { return x <= y }},
		{name: "gt", build: expr.Expr[T].Gt, ref: func(x, y T) bool { return x > y }},
		{name: "ge", build: expr.Expr[T].Ge, ref: func(x, y T) bool { return x >= y }},
	}
}

func numericUnaryCases[T dtype.Numeric]() []unCase[T, T] {
	return []unCase[T, T]{
		{"neg", expr.Expr[T].Neg, func(x T) T { return -x }},
		{"square", expr.Expr[T].Square, func(x T) T { return x * x }},
	}
}

func realUnaryCases[T dtype.Real]() []unCase[T, T] {
	return []unCase[T, T]{
		{"relu", expr.Expr[T].Relu, func(x T) T {
			if x > 0 || x != x {
				return x
			}
			return 0
		}},
		{"sign", expr.Expr[T].Sign, func(x T) T {
			switch {
			case x > 0:
				return 1
			case x < 0:
				one := T(1)
				return -one
			case x == 0:
				return 0 // NumPy: sign(-0.0) is +0.0
			}
			return x // NaN
		}},
		{"conj", expr.Expr[T].Conj, func(x T) T { return x }},
	}
}

func integerUnaryCases[T dtype.Integer]() []unCase[T, T] {
	id := func(x T) T { return x }
	return []unCase[T, T]{
		{"abs", expr.Expr[T].Abs, func(x T) T {
			if x < 0 {
				return -x
			}
			return x
		}},
		{"floor", expr.Expr[T].Floor, id},
		{"ceil", expr.Expr[T].Ceil, id},
		{"round", expr.Expr[T].Round, id},
	}
}

func floatUnaryCases[T dtype.Float]() []unCase[T, T] {
	via := func(f func(float64) float64) func(T) T { return func(x T) T { return T(f(float64(x))) } }
	return []unCase[T, T]{
		{"abs", expr.Expr[T].Abs, via(math.Abs)},
		{"exp", expr.Expr[T].Exp, via(math.Exp)},
		{"log", expr.Expr[T].Log, via(math.Log)},
		{"log1p", expr.Expr[T].Log1p, via(math.Log1p)},
		{"expm1", expr.Expr[T].Expm1, via(math.Expm1)},
		{"sqrt", expr.Expr[T].Sqrt, via(math.Sqrt)},
		{"sin", expr.Expr[T].Sin, via(math.Sin)},
		{"cos", expr.Expr[T].Cos, via(math.Cos)},
		{"tan", expr.Expr[T].Tan, via(math.Tan)},
		{"tanh", expr.Expr[T].Tanh, via(math.Tanh)},
		{"sigmoid", expr.Expr[T].Sigmoid, via(func(x float64) float64 { return 1 / (1 + math.Exp(-x)) })},
		{"floor", expr.Expr[T].Floor, via(math.Floor)},
		{"ceil", expr.Expr[T].Ceil, via(math.Ceil)},
		{"round", expr.Expr[T].Round, via(math.RoundToEven)},
	}
}

func complexUnaryCases[T dtype.Complex]() []unCase[T, T] {
	via := func(f func(complex128) complex128) func(T) T { return func(x T) T { return T(f(complex128(x))) } }
	return []unCase[T, T]{
		{"exp", expr.Expr[T].Exp, via(cmplx.Exp)},
		{"log", expr.Expr[T].Log, via(cmplx.Log)},
		{"sqrt", expr.Expr[T].Sqrt, via(cmplx.Sqrt)},
		{"sin", expr.Expr[T].Sin, via(cmplx.Sin)},
		{"cos", expr.Expr[T].Cos, via(cmplx.Cos)},
		{"tan", expr.Expr[T].Tan, via(cmplx.Tan)},
		{"tanh", expr.Expr[T].Tanh, via(cmplx.Tanh)},
		{"conj", expr.Expr[T].Conj, via(cmplx.Conj)},
	}
}

// whereCases checks where(cond, a, b) with cond drawn at random and the
// three operands broadcast in every combination the layouts give.
func runWhere[T dtype.Elem](t *testing.T, seed uint64) {
	t.Run("where", func(t *testing.T) {
		r := newRand(seed)
		conds := map[string]*tensor.Tensor[bool]{
			"full": randomTensor[bool](t, r, rows, cols),
			"col":  randomTensor[bool](t, r, rows, 1),
			"0d":   randomTensor[bool](t, r),
			"tr":   tensor.Must(randomTensor[bool](t, r, cols, rows).T()),
		}
		gen := func(n int) []T { return randomValues[T](r, n) }
		for cname, c := range conds {
			for _, p := range operandPairs(t, r, gen, gen) {
				shape, err := tensor.BroadcastShapes(c.Shape(), p.a.Shape(), p.b.Shape())
				if err != nil {
					continue // the long 1-D pair
				}
				e := expr.Where(expr.Of(c), expr.Of(p.a), expr.Of(p.b))
				require.NoError(t, e.Err())
				cv := broadcastValues(t, c, shape)
				av, bv := broadcastValues(t, p.a, shape), broadcastValues(t, p.b, shape)
				want := make([]T, len(cv))
				for i := range want {
					if cv[i] {
						want[i] = av[i]
					} else {
						want[i] = bv[i]
					}
				}
				for _, x := range testExecutors {
					got := evalWith(t, x.x, e)
					assertValues(t, want, got.Values(), "cond %s, %s, %s executor", cname, p.name, x.name)
				}
			}
		}
	})
}

func testIntegerOps[T dtype.Integer](t *testing.T) {
	runBinary(t, 1, numericBinaryCases[T]()...)
	runBinary(t, 2, realBinaryCases[T]()...)
	runBinary(t, 3, integerBinaryCases[T]()...)
	runBinary(t, 4, equalityGen(equalityCases[T]())...)
	runBinary(t, 5, orderCases[T]()...)
	runUnary(t, 6, numericUnaryCases[T]()...)
	runUnary(t, 7, realUnaryCases[T]()...)
	runUnary(t, 8, integerUnaryCases[T]()...)
	runWhere[T](t, 9)
}

func testFloatOps[T dtype.Float](t *testing.T) {
	runBinary(t, 11, numericBinaryCases[T]()...)
	runBinary(t, 12, realBinaryCases[T]()...)
	runBinary(t, 13, floatBinaryCases[T]()...)
	runBinary(t, 14, floatFloorDivCases[T]()...)
	runBinary(t, 15, equalityGen(equalityCases[T]())...)
	runBinary(t, 16, orderCases[T]()...)
	runUnary(t, 17, numericUnaryCases[T]()...)
	runUnary(t, 18, realUnaryCases[T]()...)
	runUnary(t, 19, floatUnaryCases[T]()...)
	runWhere[T](t, 20)
}

func testComplexOps[T dtype.Complex](t *testing.T) {
	runBinary(t, 21, numericBinaryCases[T]()...)
	runBinary(t, 22, complexBinaryCases[T]()...)
	runBinary(t, 23, equalityGen(equalityCases[T]())...)
	runUnary(t, 24, numericUnaryCases[T]()...)
	runUnary(t, 25, complexUnaryCases[T]()...)
	runWhere[T](t, 26)
}

func testBoolOps(t *testing.T) {
	runBinary(t, 31, boolBinaryCases()...)
	runBinary(t, 32, equalityCases[bool]()...)
	runUnary(t, 33, unCase[bool, bool]{"not", expr.Expr[bool].Not, func(x bool) bool { return !x }})
	runWhere[bool](t, 34)
}

// TestOps runs every elementwise op for every dtype it accepts.
func TestOps(t *testing.T) {
	t.Run("bool", testBoolOps)
	t.Run("int8", testIntegerOps[int8])
	t.Run("int16", testIntegerOps[int16])
	t.Run("int32", testIntegerOps[int32])
	t.Run("int64", testIntegerOps[int64])
	t.Run("uint8", testIntegerOps[uint8])
	t.Run("uint16", testIntegerOps[uint16])
	t.Run("uint32", testIntegerOps[uint32])
	t.Run("uint64", testIntegerOps[uint64])
	t.Run("float32", testFloatOps[float32])
	t.Run("float64", testFloatOps[float64])
	t.Run("complex64", testComplexOps[complex64])
	t.Run("complex128", testComplexOps[complex128])
}

// TestComplexParts checks Real, Imag and CAbs, whose results are real.
func TestComplexParts(t *testing.T) {
	t.Run("complex64", func(t *testing.T) {
		runUnary(t, 41,
			unCase[complex64, float32]{"real", expr.Real[float32, complex64], func(x complex64) float32 { return real(x) }},
			unCase[complex64, float32]{"imag", expr.Imag[float32, complex64], func(x complex64) float32 { return imag(x) }},
			unCase[complex64, float32]{"cabs", expr.CAbs[float32, complex64], func(x complex64) float32 { return float32(cmplx.Abs(complex128(x))) }},
		)
	})
	t.Run("complex128", func(t *testing.T) {
		runUnary(t, 42,
			unCase[complex128, float64]{"real", expr.Real[float64, complex128], func(x complex128) float64 { return real(x) }},
			unCase[complex128, float64]{"imag", expr.Imag[float64, complex128], func(x complex128) float64 { return imag(x) }},
			unCase[complex128, float64]{"cabs", expr.CAbs[float64, complex128], cmplx.Abs},
		)
	})
	t.Run("mismatched component type", func(t *testing.T) {
		z := expr.Of(randomTensor[complex128](t, newRand(43), 3))
		require.Error(t, expr.Real[float32](z).Err(), "the real part of complex128 is float64")
	})
}

// TestTrueDiv checks NumPy's / on integers: the quotient in a float type.
func TestTrueDiv(t *testing.T) {
	t.Run("int32/float64", func(t *testing.T) {
		runBinary(t, 51, binCase[int32, float64]{name: "truediv", build: expr.TrueDiv[float64, int32],
			ref: func(x, y int32) float64 { return float64(x) / float64(y) }})
	})
	t.Run("int64/float32", func(t *testing.T) {
		runBinary(t, 52, binCase[int64, float32]{name: "truediv", build: expr.TrueDiv[float32, int64],
			ref: func(x, y int64) float32 { return float32(x) / float32(y) }})
	})
	t.Run("uint8/float32", func(t *testing.T) {
		runBinary(t, 53, binCase[uint8, float32]{name: "truediv", build: expr.TrueDiv[float32, uint8],
			ref: func(x, y uint8) float32 { return float32(x) / float32(y) }})
	})
	t.Run("float32/float64", func(t *testing.T) {
		runBinary(t, 54, binCase[float32, float64]{name: "truediv", build: expr.TrueDiv[float64, float32],
			ref: func(x, y float32) float64 { return float64(x) / float64(y) }})
	})
}

// TestScalarForms checks the scalar helpers, with the scalar on either side.
func TestScalarForms(t *testing.T) {
	t.Run("float64", func(t *testing.T) {
		const s = 1.5
		runUnary(t, 61,
			unCase[float64, float64]{"add", func(x expr.Expr[float64]) expr.Expr[float64] { return x.AddScalar(s) }, func(x float64) float64 { return x + s }},
			unCase[float64, float64]{"sub", func(x expr.Expr[float64]) expr.Expr[float64] { return x.SubScalar(s) }, func(x float64) float64 { return x - s }},
			unCase[float64, float64]{"rsub", func(x expr.Expr[float64]) expr.Expr[float64] { return expr.Scalar(s).Sub(x) }, func(x float64) float64 { return s - x }},
			unCase[float64, float64]{"mul", func(x expr.Expr[float64]) expr.Expr[float64] { return x.MulScalar(s) }, func(x float64) float64 { return x * s }},
			unCase[float64, float64]{"div", func(x expr.Expr[float64]) expr.Expr[float64] { return x.DivScalar(s) }, func(x float64) float64 { return x / s }},
			unCase[float64, float64]{"rdiv", func(x expr.Expr[float64]) expr.Expr[float64] { return expr.Scalar(s).Div(x) }, func(x float64) float64 { return s / x }},
			unCase[float64, float64]{"pow", func(x expr.Expr[float64]) expr.Expr[float64] { return x.PowScalar(s) }, func(x float64) float64 { return math.Pow(x, s) }},
			unCase[float64, float64]{"rpow", func(x expr.Expr[float64]) expr.Expr[float64] { return expr.Scalar(s).Pow(x) }, func(x float64) float64 { return math.Pow(s, x) }},
		)
	})
	t.Run("int32", func(t *testing.T) {
		const s = 3
		runUnary(t, 62,
			unCase[int32, int32]{"add", func(x expr.Expr[int32]) expr.Expr[int32] { return x.AddScalar(s) }, func(x int32) int32 { return x + s }},
			unCase[int32, int32]{"rsub", func(x expr.Expr[int32]) expr.Expr[int32] { return expr.Scalar[int32](s).Sub(x) }, func(x int32) int32 { return s - x }},
			unCase[int32, int32]{"mul", func(x expr.Expr[int32]) expr.Expr[int32] { return x.MulScalar(s) }, func(x int32) int32 { return x * s }},
			unCase[int32, int32]{"pow", func(x expr.Expr[int32]) expr.Expr[int32] { return x.PowScalar(s) }, func(x int32) int32 { return x * x * x }},
			unCase[int32, int32]{"rfloordiv", func(x expr.Expr[int32]) expr.Expr[int32] { return expr.Scalar[int32](-7).DivFloor(x) }, func(x int32) int32 { return floorDivInt(-7, x) }},
		)
	})
	t.Run("complex128", func(t *testing.T) {
		const s = 2 - 1i
		runUnary(t, 63,
			unCase[complex128, complex128]{"add", func(x expr.Expr[complex128]) expr.Expr[complex128] { return x.AddScalar(s) }, func(x complex128) complex128 { return x + s }},
			unCase[complex128, complex128]{"mul", func(x expr.Expr[complex128]) expr.Expr[complex128] { return x.MulScalar(s) }, func(x complex128) complex128 { return x * s }},
			unCase[complex128, complex128]{"div", func(x expr.Expr[complex128]) expr.Expr[complex128] { return x.DivScalar(s) }, func(x complex128) complex128 { return x / s }},
		)
	})
	t.Run("scalar only", func(t *testing.T) {
		e := expr.Scalar(2.0).MulScalar(3).AddScalar(1)
		for _, x := range testExecutors {
			got := evalWith(t, x.x, e)
			require.Equal(t, tensor.Shape{}, got.Shape())
			v, err := got.Item()
			require.NoError(t, err)
			require.Equal(t, 7.0, v)
		}
	})
}
