package exec_test

import (
	"fmt"
	"testing"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// BenchmarkFlipAdd is a + b[::-1] in float64, with b read as the reversed
// access kind and, for comparison, as strided (the kind reversed rows had
// before), each on a new executor so that each plan is made with its
// kind; run the variants side by side in one process.
func BenchmarkFlipAdd(b *testing.B) {
	for _, n := range []int{1e6, 1e7} {
		x, _ := tensor.RandN[float64](7, n)
		y, _ := tensor.RandN[float64](8, n)
		e := expr.Of(x).Add(expr.Of(y).Flip())
		for _, kind := range []string{"strided", "reversed"} {
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				defer exec.SetReversedKind(kind == "reversed")()
				ex := exec.New()
				defer ex.Close()
				dst, _ := tensor.New[float64](n)
				b.SetBytes(int64(24 * n))
				for i := 0; i < b.N; i++ {
					if err := exec.EvalToWith(ex, dst, e); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
