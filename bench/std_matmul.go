package bench

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/mat"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// matmulInputs returns two random n x n matrices, their product expression
// and a preallocated output for it.
func matmulInputs[T dtype.Float](p Params) (a, b, out *tensor.Tensor[T], e expr.Expr[T], err error) {
	n := p.MatMulN
	if a, err = tensor.Rand[T](p.Seed, n, n); err != nil {
		return
	}
	if b, err = tensor.Rand[T](p.Seed+1, n, n); err != nil {
		return
	}
	e = expr.Of(a).MatMul(expr.Of(b))
	if err = e.Err(); err != nil {
		return
	}
	out, err = tensor.New[T](n, n)
	return
}

// matmulCase fills in what the two matmul workloads share.
func matmulCase[T dtype.Float](p Params, out *tensor.Tensor[T], e expr.Expr[T], hand []T, mul func(), rtol float64, size int64) *Case {
	n := p.MatMulN
	return &Case{
		Shape:      fmt.Sprintf("%dx%d", n, n),
		Tensorplay: func() error { return exec.EvalToWith(p.Exec, out, e) },
		HandLoop:   func() error { mul(); return nil },
		// Entries are sums of n products in [0, 1): scale the tolerance by n.
		Check: func() error { return AllClose(out.Data(), hand, rtol, rtol*float64(n)) },
		Bytes: 3 * size * int64(n*n),
		Flops: 2 * int64(n) * int64(n) * int64(n),
	}
}

// w11F64 is a 512x512 float64 matmul against gonum's mat.Dense.Mul, which
// parallelizes over GOMAXPROCS goroutines by itself.
func w11F64(p Params) (*Case, error) {
	a, b, out, e, err := matmulInputs[float64](p)
	if err != nil {
		return nil, err
	}
	n := p.MatMulN
	hand := make([]float64, n*n)
	da, db := mat.NewDense(n, n, a.Data()), mat.NewDense(n, n, b.Data())
	dc := mat.NewDense(n, n, hand)
	return matmulCase(p, out, e, hand, func() { dc.Mul(da, db) }, 1e-12, 8), nil
}

// w11F32 is a 512x512 float32 matmul against blas32.Gemm called directly.
func w11F32(p Params) (*Case, error) {
	a, b, out, e, err := matmulInputs[float32](p)
	if err != nil {
		return nil, err
	}
	n := p.MatMulN
	hand := make([]float32, n*n)
	ga := blas32.General{Rows: n, Cols: n, Stride: n, Data: a.Data()}
	gb := blas32.General{Rows: n, Cols: n, Stride: n, Data: b.Data()}
	gc := blas32.General{Rows: n, Cols: n, Stride: n, Data: hand}
	mul := func() { blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, ga, gb, 0, gc) }
	return matmulCase(p, out, e, hand, mul, 1e-4, 4), nil
}
