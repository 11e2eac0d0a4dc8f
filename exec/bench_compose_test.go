package exec_test

import (
	"testing"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// BenchmarkConcatenate joins two computed [1000, 1000] float64 pieces (a*b
// and c+d) along each axis, against a hand loop that writes both halves of
// the output: the executor's pieces are computed straight into their
// halves, so it should run at the hand loop's (copy) bandwidth. Compare
// the sub-benchmarks of one run side by side.
func BenchmarkConcatenate(b *testing.B) {
	const n = 1000
	r := newRand(3)
	ta, tb := randomTensor[float64](b, r, n, n), randomTensor[float64](b, r, n, n)
	tc, td := randomTensor[float64](b, r, n, n), randomTensor[float64](b, r, n, n)
	av, bv, cv, dv := ta.Data(), tb.Data(), tc.Data(), td.Data()
	for _, axis := range []int{0, 1} {
		shape := []int{2 * n, n}
		if axis == 1 {
			shape = []int{n, 2 * n}
		}
		e := expr.Concatenate(axis, expr.Of(ta).Mul(expr.Of(tb)), expr.Of(tc).Add(expr.Of(td)))
		dst := tensor.Must(tensor.New[float64](shape...))
		name := []string{"axis0", "axis1"}[axis]
		b.Run(name+"/exec.EvalTo", func(b *testing.B) {
			b.SetBytes(int64(6 * n * n * 8))
			for b.Loop() {
				if err := exec.EvalTo(dst, e); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/exec.Eval", func(b *testing.B) {
			b.SetBytes(int64(6 * n * n * 8))
			for b.Loop() {
				if _, err := exec.Eval(e); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/hand loop", func(b *testing.B) {
			b.SetBytes(int64(6 * n * n * 8))
			out := dst.Data()
			for b.Loop() {
				if axis == 0 {
					lo, hi := out[:n*n], out[n*n:]
					for i := range lo {
						lo[i] = av[i] * bv[i]
					}
					for i := range hi {
						hi[i] = cv[i] + dv[i]
					}
					continue
				}
				for i := range n {
					row := out[i*2*n : (i+1)*2*n]
					lo, hi := row[:n], row[n:]
					a, bb, c, d := av[i*n:(i+1)*n], bv[i*n:(i+1)*n], cv[i*n:(i+1)*n], dv[i*n:(i+1)*n]
					for j := range lo {
						lo[j] = a[j] * bb[j]
					}
					for j := range hi {
						hi[j] = c[j] + d[j]
					}
				}
			}
		})
	}
}
