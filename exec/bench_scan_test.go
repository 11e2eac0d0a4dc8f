package exec_test

import (
	"testing"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// BenchmarkScan times cumsum along the contiguous axis (lines streamed one
// after another) and along the outer axis (blocks of a row walked down the
// columns) of a [1000, 4000] float64 tensor, against hand loops doing the
// same on one goroutine; tp1 runs on one worker, tp on the default
// executor, both into a destination (as the hand loops reuse theirs). Compare ratios in one run (docs/scans.md).
func BenchmarkScan(b *testing.B) {
	const rows, cols = 1000, 4000
	a, err := tensor.RandN[float64](3, rows, cols)
	if err != nil {
		b.Fatal(err)
	}
	in := a.Data()
	out := make([]float64, rows*cols)
	one := exec.New(exec.Workers(1))
	for _, c := range []struct {
		name string
		axis int
		hand func()
	}{
		{"rows", 1, func() {
			for r := range rows {
				src, dst := in[r*cols:(r+1)*cols], out[r*cols:(r+1)*cols]
				acc := src[0]
				dst[0] = acc
				for i := 1; i < cols; i++ {
					acc += src[i]
					dst[i] = acc
				}
			}
		}},
		{"columns", 0, func() {
			copy(out[:cols], in[:cols])
			for r := 1; r < rows; r++ {
				prev, src, dst := out[(r-1)*cols:r*cols], in[r*cols:(r+1)*cols], out[r*cols:(r+1)*cols]
				for i := range dst {
					dst[i] = prev[i] + src[i]
				}
			}
		}},
	} {
		e := expr.Of(a).CumSum(c.axis)
		dst, err := tensor.New[float64](rows, cols)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/hand", func(b *testing.B) {
			b.SetBytes(16 * rows * cols)
			for b.Loop() {
				c.hand()
			}
		})
		for _, x := range []struct {
			name string
			x    *exec.Executor
		}{{"tp1", one}, {"tp", exec.Default}} {
			b.Run(c.name+"/"+x.name, func(b *testing.B) {
				b.SetBytes(16 * rows * cols)
				for b.Loop() {
					if err := exec.EvalToWith(x.x, dst, e); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
