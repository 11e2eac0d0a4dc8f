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

// withZeros draws normal values with about one in four exactly zero, some
// lines with several: cumprod's gradient at and past a line's first zero.
func withZeros(shape ...int) input {
	return input{shape, func(r *rand.Rand) float64 {
		if r.IntN(4) == 0 {
			return 0
		}
		return r.NormFloat64()
	}}
}

var scanGradCases = []checkCase{
	{"cumsum rows", []input{normal(3, 5)}, func(x []E) E { return x[0].CumSum(1) }},
	{"cumsum columns", []input{normal(4, 3)}, func(x []E) E { return x[0].CumSum(0).Mul(x[0]) }},
	{"revcumsum", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].RevCumSum(1) }},
	{"cumsum of a product", []input{normal(3, 4), normal(4)}, func(x []E) E { return x[0].Mul(x[1]).CumSum(-1) }},
	{"cumprod", []input{away(0.5, 3, 5)}, func(x []E) E { return x[0].CumProd(1) }},
	{"cumprod columns", []input{away(0.5, 4, 3)}, func(x []E) E { return x[0].CumProd(0) }},
	// cumprod is linear in each element, so central differences are exact
	// at zero too.
	{"cumprod with zeros", []input{withZeros(6, 7)}, func(x []E) E { return x[0].CumProd(1) }},
	{"cumprod with zeros along 0", []input{withZeros(7, 3)}, func(x []E) E { return x[0].CumProd(0) }},
}

// TestScanGradCheck compares the scans' gradients with central finite
// differences, for a random upstream gradient.
func TestScanGradCheck(t *testing.T) { checkGradCases(t, rand.New(rand.NewPCG(22, 23)), scanGradCases) }

// TestScanGradAcrossTypes: CumSumAs[float64] of a float32 operand gives a
// float32 gradient; cummax has no rule and says so.
func TestScanGradAcrossTypes(t *testing.T) {
	a, err := tensor.FromSlice([]float32{1, 2, 3}, 3)
	require.NoError(t, err)
	x := expr.Of(a)
	gs, err := autograd.Grad(expr.CumSumAs[float64](x, 0).Sum(), x)
	require.NoError(t, err)
	got, err := exec.Eval(expr.Wrap[float32](gs[0]))
	require.NoError(t, err)
	assert.Equal(t, []float32{3, 2, 1}, got.Values())

	b, err := tensor.FromSlice([]float64{1, 2, 3}, 3)
	require.NoError(t, err)
	xb := expr.Of(b)
	_, err = autograd.Grad(xb.CumMax(0).Sum(), xb)
	var nd *autograd.NotDifferentiableError
	require.ErrorAs(t, err, &nd)
	assert.Contains(t, err.Error(), "cummax")
}
