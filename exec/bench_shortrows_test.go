package exec_test

import (
	"fmt"
	"testing"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// composedLogSumExp is logsumexp along rows as a newcomer composes it: a
// max reduction, then a reduction of the shifted exponentials.
func composedLogSumExp(x expr.Expr[float32]) expr.Expr[float32] {
	m := x.MaxKeepDims(1)
	m = expr.Where(m.IsFinite(), m, expr.Scalar[float32](0)).Detach()
	return x.Sub(m).Exp().SumKeepDims(1).Log().Add(m)
}

// BenchmarkShortRowsLSE times expr.LogSumExp over rows of 10 to 1000
// float32 elements on 2 workers (the paired reduction: leafRows for rows
// shorter than 16, the leaf folds beyond) against the composed form
// (go test ./exec -run X -bench ShortRowsLSE).
func BenchmarkShortRowsLSE(b *testing.B) {
	x := exec.New(exec.Workers(2))
	defer x.Close()
	for _, s := range [][2]int{{64, 10}, {64, 32}, {4096, 10}, {4096, 32}, {4096, 100}, {1024, 1000}} {
		a := tensor.Must(tensor.RandN[float32](1, s[0], s[1]))
		out := tensor.Must(tensor.New[float32](s[0], 1))
		for _, form := range []struct {
			name string
			e    func(expr.Expr[float32]) expr.Expr[float32]
		}{
			{"paired", func(a expr.Expr[float32]) expr.Expr[float32] { return expr.LogSumExp(a, true, 1) }},
			{"composed", composedLogSumExp},
		} {
			b.Run(fmt.Sprintf("%s/%dx%d", form.name, s[0], s[1]), func(b *testing.B) {
				for b.Loop() {
					if err := exec.EvalToWith(x, out, form.e(expr.Of(a))); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
