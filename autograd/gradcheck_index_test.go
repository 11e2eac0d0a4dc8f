package autograd_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// idx is an int64 index leaf of the given shape (with repeats and, where
// the op allows them, negative entries).
func idx(vals []int64, shape ...int) expr.Expr[int64] {
	return expr.Of(tensor.Must(tensor.FromSlice(vals, shape...)))
}

// indexGradCases cover the gathers' rules (scatter_add of the upstream
// gradient, repeated indices accumulating), masked_fill's and
// stop_gradient's.
var indexGradCases = []checkCase{
	{"take_along_axis", []input{normal(3, 4)}, func(x []E) E {
		return expr.TakeAlongAxis(x[0], idx([]int64{0, -1, 1, 1, 3, 3}, 3, 2), 1)
	}},
	{"take_along_axis, broadcast", []input{normal(1, 4)}, func(x []E) E {
		return expr.TakeAlongAxis(x[0], idx([]int64{0, 2, 2}, 3, 1), 1)
	}},
	{"gather", []input{normal(3, 4)}, func(x []E) E { return expr.Gather(x[0], 0, idx([]int64{2, 0, 2, 1, 1, 1}, 2, 3)) }},
	{"index_select", []input{normal(3, 4)}, func(x []E) E { return expr.IndexSelect(x[0], 1, idx([]int64{3, 0, 3}, 3)) }},
	{"take, 2-D index", []input{normal(4, 3)}, func(x []E) E { return expr.Take(x[0], idx([]int64{1, -1, 1, 0}, 2, 2), 0) }},
	{"take, 0-d index", []input{normal(4, 3)}, func(x []E) E { return expr.Take(x[0], idx([]int64{2}), 1) }},
	{"take flat", []input{normal(2, 3)}, func(x []E) E { return expr.TakeFlat(x[0], idx([]int64{5, 0, 5, -2}, 4)) }},
	{"masked_fill", []input{normal(3, 4)}, func(x []E) E {
		m := expr.Of(tensor.Must(tensor.FromSlice([]bool{true, false, false, true}, 4)))
		return expr.MaskedFill(x[0].Mul(x[0]), m, 2.5)
	}},
	{"fused loss", []input{normal(4, 5)}, func(x []E) E {
		lse := x[0].Exp().SumKeepDims(1).Log()
		return lse.Sub(expr.TakeAlongAxis(x[0], idx([]int64{4, 0, 0, 2}, 4, 1), 1)).Mean()
	}},
}

// TestIndexGradCheck compares those gradients with central finite
// differences, for a random upstream gradient.
func TestIndexGradCheck(t *testing.T) {
	checkGradCases(t, rand.New(rand.NewPCG(23, 23)), indexGradCases)
}

// TestStopGradient: the gradient of x * stop_gradient(x) is x alone (the
// stopped factor is a constant), and evaluating it gives x's values.
func TestStopGradient(t *testing.T) {
	xt := tensor.Must(tensor.FromSlice([]float64{1, -2, 3}, 3))
	x := expr.Of(xt)
	y := x.Mul(expr.StopGradient(x)).Sum()
	gs, err := autograd.GradOf(y, x)
	require.NoError(t, err)
	g, err := exec.Eval(gs[0])
	require.NoError(t, err)
	assert.Equal(t, []float64{1, -2, 3}, g.Values())
	v, err := exec.Eval(x.Detach())
	require.NoError(t, err)
	assert.Equal(t, xt.Values(), v.Values())
}

// TestScatterHasNoGradient: scatter_add's gradient is refused with the
// rules' reason.
func TestScatterHasNoGradient(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2, 3}, 3)))
	y := expr.ScatterAdd(x, 0, idx([]int64{0, 0}, 2), x.Slice(0, 0, 2, 1)).Sum()
	_, err := autograd.GradOf(y, x)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "scatter")
}
