package exec_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// plansBuilt counts the plans an executor with Debug(w) has printed.
func plansBuilt(w *bytes.Buffer) int { return strings.Count(w.String(), "exec plan:") }

// TestCachedPlanReuse evaluates one graph shape on one executor over
// operands that differ in what the plan depends on (shape, strides,
// offset, dtype, aliasing, bindings, a destination that is an input) and
// checks every result against a plain loop, and that the plan is reused
// exactly when nothing it depends on changed. A cached plan reused for
// another layout would read the wrong elements.
func TestCachedPlanReuse(t *testing.T) {
	var log bytes.Buffer
	x := exec.New(exec.Workers(2), exec.Debug(&log))
	defer x.Close()
	seq := func(n int, from float64) *tensor.Tensor[float64] {
		v := make([]float64, n)
		for i := range v {
			v[i] = from + float64(i)
		}
		return tensor.Must(tensor.FromSlice(v, n))
	}
	mat := func(r, c int, from float64) *tensor.Tensor[float64] {
		return tensor.Must(seq(r*c, from).Reshape(r, c))
	}
	// f is the graph: a*b + a, then a row sum, over [r, c] operands.
	f := func(a, b expr.Expr[float64]) expr.Expr[float64] { return a.Mul(b).Add(a).Sum(1) }
	want := func(a, b *tensor.Tensor[float64]) []float64 {
		av, bv := a.Values(), b.Values() // row-major logical order
		r, c := a.Shape()[0], a.Shape()[1]
		out := make([]float64, r)
		for i := range r {
			for j := range c {
				out[i] += av[i*c+j]*bv[i*c+j] + av[i*c+j]
			}
		}
		return out
	}
	a, b := mat(3, 4, 1), mat(3, 4, 20)
	check := func(name string, a, b *tensor.Tensor[float64], plans int) {
		t.Helper()
		got, err := exec.EvalWith(x, f(expr.Of(a), expr.Of(b)))
		require.NoError(t, err, name)
		assert.Equal(t, want(a, b), got.Values(), name)
		assert.Equal(t, plans, plansBuilt(&log), "%s: plans built so far", name)
	}
	check("first", a, b, 1)
	check("other tensors, same layouts: reused", mat(3, 4, 7), mat(3, 4, 9), 1)
	check("other shape", mat(5, 2, 1), mat(5, 2, 3), 2)
	at := tensor.Must(mat(4, 3, 1).T()) // [3,4], strides [1,3]
	check("transposed strides", at, b, 3)
	wide := mat(3, 8, 1)
	stepped := tensor.Must(wide.Slice(1, 0, 8, 2)) // [3,4], strides [8,2]
	check("stepped strides", stepped, b, 4)
	shifted := tensor.Must(wide.Slice(1, 1, 8, 2)) // the same strides from offset 1
	check("other offset", shifted, b, 5)
	check("other offset again: reused", tensor.Must(mat(3, 8, 50).Slice(1, 1, 8, 2)), b, 5)
	check("one tensor twice", a, a, 6)
	check("one tensor twice, another tensor: reused", b, b, 6)

	// dtype: the same graph in float32 is a plan of its own.
	a32 := tensor.Must(tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 2, 3))
	got32, err := exec.EvalWith(x, expr.Of(a32).Mul(expr.Of(a32)).Add(expr.Of(a32)).Sum(1))
	require.NoError(t, err)
	assert.Equal(t, []float32{1*1 + 1 + 2*2 + 2 + 3*3 + 3, 4*4 + 4 + 5*5 + 5 + 6*6 + 6}, got32.Values())
	assert.Equal(t, 7, plansBuilt(&log), "float32")

	// A destination that is an input, then one that is not.
	d := mat(3, 4, 1)
	e := mat(3, 4, 1)
	require.NoError(t, exec.EvalToWith(x, d, expr.Of(d).Add(expr.Of(e)).MulScalar(2)))
	assert.Equal(t, seqTimes(mat(3, 4, 1), 4), d.Values(), "in place")
	out := tensor.Must(tensor.New[float64](3, 4))
	require.NoError(t, exec.EvalToWith(x, out, expr.Of(e).Add(expr.Of(mat(3, 4, 1))).MulScalar(2)))
	assert.Equal(t, seqTimes(mat(3, 4, 1), 4), out.Values(), "into another tensor")
	assert.Equal(t, 9, plansBuilt(&log), "a destination that is an input plans apart")

	// Bindings: a placeholder bound to tensors of two layouts and to new
	// contents each time.
	p := expr.Placeholder[float64]("p", 3, 4)
	g := p.AddScalar(1).Sum(1)
	for i, bound := range []*tensor.Tensor[float64]{a, mat(3, 4, 100), at} {
		got, err := exec.EvalWith(x, g, exec.Bind(p, bound))
		require.NoError(t, err)
		v := bound.Values()
		for r := range 3 {
			assert.Equal(t, v[4*r]+v[4*r+1]+v[4*r+2]+v[4*r+3]+4, got.Values()[r], "binding %d row %d", i, r)
		}
	}
	assert.Equal(t, 11, plansBuilt(&log), "bindings of one layout share a plan; a transposed one plans apart")
	_, err = exec.EvalWith(x, g, exec.Bind(p, mat(4, 3, 1)))
	var be *exec.BindError
	assert.ErrorAs(t, err, &be, "a binding of another shape is refused, not run on the cached plan")
}

// seqTimes returns t's values times k.
func seqTimes(t *tensor.Tensor[float64], k float64) []float64 {
	v := t.Values()
	for i := range v {
		v[i] *= k
	}
	return v
}

// TestSmallStepAllocations pins the allocations of small steps whose
// graphs are cached: a prebuilt graph evaluated into a destination
// allocates nothing, and one rebuilt every step (as a training loop does)
// allocates only what building its graph allocates — the executor adds
// nothing per step (no result, plan, closure or slice), with short-row
// reductions, a matmul and a multi-destination Run among its steps.
func TestSmallStepAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	x := exec.New(exec.Workers(2))
	defer x.Close()
	logits := tensor.Must(tensor.RandN[float32](1, 64, 10))
	loss := tensor.Must(tensor.New[float32]())
	softmaxLoss := func() expr.Expr[float32] {
		l := expr.Of(logits)
		m := l.MaxKeepDims(1)
		return l.Sub(m).Exp().SumKeepDims(1).Log().Add(m).Sub(l).Mean()
	}
	w := tensor.Must(tensor.RandN[float64](2, 8, 4))
	bias := tensor.Must(tensor.RandN[float64](3, 4))
	in := tensor.Must(tensor.RandN[float64](4, 16, 8))
	hidden := tensor.Must(tensor.New[float64](16))
	layer := func() expr.Expr[float64] {
		return expr.Of(in).MatMul(expr.Of(w)).Add(expr.Of(bias)).Relu().Sum(1)
	}
	u, v := tensor.Must(tensor.RandN[float64](5, 100)), tensor.Must(tensor.RandN[float64](6, 100))
	update := func() []*expr.Node {
		uu, vv := expr.Of(u), expr.Of(v)
		return []*expr.Node{uu.Sub(vv.MulScalar(0.1)).Node(), vv.Add(uu.MulScalar(0.1)).Node()}
	}
	dsts := []tensor.Any{u, v}
	for _, c := range []struct {
		name  string
		build func() any
		eval  func(g any) error
	}{
		{"softmax loss 64x10", func() any { return softmaxLoss() },
			func(g any) error { return exec.EvalToWith(x, loss, g.(expr.Expr[float32])) }},
		{"matmul, bias, relu, row sum", func() any { return layer() },
			func(g any) error { return exec.EvalToWith(x, hidden, g.(expr.Expr[float64])) }},
		{"two updates in one Run", func() any { return update() },
			func(g any) error { _, err := x.Run(g.([]*expr.Node), dsts); return err }},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := c.build()
			require.NoError(t, c.eval(g)) // plans
			prebuilt := testing.AllocsPerRun(50, func() { _ = c.eval(g) })
			switch {
			case strings.HasPrefix(c.name, "two"):
				assert.Equal(t, 1.0, prebuilt, "a prebuilt Run allocates only its result list")
			case strings.HasPrefix(c.name, "matmul"):
				// internal/matmul's packing of the product allocates (at
				// most 3); the step around it nothing.
				assert.LessOrEqual(t, prebuilt, 3.0, "a prebuilt graph with a product")
			default:
				assert.Zero(t, prebuilt, "a prebuilt graph into a destination")
			}
			building := testing.AllocsPerRun(50, func() { _ = c.build() })
			step := testing.AllocsPerRun(50, func() { _ = c.eval(c.build()) })
			assert.Equal(t, building+prebuilt, step, "a rebuilt step allocates its graph and nothing more")
		})
	}
	assert.False(t, math.IsNaN(float64(loss.Values()[0])))
}
