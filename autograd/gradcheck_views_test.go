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

// The views of issue 23, checked against finite differences. Each is
// followed by a nonlinear op so that a gradient in the wrong place shows.
var viewGradCases = []checkCase{
	{"flip", []input{normal(3, 4)}, func(x []E) E { return x[0].Flip().Mul(expr.Of(ramp(3, 4))) }},
	{"flip axis", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].Flip(1).Sin() }},
	{"flip computed", []input{normal(3, 4)}, func(x []E) E { return x[0].Exp().Flip(0).Mul(expr.Of(ramp(3, 4))) }},
	{"reversed slice", []input{normal(3, 7)}, func(x []E) E { return x[0].Slice(1, 5, 0, -2).Square() }},
	{"idx", []input{normal(4, 5)}, func(x []E) E {
		return x[0].Idx(tensor.S(1, -1), tensor.Step(-2)).Mul(expr.Of(ramp(2, 3)))
	}},
	{"idx int newaxis ellipsis", []input{normal(2, 3, 4)}, func(x []E) E {
		return x[0].Idx(tensor.I(-1), tensor.NewAxis, tensor.Ellipsis, tensor.S(3, 0).Step(-1)).Square()
	}},
	{"diagonal", []input{normal(3, 4)}, func(x []E) E { return x[0].Diagonal(1, 0, 1).Square() }},
	{"diagonal 3-D", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].Diagonal(-1, 2, 0).Mul(expr.Of(ramp(3, 2))) }},
	{"moveaxis", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].MoveAxis([]int{0}, []int{-1}).Mul(expr.Of(ramp(3, 4, 2))) }},
	{"swapaxes", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].SwapAxes(0, 1).Mul(expr.Of(ramp(3, 2, 4))) }},
	{"broadcast_to", []input{normal(3, 1)}, func(x []E) E { return x[0].BroadcastTo(2, 3, 4).Mul(expr.Of(ramp(2, 3, 4))) }},
	{"split", []input{normal(6, 2)}, func(x []E) E {
		p := x[0].Split(3, 0)
		return p[0].Mul(p[2]).Sub(p[1].Square())
	}},
	{"array_split", []input{normal(2, 7)}, func(x []E) E {
		p := x[0].ArraySplit(3, 1) // 3, 2, 2
		return p[1].Mul(p[2]).Add(p[0].Slice(1, 0, 2, 1))
	}},
	{"embed_view", []input{normal(3)}, func(x []E) E {
		m, err := tensor.DiagonalMap(tensor.Shape{3, 3}, 0, 0, 1)
		if err != nil {
			panic(err)
		}
		return x[0].EmbedView(m, tensor.Shape{3, 3}).Add(expr.Of(ramp(3, 3))).Square()
	}},
}

func TestGradCheckViews(t *testing.T) {
	checkGradCases(t, rand.New(rand.NewPCG(23, 23)), viewGradCases)
}

// A flip's gradient is a view of the upstream gradient (no zeros, no
// copy), a diagonal's the gradient written into zeros.
func TestViewGradientForms(t *testing.T) {
	x := expr.Of(ramp(2, 3))
	g, err := autograd.GradOf(x.Flip(1).Mul(expr.Of(ramp(2, 3))).Sum(), x)
	require.NoError(t, err)
	out, err := exec.Eval(g[0])
	require.NoError(t, err)
	assert.Equal(t, []float64{3, 2, 1, 6, 5, 4}, out.Values())

	d, err := autograd.GradOf(x.Diagonal(0, 0, 1).Sum(), x)
	require.NoError(t, err)
	out, err = exec.Eval(d[0])
	require.NoError(t, err)
	assert.Equal(t, []float64{1, 0, 0, 0, 1, 0}, out.Values())
}
