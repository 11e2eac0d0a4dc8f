package expr_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

var (
	symB = expr.Sym("B")
	k    = expr.Known
)

// symX is an input [B, 3, 8, 8].
func symX() expr.Expr[float32] { return expr.SymPlaceholder[float32]("x", symB, k(3), k(8), k(8)) }

func TestDims(t *testing.T) {
	assert.Equal(t, "[B, 3, ?]", expr.Dims{symB, k(3), expr.Unknown()}.String())
	assert.Equal(t, "[2, ?]", expr.DimsOf(2, -1).String())
	assert.True(t, expr.Unknown().IsUnknown())
	assert.True(t, expr.Dim{}.IsUnknown())
	assert.True(t, symB.Same(expr.Sym("B")))
	assert.False(t, symB.Same(expr.Sym("N")))
	assert.False(t, expr.Unknown().Same(expr.Unknown()))
	v, ok := k(4).Value()
	assert.True(t, ok)
	assert.Equal(t, 4, v)
	s, concrete := expr.Dims{symB, k(3)}.Shape()
	assert.False(t, concrete)
	assert.Equal(t, tensor.Shape{-1, 3}, s)
	assert.Equal(t, []string{"B", "T"}, expr.Dims{symB, expr.Sym("T"), symB}.Symbols())
	// A placeholder with every extent known is an ordinary placeholder.
	p := expr.SymPlaceholder[float32]("p", k(2), k(3))
	assert.False(t, p.Node().Symbolic())
	assert.Equal(t, tensor.Shape{2, 3}, p.Shape())
}

// TestSymbolicShapes checks the forward shape rule of every op on symbolic
// shapes.
func TestSymbolicShapes(t *testing.T) {
	x := symX()
	y := expr.SymPlaceholder[float32]("y", symB, k(1), k(8), k(8))
	n := expr.SymPlaceholder[float32]("n", expr.Sym("N"), k(3), k(8), k(8))
	u := expr.SymPlaceholder[float32]("u", expr.Unknown(), k(3), k(1), k(1))
	seq := expr.SymPlaceholder[float32]("s", symB, k(6), k(4))
	w := expr.Placeholder[float32]("w", 4, 8)
	tests := []struct {
		name string
		e    expr.Any
		want string
	}{
		{"unary", x.Exp(), "[B, 3, 8, 8]"},
		{"cast", expr.Cast[float64](x), "[B, 3, 8, 8]"},
		{"add same", x.Add(y), "[B, 3, 8, 8]"},
		{"add concrete", x.Add(expr.Placeholder[float32]("c", 8)), "[B, 3, 8, 8]"},
		{"add other symbol", x.Add(n), "[?, 3, 8, 8]"},
		{"add unknown", u.Add(x), "[?, 3, 8, 8]"},
		{"add scalar", x.MulScalar(2), "[B, 3, 8, 8]"},
		{"compare", x.Gt(y), "[B, 3, 8, 8]"},
		{"where", expr.Where(x.Gt(y), x, y), "[B, 3, 8, 8]"},
		{"reshape", x.Reshape(-1, 192), "[B, 192]"},
		{"reshape keep batch", x.Reshape(-1, 3, 64), "[B, 3, 64]"},
		{"reshape not unique", x.Reshape(6, -1), "[6, ?]"},
		{"reshape dims", x.ReshapeDims(symB, k(3), k(-1)), "[B, 3, 64]"},
		{"flatten", x.Flatten(), "[?]"},
		{"permute", x.Permute(0, 2, 3, 1), "[B, 8, 8, 3]"},
		{"transpose", x.Transpose(0, 1), "[3, B, 8, 8]"},
		{"T", seq.Sum(2).T(), "[6, B]"},
		{"expand", y.Expand(-1, 3, -1, -1), "[B, 3, 8, 8]"},
		{"expand dims", expr.SymPlaceholder[float32]("v", k(1), k(3)).ExpandDims(symB, k(3)), "[B, 3]"},
		{"expand new axis", y.Expand(2, -1, 5, 8, 8), "[2, B, 5, 8, 8]"},
		{"squeeze", y.Squeeze(1), "[B, 8, 8]"},
		{"squeeze all", y.Squeeze(), "[B, 8, 8]"},
		{"unsqueeze", x.Unsqueeze(1), "[B, 1, 3, 8, 8]"},
		{"slice known axis", x.Slice(1, 0, 2, 1), "[B, 2, 8, 8]"},
		{"slice symbolic axis", x.Slice(0, 1, 4, 1), "[?, 3, 8, 8]"},
		// A stop far past any extent: 1<<62 on 64-bit, 1<<30 on 32-bit.
		{"slice whole symbolic axis", x.Slice(0, 0, 1<<(strconv.IntSize-2), 1), "[B, 3, 8, 8]"},
		{"embed", x.Embed(1, 1, 1, 5), "[B, 5, 8, 8]"},
		{"sum batch", x.Sum(0), "[3, 8, 8]"},
		{"mean HW", x.Mean(2, 3), "[B, 3]"},
		{"max keepdim", x.MaxKeepDims(1), "[B, 1, 8, 8]"},
		{"argmax", x.ArgMax(1), "[B, 8, 8]"},
		{"sum_to", x.SumTo(1, 3, 1, 1), "[1, 3, 1, 1]"},
		{"sum_to dims", x.SumToDims(symB, k(3), k(1), k(1)), "[B, 3, 1, 1]"},
		{"matmul", seq.MatMul(w), "[B, 6, 8]"},
		{"matmul vector", seq.MatMul(expr.Placeholder[float32]("v", 4)), "[B, 6]"},
		{"broadcast_add", x.BroadcastAdd(y), "[B, 3, 8, 8]"},
		{"broadcast_add unknown batch", u.BroadcastAdd(expr.SymPlaceholder[float32]("z", symB, k(3), k(8), k(8))), "[B, 3, 8, 8]"},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, c.e.Node().Err())
			assert.Equal(t, c.want, c.e.Node().Dims().String())
		})
	}
	assert.Equal(t, dtype.Int64, x.ArgMax(1).Node().DType())
	assert.False(t, x.Sum(0).Node().Symbolic(), "a reduction over the only symbolic axis is concrete")
}

// TestSymbolicErrors checks that what can be checked on symbolic shapes is.
func TestSymbolicErrors(t *testing.T) {
	x := symX()
	tests := []struct {
		name string
		e    expr.Any
	}{
		{"broadcast known mismatch", x.Add(expr.SymPlaceholder[float32]("z", symB, k(4), k(8), k(8)))},
		{"reshape count", x.ReshapeDims(symB, k(5), expr.Unknown())},
		{"reshape same symbols", x.ReshapeDims(symB, k(100))},
		{"reshape two unknowns", x.ReshapeDims(expr.Unknown(), expr.Unknown())},
		{"expand non-singleton", x.Expand(-1, 4, 8, 8)},
		{"squeeze symbolic", x.Squeeze(0)},
		{"matmul inner", x.MatMul(expr.Placeholder[float32]("w", 4, 2))},
		{"broadcast_add rank", x.BroadcastAdd(expr.SymPlaceholder[float32]("b", symB, k(3)))},
		{"broadcast_add extent", x.BroadcastAdd(expr.SymPlaceholder[float32]("b", symB, k(2), k(8), k(8)))},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			assert.Error(t, c.e.Node().Err())
		})
	}
	var be *tensor.BroadcastError
	require.ErrorAs(t, tests[0].e.Node().Err(), &be)
	assert.Equal(t, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1", be.Error())
}

// convBias is spec 004's example 1 with fixed parameters.
func convBias(x expr.Expr[float32]) expr.Expr[float32] {
	w := expr.Param("weight", tensor.Must(tensor.RandN[float32](7, 3, 3)))
	b := expr.Param("bias", tensor.Must(tensor.RandN[float32](8, 3)))
	pooled := expr.Scope("global_avg_pool", func() expr.Expr[float32] { return x.Mean(2, 3) })
	lin := expr.Scope("linear", func() expr.Expr[float32] { return pooled.MatMul(w).Add(b) })
	return x.BroadcastAdd(lin.Reshape(-1, 3, 1, 1))
}

// TestSpecialize evaluates a symbolic graph for two batch sizes and
// compares with the graph built on concrete placeholders.
func TestSpecialize(t *testing.T) {
	x := symX()
	y := convBias(x)
	require.NoError(t, y.Err())
	_, err := exec.Eval(y, exec.Bind(x, tensor.Must(tensor.Zeros[float32](2, 3, 8, 8))))
	assert.Error(t, err, "a symbolic graph is not evaluated")

	for _, batch := range []int{1, 4} {
		data := tensor.Must(tensor.RandN[float32](uint64(batch), batch, 3, 8, 8))
		sp := expr.NewSpecializer(nil)
		require.NoError(t, sp.Match(x, data.Shape()))
		size, ok := sp.Size("B")
		require.True(t, ok)
		assert.Equal(t, batch, size)
		xc, yc := expr.Specialize(sp, x), expr.Specialize(sp, y)
		require.NoError(t, yc.Err())
		assert.Equal(t, tensor.Shape{batch, 3, 8, 8}, yc.Shape())
		assert.False(t, yc.Node().Symbolic())
		got, err := exec.Eval(yc, exec.Bind(xc, data))
		require.NoError(t, err)

		p := expr.Placeholder[float32]("x", batch, 3, 8, 8)
		want, err := exec.Eval(convBias(p), exec.Bind(p, data))
		require.NoError(t, err)
		assert.Equal(t, want.Values(), got.Values())
		// The specialised graph keeps its composite ops.
		assert.Contains(t, expr.Summary(yc), "global_avg_pool")
	}
}

func TestSpecializeErrors(t *testing.T) {
	x := symX()
	y := x.Exp()
	var se *expr.SpecializeError
	// No size for B.
	assert.ErrorAs(t, expr.Specialize(expr.NewSpecializer(nil), y).Err(), &se)
	// Match against a shape that contradicts the placeholder.
	sp := expr.NewSpecializer(map[string]int{"B": 2})
	assert.ErrorAs(t, sp.Match(x, tensor.Shape{3, 3, 8, 8}), &se)
	assert.ErrorAs(t, sp.Match(x, tensor.Shape{2, 4, 8, 8}), &se)
	assert.ErrorAs(t, sp.Match(x, tensor.Shape{2, 3, 8}), &se)
	assert.ErrorAs(t, sp.Match(y, tensor.Shape{2, 3, 8, 8}), &se)
	// An unknown extent needs Match.
	u := expr.SymPlaceholder[float32]("u", k(2), expr.Unknown())
	assert.ErrorAs(t, expr.Specialize(sp, u).Err(), &se)
	require.NoError(t, sp.Match(u, tensor.Shape{2, 5}))
	assert.Equal(t, tensor.Shape{2, 5}, expr.Specialize(sp, u.Exp()).Shape())
	// A contract a symbol hid fails when the graph is specialised.
	a := expr.SymPlaceholder[float32]("a", symB, k(3))
	b := expr.SymPlaceholder[float32]("b", expr.Sym("N"), k(3))
	sum := a.BroadcastAdd(b)
	require.NoError(t, sum.Err())
	var ce *expr.ConstraintError
	assert.ErrorAs(t, expr.Specialize(expr.NewSpecializer(map[string]int{"B": 2, "N": 3}), sum).Err(), &ce)
	// A concrete graph is its own specialisation.
	c := expr.Placeholder[float32]("c", 2).Exp()
	assert.Same(t, c.Node(), expr.Specialize(expr.NewSpecializer(nil), c).Node())
}

func TestFormatSymbolic(t *testing.T) {
	x := symX()
	assert.Equal(t, "%0:f32[B,3,8,8] = placeholder \"x\"\n%1:f32[B,3] = mean %0 axes=[2,3]\nreturn %1", x.Mean(2, 3).String())
}
