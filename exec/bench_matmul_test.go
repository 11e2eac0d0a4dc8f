package exec_test

import (
	"fmt"
	"testing"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// BenchmarkMatmulSmall times the small and skinny products of tpbench's
// matmul suite (issue 20) through the executor, into a preallocated
// output, at 1 and 2 workers: the per-call cost of planning, binding and
// the worker pool on top of internal/matmul's kernels.
func BenchmarkMatmulSmall(b *testing.B) {
	shapes := []struct {
		name    string
		m, k, n int
	}{
		{"gemv", 1000, 8, 1}, {"head", 64, 128, 10}, {"layer", 64, 784, 128},
		{"64", 64, 64, 64}, {"128", 128, 128, 128}, {"512", 512, 512, 512},
	}
	for _, s := range shapes {
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("f32/%s/w%d", s.name, w), func(b *testing.B) { benchMatmulSmall[float32](b, s.m, s.k, s.n, w) })
			b.Run(fmt.Sprintf("f64/%s/w%d", s.name, w), func(b *testing.B) { benchMatmulSmall[float64](b, s.m, s.k, s.n, w) })
		}
	}
}

func benchMatmulSmall[T float32 | float64](b *testing.B, m, k, n, workers int) {
	x := exec.New(exec.Workers(workers))
	defer x.Close()
	e := expr.Of(tensor.Must(tensor.Rand[T](1, m, k))).MatMul(expr.Of(tensor.Must(tensor.Rand[T](2, k, n))))
	out := tensor.Must(tensor.New[T](m, n))
	b.ReportAllocs()
	for b.Loop() {
		if err := exec.EvalToWith(x, out, e); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2*float64(m*k*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
