package tensor_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/tensor"
)

// Index tensors and masks in Tensor.Idx (NumPy's advanced indexing) give
// a new tensor: u[[2, 0], 1:] and u[u > 5] for a 3×4 u.
func ExampleAt() {
	u, _ := tensor.FromSlice([]float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 3, 4)
	rows, _ := tensor.FromSlice([]int64{2, 0}, 2)
	picked, err := u.Idx(tensor.At(rows), tensor.From(1))
	fmt.Println(picked, err)
	big := make([]bool, 12)
	for i, v := range u.Values() {
		big[i] = v > 5
	}
	mask, _ := tensor.FromSlice(big, 3, 4)
	sel, err := u.Idx(tensor.At(mask))
	fmt.Println(sel, err)
	// Output:
	// [[ 9. 10. 11.]
	//  [ 1.  2.  3.]] <nil>
	// [ 6.  7.  8.  9. 10. 11.] <nil>
}
