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

// valuesOf returns the differentiable values of exec's SortValues,
// TopKValues or KthValueValues, or an expression carrying their error.
func valuesOf(v E, _ *tensor.Tensor[int64], err error) E {
	if err != nil {
		return expr.From[float64](nil, err)
	}
	return v
}

// sortGradCases: the gradients of sort, topk and kthvalue through their
// indices (scatter_add of the upstream gradient), on normal draws, whose
// values are distinct, so that finite differences do not reorder them.
var sortGradCases = []checkCase{
	{"sort", []input{normal(3, 5)}, func(x []E) E { return valuesOf(exec.SortValues(x[0], 1)) }},
	{"sort descending, axis 0", []input{normal(4, 3)}, func(x []E) E { return valuesOf(exec.SortValues(x[0], 0, exec.Descending())) }},
	{"sort inside a loss", []input{normal(2, 6)}, func(x []E) E {
		s := valuesOf(exec.SortValues(x[0].Mul(x[0]), -1))
		return s.Mul(s).Sum()
	}},
	{"topk", []input{normal(3, 6)}, func(x []E) E { return valuesOf(exec.TopKValues(x[0], 2, 1)) }},
	{"topk smallest, axis 0", []input{normal(5, 2)}, func(x []E) E { return valuesOf(exec.TopKValues(x[0], 3, 0, exec.Smallest())) }},
	{"kthvalue", []input{normal(3, 5)}, func(x []E) E { return valuesOf(exec.KthValueValues(x[0], 2, 1)) }},
	{"kthvalue keepdims", []input{normal(4, 3)}, func(x []E) E { return valuesOf(exec.KthValueValues(x[0], 4, 0, exec.KeepDims())) }},
}

func TestSortGradCheck(t *testing.T) {
	checkGradCases(t, rand.New(rand.NewPCG(29, 29)), sortGradCases)
}

// TestSortGradTies: with equal values the stable order decides which
// position each value came from, and so where its gradient goes.
func TestSortGradTies(t *testing.T) {
	xt := tensor.Must(tensor.FromSlice([]float64{2, 3, 1, 3, 2}, 5))
	up := tensor.Must(tensor.FromSlice([]float64{10, 20, 30, 40, 50}, 5))
	x := expr.Of(xt)
	cases := []struct {
		name    string
		y       func() (E, *tensor.Tensor[int64], error)
		idx     []int64
		vals    []float64
		gradOfX []float64
	}{
		// sorted: 1 (2), 2 (0), 2 (4), 3 (1), 3 (3)
		{"sort", func() (E, *tensor.Tensor[int64], error) { return exec.SortValues(x, 0) },
			[]int64{2, 0, 4, 1, 3}, []float64{1, 2, 2, 3, 3}, []float64{20, 40, 10, 50, 30}},
		// descending: 3 (1), 3 (3), 2 (0), 2 (4), 1 (2)
		{"sort descending", func() (E, *tensor.Tensor[int64], error) { return exec.SortValues(x, 0, exec.Descending()) },
			[]int64{1, 3, 0, 4, 2}, []float64{3, 3, 2, 2, 1}, []float64{30, 10, 50, 20, 40}},
		// the top 3 cut between the two 2s: the earlier (position 0) is kept.
		{"topk cut at a tie", func() (E, *tensor.Tensor[int64], error) { return exec.TopKValues(x, 3, 0) },
			[]int64{1, 3, 0}, []float64{3, 3, 2}, []float64{30, 10, 0, 20, 0}},
		{"kthvalue at a tie", func() (E, *tensor.Tensor[int64], error) { return exec.KthValueValues(x, 3, 0) },
			[]int64{4}, []float64{2}, []float64{0, 0, 0, 0, 10}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			y, idx, err := c.y()
			require.NoError(t, err)
			assert.Equal(t, c.idx, idx.Values())
			vals, err := exec.Eval(y)
			require.NoError(t, err)
			assert.Equal(t, c.vals, vals.Values())
			n := len(c.vals)
			u := tensor.Must(tensor.Must(up.Idx(tensor.To(n))).Reshape(y.Shape()...)).Contiguous()
			gs, err := autograd.VJPOf(y, expr.Of(u), x)
			require.NoError(t, err)
			g, err := exec.Eval(gs[0])
			require.NoError(t, err)
			assert.Equal(t, c.gradOfX, g.Values())
		})
	}
}

// TestSortValuesErrors: the eager functions' errors, unchanged.
func TestSortValuesErrors(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2}, 2)))
	_, _, err := exec.TopKValues(x, 3, 0)
	var ae *tensor.ArgError
	assert.ErrorAs(t, err, &ae)
	_, _, err = exec.SortValues(x, 1)
	var xe *tensor.AxisError
	assert.ErrorAs(t, err, &xe)
}
