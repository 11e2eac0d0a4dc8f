package exec_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// A reduction's bits depend on its logical shape and reduced axes alone:
// not on the input's layout, nor on what is fused into it, nor on the
// other roots of its plan, nor on the number of workers.

// orderExecutors have 1, 2, 3 and 7 workers and split even small work.
var orderExecutors = func() []*exec.Executor {
	var xs []*exec.Executor
	for _, w := range []int{1, 2, 3, 7} {
		xs = append(xs, exec.New(exec.Workers(w), exec.Grain(1)))
	}
	return xs
}()

// orderValues returns n values: normal ones, ±0 often (so that max and min
// meet ties of +0 and -0), and with nan a NaN now and then.
func orderValues(seed uint64, n int, nan bool) []float64 {
	r := newRand(seed)
	v := make([]float64, n)
	for i := range v {
		switch p := r.IntN(100); {
		case nan && p < 3:
			v[i] = math.NaN()
		case p < 15:
			v[i] = math.Copysign(0, float64(r.IntN(2)*2-1))
		default:
			v[i] = r.NormFloat64() * math.Pow(2, float64(r.IntN(20)-10))
		}
	}
	return v
}

// orderLayouts returns tensors of shape [R, C] holding vals (row-major) in
// different layouts: contiguous, padded rows, stepped columns, a transposed
// buffer, and a Clone of the padded view.
func orderLayouts(t *testing.T, vals []float64, R, C int) map[string]*tensor.Tensor[float64] {
	contiguous := fromValues(t, vals, R, C)
	fill := func(dst *tensor.Tensor[float64]) *tensor.Tensor[float64] {
		for i := range R {
			for j := range C {
				require.NoError(t, dst.Set(vals[i*C+j], i, j))
			}
		}
		return dst
	}
	padded := fill(tensor.Must(tensor.Must(tensor.Full(7.0, R, C+1)).Slice(1, 0, C, 1)))
	stepped := fill(tensor.Must(tensor.Must(tensor.Full(7.0, R, 2*C)).Slice(1, 0, 2*C, 2)))
	transposed := fill(tensor.Must(tensor.Must(tensor.Full(7.0, C, R)).T()))
	return map[string]*tensor.Tensor[float64]{
		"contiguous": contiguous, "padded": padded, "clone": padded.Clone(),
		"stepped": stepped, "transposed": transposed,
	}
}

type orderReduction struct {
	name string
	f    func(x expr.Expr[float64], axes ...int) expr.Expr[float64]
}

var orderReductions = []orderReduction{
	{"sum", expr.Expr[float64].Sum}, {"mean", expr.Expr[float64].Mean}, {"prod", expr.Expr[float64].Prod},
	{"max", expr.Expr[float64].Max}, {"min", expr.Expr[float64].Min},
	{"logsumexp", func(x expr.Expr[float64], axes ...int) expr.Expr[float64] { return expr.LogSumExp(x, false, axes...) }},
	{"sumsqdev", func(x expr.Expr[float64], axes ...int) expr.Expr[float64] { return expr.SumSqDev(x, false, axes...) }},
}

// orderResults evaluates red over axes of x and of x*x in every way that
// must give the same bits: fused, over a materialized x*x, and as a root of
// EvalN beside another root, with each executor. Keys name the way.
func orderResults(t *testing.T, x *tensor.Tensor[float64], red orderReduction, axes []int) (ofX, ofSq map[string][]float64) {
	ofX, ofSq = map[string][]float64{}, map[string][]float64{}
	for _, ex := range orderExecutors {
		w := fmt.Sprintf("%d workers: ", ex.Workers())
		e := expr.Of(x)
		sq := e.Mul(e)
		ofX[w+"x"] = evalWith(t, ex, red.f(e, axes...)).Values()
		outs, err := exec.EvalNWith(ex, []expr.Expr[float64]{red.f(e, axes...), e.AddScalar(1)})
		require.NoError(t, err)
		ofX[w+"EvalN(s, x+1)[0]"] = outs[0].Values()

		ofSq[w+"fused x*x"] = evalWith(t, ex, red.f(sq, axes...)).Values()
		m := evalWith(t, ex, sq)
		ofSq[w+"materialized x*x"] = evalWith(t, ex, red.f(expr.Of(m), axes...)).Values()
		outs, err = exec.EvalNWith(ex, []expr.Expr[float64]{red.f(sq, axes...), sq})
		require.NoError(t, err)
		ofSq[w+"EvalN(s, x*x)[0]"] = outs[0].Values()
	}
	return ofX, ofSq
}

// assertSameBits asserts that every entry of got has want's bits
// (math.Float64bits, NaN included).
func assertSameBits(t *testing.T, want []float64, got map[string][]float64, ctx string) bool {
	t.Helper()
	ok := true
	for way, g := range got {
		require.Len(t, g, len(want), "%s %s", ctx, way)
		for i := range want {
			if math.Float64bits(g[i]) != math.Float64bits(want[i]) {
				ok = assert.Failf(t, "bits differ", "%s, %s: element %d is %v (%#x), want %v (%#x)",
					ctx, way, i, g[i], math.Float64bits(g[i]), want[i], math.Float64bits(want[i])) && ok
				break
			}
		}
	}
	return ok
}

// TestReduceBitsLayoutFree is the report's case: [2,7] with padded rows,
// its Clone, a transposed buffer holding the same tensor and others, for
// 100 seeds, with ±0 ties and (for half the seeds) NaN.
func TestReduceBitsLayoutFree(t *testing.T) {
	const R, C = 2, 7
	for seed := range uint64(100) {
		vals := orderValues(seed, R*C, seed%2 == 1)
		layouts := orderLayouts(t, vals, R, C)
		for _, red := range orderReductions {
			for _, axes := range [][]int{nil, {0}, {1}} {
				want := evalWith(t, serial, red.f(expr.Of(layouts["contiguous"]), axes...)).Values()
				wantSq := evalWith(t, serial, red.f(expr.Of(evalWith(t, serial, expr.Of(layouts["contiguous"]).Square())), axes...)).Values()
				for name, x := range layouts {
					ofX, ofSq := orderResults(t, x, red, axes)
					ctx := fmt.Sprintf("seed %d, %s%v of %s", seed, red.name, axes, name)
					if !assertSameBits(t, want, ofX, ctx) || !assertSameBits(t, wantSq, ofSq, ctx+" x*x") {
						return
					}
				}
			}
		}
	}
}

// permutedLayout returns a tensor of the given shape holding vals
// (row-major) through a buffer whose axes are shape's permuted by perm,
// and whose last axis is padded by pad elements.
func permutedLayout(t *testing.T, vals []float64, shape tensor.Shape, perm []int, pad int) *tensor.Tensor[float64] {
	bshape := make([]int, len(shape))
	for i, p := range perm {
		bshape[i] = shape[p]
	}
	bshape[len(bshape)-1] += pad
	buf := tensor.Must(tensor.Full(7.0, bshape...))
	buf = tensor.Must(buf.Slice(len(bshape)-1, 0, bshape[len(bshape)-1]-pad, 1))
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[p] = i
	}
	x := tensor.Must(buf.Permute(inv...))
	require.Equal(t, shape, x.Shape())
	idx := make([]int, len(shape))
	for _, v := range vals {
		require.NoError(t, x.Set(v, idx...))
		for i := len(idx) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < shape[i] {
				break
			}
			idx[i] = 0
		}
	}
	return x
}

// TestReduceBitsLayoutFreeLarge covers what [2,7] cannot: outputs of many
// leaves, rows of the reduced axes folded into runs of outputs, reductions
// split into chunks, transposes across reduced axes, permuted 3-d inputs
// and broadcast inputs.
func TestReduceBitsLayoutFreeLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("a long graph or input: run by the full test pass, not the -short race pass")
	}
	cases := []struct {
		shape tensor.Shape
		perms [][]int
		axes  [][]int
	}{
		{tensor.Shape{3, 1000}, [][]int{{0, 1}, {1, 0}}, [][]int{nil, {0}, {1}}},
		{tensor.Shape{300, 7}, [][]int{{0, 1}, {1, 0}}, [][]int{nil, {0}, {1}}},
		{tensor.Shape{2, 140000}, [][]int{{0, 1}, {1, 0}}, [][]int{nil, {1}}},
		{tensor.Shape{4, 5, 6}, [][]int{{0, 1, 2}, {2, 0, 1}, {1, 2, 0}, {2, 1, 0}},
			[][]int{nil, {0, 2}, {1, 2}, {0, 1}, {1}}},
	}
	reds := []orderReduction{orderReductions[0], orderReductions[1], orderReductions[3], orderReductions[4]}
	for ci, c := range cases {
		n, _ := c.shape.Numel()
		vals := orderValues(uint64(1000+ci), n, false)
		for _, red := range reds {
			for _, axes := range c.axes {
				ref := permutedLayout(t, vals, c.shape, c.perms[0], 0)
				want := evalWith(t, serial, red.f(expr.Of(ref), axes...)).Values()
				wantSq := evalWith(t, serial, red.f(expr.Of(evalWith(t, serial, expr.Of(ref).Square())), axes...)).Values()
				for _, perm := range c.perms {
					for _, pad := range []int{0, 3} {
						x := permutedLayout(t, vals, c.shape, perm, pad)
						ofX, ofSq := orderResults(t, x, red, axes)
						ctx := fmt.Sprintf("%s%v of %v through %v padded %d", red.name, axes, c.shape, perm, pad)
						assertSameBits(t, want, ofX, ctx)
						assertSameBits(t, wantSq, ofSq, ctx+" x*x")
					}
				}
			}
		}
	}
	// A broadcast input and its copy.
	row := tensor.Must(tensor.FromSlice(orderValues(7, 300, false), 1, 300))
	b := tensor.Must(row.Expand(500, 300))
	for _, red := range reds {
		for _, axes := range [][]int{nil, {0}, {1}} {
			want := evalWith(t, serial, red.f(expr.Of(b.Clone()), axes...)).Values()
			ofX, _ := orderResults(t, b, red, axes)
			assertSameBits(t, want, ofX, fmt.Sprintf("%s%v of a broadcast row", red.name, axes))
		}
	}
}
