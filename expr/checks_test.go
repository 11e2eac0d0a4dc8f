package expr_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/compat"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Integers to negative integer powers are not allowed (NumPy): a negative
// scalar exponent is an *IntegerPowerError when the node is built.
func TestIntegerPowerNegativeScalar(t *testing.T) {
	const text = "Integers to negative integer powers are not allowed."
	cases := []struct {
		name string
		x    expr.Any
		ok   bool
	}{
		{"int64 PowScalar(-1)", expr.From(tensor.Ones[int64](3)).PowScalar(-1), false},
		{"int8 PowScalar(-128)", expr.From(tensor.Ones[int8](3)).PowScalar(-128), false},
		{"int16 Pow(Scalar(-2))", expr.From(tensor.Ones[int16](3)).Pow(expr.Scalar[int16](-2)), false},
		{"int32 PowScalar(-1), sticky", expr.From(tensor.Ones[int32](3)).PowScalar(-1).AddScalar(1), false},
		{"int64 PowScalar(0)", expr.From(tensor.Ones[int64](3)).PowScalar(0), true},
		{"uint8 PowScalar(255)", expr.From(tensor.Ones[uint8](3)).PowScalar(255), true},
		{"float64 PowScalar(-1)", expr.From(tensor.Ones[float64](3)).PowScalar(-1), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.x.Node().Err()
			if c.ok {
				assert.NoError(t, err)
				return
			}
			var pe *expr.IntegerPowerError
			require.True(t, errors.As(err, &pe), "want an *IntegerPowerError, got %v", err)
			assert.Contains(t, err.Error(), text)
		})
	}
	out, err := exec.Eval(expr.From(tensor.Ones[int64](3)).PowScalar(-1))
	assert.Nil(t, out)
	var pe *expr.IntegerPowerError
	assert.True(t, errors.As(err, &pe), "Eval returns it: %v", err)
}

// nil and zero-value arguments give typed errors (*tensor.ArgError), never
// a panic.
func TestNilAndZeroArguments(t *testing.T) {
	var zero expr.Expr[float64]
	ok := expr.From(tensor.Ones[float64](2, 2))
	cases := []struct {
		name string
		err  func() error
	}{
		{"Specialize(nil, x)", func() error { return expr.Specialize(nil, ok).Err() }},
		{"nil Specializer.Node", func() error { return (*expr.Specializer)(nil).Node(ok.Node()).Err() }},
		{"nil Specializer.Match", func() error { return (*expr.Specializer)(nil).Match(ok, tensor.Shape{2, 2}) }},
		{"Specializer.Node(nil)", func() error { return expr.NewSpecializer(nil).Node(nil).Err() }},
		{"Match(nil, shape)", func() error { return expr.NewSpecializer(nil).Match(nil, tensor.Shape{2}) }},
		{"Specialize of a zero Expr", func() error { return expr.Specialize(expr.NewSpecializer(nil), zero).Err() }},
		{"Scope(name, nil)", func() error { return expr.Scope[float64]("layer", nil).Err() }},
		{"Scope returning a zero Expr", func() error {
			return expr.Scope("layer", func() expr.Expr[float64] { return zero }).Err()
		}},
		{"Of(nil)", func() error { return expr.Of[float64](nil).Err() }},
		{"Of typed nil", func() error { return expr.Of((*tensor.Tensor[float64])(nil)).Err() }},
		{"From(nil, nil)", func() error { return expr.From[float64](nil, nil).Err() }},
		{"Param(name, nil)", func() error { return expr.Param[float64]("w", nil).Err() }},
		{"Wrap(nil)", func() error { return expr.Wrap[float64](nil).Err() }},
		{"zero Expr", func() error { return zero.Err() }},
		{"zero Expr Add", func() error { return zero.Add(ok).Err() }},
		{"Add zero Expr", func() error { return ok.Add(zero).Err() }},
		{"zero Expr Transpose", func() error { return zero.Transpose(0, 1).Err() }},
		{"zero Expr T", func() error { return zero.T().Err() }},
		{"zero Expr Squeeze", func() error { return zero.Squeeze().Err() }},
		{"zero Expr Unsqueeze", func() error { return zero.Unsqueeze(0).Err() }},
		{"zero Expr SumTo", func() error { return zero.SumTo(1).Err() }},
		{"zero Expr SumToDims", func() error { return zero.SumToDims(expr.Sym("B")).Err() }},
		{"zero Expr ReshapeDims", func() error { return zero.ReshapeDims(expr.Sym("B")).Err() }},
		{"zero Expr ExpandDims", func() error { return zero.ExpandDims(expr.Sym("B")).Err() }},
		{"zero Expr Slice", func() error { return zero.Slice(0, 0, 1, 1).Err() }},
		{"zero Expr Embed", func() error { return zero.Embed(0, 0, 1, 1).Err() }},
		{"zero Expr MatMul", func() error { return zero.MatMul(ok).Err() }},
		{"zero Expr BroadcastAdd", func() error { return zero.BroadcastAdd(ok).Err() }},
		{"zero Expr ArgMax", func() error { return zero.ArgMax(0).Err() }},
		{"Cast of a zero Expr", func() error { return expr.Cast[float32](zero).Err() }},
		{"Where with a zero condition", func() error { return expr.Where(expr.Expr[bool]{}, ok, ok).Err() }},
		{"Real of a zero Expr", func() error { return expr.Real[float64](expr.Expr[complex128]{}).Err() }},
		{"Eval of a zero Expr", func() error { _, err := exec.Eval(zero); return err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = c.err() })
			var ae *tensor.ArgError
			require.True(t, errors.As(err, &ae), "want a *tensor.ArgError, got %v", err)
			assert.Regexp(t, "is nil|zero Expr", err.Error())
		})
	}
	t.Run("printing nil", func(t *testing.T) {
		assert.NotPanics(t, func() {
			assert.Contains(t, expr.Summary(nil), "zero Expr")
			assert.Contains(t, expr.Format(nil), "zero Expr")
			assert.Contains(t, zero.String(), "zero Expr")
		})
	})
	t.Run("zero Specializer", func(t *testing.T) {
		var s expr.Specializer
		p := expr.SymPlaceholder[float64]("p", expr.Sym("B"))
		require.NoError(t, s.Match(p, tensor.Shape{4}))
		y := expr.Specialize(&s, p.AddScalar(1))
		require.NoError(t, y.Err())
		assert.Equal(t, tensor.Shape{4}, y.Shape())
	})
}

// Where's condition takes part in the restricted-rank rule: the merged rank
// of all three operands' broadcast must be below 6 for a restricted dtype.
func TestWhereRestrictedRankCountsTheCondition(t *testing.T) {
	rank7 := []int{2, 1, 2, 1, 2, 1, 2}
	alt7 := []int{1, 2, 1, 2, 1, 2, 1}
	cases := []struct {
		name  string
		where func() expr.Any
		fails bool
	}{
		{"rank-7 condition against a, float64", func() expr.Any {
			return expr.Where(expr.Placeholder[bool]("c", rank7...), expr.Placeholder[float64]("a", alt7...), expr.Scalar(2.0))
		}, true},
		{"rank-7 condition against a, int32", func() expr.Any {
			return expr.Where(expr.Placeholder[bool]("c", rank7...), expr.Placeholder[int32]("a", alt7...), expr.Scalar[int32](2))
		}, false},
		{"rank-7 condition, float64 scalars: merges to one axis", func() expr.Any {
			return expr.Where(expr.Placeholder[bool]("c", rank7...), expr.Scalar(1.0), expr.Scalar(2.0))
		}, false},
		{"condition stretched on alternate axes", func() expr.Any {
			return expr.Where(expr.Placeholder[bool]("c", 5, 1, 5, 1, 5, 1),
				expr.Placeholder[uint16]("a", 5, 5, 5, 5, 5, 5), expr.Placeholder[uint16]("b", 5, 5, 5, 5, 5, 5))
		}, true},
		{"condition as large as the values", func() expr.Any {
			return expr.Where(expr.Placeholder[bool]("c", 5, 5, 5, 5, 5, 5),
				expr.Placeholder[float64]("a", 5, 5, 5, 5, 5, 5), expr.Placeholder[float64]("b", 5, 5, 5, 5, 5, 5))
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.where().Node().Err()
			if !c.fails {
				assert.NoError(t, err)
				return
			}
			var re *expr.RestrictedRankError
			require.True(t, errors.As(err, &re), "want a *RestrictedRankError, got %v", err)
			assert.GreaterOrEqual(t, len(re.Merged), expr.MaxRestrictedRank)
			assert.NotNil(t, re.Cond)
			assert.Contains(t, err.Error(), "under a condition of shape "+re.Cond.String())
			defer compat.Apply(compat.Settings{Unrestricted: true})()
			assert.NoError(t, c.where().Node().Err(), "with the rule lifted")
		})
	}
}

// The merge of any number of shapes agrees with tensor.MergedBroadcastShape
// on two.
func TestMergedBroadcastShapeOfTwo(t *testing.T) {
	extents := []int{0, 1, 2, 3}
	var shapes []tensor.Shape
	var gen func(s tensor.Shape)
	gen = func(s tensor.Shape) {
		shapes = append(shapes, s.Clone())
		if len(s) == 3 {
			return
		}
		for _, e := range extents {
			gen(append(s, e))
		}
	}
	gen(tensor.Shape{})
	for _, a := range shapes {
		for _, b := range shapes {
			want, werr := tensor.MergedBroadcastShape(a, b)
			got, gerr := expr.MergedBroadcastShape(a, b)
			require.Equal(t, werr == nil, gerr == nil, "%v %v", a, b)
			assert.Equal(t, want, got, "%v %v", a, b)
		}
	}
}

// Messages say what the tensor versions say.
func TestMessagesMatchTensor(t *testing.T) {
	a := expr.From(tensor.Ones[float64](2, 3))
	_, terr := tensor.Must(tensor.Ones[float64](2, 3)).Reshape(-1, -1)
	require.Error(t, terr)
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"Reshape(-1, -1)", a.Reshape(-1, -1).Err(), "only one dimension can be inferred"},
		{"symbolic Reshape(-1, -1)", expr.SymPlaceholder[float64]("p", expr.Sym("B")).Reshape(-1, -1).Err(), "only one dimension can be inferred"},
		{"ReshapeDims(?, ?)", expr.SymPlaceholder[float64]("p", expr.Sym("B")).ReshapeDims(expr.Unknown(), expr.Unknown()).Err(), "only one dimension can be inferred"},
		{"Reshape(-2)", a.Reshape(-2, 3).Err(), "invalid shape dimension -2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var se *expr.ShapeOpError
			require.True(t, errors.As(c.err, &se), "want a *ShapeOpError, got %v", c.err)
			assert.Contains(t, c.err.Error(), c.want)
			assert.NotContains(t, c.err.Error(), "extent -1 at dimension")
		})
	}
	assert.Contains(t, terr.Error(), "only one dimension can be inferred", "the tensor version's words")

	t.Run("ArgMax of a 0-d tensor", func(t *testing.T) {
		err := expr.Scalar(1.0).ArgMax(0).Err()
		_, want := tensor.Axis(0, 0)
		var ae *tensor.AxisError
		require.True(t, errors.As(err, &ae), "want a *tensor.AxisError, got %v", err)
		assert.Equal(t, want.Error(), err.Error(), "tensor.Axis's words")
	})
}
