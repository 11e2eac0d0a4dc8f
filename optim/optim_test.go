package optim_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/optim"
	"github.com/tensorplay/tensorplay/tensor"
)

// reference is a plain-Go optimizer over one flat parameter, written from
// torch.optim's documented algorithms.
type reference interface {
	step(t int, p, g []float64)
}

type refSGD struct {
	lr, mu, wd float64
	nesterov   bool
	b          []float64
}

func (r *refSGD) step(t int, p, g []float64) {
	if r.b == nil {
		r.b = make([]float64, len(p))
	}
	for i := range p {
		gi := g[i] + r.wd*p[i]
		if r.mu > 0 {
			r.b[i] = r.mu*r.b[i] + gi
			if r.nesterov {
				gi += r.mu * r.b[i]
			} else {
				gi = r.b[i]
			}
		}
		p[i] -= r.lr * gi
	}
}

type refAdam struct {
	lr, b1, b2, eps, wd float64
	decoupled           bool
	m, v                []float64
}

func (r *refAdam) step(t int, p, g []float64) {
	if r.m == nil {
		r.m, r.v = make([]float64, len(p)), make([]float64, len(p))
	}
	bc1, bc2 := 1-math.Pow(r.b1, float64(t)), 1-math.Pow(r.b2, float64(t))
	for i := range p {
		gi := g[i]
		if r.decoupled {
			p[i] *= 1 - r.lr*r.wd
		} else {
			gi += r.wd * p[i]
		}
		r.m[i] = r.b1*r.m[i] + (1-r.b1)*gi
		r.v[i] = r.b2*r.v[i] + (1-r.b2)*gi*gi
		p[i] -= r.lr / bc1 * r.m[i] / (math.Sqrt(r.v[i])/math.Sqrt(bc2) + r.eps)
	}
}

type refRMSprop struct {
	lr, alpha, eps, mu, wd float64
	centered               bool
	v, gm, b               []float64
}

func (r *refRMSprop) step(t int, p, g []float64) {
	if r.v == nil {
		r.v, r.gm, r.b = make([]float64, len(p)), make([]float64, len(p)), make([]float64, len(p))
	}
	for i := range p {
		gi := g[i] + r.wd*p[i]
		r.v[i] = r.alpha*r.v[i] + (1-r.alpha)*gi*gi
		avg := r.v[i]
		if r.centered {
			r.gm[i] = r.alpha*r.gm[i] + (1-r.alpha)*gi
			avg -= r.gm[i] * r.gm[i]
		}
		den := math.Sqrt(avg) + r.eps
		if r.mu > 0 {
			r.b[i] = r.mu*r.b[i] + gi/den
			p[i] -= r.lr * r.b[i]
		} else {
			p[i] -= r.lr * gi / den
		}
	}
}

// TestAgainstReference runs five steps of every optimizer, in several
// configurations, on three parameters of two shapes, and compares with the
// reference.
func TestAgainstReference(t *testing.T) {
	type newFn func(ps []*tensor.Tensor[float64], x *exec.Executor) (*optim.Optimizer[float64], error)
	tests := []struct {
		name string
		opt  newFn
		ref  func() reference
	}{
		{"SGD", func(ps []*tensor.Tensor[float64], x *exec.Executor) (*optim.Optimizer[float64], error) {
			return optim.NewSGD(ps, optim.LR(0.1), optim.Using(x))
		}, func() reference { return &refSGD{lr: 0.1} }},
		{"SGD momentum weight decay", func(ps []*tensor.Tensor[float64], x *exec.Executor) (*optim.Optimizer[float64], error) {
			return optim.NewSGD(ps, optim.LR(0.05), optim.Momentum(0.9), optim.WeightDecay(1e-2), optim.Using(x))
		}, func() reference { return &refSGD{lr: 0.05, mu: 0.9, wd: 1e-2} }},
		{"SGD Nesterov", func(ps []*tensor.Tensor[float64], x *exec.Executor) (*optim.Optimizer[float64], error) {
			return optim.NewSGD(ps, optim.LR(0.05), optim.Momentum(0.8), optim.Nesterov(), optim.Using(x))
		}, func() reference { return &refSGD{lr: 0.05, mu: 0.8, nesterov: true} }},
		{"Adam", func(ps []*tensor.Tensor[float64], x *exec.Executor) (*optim.Optimizer[float64], error) {
			return optim.NewAdam(ps, optim.Using(x))
		}, func() reference { return &refAdam{lr: 1e-3, b1: 0.9, b2: 0.999, eps: 1e-8} }},
		{"Adam L2", func(ps []*tensor.Tensor[float64], x *exec.Executor) (*optim.Optimizer[float64], error) {
			return optim.NewAdam(ps, optim.LR(0.01), optim.Betas(0.8, 0.99), optim.Eps(1e-6), optim.WeightDecay(0.1), optim.Using(x))
		}, func() reference { return &refAdam{lr: 0.01, b1: 0.8, b2: 0.99, eps: 1e-6, wd: 0.1} }},
		{"AdamW", func(ps []*tensor.Tensor[float64], x *exec.Executor) (*optim.Optimizer[float64], error) {
			return optim.NewAdamW(ps, optim.LR(0.01), optim.Using(x))
		}, func() reference { return &refAdam{lr: 0.01, b1: 0.9, b2: 0.999, eps: 1e-8, wd: 0.01, decoupled: true} }},
		{"RMSprop", func(ps []*tensor.Tensor[float64], x *exec.Executor) (*optim.Optimizer[float64], error) {
			return optim.NewRMSprop(ps, optim.Using(x))
		}, func() reference { return &refRMSprop{lr: 1e-2, alpha: 0.99, eps: 1e-8} }},
		{"RMSprop centered momentum", func(ps []*tensor.Tensor[float64], x *exec.Executor) (*optim.Optimizer[float64], error) {
			return optim.NewRMSprop(ps, optim.LR(0.01), optim.Alpha(0.9), optim.Momentum(0.5), optim.Centered(), optim.WeightDecay(1e-3), optim.Using(x))
		}, func() reference {
			return &refRMSprop{lr: 0.01, alpha: 0.9, eps: 1e-8, mu: 0.5, centered: true, wd: 1e-3}
		}},
	}
	shapes := [][]int{{3, 4}, {3, 4}, {5}}
	for _, tt := range tests {
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/workers=%d", tt.name, workers), func(t *testing.T) {
				x := exec.New(exec.Workers(workers), exec.Grain(1))
				defer x.Close()
				var params []*tensor.Tensor[float64]
				var refs []reference
				var want [][]float64
				for i, s := range shapes {
					p := tensor.Must(tensor.RandN[float64](uint64(10+i), s...))
					params = append(params, p)
					refs = append(refs, tt.ref())
					want = append(want, p.Values())
				}
				o, err := tt.opt(params, x)
				require.NoError(t, err)
				for step := 1; step <= 5; step++ {
					var grads []expr.Expr[float64]
					for i, s := range shapes {
						g := tensor.Must(tensor.RandN[float64](uint64(100*step+i), s...))
						grads = append(grads, expr.Of(g))
						refs[i].step(step, want[i], g.Values())
					}
					require.NoError(t, o.Step(grads))
				}
				assert.Equal(t, 5, o.Steps())
				for i, p := range params {
					got := p.Values()
					for k := range got {
						assert.InDelta(t, want[i][k], got[k], 1e-12*max(1, math.Abs(want[i][k])), "param %d element %d", i, k)
					}
				}
			})
		}
	}
}

// TestStepIsOneReusedPlan checks that a step is one plan of fused passes,
// one per parameter shape, built at the first step and reused after it.
func TestStepIsOneReusedPlan(t *testing.T) {
	var plans bytes.Buffer
	x := exec.New(exec.Debug(&plans))
	defer x.Close()
	params := []*tensor.Tensor[float64]{
		tensor.Must(tensor.New[float64](64, 32)), tensor.Must(tensor.New[float64](64, 32)), tensor.Must(tensor.New[float64](32)),
	}
	o, err := optim.NewAdam(params, optim.Using(x))
	require.NoError(t, err)
	grads := func() []expr.Expr[float64] {
		var gs []expr.Expr[float64]
		for i, p := range params {
			gs = append(gs, expr.Of(tensor.Must(tensor.RandN[float64](uint64(i), p.Shape()...))))
		}
		return gs
	}
	require.NoError(t, o.Step(grads()))
	first := plans.String()
	assert.Equal(t, 1, strings.Count(first, "exec plan:"), first)
	assert.Equal(t, 2, strings.Count(first, "fused ["), "one pass per parameter shape:\n%s", first)
	assert.NotContains(t, first, "stages", "nothing staged:\n%s", first)
	plans.Reset()
	for range 3 {
		require.NoError(t, o.Step(grads()))
	}
	assert.Empty(t, plans.String(), "later steps reuse the plan")
}

func TestErrors(t *testing.T) {
	p := tensor.Must(tensor.New[float32](2, 3))
	var argErr *tensor.ArgError
	_, err := optim.NewSGD([]*tensor.Tensor[float32]{p})
	require.ErrorAs(t, err, &argErr)
	assert.EqualError(t, err, "SGD: a learning rate (optim.LR) is required")
	_, err = optim.NewSGD([]*tensor.Tensor[float32]{p}, optim.LR(0.1), optim.Nesterov())
	assert.EqualError(t, err, "SGD: Nesterov momentum requires a momentum")
	_, err = optim.NewAdam([]*tensor.Tensor[float32]{p}, optim.Momentum(0.9))
	assert.EqualError(t, err, "Adam: the Momentum option does not apply to Adam")
	_, err = optim.NewAdam([]*tensor.Tensor[float32]{p}, optim.Betas(1, 0.9))
	assert.EqualError(t, err, "Adam: invalid beta1: 1")
	_, err = optim.NewRMSprop([]*tensor.Tensor[float32]{p}, optim.LR(-1))
	assert.EqualError(t, err, "RMSprop: invalid learning rate: -1")
	_, err = optim.NewAdam[float32](nil)
	assert.EqualError(t, err, "Adam: no parameters")
	_, err = optim.NewAdam([]*tensor.Tensor[float32]{p, nil})
	assert.EqualError(t, err, "Adam: parameter 1 is nil")
	_, err = optim.NewAdam([]*tensor.Tensor[float32]{p, tensor.Must(p.Slice(0, 0, 1, 1))})
	assert.EqualError(t, err, "Adam: parameters 0 and 1 share memory")

	o, err := optim.NewAdam([]*tensor.Tensor[float32]{p})
	require.NoError(t, err)
	before := p.Values()
	assert.ErrorAs(t, o.Step(nil), &argErr)
	var shapeErr *tensor.ShapeError
	assert.ErrorAs(t, o.Step([]expr.Expr[float32]{expr.Of(tensor.Must(tensor.New[float32](3, 2)))}), &shapeErr)
	bad := expr.Of(p).Add(expr.Of(tensor.Must(tensor.New[float32](4))))
	assert.Same(t, bad.Err(), o.Step([]expr.Expr[float32]{bad}))
	assert.Equal(t, before, p.Values(), "nothing written")
	assert.Equal(t, 0, o.Steps())
	assert.Len(t, o.State(0), 2)
	assert.Nil(t, o.State(1))
}
