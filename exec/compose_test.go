package exec_test

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// composeInputs returns x (values 1…numel in row-major order, of the given
// shape) three ways: a leaf, a computed value, and a transposed view of a
// tensor holding it transposed.
func composeInputs(t *testing.T, shape ...int) map[string]expr.Expr[float64] {
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float64, n)
	for i := range data {
		data[i] = float64(i + 1)
	}
	a := tensor.Must(tensor.FromSlice(data, shape...))
	perm := make([]int, len(shape))
	for i := range perm {
		perm[i] = len(shape) - 1 - i
	}
	back, err := exec.Eval(expr.Of(a).Permute(perm...))
	require.NoError(t, err)
	return map[string]expr.Expr[float64]{
		"leaf":     expr.Of(a),
		"computed": expr.Of(a).MulScalar(2).DivScalar(2),
		"view":     expr.Of(back).Permute(perm...),
	}
}

// TestComposeValues checks the compose ops against values NumPy 1.24 gave
// (np.pad, np.repeat, np.roll, np.tile, np.tril, np.triu, np.trace,
// np.stack, np.concatenate), on leaves, computed values and strided views.
func TestComposeValues(t *testing.T) {
	cases := []struct {
		name  string
		shape []int // of the input
		f     func(x expr.Expr[float64]) expr.Expr[float64]
		want  []int
		data  []float64
	}{
		{"pad edge", []int{3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Pad(expr.PadEdge, [2]int{1, 2}, [2]int{2, 1}) },
			[]int{6, 7}, []float64{1, 1, 1, 2, 3, 4, 4, 1, 1, 1, 2, 3, 4, 4, 5, 5, 5, 6, 7, 8, 8, 9, 9, 9, 10, 11, 12, 12, 9, 9, 9, 10, 11, 12, 12, 9, 9, 9, 10, 11, 12, 12}},
		{"pad reflect", []int{3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] {
			return x.Pad(expr.PadReflect, [2]int{2, 3}, [2]int{3, 1})
		},
			[]int{8, 8}, []float64{12, 11, 10, 9, 10, 11, 12, 11, 8, 7, 6, 5, 6, 7, 8, 7, 4, 3, 2, 1, 2, 3, 4, 3, 8, 7, 6, 5, 6, 7, 8, 7, 12, 11, 10, 9, 10, 11, 12, 11, 8, 7, 6, 5, 6, 7, 8, 7, 4, 3, 2, 1, 2, 3, 4, 3, 8, 7, 6, 5, 6, 7, 8, 7}},
		{"pad symmetric", []int{3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] {
			return x.Pad(expr.PadSymmetric, [2]int{4, 1}, [2]int{1, 5})
		},
			[]int{8, 10}, []float64{9, 9, 10, 11, 12, 12, 11, 10, 9, 9, 9, 9, 10, 11, 12, 12, 11, 10, 9, 9, 5, 5, 6, 7, 8, 8, 7, 6, 5, 5, 1, 1, 2, 3, 4, 4, 3, 2, 1, 1, 1, 1, 2, 3, 4, 4, 3, 2, 1, 1, 5, 5, 6, 7, 8, 8, 7, 6, 5, 5, 9, 9, 10, 11, 12, 12, 11, 10, 9, 9, 9, 9, 10, 11, 12, 12, 11, 10, 9, 9}},
		{"pad wrap", []int{3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Pad(expr.PadWrap, [2]int{3, 4}, [2]int{5, 1}) },
			[]int{10, 10}, []float64{1, 1, 2, 3, 4, 1, 2, 3, 4, 1, 5, 5, 6, 7, 8, 5, 6, 7, 8, 5, 9, 9, 10, 11, 12, 9, 10, 11, 12, 9, 1, 1, 2, 3, 4, 1, 2, 3, 4, 1, 5, 5, 6, 7, 8, 5, 6, 7, 8, 5, 9, 9, 10, 11, 12, 9, 10, 11, 12, 9, 1, 1, 2, 3, 4, 1, 2, 3, 4, 1, 5, 5, 6, 7, 8, 5, 6, 7, 8, 5, 9, 9, 10, 11, 12, 9, 10, 11, 12, 9, 1, 1, 2, 3, 4, 1, 2, 3, 4, 1}},
		{"pad constant", []int{3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.PadWith(-1, [2]int{1, 0}, [2]int{0, 2}) },
			[]int{4, 6}, []float64{-1, -1, -1, -1, -1, -1, 1, 2, 3, 4, -1, -1, 5, 6, 7, 8, -1, -1, 9, 10, 11, 12, -1, -1}},
		{"repeat per element", []int{3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Repeat([]int{0, 2, 1, 3}, 1) },
			[]int{3, 6}, []float64{2, 2, 3, 4, 4, 4, 6, 6, 7, 8, 8, 8, 10, 10, 11, 12, 12, 12}},
		{"repeat rows", []int{3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Repeat([]int{3, 0, 1}, 0) },
			[]int{4, 4}, []float64{1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 9, 10, 11, 12}},
		{"repeat flat", []int{2, 2}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Repeat([]int{2}) },
			[]int{8}, []float64{1, 1, 2, 2, 3, 3, 4, 4}},
		{"roll two axes", []int{3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.RollAxes([]int{-1, 5}, []int{0, 1}) },
			[]int{3, 4}, []float64{8, 5, 6, 7, 12, 9, 10, 11, 4, 1, 2, 3}},
		{"roll flat", []int{3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Roll(-5) },
			[]int{3, 4}, []float64{6, 7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5}},
		{"tile", []int{2, 2}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Tile(2, 1, 3) },
			[]int{2, 2, 6}, []float64{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4}},
		{"tril batched", []int{2, 3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Tril(-1) },
			[]int{2, 3, 4}, []float64{0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0, 0, 0, 0, 0, 17, 0, 0, 0, 21, 22, 0, 0}},
		{"triu batched", []int{2, 3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Triu(2) },
			[]int{2, 3, 4}, []float64{0, 0, 3, 4, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 15, 16, 0, 0, 0, 20, 0, 0, 0, 0}},
		{"trace of axes 0 and 2", []int{2, 3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Trace(1, 2, 0) },
			[]int{3}, []float64{13, 17, 21}},
		{"trace below the diagonal", []int{2, 3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Trace(-1, 2, 1) },
			[]int{2}, []float64{21, 57}},
		{"stack", []int{3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] { return expr.Stack(1, x, x.MulScalar(10)) },
			[]int{3, 2, 4}, []float64{1, 2, 3, 4, 10, 20, 30, 40, 5, 6, 7, 8, 50, 60, 70, 80, 9, 10, 11, 12, 90, 100, 110, 120}},
		{"concatenate", []int{3, 4}, func(x expr.Expr[float64]) expr.Expr[float64] {
			return expr.Concatenate(-2, x, x.Slice(0, 0, 2, 1).MulScalar(10), x.Slice(0, 0, 1, 1).AddScalar(100))
		}, []int{6, 4}, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 10, 20, 30, 40, 50, 60, 70, 80, 101, 102, 103, 104}},
	}
	for _, c := range cases {
		for name, x := range composeInputs(t, c.shape...) {
			for _, ex := range testExecutors {
				t.Run(c.name+"/"+name+"/"+ex.name, func(t *testing.T) {
					e := c.f(x)
					require.NoError(t, e.Err())
					got, err := exec.EvalWith(ex.x, e)
					require.NoError(t, err)
					assert.Equal(t, tensor.Shape(c.want), got.Shape())
					assert.Equal(t, c.data, got.Values())
				})
			}
		}
	}
}

// TestComposeEvalTo checks that an assembled root is written into a
// destination (here a transposed view) directly, and refused with the
// in-place rules' errors otherwise.
func TestComposeEvalTo(t *testing.T) {
	a := tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	x := expr.Of(a)
	e := expr.Concatenate(0, x.MulScalar(2), x.AddScalar(1)) // [4, 3]
	base := tensor.Must(tensor.New[float64](3, 4))
	dst := tensor.Must(base.T())
	require.NoError(t, exec.EvalTo(dst, e))
	assert.Equal(t, []float64{2, 4, 6, 8, 10, 12, 2, 3, 4, 5, 6, 7}, dst.Values())
	assert.Equal(t, []float64{2, 8, 2, 5, 4, 10, 3, 6, 6, 12, 4, 7}, base.Values())

	// A destination that is also a piece: computed from the old values.
	b := tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4}, 4))
	y := expr.Of(b)
	require.NoError(t, exec.EvalTo(b, y.Roll(1)))
	assert.Equal(t, []float64{4, 1, 2, 3}, b.Values())
	require.NoError(t, exec.EvalTo(b, expr.Concatenate(0, y.Slice(0, 2, 4, 1), y.Slice(0, 0, 2, 1).Neg())))
	assert.Equal(t, []float64{2, 3, -4, -1}, b.Values())

	wrong := tensor.Must(tensor.New[float64](3, 3))
	assert.Error(t, exec.EvalTo(wrong, e))
}

// TestConcatenateAllocatesOnlyItsOutput: a concatenate of two computed
// [1000, 1000] pieces allocates its 16 MB output and nothing else large
// (each piece is computed into its half), and into a destination nothing.
func TestConcatenateAllocatesOnlyItsOutput(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation sizes are not meaningful under the race detector")
	}
	const n = 1000
	r := newRand(5)
	a, b := randomTensor[float64](t, r, n, n), randomTensor[float64](t, r, n, n)
	c, d := randomTensor[float64](t, r, n, n), randomTensor[float64](t, r, n, n)
	for _, axis := range []int{0, 1} {
		e := expr.Concatenate(axis, expr.Of(a).Mul(expr.Of(b)), expr.Of(c).Add(expr.Of(d)))
		x := exec.New(exec.Workers(2))
		got, err := exec.EvalWith(x, e)
		require.NoError(t, err)
		want := make([]float64, 0, 2*n*n)
		av, bv, cv, dv := a.Data(), b.Data(), c.Data(), d.Data()
		if axis == 0 {
			for i := range n * n {
				want = append(want, av[i]*bv[i])
			}
			for i := range n * n {
				want = append(want, cv[i]+dv[i])
			}
		} else {
			for i := range n {
				for j := range n {
					want = append(want, av[i*n+j]*bv[i*n+j])
				}
				for j := range n {
					want = append(want, cv[i*n+j]+dv[i*n+j])
				}
			}
		}
		assert.Zero(t, mismatches(want, got.Values()), "axis %d", axis)

		const runs = 4
		var total uint64
		for range runs {
			runtime.GC()
			runtime.GC()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			_, err := exec.EvalWith(x, e)
			require.NoError(t, err)
			runtime.ReadMemStats(&m1)
			total += m1.TotalAlloc - m0.TotalAlloc
		}
		assert.LessOrEqual(t, total/runs, uint64(16*n*n+64<<10), "bytes per Eval, axis %d (output: %d)", axis, 16*n*n)

		dst := tensor.Must(tensor.New[float64](got.Shape()...))
		require.NoError(t, exec.EvalToWith(x, dst, e))
		assert.Zero(t, mismatches(want, dst.Values()), "axis %d into a destination", axis)
		total = 0
		for range runs {
			runtime.GC()
			runtime.GC()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			require.NoError(t, exec.EvalToWith(x, dst, e))
			runtime.ReadMemStats(&m1)
			total += m1.TotalAlloc - m0.TotalAlloc
		}
		assert.LessOrEqual(t, total/runs, uint64(64<<10), "bytes per EvalTo, axis %d", axis)
		x.Close()
	}
}

// mismatches counts the positions where got differs from want in its bits
// (the random inputs hold NaNs).
func mismatches(want, got []float64) int {
	if len(want) != len(got) {
		return max(len(want), len(got))
	}
	n := 0
	for i := range want {
		if math.Float64bits(want[i]) != math.Float64bits(got[i]) {
			n++
		}
	}
	return n
}
