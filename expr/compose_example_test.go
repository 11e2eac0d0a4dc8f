package expr_test

import (
	"errors"
	"fmt"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

func ExampleConcatenate() {
	x := expr.From(tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	y := expr.Concatenate(0, x.MulScalar(10), x.Slice(0, 0, 1, 1)) // each piece computed into its rows
	out, err := exec.Eval(y)
	fmt.Println(out, err)

	bad := expr.Concatenate(1, x, expr.From(tensor.New[float64](3, 3)))
	var je *expr.JoinError
	fmt.Println(errors.As(bad.Err(), &je), je.Dim)
	// Output:
	// [[10. 20. 30.]
	//  [40. 50. 60.]
	//  [ 1.  2.  3.]] <nil>
	// true 0
}

func ExampleConcatenateAny() {
	i := expr.From(tensor.FromSlice([]int32{5, 0}, 2))
	f := expr.From(tensor.FromSlice([]float32{2.75, 0.5}, 2))
	y := expr.ConcatenateAny(0, i, f).(expr.Expr[float64]) // NumPy: int32 with float32 gives float64
	out, _ := exec.Eval(y)
	fmt.Println(out)
	// Output:
	// [5.   0.   2.75 0.5 ]
}

func ExampleStack() {
	x := expr.From(tensor.FromSlice([]float64{1, 2, 3}, 3))
	out, _ := exec.Eval(expr.Stack(1, x, x.Square()))
	fmt.Println(out)
	// Output:
	// [[1. 1.]
	//  [2. 4.]
	//  [3. 9.]]
}

func ExampleExpr_Pad() {
	x := expr.From(tensor.FromSlice([]float64{1, 2, 3}, 3))
	for _, m := range []expr.PadMode{expr.PadConstant, expr.PadEdge, expr.PadReflect, expr.PadSymmetric, expr.PadWrap} {
		out, _ := exec.Eval(x.Pad(m, [2]int{2, 3}))
		fmt.Println(m, out)
	}
	out, _ := exec.Eval(x.PadWith(-1, [2]int{1, 0}))
	fmt.Println(out)
	// Output:
	// constant [0. 0. 1. 2. 3. 0. 0. 0.]
	// edge [1. 1. 1. 2. 3. 3. 3. 3.]
	// reflect [3. 2. 1. 2. 3. 2. 1. 2.]
	// symmetric [2. 1. 1. 2. 3. 3. 2. 1.]
	// wrap [2. 3. 1. 2. 3. 1. 2. 3.]
	// [-1.  1.  2.  3.]
}

func ExampleExpr_Roll() {
	x := expr.From(tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	a, _ := exec.Eval(x.Roll(1, 1))
	b, _ := exec.Eval(x.Roll(-1)) // flattened
	fmt.Println(a)
	fmt.Println(b)
	// Output:
	// [[3. 1. 2.]
	//  [6. 4. 5.]]
	// [[2. 3. 4.]
	//  [5. 6. 1.]]
}

func ExampleExpr_Repeat() {
	x := expr.From(tensor.FromSlice([]float64{1, 2, 3}, 3))
	a, _ := exec.Eval(x.Repeat([]int{2}))
	b, _ := exec.Eval(x.Repeat([]int{0, 1, 3}, 0))
	c, _ := exec.Eval(x.Tile(2))
	fmt.Println(a, b, c)
	// Output:
	// [1. 1. 2. 2. 3. 3.] [2. 3. 3. 3.] [1. 2. 3. 1. 2. 3.]
}

func ExampleExpr_Tril() {
	x := expr.From(tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 3, 3))
	lo, _ := exec.Eval(x.Tril(0))
	tr, _ := exec.Eval(x.Trace(1, 0, 1))
	eye, _ := exec.Eval(expr.Eye[float64](2, 3, 1))
	fmt.Println(lo)
	fmt.Println(tr)
	fmt.Println(eye)
	// Output:
	// [[1. 0. 0.]
	//  [4. 5. 0.]
	//  [7. 8. 9.]]
	// 8.0
	// [[0. 1. 0.]
	//  [0. 0. 1.]]
}
