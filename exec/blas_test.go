package exec_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// UseBLAS sends matrix products to the BLAS registered with gonum (its
// pure-Go one here; a program can register OpenBLAS through cgo).
func ExampleUseBLAS() {
	was := exec.UseBLAS(true)
	defer exec.UseBLAS(was)
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4}, 2, 2)
	out, err := exec.Eval(expr.Of(a).MatMul(expr.Of(a)))
	fmt.Println(out, err)
	// Output:
	// [[ 7. 10.]
	//  [15. 22.]] <nil>
}

// TestUseBLAS checks that the switch reports its previous setting and that
// both paths give the exact product of integer values (NumPy's matmul as a
// triple loop), in every float and complex type, through one cached plan.
func TestUseBLAS(t *testing.T) {
	was := exec.UseBLAS(false)
	defer exec.UseBLAS(was)
	assert.False(t, exec.UseBLAS(true))
	assert.True(t, exec.UseBLAS(false))
	t.Run("float32", testBLASPath[float32])
	t.Run("float64", testBLASPath[float64])
	t.Run("complex64", testBLASPath[complex64])
	t.Run("complex128", testBLASPath[complex128])
}

func testBLASPath[T float32 | float64 | complex64 | complex128](t *testing.T) {
	defer exec.UseBLAS(false)
	r := rdRand(31)
	as, bs := []int{3, 70, 90}, []int{90, 40}
	av, bv := mmValues[T](r, 3*70*90), mmValues[T](r, 90*40)
	want, shape := mmRef(av, as, bv, bs)
	a := tensor.Must(tensor.FromSlice(av, as...))
	b := tensor.Must(tensor.FromSlice(bv, bs...))
	x := exec.New()
	defer x.Close()
	e := expr.Of(a).MatMul(expr.Of(b).T().T())
	for _, blas := range []bool{false, true, false} {
		exec.UseBLAS(blas)
		out, err := exec.EvalWith(x, e)
		require.NoError(t, err)
		assert.Equal(t, shape, out.Shape())
		assert.Equal(t, want, out.Data(), "UseBLAS(%v)", blas)
	}
}
