package autograd_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// lossOf builds sum(tanh(x·w + b)·c)² over the given leaves, fresh nodes
// each call, as a training loop rebuilds its loss.
func lossOf(x, w, b *tensor.Tensor[float64], c float64) (expr.Expr[float64], expr.Expr[float64], expr.Expr[float64]) {
	W, B := expr.Of(w), expr.Of(b)
	y := expr.Of(x).MatMul(W).Add(B).Tanh().MulScalar(c).Square().Sum()
	return y, W, B
}

func gradValues(t *testing.T, gs []expr.Expr[float64]) [][]float64 {
	t.Helper()
	outs, err := exec.EvalN(gs...)
	require.NoError(t, err)
	vs := make([][]float64, len(outs))
	for i, o := range outs {
		vs[i] = o.Values()
	}
	return vs
}

// A loss rebuilt over the same tensors gets the gradient graph built the
// first time (the same nodes), with the values a fresh transform gives;
// a change of a scalar, a tensor, a target or the structure gets its own.
func TestGradCache(t *testing.T) {
	x := tensor.Must(tensor.RandN[float64](1, 5, 3))
	w := tensor.Must(tensor.RandN[float64](2, 3, 2))
	b := tensor.Must(tensor.RandN[float64](3, 2))
	y, W, B := lossOf(x, w, b, 2)
	first, err := autograd.GradOf(y, W, B)
	require.NoError(t, err)
	want := gradValues(t, first)

	y, W, B = lossOf(x, w, b, 2)
	again, err := autograd.GradOf(y, W, B)
	require.NoError(t, err)
	assert.Same(t, first[0].Node(), again[0].Node(), "cached")
	assert.Same(t, first[1].Node(), again[1].Node(), "cached")
	assert.Equal(t, want, gradValues(t, again))

	// The values follow the tensors' contents: they are read when evaluated.
	require.NoError(t, exec.MulTo(w, tensor.Must(tensor.Full(0.5))))
	y, W, B = lossOf(x, w, b, 2)
	moved, err := autograd.GradOf(y, W, B)
	require.NoError(t, err)
	y2, W2, B2 := lossOf(x, w.Clone(), b, 2) // other tensor: not cached
	fresh, err := autograd.GradOf(y2, W2, B2)
	require.NoError(t, err)
	assert.NotSame(t, moved[0].Node(), fresh[0].Node())
	assert.Equal(t, gradValues(t, fresh), gradValues(t, moved))

	misses := []struct {
		name string
		grad func() ([]expr.Expr[float64], error)
	}{
		{"another scalar", func() ([]expr.Expr[float64], error) {
			y, W, B := lossOf(x, w, b, 3)
			return autograd.GradOf(y, W, B)
		}},
		{"other targets", func() ([]expr.Expr[float64], error) {
			y, W, _ := lossOf(x, w, b, 2)
			return autograd.GradOf(y, W)
		}},
		{"targets swapped", func() ([]expr.Expr[float64], error) {
			y, W, B := lossOf(x, w, b, 2)
			return autograd.GradOf(y, B, W)
		}},
		{"a VJP", func() ([]expr.Expr[float64], error) {
			y, W, B := lossOf(x, w, b, 2)
			return autograd.VJPOf(y, expr.Scalar(1.0), W, B)
		}},
	}
	for _, m := range misses {
		t.Run(m.name, func(t *testing.T) {
			gs, err := m.grad()
			require.NoError(t, err)
			assert.NotSame(t, first[0].Node(), gs[0].Node())
		})
	}
	// The values of each are those of its own transform.
	y, W, B = lossOf(x, w, b, 3)
	gs3, err := autograd.GradOf(y, W, B)
	require.NoError(t, err)
	w3 := gradValues(t, gs3)
	y, W, B = lossOf(x, w, b, 2)
	gs2, err := autograd.GradOf(y, W, B)
	require.NoError(t, err)
	assert.NotEqual(t, w3, gradValues(t, gs2), "c = 3 and c = 2 differ")
	assert.InDeltaSlice(t, gradValues(t, gs2)[0], scaled(w3[0], 4.0/9), 1e-12, "the gradient scales with c²")
}

func scaled(v []float64, s float64) []float64 {
	out := make([]float64, len(v))
	for i := range v {
		out[i] = v[i] * s
	}
	return out
}

// A placeholder is its node: a graph over the same placeholder hits the
// cache, one over a new placeholder of the same shape does not (its
// bindings name the new node).
func TestGradCachePlaceholders(t *testing.T) {
	p := expr.Placeholder[float64]("x", 4)
	pt := tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4}, 4))
	g1, err := autograd.GradOf(p.Square().Sum(), p)
	require.NoError(t, err)
	g2, err := autograd.GradOf(p.Square().Sum(), p)
	require.NoError(t, err)
	assert.Same(t, g1[0].Node(), g2[0].Node())

	q := expr.Placeholder[float64]("x", 4)
	g3, err := autograd.GradOf(q.Square().Sum(), q)
	require.NoError(t, err)
	assert.NotSame(t, g1[0].Node(), g3[0].Node())
	out, err := exec.Eval(g3[0], exec.Bind(q, pt))
	require.NoError(t, err)
	assert.Equal(t, []float64{2, 4, 6, 8}, out.Values())
}

// The cache keeps only small graphs alive: one whose tensors hold more
// than 4 MiB is differentiated afresh each time.
func TestGradCacheSkipsLargeGraphs(t *testing.T) {
	big := tensor.Must(tensor.Ones[float64](1<<19 + 1)) // just over 4 MiB
	x := expr.Of(big)
	g1, err := autograd.GradOf(x.Square().Sum(), x)
	require.NoError(t, err)
	g2, err := autograd.GradOf(x.Square().Sum(), x)
	require.NoError(t, err)
	assert.NotSame(t, g1[0].Node(), g2[0].Node())
}

// A gradient step through the cache allocates only what building the loss
// and the update does (no backward graph): bounded, whatever the graph.
func TestLinRegStepAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	xt, yt, wt, bt := linregData(t)
	x := exec.New(exec.Workers(2))
	defer x.Close()
	require.NoError(t, linregStep(x, xt, yt, wt, bt))
	allocs := testing.AllocsPerRun(20, func() { _ = linregStep(x, xt, yt, wt, bt) })
	assert.LessOrEqual(t, allocs, 50.0, "was 118 before the gradient cache")
}

// Gradients from the cache have the bits of a fresh transform, for graphs
// of every kind of op (broadcasts, reductions, views, where, pow, matmul,
// casts), on any executor.
func TestGradCacheValues(t *testing.T) {
	a := tensor.Must(tensor.RandN[float64](4, 3, 4))
	b := tensor.Must(tensor.RandN[float64](5, 4))
	c := tensor.Must(tensor.RandN[float64](6, 4, 2))
	cases := []struct {
		name string
		loss func(a, b, c E) E
	}{
		{"broadcast", func(a, b, _ E) E { return a.Mul(b).Add(b.Exp()).Sum() }},
		{"reductions", func(a, _, _ E) E { return a.MaxKeepDims(1).Sub(a).Square().Mean(0).Sum() }},
		{"views", func(a, _, _ E) E { return a.Slice(1, 1, 4, 2).T().Reshape(6).Tanh().Sum() }},
		{"where and pow", func(a, b, _ E) E {
			return expr.Where(a.Gt(b), a.PowScalar(3), b.Sigmoid()).MulScalar(0.5).Sum()
		}},
		{"matmul", func(a, _, c E) E { return a.MatMul(c).Relu().Sum() }},
		{"cast", func(a, b, _ E) E {
			return expr.Cast[float64](expr.Cast[float32](a.Add(b)).Square()).Sum()
		}},
	}
	for _, cc := range cases {
		for _, x := range []*exec.Executor{serial, wide} {
			t.Run(cc.name, func(t *testing.T) {
				build := func(ta, tb, tc *tensor.Tensor[float64]) ([]expr.Expr[float64], error) {
					A, B, C := expr.Of(ta), expr.Of(tb), expr.Of(tc)
					return autograd.GradOf(cc.loss(A, B, C), A, B, C)
				}
				_, err := build(a, b, c)
				require.NoError(t, err)
				hit, err := build(a, b, c)
				require.NoError(t, err)
				fresh, err := build(a.Clone(), b.Clone(), c.Clone())
				require.NoError(t, err)
				require.NotSame(t, hit[0].Node(), fresh[0].Node())
				for i := range hit {
					h, err := exec.EvalWith(x, hit[i])
					require.NoError(t, err)
					f, err := exec.EvalWith(x, fresh[i])
					require.NoError(t, err)
					assert.Equal(t, f.Values(), h.Values(), "gradient %d", i)
				}
			})
		}
	}
}

// FuzzGradCache builds a loss from a program of ops over two leaves (each
// byte picks an op applied to the running value and a leaf), then checks
// that the gradients the cache returns for the same graph rebuilt have the
// values of a fresh transform over copies of the tensors.
func FuzzGradCache(f *testing.F) {
	for _, seed := range [][]byte{{0}, {1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11, 0, 3}, {12, 13, 2, 14, 1}} {
		f.Add(seed)
	}
	a := tensor.Must(tensor.RandN[float64](7, 2, 3))
	b := tensor.Must(tensor.RandN[float64](8, 3))
	f.Fuzz(func(t *testing.T, prog []byte) {
		if len(prog) > 24 {
			prog = prog[:24]
		}
		build := func(ta, tb *tensor.Tensor[float64]) ([]expr.Expr[float64], error) {
			A, B := expr.Of(ta), expr.Of(tb)
			v := A
			for _, op := range prog {
				switch op % 15 {
				case 0:
					v = v.Add(B)
				case 1:
					v = v.Mul(A)
				case 2:
					v = v.Tanh()
				case 3:
					v = v.MulScalar(float64(op) / 64)
				case 4:
					v = v.Sub(B.Square())
				case 5:
					v = v.SumKeepDims(0).Expand(2, 3)
				case 6:
					v = v.Sigmoid()
				case 7:
					v = v.MaxKeepDims(1).Add(v)
				case 8:
					v = v.Div(A.Square().AddScalar(1))
				case 9:
					v = v.T().Reshape(3, 2).T()
				case 10:
					v = v.Slice(1, 0, 2, 1).Embed(1, 0, 1, 3)
				case 11:
					v = expr.Where(v.Gt(B), v, A)
				case 12:
					v = v.Sin().Mul(B)
				case 13:
					v = v.MatMul(B.Reshape(3, 1)).Expand(2, 3)
				case 14:
					v = v.Abs().AddScalar(1).Log()
				}
			}
			return autograd.GradOf(v.Add(B).Sum(), A, B) // B in the graph: a target outside it is not cached
		}
		first, err := build(a, b)
		if err != nil {
			t.Skip(err) // a program the rules refuse refuses every time
		}
		hit, err := build(a, b)
		require.NoError(t, err)
		assert.Same(t, first[0].Node(), hit[0].Node(), "rebuilt over the same tensors: cached")
		fresh, err := build(a.Clone(), b.Clone())
		require.NoError(t, err)
		for i := range hit {
			h, err := exec.Eval(hit[i])
			require.NoError(t, err)
			g, err := exec.Eval(fresh[i])
			require.NoError(t, err)
			assertSameBits(t, g.Values(), h.Values())
		}
	})
}

func assertSameBits(t *testing.T, want, got []float64) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		if math.Float64bits(want[i]) != math.Float64bits(got[i]) && !(math.IsNaN(want[i]) && math.IsNaN(got[i])) {
			t.Fatalf("element %d: %v, want %v", i, got[i], want[i])
		}
	}
}
