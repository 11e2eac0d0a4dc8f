package matmul_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/internal/matmul"
)

// A transposed operand is a view, not a copy: Gemm packs it straight from
// its strides.
func ExampleGemm() {
	a := matmul.RowMajor([]float64{1, 2, 3, 4, 5, 6}, 2, 3) // 2×3
	dst := matmul.RowMajor(make([]float64, 4), 2, 2)
	matmul.Gemm(dst, a, a.T()) // a @ aᵀ
	fmt.Println(dst.Data)

	// Broadcast: one row of b repeated for every row of the inner dimension.
	row := matmul.Matrix[int64]{Data: []int64{1, 10}, Rows: 3, Cols: 2, ColStride: 1}
	ints := matmul.RowMajor([]int64{1, 2, 3}, 1, 3)
	out := matmul.RowMajor(make([]int64, 2), 1, 2)
	matmul.Gemm(out, ints, row)
	fmt.Println(out.Data)
	// Output:
	// [14 32 32 77]
	// [6 60]
}
