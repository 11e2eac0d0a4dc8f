package exec_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// A 2-D convolution with a bias, then a ReLU and a 2×2 max pooling: torch's
// F.max_pool2d(F.relu(F.conv2d(x, w, b, padding=1)), 2).
func ExampleEval_conv() {
	x := expr.Of(tensor.Must(tensor.FromSlice([]float32{
		1, 2, 3, 4,
		5, 6, 7, 8,
		9, 10, 11, 12,
		13, 14, 15, 16,
	}, 1, 1, 4, 4))) // [N, C, H, W]
	w := expr.Of(tensor.Must(tensor.FromSlice([]float32{
		0, 1, 0,
		1, -4, 1,
		0, 1, 0,
	}, 1, 1, 3, 3))) // [out, in, kH, kW]: a Laplacian
	b := expr.Of(tensor.Must(tensor.FromSlice([]float32{0.5}, 1)))
	h := expr.ConvBias(x, w, b, expr.Padding(1))
	y := expr.MaxPool(h.Relu(), []int{2})
	out, err := exec.Eval(y)
	fmt.Println(h.Shape(), y.Shape(), err)
	fmt.Println(out)
	// Output:
	// [1, 1, 4, 4] [1, 1, 2, 2] <nil>
	// [[[[3.5 1.5]
	//    [0.5 0.5]]]]
}

// Gradients of a convolution and a pooling are graphs too: here of
// sum(avg_pool(conv(x, w))) with respect to the weight.
func ExampleEval_convGradient() {
	x := expr.Of(tensor.Must(tensor.FromSlice([]float64{
		1, 2, 3,
		4, 5, 6,
		7, 8, 9,
	}, 1, 1, 3, 3)))
	w := expr.Of(tensor.Must(tensor.Ones[float64](1, 1, 2, 2)))
	loss := expr.AvgPool(expr.Conv(x, w), []int{2}, expr.Stride(1)).Sum()
	g, err := autograd.GradOf(loss, w)
	if err != nil {
		panic(err)
	}
	dw, err := exec.Eval(g[0])
	fmt.Println(dw, err)
	// Output:
	// [[[[3. 4.]
	//    [6. 7.]]]] <nil>
}
