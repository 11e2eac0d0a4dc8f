package expr_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// convLayer is a 2-D convolution layer of out channels with a k×k kernel,
// its weight and bias parameters, named "conv" in summaries.
func convLayer(x expr.Expr[float32], out, k int, opts ...expr.WindowOption) expr.Expr[float32] {
	in, _ := x.Dims()[1].Value()
	w := expr.Param("weight", tensor.Must(tensor.Zeros[float32](out, in, k, k)))
	b := expr.Param("bias", tensor.Must(tensor.Zeros[float32](out)))
	return expr.ConvBias(x, w, b, opts...)
}

// Spec 004, example 2: a squeeze-and-excite style shortcut. The 1×1
// channel summary of a convolution's map is added back to the map.
func ExampleSummary_squeezeExcite() {
	x := expr.SymPlaceholder[float32]("x", expr.Sym("B"), expr.Known(3), expr.Known(8), expr.Known(8))
	h := convLayer(x, 8, 3, expr.Padding(1))
	pooled := expr.AdaptiveAvgPool(h, 1)
	y := h.BroadcastAdd(pooled)
	fmt.Println(expr.Summary(y))
	// Output:
	// Network: [B, 3, 8, 8] -> [B, 8, 8, 8]  dtype=float32
	// index  name  operation          input shapes                    output shapes
	// 0      n0    conv               x=[B, 3, 8, 8]                  out=[B, 8, 8, 8]
	// 1      n1    adaptive_avg_pool  x=[B, 8, 8, 8]                  out=[B, 8, 1, 1]
	// 2      n2    broadcast_add      a=[B, 8, 8, 8], b=[B, 8, 1, 1]  out=[B, 8, 8, 8]
	//
	// Parameters: 224
}

// Shapes are checked as the graph is built; errors name the axis.
func ExampleConv_errors() {
	x := expr.Placeholder[float32]("x", 1, 4, 5, 5)
	w := expr.Of(tensor.Must(tensor.Zeros[float32](6, 2, 7, 7)))
	fmt.Println(expr.Conv(x, w, expr.Groups(2)).Err())
	fmt.Println(expr.Conv(x, w, expr.Groups(3)).Err())
	fmt.Println(expr.Conv(x, w, expr.Groups(2), expr.Padding(1)).Shape())
	// Output:
	// expr: conv: kernel extent 7 (dilated 7) is larger than the padded input extent 5 on axis 2
	// expr: conv: input channels 4 (axis 1 of [1, 4, 5, 5]) are not divisible by groups 3
	// [1, 6, 1, 1]
}
