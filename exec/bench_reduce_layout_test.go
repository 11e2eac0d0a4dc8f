package exec_test

import (
	"testing"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// BenchmarkReduceLayouts sums a 1000x1000 float64 matrix over every axis,
// axis 0 and axis 1, held contiguous, transposed (a view of the transpose
// of a contiguous buffer) and with padded rows: the cost of folding every
// output in logical order whatever the layout.
func BenchmarkReduceLayouts(b *testing.B) {
	const n = 1000
	x := tensor.Must(tensor.RandN[float64](5, n, n))
	xt := tensor.Must(tensor.Must(tensor.RandN[float64](6, n, n)).T())
	xp := tensor.Must(tensor.Must(tensor.RandN[float64](7, n, n+8)).Slice(1, 0, n, 1))
	for _, in := range []struct {
		name string
		x    *tensor.Tensor[float64]
	}{{"contiguous", x}, {"transposed", xt}, {"padded", xp}} {
		for _, c := range []struct {
			name string
			axes []int
		}{{"all", nil}, {"axis0", []int{0}}, {"axis1", []int{1}}} {
			b.Run(in.name+"/"+c.name, func(b *testing.B) { bnEval(b, expr.Of(in.x).Sum(c.axes...), 8*n*n) })
		}
	}
}
