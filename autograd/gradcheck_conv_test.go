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

// convCheckCases cover the convolution and pooling rules: every input of
// each (x, weight, bias) is checked against finite differences.
var convCheckCases = []checkCase{
	{"conv2d bias", []input{normal(2, 3, 5, 4), normal(4, 3, 3, 3), normal(4)}, func(x []E) E { return expr.ConvBias(x[0], x[1], x[2]) }},
	{"conv2d stride pad dilation", []input{normal(1, 2, 7, 6), normal(3, 2, 3, 2)}, func(x []E) E {
		return expr.Conv(x[0], x[1], expr.Stride(2, 1), expr.Padding(1, 2), expr.Dilation(2, 1))
	}},
	{"conv2d groups", []input{normal(2, 4, 5, 5), normal(6, 2, 3, 3)}, func(x []E) E {
		return expr.Conv(x[0], x[1], expr.Groups(2), expr.PadSame())
	}},
	{"conv2d depthwise", []input{normal(1, 3, 5, 5), normal(3, 1, 3, 3), normal(3)}, func(x []E) E {
		return expr.ConvBias(x[0], x[1], x[2], expr.Groups(3), expr.Padding(1))
	}},
	{"conv2d pad pairs", []input{normal(1, 2, 4, 5), normal(2, 2, 2, 3)}, func(x []E) E {
		return expr.Conv(x[0], x[1], expr.PaddingPairs([2]int{0, 1}, [2]int{2, 0}))
	}},
	{"conv1d", []input{normal(2, 2, 9), normal(3, 2, 3), normal(3)}, func(x []E) E {
		return expr.ConvBias(x[0], x[1], x[2], expr.Stride(2), expr.Padding(1))
	}},
	{"conv3d", []input{normal(1, 2, 3, 4, 3), normal(2, 2, 2, 2, 2)}, func(x []E) E {
		return expr.Conv(x[0], x[1], expr.Padding(1))
	}},
	{"conv relu chain", []input{normal(1, 2, 5, 5), normal(3, 2, 3, 3), normal(3, 3, 1, 1)}, func(x []E) E {
		return expr.Conv(expr.Conv(x[0], x[1], expr.Padding(1)).Tanh(), x[2])
	}},
	{"max_pool2d", []input{normal(2, 2, 6, 5)}, func(x []E) E { return expr.MaxPool(x[0], []int{2, 2}) }},
	{"max_pool2d overlap pad ceil", []input{normal(1, 2, 7, 7)}, func(x []E) E {
		return expr.MaxPool(x[0], []int{3}, expr.Stride(2), expr.Padding(1), expr.CeilMode())
	}},
	{"max_pool2d dilation", []input{normal(1, 1, 7, 7)}, func(x []E) E {
		return expr.MaxPool(x[0], []int{2}, expr.Stride(1), expr.Dilation(2))
	}},
	{"avg_pool2d", []input{normal(2, 2, 6, 6)}, func(x []E) E { return expr.AvgPool(x[0], []int{3}, expr.Stride(2), expr.Padding(1)) }},
	{"avg_pool2d ceil exclude pad", []input{normal(1, 2, 7, 6)}, func(x []E) E {
		return expr.AvgPool(x[0], []int{2, 3}, expr.Stride(2), expr.Padding(1), expr.CeilMode(), expr.ExcludePad())
	}},
	{"avg_pool1d", []input{normal(2, 3, 9)}, func(x []E) E { return expr.AvgPool(x[0], []int{3}, expr.Stride(2)) }},
	{"adaptive_avg_pool2d", []input{normal(2, 2, 7, 5)}, func(x []E) E { return expr.AdaptiveAvgPool(x[0], 3, 2) }},
	{"adaptive_max_pool2d", []input{normal(2, 2, 7, 5)}, func(x []E) E { return expr.AdaptiveMaxPool(x[0], 3, 2) }},
	{"adaptive_max_pool1d", []input{normal(1, 2, 10)}, func(x []E) E { return expr.AdaptiveMaxPool(x[0], 4) }},
	{"global_avg_pool", []input{normal(2, 3, 4, 4)}, func(x []E) E { return expr.GlobalAvgPool(x[0]) }},
	// Spec 004, example 2, with its parameters as inputs.
	{"spec 004 example 2", []input{normal(2, 3, 8, 8), normal(8, 3, 3, 3), normal(8)}, func(x []E) E {
		h := expr.ConvBias(x[0], x[1], x[2], expr.Padding(1))
		return h.BroadcastAdd(expr.AdaptiveAvgPool(h, 1))
	}},
}

func TestGradCheckConv(t *testing.T) {
	checkGradCases(t, rand.New(rand.NewPCG(26, 26)), convCheckCases)
}

// TestConvGradWorkers checks that a convolution large enough to split its
// products over the workers gives the same bits on any number of them,
// forward and backward, and with bias, float32.
func TestConvGradWorkers(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 5} {
		x := expr.Of(f32(normal(n, 16, 21, 19).tensor(r)))
		w := expr.Of(f32(normal(32, 16, 3, 3).tensor(r)))
		b := expr.Of(f32(normal(32).tensor(r)))
		y := expr.ConvBias(x, w, b, expr.Padding(1), expr.Stride(1, 2))
		p := expr.MaxPool(y.Relu(), []int{3}, expr.Stride(2), expr.CeilMode())
		loss := p.Mul(p).Sum()
		gs, err := autograd.GradOf(loss, x, w, b)
		require.NoError(t, err)
		outs := append([]expr.Expr[float32]{p}, gs...)
		var first [][]float32
		for _, workers := range []int{1, 2, 4} {
			got, err := exec.EvalNWith(exec.New(exec.Workers(workers)), outs)
			require.NoError(t, err)
			var data [][]float32
			for _, g := range got {
				data = append(data, g.Contiguous().Data())
			}
			if first == nil {
				first = data
				continue
			}
			assert.Equal(t, first, data, "batch %d on %d workers", n, workers)
		}
	}
}

// f32 converts a float64 tensor to float32.
func f32(t *tensor.Tensor[float64]) *tensor.Tensor[float32] {
	out := tensor.Must(tensor.Zeros[float32](t.Shape()...))
	for i, v := range t.Data() {
		out.Data()[i] = float32(v)
	}
	return out
}
