package exec_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestConvDepthwiseMatchesDense checks the direct depthwise kernel against
// the GEMM path on the same convolution written densely, with a weight that
// is zero off each group's input channel, over strides, dilations, padding,
// channel multipliers and 1 to 3 spatial axes, and its bits on 1, 2 and 3
// workers.
func TestConvDepthwiseMatchesDense(t *testing.T) {
	cases := []struct {
		name string
		x    []int
		mult int
		k    []int
		opts []expr.WindowOption
	}{
		{"3x3-pad", []int{2, 3, 9, 8}, 1, []int{3, 3}, []expr.WindowOption{expr.Padding(1)}},
		{"stride-dilation", []int{1, 4, 13, 12}, 1, []int{3, 2}, []expr.WindowOption{expr.Stride(2, 3), expr.Dilation(2, 1), expr.Padding(2, 1)}},
		{"multiplier", []int{2, 3, 7, 7}, 2, []int{3, 3}, []expr.WindowOption{expr.PadSame()}},
		{"kernel-in-padding", []int{1, 2, 3, 3}, 1, []int{5, 5}, []expr.WindowOption{expr.Padding(3)}},
		{"conv1d-stride", []int{3, 5, 30}, 1, []int{4}, []expr.WindowOption{expr.Stride(3), expr.Padding(2)}},
		{"conv3d", []int{1, 2, 5, 6, 7}, 3, []int{3, 2, 3}, []expr.WindowOption{expr.Padding(1), expr.Dilation(1, 2, 1)}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch := c.x[1]
			xt := tensor.Must(tensor.RandN[float64](uint64(90+i), c.x...))
			wt := tensor.Must(tensor.RandN[float64](uint64(95+i), append([]int{ch * c.mult, 1}, c.k...)...))
			taps := wt.Numel() / (ch * c.mult)
			// The dense weight [O, C, kernel...]: output channel o reads input channel o/mult.
			dense := tensor.Must(tensor.Zeros[float64](append([]int{ch * c.mult, ch}, c.k...)...))
			for o := range ch * c.mult {
				copy(dense.Data()[(o*ch+o/c.mult)*taps:][:taps], wt.Data()[o*taps:][:taps])
			}
			x := expr.Of(xt)
			want, err := exec.Eval(expr.Conv(x, expr.Of(dense), c.opts...))
			require.NoError(t, err)
			y := expr.Conv(x, expr.Of(wt), append(c.opts, expr.Groups(ch))...)
			var first []float64
			for _, workers := range []int{1, 2, 3} {
				got, err := exec.EvalWith(exec.New(exec.Workers(workers)), y)
				require.NoError(t, err)
				require.Equal(t, want.Shape(), got.Shape())
				assert.InDeltaSlice(t, want.Data(), got.Data(), 1e-12, "workers=%d", workers)
				if first == nil {
					first = got.Data()
					continue
				}
				requireSameBits(t, first, got.Data(), "workers")
			}
		})
	}
}
