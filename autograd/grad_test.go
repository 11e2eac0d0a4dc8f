package autograd_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

func vals(t *testing.T, e expr.Expr[float64]) []float64 {
	t.Helper()
	out, err := exec.Eval(e)
	require.NoError(t, err)
	return out.Values()
}

func of(v []float64, shape ...int) E { return expr.Of(tensor.Must(tensor.FromSlice(v, shape...))) }

// gradVals evaluates the gradients of y with respect to wrt.
func gradVals(t *testing.T, y E, wrt ...E) [][]float64 {
	t.Helper()
	gs, err := autograd.GradOf(y, wrt...)
	require.NoError(t, err)
	out := make([][]float64, len(gs))
	for i, g := range gs {
		out[i] = vals(t, g)
	}
	return out
}

// TestTies checks PyTorch's tie rules, where finite differences cannot:
// maximum and minimum split the gradient evenly, max and min reductions
// share it among the elements equal to the result.
func TestTies(t *testing.T) {
	a := of([]float64{1, 2, 3}, 3)
	b := of([]float64{1, 5, 0}, 3)
	g := gradVals(t, a.Maximum(b).Sum(), a, b)
	assert.Equal(t, []float64{0.5, 0, 1}, g[0])
	assert.Equal(t, []float64{0.5, 1, 0}, g[1])
	g = gradVals(t, a.Minimum(b).Sum(), a, b)
	assert.Equal(t, []float64{0.5, 1, 0}, g[0])
	assert.Equal(t, []float64{0.5, 0, 1}, g[1])

	x := of([]float64{3, 1, 3, 3, 2, 0, 2, 2}, 2, 4)
	third := 1.0 / 3
	assert.Equal(t, [][]float64{{third, 0, third, third, 0, 0, 0, 0}}, gradVals(t, x.Max(), x))
	assert.Equal(t, [][]float64{{third, 0, third, third, third, 0, third, third}}, gradVals(t, x.Max(1).Sum(), x))
	assert.Equal(t, [][]float64{{0, 1, 0, 0, 0, 1, 0, 0}}, gradVals(t, x.Min(1).Sum(), x))
	x2 := of([]float64{3, 1, 3, 0, 2, 0}, 3, 2)
	assert.Equal(t, [][]float64{{0.5, 1, 0.5, 0, 0, 0}}, gradVals(t, x2.MaxKeepDims(0).Sum(), x2))
	assert.Equal(t, [][]float64{{0, 0, 0, 0.5, 1, 0.5}}, gradVals(t, x2.Min(0).Sum(), x2))
}

// TestProdZeros checks prod's gradient where elements are zero: the product
// of the others, with no division by zero.
func TestProdZeros(t *testing.T) {
	x := of([]float64{2, 0, 3, 0, 0, 5, 4, 1, 2}, 3, 3)
	g := gradVals(t, x.Prod(1).Sum(), x)
	assert.Equal(t, []float64{0, 6, 0, 0, 0, 0, 2, 8, 4}, g[0])
}

// TestNotDifferentiable checks the typed errors for gradients requested
// through ops and values that have none.
func TestNotDifferentiable(t *testing.T) {
	x := of([]float64{1, -2, 3}, 3)
	tests := []struct {
		name string
		y    func() expr.Any
		op   expr.Op
	}{
		{"comparison", func() expr.Any { return expr.Cast[float64](x.Gt(expr.Scalar(0.0))).Sum() }, expr.OpGt},
		{"where condition", func() expr.Any {
			return expr.Where(x.Gt(expr.Scalar(0.0)), expr.Scalar(1.0), expr.Scalar(2.0)).Expand(3).Sum()
		}, expr.OpGt},
		{"argmax", func() expr.Any { return expr.Cast[float64](x.ArgMax(0)) }, expr.OpArgMax},
		{"div_floor", func() expr.Any { return x.DivFloor(expr.Scalar(2.0)).Sum() }, expr.OpDivFloor},
		{"div_trunc", func() expr.Any { return x.DivTrunc(expr.Scalar(2.0)).Sum() }, expr.OpDivTrunc},
		{"integer cast", func() expr.Any { return expr.Cast[float64](expr.Cast[int32](x)).Sum() }, expr.OpCast},
		{"any", func() expr.Any { return expr.Cast[float64](x.Gt(expr.Scalar(0.0)).Any()) }, expr.OpAny},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			_, err := autograd.Grad(c.y(), x)
			var nd *autograd.NotDifferentiableError
			require.ErrorAs(t, err, &nd)
			assert.Equal(t, c.op, nd.Op)
			t.Log(err)
		})
	}
	// An integer leaf takes no gradient.
	i := expr.Of(tensor.Must(tensor.FromSlice([]int32{1, 2}, 2)))
	_, err := autograd.Grad(expr.Cast[float64](i).Sum(), i)
	var nd *autograd.NotDifferentiableError
	require.ErrorAs(t, err, &nd)
	assert.Equal(t, dtype.Int32, nd.DType)
}

// TestGradEdges covers the other outcomes of Grad: zeros for an input the
// output does not use, an output with more than one element, a path that
// mixes a comparison with a differentiable one, sticky errors.
func TestGradEdges(t *testing.T) {
	x := of([]float64{1, -2, 3}, 3)
	u := of([]float64{7, 8}, 2)
	g := gradVals(t, x.Square().Sum(), x, u)
	assert.Equal(t, []float64{2, -4, 6}, g[0])
	assert.Equal(t, []float64{0, 0}, g[1])

	_, err := autograd.Grad(x.Square(), x)
	assert.ErrorIs(t, err, autograd.ErrNotScalar)

	// relu written with where: the condition's path contributes nothing.
	r := expr.Where(x.Gt(expr.Scalar(0.0)), x, expr.Scalar(0.0)).Sum()
	assert.Equal(t, [][]float64{{1, 0, 1}}, gradVals(t, r, x))

	bad := x.Add(of([]float64{1, 2}, 2))
	_, err = autograd.Grad(bad.Sum(), x)
	var be *tensor.BroadcastError
	assert.ErrorAs(t, err, &be)

	_, err = autograd.VJP(x.Exp(), u, x)
	assert.Error(t, err)

	s := expr.SymPlaceholder[float64]("s", expr.Sym("B"))
	_, err = autograd.Grad(s.Sum(), s)
	assert.True(t, errors.Is(err, autograd.ErrSymbolic))
}

// TestFloat32 differentiates a float32 graph that passes through float64.
func TestFloat32(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.FromSlice([]float32{1, 2, 3}, 3)))
	y := expr.Cast[float32](expr.Cast[float64](x).Square()).Sum()
	gs, err := autograd.GradOf(y, x)
	require.NoError(t, err)
	got, err := exec.Eval(gs[0])
	require.NoError(t, err)
	assert.Equal(t, []float32{2, 4, 6}, got.Values())
}

// TestSecondOrder differentiates first derivatives again and compares the
// second derivatives of elementwise functions with their analytic values.
func TestSecondOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	xs := positive(0.3, 4, 5).tensor(r)
	tests := []struct {
		name string
		f    func(x E) E
		d2   func(x float64) float64
	}{
		{"sin", E.Sin, func(x float64) float64 { return -math.Sin(x) }},
		{"exp", E.Exp, math.Exp},
		{"cube", func(x E) E { return x.Mul(x).Mul(x) }, func(x float64) float64 { return 6 * x }},
		{"log", E.Log, func(x float64) float64 { return -1 / (x * x) }},
		{"tanh", E.Tanh, func(x float64) float64 { t := math.Tanh(x); return -2 * t * (1 - t*t) }},
		{"sigmoid", E.Sigmoid, func(x float64) float64 { s := 1 / (1 + math.Exp(-x)); return s * (1 - s) * (1 - 2*s) }},
		{"sqrt", E.Sqrt, func(x float64) float64 { return -0.25 * math.Pow(x, -1.5) }},
		{"pow", func(x E) E { return x.PowScalar(3.5) }, func(x float64) float64 { return 3.5 * 2.5 * math.Pow(x, 1.5) }},
		{"x*exp(x)", func(x E) E { return x.Mul(x.Exp()) }, func(x float64) float64 { return (x + 2) * math.Exp(x) }},
		{"relu", E.Relu, func(float64) float64 { return 0 }},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			x := expr.Of(xs)
			g1, err := autograd.GradOf(c.f(x).Sum(), x)
			require.NoError(t, err)
			g2, err := autograd.GradOf(g1[0].Sum(), x)
			require.NoError(t, err)
			got := vals(t, g2[0])
			for i, v := range xs.Values() {
				assert.InDelta(t, c.d2(v), got[i], 1e-9*(1+math.Abs(c.d2(v))), "x=%g", v)
			}
		})
	}
}

// TestDeterminism checks that repeated backward passes are bit-identical,
// for one and eight workers and any block size (broadcast gradients are
// reductions, whose partition depends on the graph alone).
func TestDeterminism(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	a := expr.Of(normal(300, 1).tensor(r))
	b := expr.Of(normal(1, 200).tensor(r))
	c := expr.Of(normal(200).tensor(r))
	w := expr.Of(normal(200, 7).tensor(r))
	y := a.Mul(b).Add(c).Sin().MatMul(w).Square().Mean()
	pairs := [][2]*exec.Executor{{serial, wide}, {exec.New(exec.Workers(1), exec.BlockSize(16)), tiny}, {serial, tiny}}
	for _, pair := range pairs {
		var first [][]float64
		for run := range 3 {
			for _, x := range pair {
				gs, err := autograd.GradOf(y, a, b, c, w)
				require.NoError(t, err)
				for i, g := range gs {
					got, err := exec.EvalWith(x, g)
					require.NoError(t, err)
					if len(first) <= i {
						first = append(first, got.Values())
						continue
					}
					require.Equal(t, first[i], got.Values(), "run %d, gradient %d, %d workers", run, i, x.Workers())
				}
			}
		}
	}
}
