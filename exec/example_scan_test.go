package exec_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Scans are lazy expressions: cumsum along rows and columns, NumPy's
// int64 accumulation of small integers, and a scan inside a larger graph.
func Example_scans() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	x := expr.Of(a)
	rows, _ := exec.Eval(x.CumSum(1))
	cols, _ := exec.Eval(x.CumProd(0))
	fmt.Println(rows)
	fmt.Println(cols)

	b, _ := tensor.FromSlice([]int8{100, 100, 100}, 3)
	wrapped, _ := exec.Eval(expr.Of(b).CumSum(0))
	numpy, _ := exec.Eval(expr.CumSumAs[int64](expr.Of(b), 0))
	fmt.Println(wrapped, numpy)

	// The running maximum of exp(x) - 3, then scaled: exp and sub fuse into
	// one pass, the scan is a step of its own, the scale another pass.
	m, _ := exec.Eval(x.Exp().SubScalar(3).CumMax(1).MulScalar(0.5))
	fmt.Printf("%.4v\n", m)
	// Output:
	// [[ 1.  3.  6.]
	//  [ 4.  9. 15.]]
	// [[ 1.  2.  3.]
	//  [ 4. 10. 18.]]
	// [100 -56  44] [100 200 300]
	// [[-1.4086e-01  2.1945e+00  8.5428e+00]
	//  [ 2.5799e+01  7.2707e+01  2.0021e+02]]
}

// NaN handling: cummax keeps a NaN from where it appears (torch's rule);
// nancumsum counts NaN as zero; logcumsumexp never overflows.
func Example_scanSpecialValues() {
	a, _ := tensor.FromSlice([]float64{1, 3, 2, 1000, 1000}, 5)
	n, _ := tensor.FromSlice([]float64{1, -1, 4, -1, 2}, 5)
	nan, _ := exec.Eval(expr.Of(n).Log().CumMax(0)) // log(-1) is NaN
	skip, _ := exec.Eval(expr.NanCumSum(expr.Of(n).Log(), 0))
	lse, _ := exec.Eval(expr.LogCumSumExp(expr.Of(a), 0))
	fmt.Printf("%.4v\n%.4v\n%.7v\n", nan, skip, lse)
	// Output:
	// [ 0. nan nan nan nan]
	// [0.     0.     1.3863 1.3863 2.0794]
	// [1.0000000e+00 3.1269280e+00 3.4076060e+00 1.0000000e+03 1.0006931e+03]
}

// Median and quantiles evaluate their input and return tensors: over the
// flattened input by default, along an axis with OverAxis, several
// quantiles at once with a leading axis.
func ExampleQuantiles() {
	a, _ := tensor.FromSlice([]float64{3, 1, 4, 1, 5, 9, 2, 6}, 2, 4)
	x := expr.Of(a)
	med, _ := exec.Median[float64](x)
	rows, _ := exec.Median[float64](x, exec.OverAxis(1))
	qs, _ := exec.Quantiles[float64](x, []float64{0.25, 0.75}, exec.OverAxis(1))
	low, _ := exec.Quantile[float64](x, 0.5, exec.OverAxis(1), exec.Method(exec.Lower))
	p90, _ := exec.Percentile[float64](x, 90)
	fmt.Println(med, rows)
	fmt.Println(qs)
	fmt.Println(low, p90)
	// Output:
	// 3.5 [2.  5.5]
	// [[1.   4.25]
	//  [3.25 6.75]]
	// [1. 5.] 6.8999999999999995
}
