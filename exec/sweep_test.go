package exec_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// sl is t sliced along each axis by {start, stop, step} (stop may be
// negative: from the end, as in NumPy).
func sl[T dtype.Elem](t *tensor.Tensor[T], ranges ...[3]int) *tensor.Tensor[T] {
	for ax, r := range ranges {
		stop := r[1]
		if stop <= 0 {
			stop += t.Shape()[ax]
		}
		t = tensor.Must(t.Slice(ax, r[0], stop, r[2]))
	}
	return t
}

// all is a whole axis for sl.
var all = [3]int{0, 0, 1}

// sweepCase is an in-place update whose inputs read its destination at
// shifted positions (a swept region), or also another way.
type sweepCase struct {
	name  string
	shape []int
	step  func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64])
	sweep string // what the debug plan says: "a block behind", "after every block", or "stages"
}

var sweepCases = []sweepCase{
	{"1d back", []int{100_000}, func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
		return sl(u, [3]int{1, 0, 1}), expr.Of(sl(u, [3]int{0, -1, 1})).MulScalar(2).Add(expr.Of(sl(u, [3]int{1, 0, 1})))
	}, "a block behind"},
	{"1d forward", []int{37}, func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
		return sl(u, [3]int{0, -1, 1}), expr.Of(sl(u, [3]int{1, 0, 1})).Sub(expr.Of(sl(u, [3]int{0, -1, 1})))
	}, "a block behind"},
	{"1d both ways", []int{70_001}, func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
		return sl(u, [3]int{1, -1, 1}), expr.Of(sl(u, [3]int{0, -2, 1})).Add(expr.Of(sl(u, [3]int{2, 0, 1})))
	}, "a block behind"},
	{"1d stepped", []int{50_000}, func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
		return sl(u, [3]int{2, 0, 2}), expr.Of(sl(u, [3]int{0, -2, 2})).Sub(expr.Of(sl(u, [3]int{2, 0, 2})).MulScalar(0.5))
	}, "a block behind"},
	{"jacobi", []int{300, 301}, func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
		return jacobiStep(u)
	}, "a block behind"},
	{"jacobi small", []int{40, 70}, func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
		return jacobiStep(u)
	}, "a block behind"},
	{"rows down by 3", []int{200, 190}, func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
		return sl(u, [3]int{3, 0, 1}), expr.Of(sl(u, [3]int{0, -3, 1})).Add(expr.Of(sl(u, [3]int{3, 0, 1})))
	}, "a block behind"},
	{"times a row", []int{150, 260}, func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
		row := tensor.Must(tensor.Arange(0.5, 260, 1))
		return sl(u, [3]int{1, 0, 1}), expr.Of(sl(u, [3]int{0, -1, 1})).Mul(expr.Of(row))
	}, "a block behind"},
	{"3d inner axes", []int{5, 60, 61}, func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
		up, down := sl(u, all, [3]int{0, -2, 1}, [3]int{1, -1, 1}), sl(u, all, [3]int{2, 0, 1}, [3]int{1, -1, 1})
		left := sl(u, all, [3]int{1, -1, 1}, [3]int{0, -2, 1})
		return sl(u, all, [3]int{1, -1, 1}, [3]int{1, -1, 1}), expr.Of(up).Add(expr.Of(down)).Sub(expr.Of(left))
	}, "a block behind"},
	{"3d outer axis", []int{12, 20, 21}, func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
		in := [3]int{1, -1, 1}
		below, above := sl(u, [3]int{0, -2, 1}, in, in), sl(u, [3]int{2, 0, 1}, in, in)
		return sl(u, in, in, in), expr.Of(below).Add(expr.Of(above)).MulScalar(0.5)
	}, "after every block"},
	{"plus a transposed tensor", []int{130, 70}, func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
		b := tensor.Must(tensor.Arange(0.0, 70*129, 1))
		bt := tensor.Must(tensor.Must(b.Reshape(70, 129)).T())
		return sl(u, [3]int{1, 0, 1}), expr.Of(sl(u, [3]int{0, -1, 1})).Add(expr.Of(bt))
	}, "a block behind"},
	{"shifted and transposed", []int{90, 90}, func(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
		dst := sl(u, [3]int{1, 0, 1}, [3]int{1, 0, 1})
		return dst, expr.Of(sl(u, [3]int{0, -1, 1}, [3]int{0, -1, 1})).Add(expr.Of(tensor.Must(dst.T())))
	}, "stages"},
}

// Every swept update gives the values computed from the old ones, bit for
// bit, on executors with any number of workers, blocks and grain, step
// after step, and the debug plan says how it was written.
func TestSweepInPlace(t *testing.T) {
	execs := append(testExecutors[:len(testExecutors):len(testExecutors)],
		struct {
			name string
			x    *exec.Executor
		}{"wide", wide}, struct {
			name string
			x    *exec.Executor
		}{"odd", odd})
	for _, c := range sweepCases {
		for _, x := range execs {
			t.Run(c.name+"/"+x.name, func(t *testing.T) {
				u := randomTensor[float64](t, newRand(5), c.shape...)
				ref := u.Clone()
				for range 2 {
					dst, e := c.step(u)
					require.NoError(t, exec.EvalToWith(x.x, dst, e))
					rdst, re := c.step(ref)
					out, err := exec.Eval(re)
					require.NoError(t, err)
					require.NoError(t, exec.CopyTo(rdst, out))
					require.True(t, assertBits(t, ref.Values(), u.Values(), "u"))
				}
			})
		}
		t.Run(c.name+"/plan", func(t *testing.T) {
			var buf bytes.Buffer
			x := exec.New(exec.Workers(2), exec.Debug(&buf))
			defer x.Close()
			u := randomTensor[float64](t, newRand(5), c.shape...)
			dst, e := c.step(u)
			require.NoError(t, exec.EvalToWith(x, dst, e))
			assert.Contains(t, buf.String(), c.sweep)
			if c.sweep != "stages" {
				assert.NotContains(t, buf.String(), "stages")
				assert.NotContains(t, buf.String(), "(temp)", "no temporaries")
			}
		})
	}
}

// The other element types sweep alike (a float32 and an int32 shift).
func TestSweepDTypes(t *testing.T) {
	for _, n := range []int{33, 80_000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			f := randomTensor[float32](t, newRand(7), n)
			want := f.Clone().Data()
			for i := n - 1; i >= 1; i-- {
				want[i] = want[i-1]*3 - want[i]
			}
			require.NoError(t, exec.EvalTo(sl(f, [3]int{1, 0, 1}),
				expr.Of(sl(f, [3]int{0, -1, 1})).MulScalar(3).Sub(expr.Of(sl(f, [3]int{1, 0, 1})))))
			assertBits(t, want, f.Data(), "float32")

			k := tensor.Must(tensor.Arange[int32](0, int32(n), 1))
			wantK := k.Clone().Data()
			for i := 0; i < n-2; i++ {
				wantK[i] = wantK[i+2] - wantK[i]
			}
			require.NoError(t, exec.EvalTo(sl(k, [3]int{0, -2, 1}), expr.Of(sl(k, [3]int{2, 0, 1})).Sub(expr.Of(sl(k, [3]int{0, -2, 1})))))
			assertBits(t, wantK, k.Data(), "int32")
		})
	}
}

// A swept step allocates nothing once its plan and shadows exist, on one
// worker and on several.
func TestSweepAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	defer steadyState()()
	for _, workers := range []int{1, 2} {
		x := exec.New(exec.Workers(workers))
		u := tensor.Must(tensor.Full(1.0, 600, 600))
		inner, e := jacobiStep(u)
		require.NoError(t, exec.EvalToWith(x, inner, e))
		assert.Zero(t, testing.AllocsPerRun(100, func() { _ = exec.EvalToWith(x, inner, e) }), "workers %d", workers)
		x.Close()
	}
}
