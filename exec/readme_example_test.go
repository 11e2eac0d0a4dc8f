package exec_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Example_readme is the example at the top of README.md.
func Example_readme() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3) // wraps the slice, no copy
	b, _ := tensor.FromSlice([]float64{10, 20, 30}, 3)
	x, y := expr.Of(a), expr.Of(b)
	z := x.Mul(y).Add(x.Exp()).Sum(1) // lazy: shapes checked here, nothing computed
	out, err := exec.Eval(z)          // one fused, tiled, parallel plan
	fmt.Printf("%.1v %v\n", out, err)

	// A broadcasting mistake is reported where it is made.
	c, _ := tensor.FromSlice([]float64{1, 2}, 2)
	fmt.Println(x.Add(expr.Of(c)).Err())
	// Output:
	// [170.2 926.4] <nil>
	// The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1
}

// Example_w3 is README.md's pipeline from tensors to a result, with no error
// check between steps: the first error sticks and Eval returns it.
func Example_w3() {
	a := expr.From(tensor.Arange[float64](0, 6, 1))
	b := expr.From(tensor.Full(2.0, 6))
	c := expr.From(tensor.Linspace[float64](1, 2, 6))
	w3 := a.Mul(b).Add(c).Mul(a.Sub(b)).Div(c.AddScalar(1.5))
	out, err := exec.Eval(w3)
	fmt.Printf("%.3v %v\n", out, err)
	// Output:
	// [-0.8   -1.185  0.     2.452  5.939 10.286] <nil>
}
