package exec_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// convHeads are elementwise consumers of a convolution y [N, O, H, W], with
// c a per-image and channel [N, O, 1, 1] operand (an adaptive_avg_pool of y
// to 1, as in spec 004's example 2), b a per-channel [O, 1, 1] one and z a
// tensor of y's shape: the ones a convolution's epilogue takes.
func convHeads[T float32 | float64]() map[string]func(y, c, b, z expr.Expr[T]) expr.Expr[T] {
	return map[string]func(y, c, b, z expr.Expr[T]) expr.Expr[T]{
		"relu(y)":        func(y, _, _, _ expr.Expr[T]) expr.Expr[T] { return y.Relu() },
		"relu(y+c)":      func(y, c, _, _ expr.Expr[T]) expr.Expr[T] { return y.BroadcastAdd(c).Relu() },
		"y+b":            func(y, _, b, _ expr.Expr[T]) expr.Expr[T] { return y.Add(b) },
		"y+z":            func(y, _, _, z expr.Expr[T]) expr.Expr[T] { return y.Add(z) },
		"sigmoid(y*c)+z": func(y, c, _, z expr.Expr[T]) expr.Expr[T] { return y.Mul(c).Sigmoid().Add(z) },
		"0.5*y":          func(y, _, _, _ expr.Expr[T]) expr.Expr[T] { return y.MulScalar(0.5) },
	}
}

// TestConvEpilogueMatchesUnfused checks that a convolution with an
// elementwise head plans the head as the convolution's epilogue (one step,
// the conv, with the region under it) and that the result has the bits of
// the unfused plan (the convolution also a result), on the GEMM path (with
// and without a bias, several column blocks of an image, a partial block of
// output channels, groups) and the depthwise one, on 1, 2 and 3 workers.
func TestConvEpilogueMatchesUnfused(t *testing.T) {
	t.Run("float32", testConvEpilogue[float32])
	t.Run("float64", testConvEpilogue[float64])
}

func testConvEpilogue[T float32 | float64](t *testing.T) {
	cases := []struct {
		name  string
		x, w  []int
		opts  []expr.WindowOption
		bias  bool
		heads []string
	}{
		{"gemm", []int{2, 3, 20, 21}, []int{5, 3, 3, 3}, []expr.WindowOption{expr.Padding(1)}, false, nil},
		{"gemm-bias-stride", []int{3, 4, 11, 9}, []int{8, 4, 3, 2}, []expr.WindowOption{expr.Stride(2, 1)}, true, nil},
		{"groups", []int{2, 4, 9, 9}, []int{6, 2, 3, 3}, []expr.WindowOption{expr.Padding(1), expr.Groups(2)}, true, nil},
		{"depthwise", []int{2, 4, 9, 10}, []int{8, 1, 3, 3}, []expr.WindowOption{expr.Padding(1), expr.Groups(4)}, false, nil},
		{"depthwise-bias", []int{3, 5, 8, 8}, []int{5, 1, 3, 3}, []expr.WindowOption{expr.Padding(2), expr.Dilation(2), expr.Groups(5)}, true, nil},
		{"conv1d", []int{2, 3, 40}, []int{4, 3, 5}, []expr.WindowOption{expr.Padding(2)}, true, []string{"relu(y)", "y+z"}},
	}
	heads := convHeads[T]()
	for i, c := range cases {
		x := expr.Of(tensor.Must(tensor.RandN[T](uint64(40+i), c.x...)))
		w := expr.Of(tensor.Must(tensor.RandN[T](uint64(50+i), c.w...)))
		y := expr.Conv(x, w, c.opts...)
		if c.bias {
			y = expr.ConvBias(x, w, expr.Of(tensor.Must(tensor.RandN[T](uint64(60+i), c.w[0]))), c.opts...)
		}
		require.NoError(t, y.Err())
		shape := y.Shape()
		cs := []int{c.x[0], c.w[0]} // [N, O, 1, ...]: broadcast_add broadcasts no batch axis
		for range len(shape) - 2 {
			cs = append(cs, 1)
		}
		ch := expr.Of(tensor.Must(tensor.RandN[T](uint64(70+i), cs...)))
		bc := expr.Of(tensor.Must(tensor.RandN[T](uint64(75+i), cs[1:]...)))
		z := expr.Of(tensor.Must(tensor.RandN[T](uint64(80+i), shape...)))
		names := c.heads
		if names == nil {
			for n := range heads {
				names = append(names, n)
			}
		}
		for _, name := range names {
			head := func(y, _ expr.Expr[T]) expr.Expr[T] { return heads[name](y, ch, bc, z) }
			t.Run(c.name+"/"+name, func(t *testing.T) {
				want, plain := unfused(t, 2, y, y, head)
				require.NotContains(t, plain, "epilogue", "the conv is a result: no epilogue")
				for _, workers := range []int{1, 2, 3} {
					got, plan := debugPlan(t, workers, head(y, y))
					require.Contains(t, plan, "epilogue on each block of the product", "workers=%d:\n%s", workers, plan)
					require.Contains(t, plan, "1 steps", plan)
					require.Equal(t, want.Shape(), got.Shape())
					requireSameBits(t, want.Data(), got.Data(), fmt.Sprintf("workers=%d", workers))
				}
			})
		}
	}
}

// TestConvEpilogueNotTaken checks heads that must stay a step of their
// own against the unfused plan: an operand that does not walk a plane as
// one run (a transposed one), and a conv that is also read elsewhere.
func TestConvEpilogueNotTaken(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.RandN[float64](1, 2, 3, 6, 6)))
	w := expr.Of(tensor.Must(tensor.RandN[float64](2, 4, 3, 3, 3)))
	y := expr.Conv(x, w, expr.Padding(1))
	zt := expr.Of(tensor.Must(tensor.RandN[float64](3, 2, 4, 6, 6))).Transpose(2, 3)
	cases := map[string]expr.Expr[float64]{
		"transposed": y.Add(zt),
		"read twice": y.Relu().Add(y.Sum()),
	}
	for name, e := range cases {
		t.Run(name, func(t *testing.T) {
			got, plan := debugPlan(t, 2, e)
			require.NotContains(t, plan, "epilogue", plan)
			want, err := exec.EvalWith(exec.New(exec.Workers(1)), e)
			require.NoError(t, err)
			requireSameBits(t, want.Data(), got.Data(), name)
		})
	}
}
