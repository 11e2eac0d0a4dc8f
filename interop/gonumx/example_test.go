package gonumx_test

import (
	"fmt"
	"log"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/mat"

	"github.com/tensorplay/tensorplay/interop/gonumx"
	"github.com/tensorplay/tensorplay/tensor"
)

func ExampleDense() {
	t, _ := tensor.FromSlice([]float64{1, 2, 3, 4}, 2, 2)
	d, err := gonumx.Dense(t) // row-major: no copy
	if err != nil {
		log.Fatal(err)
	}
	d.Set(0, 0, 10) // writes through to t
	var inv mat.Dense
	if err := inv.Inverse(d); err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Values())
	fmt.Printf("%.3f\n", mat.Formatted(&inv))
	// Output:
	// [10 2 3 4]
	// ⎡ 0.118  -0.059⎤
	// ⎣-0.088   0.294⎦
}

func ExampleFromMatrix() {
	d := mat.NewDense(2, 3, []float64{1, 2, 3, 4, 5, 6})
	t, err := gonumx.FromMatrix(d.T()) // a transposed Dense: a column-major view, no copy
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.Shape(), t.Strides(), t.Values())
	d.Set(0, 0, 100)
	fmt.Println(t.Values()[0])
	// Output:
	// [3, 2] [1 3] [1 4 2 5 3 6]
	// 100
}

func ExampleMatrix() {
	// A column-major tensor (here a view of a Fortran-ordered 2×3 array)
	// goes to gonum as the transpose of a Dense on the same storage.
	t, _ := tensor.AsStrided([]float64{1, 4, 2, 5, 3, 6}, tensor.Shape{2, 3}, []int{1, 2}, 0)
	m, err := gonumx.Matrix(t)
	if err != nil {
		log.Fatal(err)
	}
	_, isTranspose := m.(mat.Transpose)
	fmt.Println(isTranspose)
	fmt.Println(mat.Formatted(m))
	t.Data()[0] = -1
	fmt.Println(m.At(0, 0))
	// Output:
	// true
	// ⎡1  2  3⎤
	// ⎣4  5  6⎦
	// -1
}

func ExampleVecDense() {
	t, _ := tensor.FromSlice([]float64{3, 4}, 2)
	v, err := gonumx.VecDense(t)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(mat.Norm(v, 2))
	// Output: 5
}

func ExampleGeneral32() {
	a, _ := tensor.FromSlice([]float32{1, 2, 3, 4}, 2, 2)
	c, _ := tensor.New[float32](2, 2)
	ga, _ := gonumx.General32(a)
	gc, _ := gonumx.General32(c) // shares c's storage: Gemm writes into c
	blas32.Gemm(blas.NoTrans, blas.Trans, 1, ga, ga, 0, gc)
	fmt.Println(c.Values())
	// Output: [5 11 11 25]
}
