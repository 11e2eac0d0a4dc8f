package exec_test

import (
	"testing"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// BenchmarkHugePages is W1 (a + b) and W9 (a + b.T) on 3162² float64, the
// tpbench shapes at 1e7, with every tensor allocated with the huge-page
// advice on and with it off (see tensor.SetHugePages): what the advice
// gives memory-bound work. Both sets are allocated, and alive, before any
// is timed. Run it alone: memory that earlier benchmarks advised and freed
// may come back to the "off" set with its advice.
func BenchmarkHugePages(b *testing.B) {
	const n = 3162
	type set struct {
		name   string
		w1, w9 expr.Expr[float64]
		dst    *tensor.Tensor[float64]
	}
	var sets []set
	for _, on := range []bool{true, false} {
		was := tensor.SetHugePages(on)
		x, y := ewRand[float64](1, n, n), ewRand[float64](2, n, n)
		dst := tensor.Must(tensor.New[float64](n, n))
		tensor.SetHugePages(was)
		name := "off"
		if on {
			name = "on"
		}
		sets = append(sets, set{name, expr.Of(x).Add(expr.Of(y)), expr.Of(x).Add(expr.Of(tensor.Must(y.T()))), dst})
	}
	for _, w := range []string{"W1", "W9"} {
		for _, s := range sets {
			e := s.w1
			if w == "W9" {
				e = s.w9
			}
			b.Run(w+"/hugepages="+s.name, func(b *testing.B) {
				b.SetBytes(3 * 8 * n * n)
				for b.Loop() {
					if err := exec.EvalTo(s.dst, e); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
