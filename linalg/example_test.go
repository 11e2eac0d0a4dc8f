package linalg_test

import (
	"errors"
	"fmt"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/linalg"
	"github.com/tensorplay/tensorplay/tensor"
)

// Solve a batch of two 2×2 systems, and find the singular one of a batch.
func ExampleSolve() {
	a := expr.Of(tensor.Must(tensor.FromSlice([]float64{2, 1, 1, 3, 4, 0, 0, 2}, 2, 2, 2)))
	b := expr.Of(tensor.Must(tensor.FromSlice([]float64{3, 5, 8, 2}, 2, 2)))
	x, err := linalg.Solve(a, b)
	fmt.Printf("%.4f %v\n", x.Values(), err)

	s := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 0, 0, 1, 1, 2, 2, 4}, 2, 2, 2)))
	_, err = linalg.Inv(s)
	var se *linalg.SingularError
	fmt.Println(errors.As(err, &se), se.Batch, err)
	// Output:
	// [0.8000 1.4000 2.0000 1.0000] <nil>
	// true [1] linalg.Inv: the matrix at batch index [1] is singular
}

// Determinants and their logarithms; a singular matrix has determinant 0.
func ExampleSlogdet() {
	a := expr.Of(tensor.Must(tensor.FromSlice([]float64{0, 2, 3, 0, 1, 2, 2, 4}, 2, 2, 2)))
	d, _ := linalg.Det(a)
	sign, logAbs, _ := linalg.Slogdet(a)
	fmt.Println(d.Values(), sign.Values(), logAbs.Values())
	// Output:
	// [-6 0] [-1 0] [1.791759469228055 -Inf]
}

// The reduced QR factorization, sign-normalized: R's diagonal is >= 0.
func ExampleQR() {
	a := expr.Of(tensor.Must(tensor.FromSlice([]float64{3, 1, 4, 2, 0, 0}, 3, 2)))
	q, r, _ := linalg.QR(a)
	fmt.Println(q.Shape(), r.Shape())
	fmt.Printf("%.4f\n", r.Values())
	// Output:
	// [3, 2] [2, 2]
	// [5.0000 2.2000 0.0000 0.4000]
}

// Singular values, norms and the rank of a rank-1 matrix.
func ExampleSVDVals() {
	a := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2, 2, 4, 3, 6}, 3, 2)))
	s, _ := linalg.SVDVals(a)
	rank, _ := linalg.MatrixRank(a)
	fro, _ := linalg.Norm(a, linalg.Fro)
	fmt.Printf("%.4f %v %.4f\n", s.Values()[0], rank.Values(), fro.Values())
	// Output:
	// 8.3666 [1] [8.3666]
}

// Einsum is lazy: a trace, a batched matrix product with broadcasting
// batch axes, and an implicit output, each planned onto expr's ops.
func ExampleEinsum() {
	m := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4}, 2, 2)))
	tr, _ := exec.Eval(linalg.Einsum("ii->", m))
	fmt.Println(tr.Values())

	a := expr.Of(tensor.Must(tensor.Arange[float64](0, 12, 1))).Reshape(3, 2, 2)
	bm, _ := exec.Eval(linalg.Einsum("...ij,...jk->...ik", a, m))
	fmt.Println(bm.Shape(), bm.Values()[:4])

	outer, _ := exec.Eval(linalg.Einsum("i,j", m.Reshape(4).Slice(0, 0, 2, 1), m.Reshape(4)))
	fmt.Println(outer.Shape())
	// Output:
	// [5]
	// [3, 2, 2] [3 4 11 16]
	// [2, 4]
}

// Tensordot, Kron and Vdot.
func ExampleTensordot() {
	a := expr.Of(tensor.Must(tensor.Arange[float64](0, 24, 1))).Reshape(2, 3, 4)
	b := expr.Of(tensor.Must(tensor.Ones[float64](4, 3)))
	td, _ := exec.Eval(linalg.Tensordot(a, b, []int{1, 2}, []int{1, 0}))
	fmt.Println(td.Values())

	k, _ := exec.Eval(linalg.Kron(expr.Of(tensor.Must(tensor.Eye[float64](2))), expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2}, 2)))))
	fmt.Println(k.Shape(), k.Values())

	z := expr.Of(tensor.Must(tensor.FromSlice([]complex128{1 + 1i, 2}, 2)))
	v, _ := exec.Eval(linalg.Vdot(z, z))
	fmt.Println(v.Values())
	// Output:
	// [66 210]
	// [2, 4] [1 2 0 0 0 0 1 2]
	// [(6+0i)]
}

func ExampleDetExpr() {
	a := expr.Param("a", tensor.Must(tensor.FromSlice([]float64{4, 1, 2, 3}, 2, 2)))
	g, _ := autograd.Grad(linalg.DetExpr(a), a) // d det / dA = det(A)·A⁻ᵀ
	v, _ := exec.Eval(expr.Wrap[float64](g[0]))
	fmt.Println(v.Values())
	// Output: [3 -2 -1 4]
}
