package exec_test

import (
	"math"
	"testing"
	"time"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// BenchmarkNormalizeBig times W15's rows as tpbench runs them at 1e7
// elements: 9765 rows of 1024 float32 (40 MB, more than the last-level
// cache) on two workers, with the CPU time per op and the fastest op
// (min-ns/op) beside the wall time: on a shared machine the fastest run
// is the one least disturbed.
func BenchmarkNormalizeBig(b *testing.B) {
	x := tensor.Must(tensor.RandN[float32](1, 9765, 1024))
	cases := []struct {
		name string
		e    expr.Expr[float32]
	}{
		{"softmax", expr.Softmax(expr.Of(x), -1)},
		{"lse", expr.LogSumExp(expr.Of(x), false, -1)},
		{"var", expr.Var(expr.Of(x), 0, false, -1)},
	}
	ex := exec.New(exec.Workers(2))
	defer ex.Close()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			out := tensor.Must(tensor.New[float32](c.e.Shape()...))
			if err := exec.EvalToWith(ex, out, c.e); err != nil {
				b.Fatal(err)
			}
			t0 := cpuNanos()
			fastest := time.Duration(math.MaxInt64)
			b.ResetTimer()
			for b.Loop() {
				s := time.Now()
				if err := exec.EvalToWith(ex, out, c.e); err != nil {
					b.Fatal(err)
				}
				fastest = min(fastest, time.Since(s))
			}
			b.ReportMetric(float64(cpuNanos()-t0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(fastest.Nanoseconds()), "min-ns/op")
		})
	}
}
