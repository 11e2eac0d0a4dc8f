package exec_test

import (
	"syscall"
	"testing"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// BenchmarkConv times the tpbench conv rows' shapes at 2 workers: a
// ResNet 3×3 convolution of [32,64,56,56] float32 and a depthwise one.
func BenchmarkConv(b *testing.B) {
	x := expr.Of(tensor.Must(tensor.Rand[float32](1, 32, 64, 56, 56)))
	cases := []struct {
		name string
		w    []int
		opts []expr.WindowOption
	}{
		{"resnet3x3", []int{64, 64, 3, 3}, []expr.WindowOption{expr.Padding(1)}},
		{"depthwise3x3", []int{64, 1, 3, 3}, []expr.WindowOption{expr.Padding(1), expr.Groups(64)}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			w := expr.Of(tensor.Must(tensor.Rand[float32](2, c.w...)))
			y := expr.Conv(x, w, c.opts...)
			out := tensor.Must(tensor.New[float32](y.Shape()...))
			ex := exec.New(exec.Workers(2))
			flops := 2 * float64(out.Numel()) * float64(c.w[1]*c.w[2]*c.w[3])
			if err := exec.EvalToWith(ex, out, y); err != nil { // warm the plan cache
				b.Fatal(err)
			}
			cpu0 := cpuTime()
			for b.Loop() {
				if err := exec.EvalToWith(ex, out, y); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time is what a loaded machine distorts least.
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// cpuTime is the process's user and system time so far, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
