package exec_test

import (
	"syscall"
	"testing"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// BenchmarkNormalize times W15's paired reductions (softmax, logsumexp,
// var over float32 rows of 1024, 2048 rows: 8 MB) on one worker, and
// reports the process's CPU time per op (cpu-ns/op) beside the wall time:
// on a shared machine the CPU time is the steadier figure for comparing
// kernels (run old and new binaries alternately).
func BenchmarkNormalize(b *testing.B) {
	benchNormalize(b, tensor.Must(tensor.RandN[float32](1, 2048, 1024)))
}

// BenchmarkNormalize64 is BenchmarkNormalize on float64 rows (16 MB),
// whose exps are exp64's (table gathers).
func BenchmarkNormalize64(b *testing.B) {
	benchNormalize(b, tensor.Must(tensor.RandN[float64](1, 2048, 1024)))
}

func benchNormalize[T float32 | float64](b *testing.B, x *tensor.Tensor[T]) {
	cases := []struct {
		name string
		e    expr.Expr[T]
	}{
		{"softmax", expr.Softmax(expr.Of(x), -1)},
		{"lse", expr.LogSumExp(expr.Of(x), false, -1)},
		{"var", expr.Var(expr.Of(x), 0, false, -1)},
	}
	ex := exec.New(exec.Workers(1))
	defer ex.Close()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			out := tensor.Must(tensor.New[T](c.e.Shape()...))
			if err := exec.EvalToWith(ex, out, c.e); err != nil {
				b.Fatal(err)
			}
			t0 := cpuNanos()
			b.ResetTimer()
			for b.Loop() {
				if err := exec.EvalToWith(ex, out, c.e); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuNanos()-t0)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuNanos is the process's user and system CPU time.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
