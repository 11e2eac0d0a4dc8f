package bench_test

import (
	"fmt"
	"math"
	"os"

	"github.com/tensorplay/tensorplay/bench"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// A pipeline of your own, timed against its hand-written loop by the same
// runner as the standard workloads. Write prints the table; here we print
// only what does not depend on the machine.
func ExamplePipeline() {
	softplus := bench.Pipeline("softplus", "log1p(exp(x))",
		func(p bench.Params) (expr.Expr[float64], func(dst []float64), error) {
			x, err := tensor.RandN[float64](p.Seed, p.Size)
			if err != nil {
				return expr.Expr[float64]{}, nil, err
			}
			hand := func(dst []float64) {
				for i, v := range x.Data() {
					dst[i] = math.Log1p(math.Exp(v))
				}
			}
			return expr.Of(x).Exp().Log1p(), hand, nil
		})
	softplus.Bound = bench.ComputeBound

	rep, err := bench.Run(bench.Options{Sizes: []int{10_000}, Reps: 5}, softplus)
	if err != nil {
		fmt.Println(err)
		return
	}
	// bench.Write(os.Stdout, rep, bench.Table) prints the full table.
	row := rep.Rows[0]
	fmt.Printf("%s %s refused=%q bytes=%d flops=%d timed=%v\n",
		row.Name, row.Shape, row.Err, row.Bytes, row.Flops, row.Tensorplay.Median > 0 && row.Ratio > 0)
	// Output:
	// softplus 10000 refused="" bytes=160000 flops=20000 timed=true
}

// Main gives your own program every flag of tpbench (-run, -size, -format,
// -chart, -profile, -compare, ...) over your workloads.
func ExampleMain() {
	double := bench.Pipeline("double", "2x", func(p bench.Params) (expr.Expr[float32], func([]float32), error) {
		x, err := tensor.Rand[float32](p.Seed, p.Size)
		return expr.Of(x).MulScalar(2), nil, err
	})
	code := bench.Main([]string{"-list"}, os.Stdout, os.Stderr, append(bench.Standard(), double)...)
	fmt.Println("exit status", code)
	// Output:
	// W1           memory  a+b
	// W2           memory  a*b+c
	// W3           memory  (a*b+c)*(a-b)/(c+1.5)
	// W3/compiled  memory  W3, compiled by tpkernel
	// W4           compute exp(a)*sin(b)+sqrt(abs(c))
	// W5           memory  [R,C]+[1,C]
	// W6           memory  [R,C]+[R,1]
	// W7           memory  [R,1]*[1,C]
	// W8           memory  a += b (in place)
	// W9           memory  a + b.T
	// W10/-1       memory  sum(x, -1)
	// W10/0        memory  sum(x, 0)
	// W10/all      memory  sum(x)
	// W11/f64      compute matmul f64 vs blas64.Gemm
	// W11/f32      compute matmul f32 vs blas32.Gemm
	// W12/W2       memory  a*b+c f32
	// W12/W4       compute exp(a)*sin(b)+sqrt(abs(c)) f32
	// W13          memory  SGD momentum update (in place)
	// W13/separate memory  SGD momentum into new tensors
	// W14          memory  Adam update (in place)
	// W14/separate memory  Adam into new tensors
	// W15/softmax  memory  softmax(x, -1) f32, rows of 1024
	// W15/lse      memory  logsumexp(x, -1) f32, rows of 1024
	// W15/var      memory  var(x, -1) f32, rows of 1024
	// double       memory  2x
	// exit status 0
}
