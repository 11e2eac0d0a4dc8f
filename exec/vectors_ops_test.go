package exec_test

import (
	"encoding/json"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

// decodeParam decodes params[name] into v, reporting whether it is set.
func decodeParam(t *testing.T, c opCase, name string, v any) bool {
	t.Helper()
	ok, err := c.Param(name, v)
	require.NoError(t, err)
	return ok
}

// floatParam returns a number param, "inf", "-inf" and "nan" included.
func floatParam(t *testing.T, c opCase, name string) (float64, bool) {
	t.Helper()
	v, ok, err := c.FloatParam(name)
	require.NoError(t, err)
	return v, ok
}

// executors are the two every case runs on: one worker, and two workers
// with tiny blocks, so the tile machinery is exercised on small inputs.
func executors() []*exec.Executor {
	return []*exec.Executor{exec.New(exec.Workers(1)), exec.New(exec.Workers(2), exec.Grain(1), exec.BlockSize(16))}
}

// checkOp evaluates e and compares it with the case's expected tensor
// (dtype, shape and values), or, for an error case, checks the error.
func checkOp[U dtype.Elem](t *testing.T, c opCase, e expr.Expr[U]) {
	t.Helper()
	if c.Expect == "error" {
		err := e.Err()
		if err == nil {
			_, err = exec.Eval(e)
		}
		require.Error(t, err, "%s wants a %s error", c.ID, c.ErrorKind)
		checkErrorKind(t, c, err)
		return
	}
	require.NoError(t, e.Err())
	want, tols := expectedOf(t, c)
	require.Len(t, want, 1)
	for _, x := range executors() {
		got, err := exec.EvalWith(x, e)
		require.NoError(t, err)
		assertTensor(t, got, want[0], tols[0], c.ID+" "+c.Note)
	}
}

// checkErrorKind checks err's type for the case's error_kind.
func checkErrorKind(t *testing.T, c opCase, err error) {
	t.Helper()
	switch c.ErrorKind {
	case "negative_int_power":
		var pe *expr.IntegerPowerError
		assert.True(t, errors.As(err, &pe), "%s: %v is not an *expr.IntegerPowerError", c.ID, err)
	case "empty":
		var se *expr.ShapeOpError
		assert.True(t, errors.As(err, &se), "%s: %v is not an *expr.ShapeOpError", c.ID, err)
	case "out_of_range":
		var ae *tensor.ArgError
		assert.True(t, errors.As(err, &ae), "%s: %v is not a *tensor.ArgError", c.ID, err)
	default:
		t.Fatalf("%s: no check for error kind %q", c.ID, c.ErrorKind)
	}
}

// mathOp applies a float (or complex) function by NumPy's name.
func mathOp[U dtype.Elem](op string, x expr.Expr[U]) (expr.Expr[U], bool) {
	fs := map[string]func() expr.Expr[U]{
		"sqrt": x.Sqrt, "exp": x.Exp, "log": x.Log, "trunc": x.Trunc, "arcsin": x.Arcsin,
		"arccos": x.Arccos, "arctan": x.Arctan, "sinh": x.Sinh, "cosh": x.Cosh, "arcsinh": x.Arcsinh,
		"arccosh": x.Arccosh, "arctanh": x.Arctanh, "log2": x.Log2, "log10": x.Log10, "exp2": x.Exp2,
		"rint": x.Rint, "rsqrt": x.Rsqrt, "erf": x.Erf, "erfc": x.Erfc, "lgamma": x.Lgamma,
		"digamma": x.Digamma, "gelu": x.Gelu, "gelu_tanh": x.GeluTanh, "silu": x.Silu,
		"softplus": x.Softplus, "sin": x.Sin, "cos": x.Cos, "tan": x.Tan, "tanh": x.Tanh,
		"log1p": x.Log1p, "expm1": x.Expm1, "sigmoid": x.Sigmoid,
	}
	f, ok := fs[op]
	if !ok {
		return expr.Expr[U]{}, false
	}
	return f(), true
}

// TestOpsUnaryVectors evaluates every case of ops_unary.json.
func TestOpsUnaryVectors(t *testing.T) {
	f := vectors.Load[opCase](t, "ops_unary.json")
	require.Equal(t, 41, len(f.Cases))
	for _, c := range f.Cases {
		t.Run(c.ID+"_"+c.Op, func(t *testing.T) {
			forInputDType(t, c, 0, unaryRuns...)
		})
	}
}

// TestOpsBinaryVectors evaluates every case of ops_binary.json.
func TestOpsBinaryVectors(t *testing.T) {
	f := vectors.Load[opCase](t, "ops_binary.json")
	require.Equal(t, 34, len(f.Cases))
	for _, c := range f.Cases {
		t.Run(c.ID+"_"+c.Op, func(t *testing.T) {
			forInputDType(t, c, 0, binaryRuns...)
		})
	}
}

// unaryRuns are runUnaryOp for every element type.
var unaryRuns = []any{runUnaryOp[bool], runUnaryOp[int8], runUnaryOp[int16], runUnaryOp[int32], runUnaryOp[int64],
	runUnaryOp[uint8], runUnaryOp[uint16], runUnaryOp[uint32], runUnaryOp[uint64],
	runUnaryOp[float32], runUnaryOp[float64], runUnaryOp[complex64], runUnaryOp[complex128]}

func runUnaryOp[T dtype.Elem](t *testing.T, c opCase, in *tensor.Tensor[T]) {
	x := expr.Of(in)
	switch c.Op {
	case "sign":
		checkOp(t, c, x.Sign())
	case "abs":
		checkOp(t, c, x.Abs())
	case "neg":
		checkOp(t, c, x.Neg())
	case "reciprocal":
		checkOp(t, c, x.Reciprocal())
	case "bitwise_not":
		checkOp(t, c, x.BitNot())
	case "isnan":
		checkOp(t, c, x.IsNaN())
	case "isinf":
		checkOp(t, c, x.IsInf())
	case "isfinite":
		checkOp(t, c, x.IsFinite())
	case "signbit":
		checkOp(t, c, x.Signbit())
	case "logical_not":
		checkOp(t, c, x.LogicalNot())
	case "nan_to_num":
		nan, _ := floatParam(t, c, "nan")
		pos, okp := floatParam(t, c, "posinf")
		neg, okn := floatParam(t, c, "neginf")
		if !okp && !okn {
			checkOp(t, c, expr.NanToNum(x, nan))
			return
		}
		max := math.MaxFloat64
		if d := dtype.Of[T](); d == dtype.Float32 || d == dtype.Complex64 {
			max = math.MaxFloat32
		}
		if !okp {
			pos = max
		}
		if !okn {
			neg = -max
		}
		checkOp(t, c, expr.NanToNumInf(x, nan, pos, neg))
	default:
		// A float function: NumPy computes it in dtype.FloatFor(T).
		switch dtype.FloatFor(dtype.Of[T]()) {
		case dtype.Float32:
			checkMath(t, c, expr.Cast[float32](x))
		case dtype.Float64:
			checkMath(t, c, expr.Cast[float64](x))
		case dtype.Complex64:
			checkMath(t, c, expr.Cast[complex64](x))
		case dtype.Complex128:
			checkMath(t, c, expr.Cast[complex128](x))
		default:
			t.Fatalf("%s: no float type for %s", c.ID, dtype.Of[T]())
		}
	}
}

func checkMath[U dtype.Elem](t *testing.T, c opCase, x expr.Expr[U]) {
	e, ok := mathOp(c.Op, x)
	require.True(t, ok, "%s: unknown op %s", c.ID, c.Op)
	checkOp(t, c, e)
}

// binaryRuns are runBinaryOp for every element type.
var binaryRuns = []any{runBinaryOp[bool], runBinaryOp[int8], runBinaryOp[int16], runBinaryOp[int32], runBinaryOp[int64],
	runBinaryOp[uint8], runBinaryOp[uint16], runBinaryOp[uint32], runBinaryOp[uint64],
	runBinaryOp[float32], runBinaryOp[float64], runBinaryOp[complex64], runBinaryOp[complex128]}

func runBinaryOp[T dtype.Elem](t *testing.T, c opCase, in *tensor.Tensor[T]) {
	x := expr.Of(in)
	if c.Op == "clip" {
		lo, hi := clipBounds[T](t, c)
		switch {
		case lo != nil && hi != nil:
			checkOp(t, c, x.Clip(*lo, *hi))
		case lo != nil:
			checkOp(t, c, x.ClipMin(*lo))
		case hi != nil:
			checkOp(t, c, x.ClipMax(*hi))
		default:
			t.Fatalf("%s: clip without bounds", c.ID)
		}
		return
	}
	require.Len(t, c.Inputs, 2)
	require.Equal(t, inputDType(t, c, 0), inputDType(t, c, 1), "mixed dtypes")
	y := expr.Of(opInput[T](t, c, 1))
	fs := map[string]func(expr.Expr[T]) expr.Expr[T]{
		"remainder": x.Mod, "fmod": x.Fmod, "floor_divide": x.DivFloor, "arctan2": x.Arctan2,
		"hypot": x.Hypot, "copysign": x.Copysign, "fmax": x.Fmax, "fmin": x.Fmin,
		"maximum": x.Maximum, "minimum": x.Minimum, "logaddexp": x.LogAddExp,
		"logaddexp2": x.LogAddExp2, "left_shift": x.LeftShift, "right_shift": x.RightShift,
		"power": x.Pow, "bitwise_and": x.BitAnd, "bitwise_or": x.BitOr, "bitwise_xor": x.BitXor,
	}
	if f, ok := fs[c.Op]; ok {
		checkOp(t, c, f(y))
		return
	}
	switch c.Op {
	case "logical_and":
		checkOp(t, c, expr.LogicalAnd(x, y))
	case "logical_or":
		checkOp(t, c, expr.LogicalOr(x, y))
	case "logical_xor":
		checkOp(t, c, expr.LogicalXor(x, y))
	case "isclose":
		var eqNaN bool
		decodeParam(t, c, "equal_nan", &eqNaN)
		rtol, ok1 := floatParam(t, c, "rtol")
		atol, ok2 := floatParam(t, c, "atol")
		require.True(t, ok1 && ok2, "%s: isclose without rtol and atol", c.ID)
		isClose(t, c, x, y, rtol, atol, eqNaN)
	default:
		t.Fatalf("%s: unknown op %s", c.ID, c.Op)
	}
}

// isClose runs an isclose case on numeric T.
func isClose[T dtype.Elem](t *testing.T, c opCase, x, y expr.Expr[T], rtol, atol float64, eqNaN bool) {
	switch any(x).(type) {
	case expr.Expr[float64]:
		checkOp(t, c, expr.IsClose(any(x).(expr.Expr[float64]), any(y).(expr.Expr[float64]), rtol, atol, eqNaN))
	case expr.Expr[float32]:
		checkOp(t, c, expr.IsClose(any(x).(expr.Expr[float32]), any(y).(expr.Expr[float32]), rtol, atol, eqNaN))
	default:
		t.Fatalf("%s: isclose on %s", c.ID, dtype.Of[T]())
	}
}

// clipBounds returns clip's bounds: tensor inputs 1 and 2, or the scalar
// params min and max (nil where null).
func clipBounds[T dtype.Elem](t *testing.T, c opCase) (lo, hi *expr.Expr[T]) {
	if len(c.Inputs) == 3 {
		a, b := expr.Of(opInput[T](t, c, 1)), expr.Of(opInput[T](t, c, 2))
		return &a, &b
	}
	bound := func(name string) *expr.Expr[T] {
		v, ok := floatParam(t, c, name)
		if !ok {
			return nil
		}
		vals, err := vectors.Values[T](json.RawMessage("[" + jsonNumber(v) + "]"))
		require.NoError(t, err)
		s := expr.Scalar(vals[0])
		return &s
	}
	return bound("min"), bound("max")
}

func jsonNumber(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}
