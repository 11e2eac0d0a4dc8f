package exec_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Two convolutions of the same operands and output shape but different
// windows (padding 1 at dilation 1, padding 2 at dilation 2) are not one
// common subexpression, in one graph or through the plan cache; nor are
// their gradient graphs one in autograd's cache.
func TestConvWindowsAreAttributes(t *testing.T) {
	xt := tensor.Must(tensor.Rand[float64](1, 1, 2, 6, 6))
	wt := tensor.Must(tensor.Rand[float64](2, 3, 2, 3, 3))
	x, w := expr.Of(xt), expr.Of(wt)
	a := expr.Conv(x, w, expr.Padding(1))
	b := expr.Conv(x, w, expr.Padding(2), expr.Dilation(2))
	require.Equal(t, a.Shape(), b.Shape())
	both, err := exec.EvalN(a, b)
	require.NoError(t, err)
	alone, err := exec.Eval(b)
	require.NoError(t, err)
	assert.Equal(t, alone.Data(), both[1].Data())
	assert.NotEqual(t, both[0].Data(), both[1].Data())

	ga, err := autograd.GradOf(a.Sum(), w)
	require.NoError(t, err)
	gb, err := autograd.GradOf(b.Sum(), w)
	require.NoError(t, err)
	da, err := exec.Eval(ga[0])
	require.NoError(t, err)
	db, err := exec.Eval(gb[0])
	require.NoError(t, err)
	assert.NotEqual(t, da.Data(), db.Data())

	pa, err := exec.Eval(expr.MaxPool(x, []int{2}))
	require.NoError(t, err)
	pb, err := exec.Eval(expr.AvgPool(x, []int{2}))
	require.NoError(t, err)
	assert.NotEqual(t, pa.Data(), pb.Data())
}

// Convolution and pooling shape errors are typed and name the axis.
func TestConvPoolShapeErrors(t *testing.T) {
	x := expr.Placeholder[float32]("x", 2, 4, 5, 5)
	w := expr.Of(tensor.Must(tensor.Zeros[float32](6, 2, 3, 3)))
	cases := []struct {
		name string
		e    expr.Expr[float32]
		want string
	}{
		{"kernel too large", expr.Conv(x, w, expr.Groups(2), expr.Dilation(3)), "kernel extent 3 (dilated 7) is larger than the padded input extent 5 on axis 2"},
		{"groups", expr.Conv(x, w, expr.Groups(3)), "input channels 4 (axis 1 of [2, 4, 5, 5]) are not divisible by groups 3"},
		{"out groups", expr.Conv(expr.Placeholder[float32]("x", 1, 6, 5, 5), expr.Of(tensor.Must(tensor.Zeros[float32](4, 2, 3, 3))), expr.Groups(3)), "output channels 4 (axis 0 of weight [4 2 3 3]) are not divisible by groups 3"},
		{"weight channels", expr.Conv(x, w), "weight [6 2 3 3] takes 2 input channels per group (axis 1), input [2, 4, 5, 5] has 4 in each of 1 groups"},
		{"rank", expr.Conv(expr.Placeholder[float32]("x", 4, 5), w), "input [4, 5] needs 3 to 5 dimensions"},
		{"bias", expr.ConvBias(x, w, expr.Of(tensor.Must(tensor.Zeros[float32](5))), expr.Groups(2)), "bias [5] must be [6]"},
		{"same stride", expr.Conv(x, w, expr.Groups(2), expr.PadSame(), expr.Stride(2)), "padding \"same\" needs stride 1, got 2 on spatial axis 0"},
		{"stride values", expr.Conv(x, w, expr.Groups(2), expr.Stride(1, 2, 3)), "stride has 3 values for 2 spatial axes"},
		{"negative padding", expr.Conv(x, w, expr.Groups(2), expr.Padding(-1)), "padding (-1, -1) on spatial axis 0 must not be negative"},
		{"pool padding", expr.MaxPool(x, []int{2}, expr.Padding(2)), "padding (2, 2) on spatial axis 0 is more than half the kernel extent 2"},
		{"pool kernel", expr.AvgPool(x, []int{6}), "kernel extent 6 (dilated 6) is larger than the padded input extent 5 on axis 2"},
		{"avg dilation", expr.AvgPool(x, []int{2}, expr.Dilation(2)), "average pooling has none"},
		{"adaptive size", expr.AdaptiveAvgPool(x, 0), "output size 0 on spatial axis 0 must be positive"},
		{"adaptive none", expr.AdaptiveMaxPool(x), "needs an output size"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.e.Err()
			var se *expr.ShapeOpError
			require.ErrorAs(t, err, &se)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}
