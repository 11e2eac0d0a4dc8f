package expr_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Construction-time checks: every node knows its shape and dtype, or the
// first error met while building it; later ops and evaluation carry that
// same error.

func zerosOf[T dtype.Elem](shape ...int) expr.Expr[T] {
	return expr.Of(tensor.Must(tensor.New[T](shape...)))
}

func TestBroadcastErrorAtConstruction(t *testing.T) {
	cases := []struct {
		a, b              []int
		dim, sizeA, sizeB int
		text              string
	}{
		{[]int{2}, []int{3}, 0, 2, 3, "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0"},
		{[]int{2, 3}, []int{2, 2}, 1, 3, 2, "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1"},
		{[]int{4, 3}, []int{3, 4}, 1, 3, 4, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"},
		{[]int{5, 2, 3}, []int{4, 3}, 1, 2, 4, "The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 1"},
		{[]int{0}, []int{2, 2}, 1, 0, 2, "The size of tensor a (0) must match the size of tensor b (2) at non-singleton dimension 1"},
		{[]int{2, 1, 3}, []int{7, 4}, 2, 3, 4, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 2"},
	}
	ops := map[string]func(x, y expr.Expr[float64]) expr.Any{
		"add":     func(x, y expr.Expr[float64]) expr.Any { return x.Add(y) },
		"sub":     func(x, y expr.Expr[float64]) expr.Any { return x.Sub(y) },
		"mul":     func(x, y expr.Expr[float64]) expr.Any { return x.Mul(y) },
		"div":     func(x, y expr.Expr[float64]) expr.Any { return x.Div(y) },
		"pow":     func(x, y expr.Expr[float64]) expr.Any { return x.Pow(y) },
		"maximum": func(x, y expr.Expr[float64]) expr.Any { return x.Maximum(y) },
		"lt":      func(x, y expr.Expr[float64]) expr.Any { return x.Lt(y) },
		"eq":      func(x, y expr.Expr[float64]) expr.Any { return x.Eq(y) },
	}
	for _, c := range cases {
		for name, op := range ops {
			n := op(zerosOf[float64](c.a...), zerosOf[float64](c.b...)).Node()
			err := n.Err()
			var be *tensor.BroadcastError
			require.ErrorAs(t, err, &be, "%s %v %v", name, c.a, c.b)
			assert.EqualError(t, err, c.text, "%s %v %v", name, c.a, c.b)
			assert.Equal(t, c.dim, be.Dim)
			assert.Equal(t, c.sizeA, be.SizeA)
			assert.Equal(t, c.sizeB, be.SizeB)
		}
	}
	// Placeholders are checked the same way, before any data exists.
	p := expr.Placeholder[float32]("p", 4, 3)
	err := p.Mul(expr.Placeholder[float32]("q", 3, 4)).Err()
	assert.EqualError(t, err, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1")
	// where: three operands.
	w := expr.Where(zerosOf[bool](2, 1), zerosOf[int32](3), zerosOf[int32](4, 1))
	var be *tensor.BroadcastError
	require.ErrorAs(t, w.Err(), &be)
	// Shapes that broadcast.
	for _, c := range []struct{ a, b, want []int }{
		{[]int{0}, []int{1}, []int{0}},
		{[]int{4, 1}, []int{4}, []int{4, 4}},
		{[]int{}, []int{2, 3}, []int{2, 3}},
		{[]int{2, 1, 3}, []int{5, 1}, []int{2, 5, 3}},
		{[]int{1, 0}, []int{3, 1}, []int{3, 0}},
	} {
		e := zerosOf[float64](c.a...).Add(zerosOf[float64](c.b...))
		require.NoError(t, e.Err())
		assert.Equal(t, tensor.Shape(c.want), e.Shape(), "%v + %v", c.a, c.b)
	}
}

func TestStickyError(t *testing.T) {
	a, b := zerosOf[float64](2, 3), zerosOf[float64](3, 2)
	bad := a.Add(b)
	first := bad.Err()
	require.Error(t, first)

	later := []expr.Any{
		bad.Mul(a).Exp().AddScalar(1),
		a.Add(bad),
		bad.Reshape(6),
		bad.Permute(1, 0),
		bad.T(),
		bad.Transpose(0, 1),
		bad.Slice(0, 0, 1, 1),
		bad.Expand(4, 2, 3),
		bad.Squeeze(),
		bad.Unsqueeze(0),
		bad.Sum(),
		bad.Sum(1),
		expr.Cast[int32](bad),
		bad.Gt(a),
		expr.Where(bad.Gt(a), a, a),
		expr.Where(a.Gt(a), a, bad),
		expr.TrueDiv[float32](bad, a),
		// An error in the first operand wins over one in the second.
		bad.Add(a.Add(zerosOf[float64](5))),
	}
	for i, e := range later {
		got := e.Node().Err()
		assert.Same(t, first, got, "expression %d: want the first error %q, got %v", i, first, got)
	}

	_, err := exec.Eval(bad.Mul(a).Exp())
	assert.Same(t, first, err, "Eval returns the graph's first error")
	dst := tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	assert.Same(t, first, exec.EvalTo(dst, bad.AddScalar(1)))
	assert.Equal(t, []float64{1, 2, 3, 4, 5, 6}, dst.Values(), "a failed EvalTo writes nothing")
	_, err = exec.EvalN(a.AddScalar(1), bad)
	assert.Same(t, first, err)
}

func TestZeroAndFailedLeaves(t *testing.T) {
	var z expr.Expr[float64]
	require.Error(t, z.Err())
	require.Error(t, z.Add(zerosOf[float64](2)).Err())
	require.Error(t, zerosOf[float64](2).Mul(z).Err())
	_, err := exec.Eval(z)
	require.Error(t, err)

	// From chains a constructor's error into the graph.
	f := expr.From(tensor.FromSlice([]float64{1, 2}, 3))
	require.Error(t, f.Err())
	assert.Same(t, f.Err(), f.Exp().Add(zerosOf[float64](3)).Err())
	g := expr.From(tensor.FromSlice([]float64{1, 2, 3}, 3))
	require.NoError(t, g.Err())
	assert.Equal(t, tensor.Shape{3}, g.Shape())

	require.Error(t, expr.Of[float64](nil).Err())
	require.Error(t, expr.Placeholder[float64]("p", 2, -1).Err())

	// Wrap checks the dtype.
	n := zerosOf[float64](2).Node()
	require.NoError(t, expr.Wrap[float64](n).Err())
	require.Error(t, expr.Wrap[float32](n).Err())
}

// TestDTypeErrors checks which dtypes each op accepts: the others fail at
// construction with a *expr.DTypeError naming the op and the dtype.
func TestDTypeErrors(t *testing.T) {
	texts := []struct {
		e    expr.Any
		op   expr.Op
		dt   dtype.DType
		text string
	}{
		{zerosOf[int32](2).Exp(), expr.OpExp, dtype.Int32, "expr: exp is not defined for int32 (cast to a float type first with expr.Cast)"},
		{zerosOf[int64](2).Div(zerosOf[int64](2)), expr.OpDiv, dtype.Int64, "expr: div is not defined for int64 (use DivTrunc, DivFloor or expr.TrueDiv)"},
		{zerosOf[uint8](2).DivScalar(3), expr.OpDiv, dtype.Uint8, "expr: div is not defined for uint8 (use DivTrunc, DivFloor or expr.TrueDiv)"},
		{zerosOf[complex128](2).Abs(), expr.OpAbs, dtype.Complex128, "expr: abs is not defined for complex128 (use expr.CAbs for the modulus)"},
		{zerosOf[bool](2).Add(zerosOf[bool](2)), expr.OpAdd, dtype.Bool, "expr: add is not defined for bool"},
		{zerosOf[complex64](2).Lt(zerosOf[complex64](2)), expr.OpLt, dtype.Complex64, "expr: lt is not defined for complex64"},
		{zerosOf[uint16](2).Sqrt(), expr.OpSqrt, dtype.Uint16, "expr: sqrt is not defined for uint16 (cast to a float type first with expr.Cast)"},
	}
	for _, c := range texts {
		err := c.e.Node().Err()
		var de *expr.DTypeError
		require.ErrorAs(t, err, &de, c.text)
		assert.Equal(t, c.op, de.Op)
		assert.Equal(t, c.dt, de.DType)
		assert.EqualError(t, err, c.text)
	}

	t.Run("bool", testAccepts[bool])
	t.Run("int8", testAccepts[int8])
	t.Run("int16", testAccepts[int16])
	t.Run("int32", testAccepts[int32])
	t.Run("int64", testAccepts[int64])
	t.Run("uint8", testAccepts[uint8])
	t.Run("uint16", testAccepts[uint16])
	t.Run("uint32", testAccepts[uint32])
	t.Run("uint64", testAccepts[uint64])
	t.Run("float32", testAccepts[float32])
	t.Run("float64", testAccepts[float64])
	t.Run("complex64", testAccepts[complex64])
	t.Run("complex128", testAccepts[complex128])
}

// Kind sets, as the issue lists them.
const (
	kBool = 1 << iota
	kUint
	kInt
	kFloat
	kComplex

	kInteger = kUint | kInt
	kReal    = kInteger | kFloat
	kNumeric = kReal | kComplex
	kInexact = kFloat | kComplex
	kAll     = kNumeric | kBool
)

func kindOf(d dtype.DType) int {
	switch d.Kind() {
	case dtype.KindBool:
		return kBool
	case dtype.KindUnsigned:
		return kUint
	case dtype.KindSigned:
		return kInt
	case dtype.KindFloat:
		return kFloat
	}
	return kComplex
}

func testAccepts[T dtype.Elem](t *testing.T) {
	x, y := zerosOf[T](3, 1), zerosOf[T](4)
	cases := []struct {
		name   string
		accept int
		e      expr.Any
	}{
		{"neg", kNumeric, x.Neg()},
		{"abs", kReal, x.Abs()},
		{"exp", kInexact, x.Exp()},
		{"log", kInexact, x.Log()},
		{"log1p", kFloat, x.Log1p()},
		{"expm1", kFloat, x.Expm1()},
		{"sqrt", kInexact, x.Sqrt()},
		{"square", kNumeric, x.Square()},
		{"sin", kInexact, x.Sin()},
		{"cos", kInexact, x.Cos()},
		{"tan", kInexact, x.Tan()},
		{"tanh", kInexact, x.Tanh()},
		{"sigmoid", kFloat, x.Sigmoid()},
		{"relu", kReal, x.Relu()},
		{"floor", kReal, x.Floor()},
		{"ceil", kReal, x.Ceil()},
		{"round", kReal, x.Round()},
		{"sign", kNumeric, x.Sign()},
		{"conj", kNumeric, x.Conj()},
		{"not", kBool, x.Not()},
		{"add", kNumeric, x.Add(y)},
		{"sub", kNumeric, x.Sub(y)},
		{"mul", kNumeric, x.Mul(y)},
		{"div", kInexact, x.Div(y)},
		{"div_trunc", kReal, x.DivTrunc(y)},
		{"div_floor", kReal, x.DivFloor(y)},
		{"pow", kNumeric, x.Pow(y)},
		{"maximum", kReal, x.Maximum(y)},
		{"minimum", kReal, x.Minimum(y)},
		{"and", kBool, x.And(y)},
		{"or", kBool, x.Or(y)},
		{"eq", kAll, x.Eq(y)},
		{"ne", kAll, x.Ne(y)},
		{"lt", kReal, x.Lt(y)},
		{"le", kReal, x.Le(y)},
		{"gt", kReal, x.Gt(y)},
		{"ge", kReal, x.Ge(y)},
		{"where", kAll, expr.Where(x.Eq(x), x, y)},
		{"cast", kAll, expr.Cast[float64](x)},

		{"arcsin", kInexact, x.Arcsin()},
		{"arccos", kInexact, x.Arccos()},
		{"arctan", kInexact, x.Arctan()},
		{"sinh", kInexact, x.Sinh()},
		{"cosh", kInexact, x.Cosh()},
		{"arcsinh", kInexact, x.Arcsinh()},
		{"arccosh", kInexact, x.Arccosh()},
		{"arctanh", kInexact, x.Arctanh()},
		{"log2", kInexact, x.Log2()},
		{"log10", kInexact, x.Log10()},
		{"exp2", kInexact, x.Exp2()},
		{"trunc", kReal, x.Trunc()},
		{"reciprocal", kNumeric, x.Reciprocal()},
		{"rsqrt", kFloat, x.Rsqrt()},
		{"erf", kFloat, x.Erf()},
		{"erfc", kFloat, x.Erfc()},
		{"lgamma", kFloat, x.Lgamma()},
		{"digamma", kFloat, x.Digamma()},
		{"gelu", kFloat, x.Gelu()},
		{"gelu_tanh", kFloat, x.GeluTanh()},
		{"silu", kFloat, x.Silu()},
		{"softplus", kFloat, x.Softplus()},
		{"bitwise_not", kBool | kInt | kUint, x.BitNot()},
		{"isnan", kAll, x.IsNaN()},
		{"isinf", kAll, x.IsInf()},
		{"isfinite", kAll, x.IsFinite()},
		{"signbit", kReal, x.Signbit()},
		{"logical_not", kAll, x.LogicalNot()},
		{"remainder", kReal, x.Mod(y)},
		{"fmod", kReal, x.Fmod(y)},
		{"arctan2", kFloat, x.Arctan2(y)},
		{"hypot", kFloat, x.Hypot(y)},
		{"copysign", kFloat, x.Copysign(y)},
		{"fmax", kReal, x.Fmax(y)},
		{"fmin", kReal, x.Fmin(y)},
		{"logaddexp", kFloat, x.LogAddExp(y)},
		{"logaddexp2", kFloat, x.LogAddExp2(y)},
		{"xor", kBool, x.Xor(y)},
		{"bitwise_and", kBool | kInt | kUint, x.BitAnd(y)},
		{"bitwise_or", kBool | kInt | kUint, x.BitOr(y)},
		{"bitwise_xor", kBool | kInt | kUint, x.BitXor(y)},
		{"left_shift", kInt | kUint, x.LeftShift(y)},
		{"right_shift", kInt | kUint, x.RightShift(y)},
	}
	d := dtype.Of[T]()
	for _, c := range cases {
		err := c.e.Node().Err()
		if c.accept&kindOf(d) != 0 {
			if assert.NoError(t, err, "%s on %s", c.name, d) {
				want := tensor.Shape{3, 4} // the operands broadcast
				if len(c.e.Node().Args()) < 2 && c.name != "where" {
					want = tensor.Shape{3, 1}
				}
				assert.Equal(t, want, c.e.Node().Shape(), c.name)
			}
			continue
		}
		var de *expr.DTypeError
		if assert.ErrorAs(t, err, &de, "%s on %s must fail", c.name, d) {
			assert.Equal(t, c.name, de.Op.String())
			assert.Equal(t, d, de.DType)
		}
	}
}

func TestResultDTypesAndShapes(t *testing.T) {
	z := zerosOf[complex64](2, 1)
	assert.Equal(t, dtype.Float32, expr.Real[float32](z).DType())
	assert.Equal(t, dtype.Float32, expr.Imag[float32](z).Node().DType())
	assert.Equal(t, dtype.Float32, expr.CAbs[float32](z).Node().DType())
	assert.Equal(t, tensor.Shape{2, 1}, expr.CAbs[float32](z).Shape())
	assert.Equal(t, dtype.Bool, zerosOf[int8](3).Ge(zerosOf[int8](1)).Node().DType())
	assert.Equal(t, dtype.Float32, expr.TrueDiv[float32](zerosOf[int16](3), zerosOf[int16](3)).Node().DType())
	assert.Equal(t, dtype.Uint8, expr.Cast[uint8](zerosOf[float64](2)).Node().DType())

	w := expr.Where(zerosOf[bool](2, 1, 1), zerosOf[float32](3, 1), zerosOf[float32](4))
	require.NoError(t, w.Err())
	assert.Equal(t, tensor.Shape{2, 3, 4}, w.Shape())

	s := expr.Scalar(2.5)
	assert.Equal(t, tensor.Shape{}, s.Shape())
	assert.Equal(t, tensor.Shape{3, 2}, zerosOf[float64](3, 2).MulScalar(2).Shape())
}

// TestIdentityShortcuts checks that ops that cannot change a value return
// their operand's node instead of a new one.
func TestIdentityShortcuts(t *testing.T) {
	i := zerosOf[int32](2, 3)
	f := zerosOf[float64](2, 3)
	same := []struct {
		name string
		got  expr.Any
		want expr.Any
	}{
		{"floor of an int", i.Floor(), i},
		{"ceil of an int", i.Ceil(), i},
		{"round of an int", i.Round(), i},
		{"conj of a float", f.Conj(), f},
		{"cast to its own type", expr.Cast[float64](f), f},
		{"reshape to its shape", f.Reshape(2, 3), f},
		{"identity permutation", f.Permute(0, 1), f},
		{"expand to its shape", f.Expand(2, 3), f},
		{"T of 1-D", zerosOf[float64](4).T(), nil},
	}
	for _, c := range same {
		if c.want == nil {
			continue
		}
		assert.Same(t, c.want.Node(), c.got.Node(), c.name)
	}
	v := zerosOf[float64](4)
	assert.Same(t, v.Node(), v.T().Node(), "T of a 1-D expression")
	assert.NotSame(t, f.Node(), f.Floor().Node(), "floor of a float is an op")
}

func TestShapeOps(t *testing.T) {
	x := zerosOf[float64](2, 3, 4)
	ok := []struct {
		name string
		e    expr.Expr[float64]
		want []int
	}{
		{"reshape", x.Reshape(6, 4), []int{6, 4}},
		{"reshape -1", x.Reshape(-1, 2), []int{12, 2}},
		{"flatten", x.Flatten(), []int{24}},
		{"permute", x.Permute(2, 0, 1), []int{4, 2, 3}},
		{"permute negative", x.Permute(-1, -3, -2), []int{4, 2, 3}},
		{"transpose", x.Transpose(0, -1), []int{4, 3, 2}},
		{"T", zerosOf[float64](2, 5).T(), []int{5, 2}},
		{"expand", zerosOf[float64](3, 1).Expand(2, 3, 5), []int{2, 3, 5}},
		{"expand -1", zerosOf[float64](3, 1).Expand(-1, 4), []int{3, 4}},
		{"squeeze all", zerosOf[float64](1, 3, 1).Squeeze(), []int{3}},
		{"squeeze one", zerosOf[float64](1, 3, 1).Squeeze(-1), []int{1, 3}},
		{"unsqueeze", x.Unsqueeze(1), []int{2, 1, 3, 4}},
		{"unsqueeze -1", x.Unsqueeze(-1), []int{2, 3, 4, 1}},
		{"slice", x.Slice(2, 1, 3, 1), []int{2, 3, 2}},
		{"slice step", x.Slice(2, 0, 4, 3), []int{2, 3, 2}},
		{"slice negative", x.Slice(1, -2, 100, 1), []int{2, 2, 4}},
		{"slice empty", x.Slice(1, 2, 1, 1), []int{2, 0, 4}},
		{"slice clamp", x.Slice(0, -10, 10, 5), []int{1, 3, 4}},
	}
	for _, c := range ok {
		require.NoError(t, c.e.Err(), c.name)
		assert.Equal(t, tensor.Shape(c.want), c.e.Shape(), c.name)
	}

	bad := []struct {
		name string
		e    expr.Expr[float64]
		text string
	}{
		{"reshape size", x.Reshape(5, 5), "expr: reshape: shape [5, 5] is invalid for input of size 24"},
		{"reshape two -1", x.Reshape(-1, -1), ""},
		{"reshape -1 does not divide", x.Reshape(-1, 5), ""},
		{"permute count", x.Permute(0, 1), ""},
		{"permute repeat", x.Permute(0, 1, 1), ""},
		{"permute range", x.Permute(0, 1, 3), "Dimension out of range (expected to be in range of [-3, 2], but got 3)"},
		{"transpose range", x.Transpose(0, 5), "Dimension out of range (expected to be in range of [-3, 2], but got 5)"},
		{"T of 3-D", x.T(), ""},
		{"expand non-1", zerosOf[float64](3).Expand(4), ""},
		{"expand fewer", x.Expand(3, 4), ""},
		{"expand leading -1", zerosOf[float64](3).Expand(-1, 3), ""},
		{"squeeze non-1", x.Squeeze(0), ""},
		{"unsqueeze range", x.Unsqueeze(5), ""},
		{"slice step", x.Slice(0, 0, 2, 0), ""},
		{"slice axis", x.Slice(3, 0, 1, 1), "Dimension out of range (expected to be in range of [-3, 2], but got 3)"},
	}
	for _, c := range bad {
		err := c.e.Err()
		require.Error(t, err, c.name)
		if c.text != "" {
			assert.EqualError(t, err, c.text, c.name)
		}
		var se *expr.ShapeOpError
		var ae *tensor.AxisError
		var ee *tensor.ExpandError
		assert.True(t, errors.As(err, &se) || errors.As(err, &ae) || errors.As(err, &ee),
			"%s: a typed error, got %T: %v", c.name, err, err)
		assert.Nil(t, c.e.Shape(), c.name)
	}
}

// TestGoIntLeaves: leaves of Go's int and uint are built on views of their
// storage typed int64 and uint64, their dtypes, so that the graph reads the
// tensor itself when it is evaluated.
func TestGoIntLeaves(t *testing.T) {
	ints := tensor.Must(tensor.FromSlice([]int{1, 2, 3}, 3))
	uints := tensor.Must(tensor.FromSlice([]uint{1, 2, 3}, 3))
	tests := []struct {
		name string
		e    interface {
			Err() error
			DType() dtype.DType
		}
		dt dtype.DType
	}{
		{"Of int", expr.Of(ints), dtype.Int64},
		{"Of uint", expr.Of(uints), dtype.Uint64},
		{"Scalar int", expr.Scalar(7), dtype.Int64},
		{"Placeholder int", expr.Placeholder[int]("x", 2), dtype.Int64},
		{"SymPlaceholder uint", expr.SymPlaceholder[uint]("x", expr.Sym("n")), dtype.Uint64},
		{"built on it", expr.Of(ints).AddScalar(1).Sum(), dtype.Int64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NoError(t, tt.e.Err())
			assert.Equal(t, tt.dt, tt.e.DType())
		})
	}
	leaf := expr.Of(ints).Node().Tensor()
	view, ok := leaf.(*tensor.Tensor[int64])
	require.True(t, ok, "an int leaf is read as int64, got %T", leaf)
	ints.Data()[1] = 20
	assert.Equal(t, []int64{1, 20, 3}, view.Values(), "the view shares the tensor's storage")
}
