package expr_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// NumPy's logp[np.arange(B), labels] in one Idx call: the two index
// tensors broadcast together and pick one element per row; the gather
// fuses into the mean, which reads only those B elements.
func ExampleExpr_Idx_indexTensors() {
	logp, _ := tensor.FromSlice([]float64{-0.1, -2.3, -3.0, -1.2, -0.4, -2.0}, 2, 3)
	rows, _ := tensor.Arange[int64](0, 2, 1)
	labels, _ := tensor.FromSlice([]int64{0, -2}, 2) // -2: counted from the end
	pick := expr.Of(logp).Idx(tensor.At(rows), tensor.At(labels))
	loss, err := exec.Eval(pick.Mean().Neg())
	fmt.Println(loss, err)
	// Output: 0.25 <nil>
}

// Where the advanced items are separated by a slice, their broadcast axis
// goes first (NumPy's rule): x[0, :, idx] has shape [2, 3] for x of
// shape [2, 3, 4] and idx of shape [2].
func ExampleExpr_Idx_separated() {
	a, _ := tensor.Arange[float64](0, 24, 1)
	x := expr.Of(a).Reshape(2, 3, 4)
	idx, _ := tensor.FromSlice([]int64{3, 0}, 2)
	out, err := exec.Eval(x.Idx(tensor.I(1), tensor.All, tensor.At(idx)))
	fmt.Println(out, err)
	_, err = exec.Eval(x.Idx(tensor.I(0), tensor.At(expr.Of(idx).AddScalar(1))))
	fmt.Println(err)
	// Output:
	// [[15. 19. 23.]
	//  [12. 16. 20.]] <nil>
	// index 4 is out of bounds for dimension 1 with size 3
}
