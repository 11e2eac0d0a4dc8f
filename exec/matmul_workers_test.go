package exec_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestMatMulPoolDeterministic checks that products split over the
// executor's pool give the same bits on 1, 2, 3 and 8 workers: a product
// cut into row bands, one cut into column bands, a stacked batch (x @ W
// with x 3-D) and a batch of small products spread a product per task, in
// every float and complex type, on random values whose sums round.
func TestMatMulPoolDeterministic(t *testing.T) {
	t.Run("float32", testPoolDeterministic[float32])
	t.Run("float64", testPoolDeterministic[float64])
	t.Run("complex64", testPoolDeterministic[complex64])
	t.Run("complex128", testPoolDeterministic[complex128])
}

func testPoolDeterministic[T float32 | float64 | complex64 | complex128](t *testing.T) {
	r := rand.New(rand.NewPCG(20, 26))
	rnd := func(shape ...int) *tensor.Tensor[T] {
		n := 1
		for _, d := range shape {
			n *= d
		}
		v := make([]T, n)
		for i := range v {
			v[i] = rdConv[T](r.NormFloat64(), r.NormFloat64())
		}
		return tensor.Must(tensor.FromSlice(v, shape...))
	}
	cases := []struct {
		name string
		a, b *tensor.Tensor[T]
	}{
		{"row-bands", rnd(301, 130), rnd(130, 70)},
		{"column-bands", rnd(20, 300), rnd(300, 400)},
		{"stacked-batch", rnd(5, 40, 90), rnd(90, 50)},
		{"small-batch", rnd(96, 9, 30), rnd(96, 30, 11)}, // small products, a batch worth splitting
	}
	var execs []*exec.Executor
	for _, w := range []int{1, 2, 3, 8} {
		x := exec.New(exec.Workers(w))
		defer x.Close()
		execs = append(execs, x)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var want []T
			for i, x := range execs {
				out, err := exec.EvalWith(x, expr.Of(tc.a).MatMul(expr.Of(tc.b)))
				require.NoError(t, err)
				got := out.Data()
				if i == 0 {
					want = got
					continue
				}
				require.Len(t, got, len(want))
				for j := range want {
					if !sameBits(want[j], got[j]) {
						assert.Fail(t, fmt.Sprintf("%s: element %d on %d workers is %v, on 1 %v", dtype.Of[T](), j, []int{1, 2, 3, 8}[i], got[j], want[j]))
						return
					}
				}
			}
		})
	}
}

// sameBits reports whether x and y have the same bits (parts, for complex).
func sameBits[T float32 | float64 | complex64 | complex128](x, y T) bool {
	switch x := any(x).(type) {
	case float32:
		return math.Float32bits(x) == math.Float32bits(any(y).(float32))
	case float64:
		return math.Float64bits(x) == math.Float64bits(any(y).(float64))
	case complex64:
		y := any(y).(complex64)
		return math.Float32bits(real(x)) == math.Float32bits(real(y)) && math.Float32bits(imag(x)) == math.Float32bits(imag(y))
	}
	xc, yc := any(x).(complex128), any(y).(complex128)
	return math.Float64bits(real(xc)) == math.Float64bits(real(yc)) && math.Float64bits(imag(xc)) == math.Float64bits(imag(yc))
}
