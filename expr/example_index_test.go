package expr_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// The label pick of a cross-entropy, logp[arange(B), labels] in NumPy:
// each row's element at its label. Fused into the loss, it reads only
// those B elements.
func ExampleTakeAlongAxis() {
	logp, _ := tensor.FromSlice([]float64{-0.1, -2.3, -3.0, -1.2, -0.4, -2.0}, 2, 3)
	labels, _ := tensor.FromSlice([]int64{0, 1}, 2, 1)
	pick := expr.TakeAlongAxis(expr.Of(logp), expr.Of(labels), 1)
	loss, err := exec.Eval(pick.Mean().Neg())
	fmt.Println(loss, err)
	// Output: 0.25 <nil>
}

// Take picks whole slices (an embedding's rows); negative indices count
// from the end, and an index outside the axis is an error when the graph
// runs, before anything is written.
func ExampleTake() {
	table, _ := tensor.FromSlice([]float32{0, 1, 10, 11, 20, 21}, 3, 2)
	ids, _ := tensor.FromSlice([]int64{2, 0, -1}, 3)
	rows, err := exec.Eval(expr.Take(expr.Of(table), expr.Of(ids), 0))
	fmt.Println(rows, err)
	bad, _ := tensor.FromSlice([]int64{3}, 1)
	_, err = exec.Eval(expr.Take(expr.Of(table), expr.Of(bad), 0))
	fmt.Println(err)
	// Output:
	// [[20. 21.]
	//  [ 0.  1.]
	//  [20. 21.]] <nil>
	// index 3 is out of bounds for dimension 0 with size 3
}

// ScatterAdd adds src into a copy of x at the indices: repeated indices
// accumulate in the index's order, the same bits for any number of workers.
func ExampleScatterAdd() {
	x, _ := tensor.Zeros[float64](3)
	idx, _ := tensor.FromSlice([]int64{0, 2, 0, 0}, 4)
	src, _ := tensor.FromSlice([]float64{1, 2, 3, 4}, 4)
	out, err := exec.Eval(expr.ScatterAdd(expr.Of(x), 0, expr.Of(idx), expr.Of(src)))
	fmt.Println(out, err)
	// Output: [8. 0. 2.] <nil>
}

// Scatter writes src at the indices; where indices repeat, the last in
// the index's order wins. Put is NumPy's flat form.
func ExamplePut() {
	x, _ := tensor.FromSlice([]int64{1, 2, 3, 4}, 2, 2)
	idx, _ := tensor.FromSlice([]int64{0, -1, 0}, 3)
	v, _ := tensor.FromSlice([]int64{7, 8, 9}, 3)
	out, err := exec.Eval(expr.Put(expr.Of(x), expr.Of(idx), expr.Of(v), false))
	fmt.Println(out, err)
	// Output:
	// [[9 2]
	//  [3 8]] <nil>
}

func ExampleOneHot() {
	labels, _ := tensor.FromSlice([]int64{2, 0}, 2)
	out, err := exec.Eval(expr.OneHot[float32](expr.Of(labels), 3))
	fmt.Println(out, err)
	// Output:
	// [[0. 0. 1.]
	//  [1. 0. 0.]] <nil>
}

func ExampleMaskedFill() {
	x, _ := tensor.FromSlice([]float64{1, 2, 3, 4}, 2, 2)
	mask, _ := tensor.FromSlice([]bool{true, false}, 2) // broadcast along the rows
	out, err := exec.Eval(expr.MaskedFill(expr.Of(x), expr.Of(mask), -1))
	fmt.Println(out, err)
	// Output:
	// [[-1.  2.]
	//  [-1.  4.]] <nil>
}
