// Package optim updates model parameters from their gradients: SGD (with
// momentum, Nesterov momentum and weight decay), Adam, AdamW and RMSprop,
// with PyTorch's update rules (torch.optim) and defaults.
//
// A step is one Executor.Run whose roots are the new values of every
// parameter and of its optimizer state, written into those same tensors:
// each value is computed once, from the old values, in fused passes (one
// per parameter shape), and the plan is built at the first step and reused
// after it (the step number enters as a scalar, which the plan binds like
// a tensor).
package optim

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// An Option sets a hyperparameter of an optimizer. An option that the
// optimizer has no use for (Nesterov for Adam, say) is an error of its
// constructor.
type Option func(*config)

type config struct {
	lr, momentum, weightDecay, beta1, beta2, eps, alpha float64
	nesterov, centered                                  bool
	set                                                 map[string]bool
	x                                                   *exec.Executor
}

func (c *config) mark(name string) {
	if c.set == nil {
		c.set = map[string]bool{}
	}
	c.set[name] = true
}

// LR sets the learning rate.
func LR(lr float64) Option { return func(c *config) { c.lr = lr; c.mark("LR") } }

// Momentum sets the momentum factor of SGD and RMSprop (default 0: none).
func Momentum(m float64) Option { return func(c *config) { c.momentum = m; c.mark("Momentum") } }

// Nesterov makes SGD use Nesterov momentum (it needs a momentum).
func Nesterov() Option { return func(c *config) { c.nesterov = true; c.mark("Nesterov") } }

// WeightDecay sets the weight decay: an L2 penalty added to the gradient
// (SGD, Adam, RMSprop; default 0) or AdamW's decoupled decay (default 0.01).
func WeightDecay(wd float64) Option {
	return func(c *config) { c.weightDecay = wd; c.mark("WeightDecay") }
}

// Betas sets Adam's and AdamW's decay rates of the first and second moment
// estimates (default 0.9 and 0.999).
func Betas(b1, b2 float64) Option {
	return func(c *config) { c.beta1, c.beta2 = b1, b2; c.mark("Betas") }
}

// Eps sets the term added to the denominator for stability (default 1e-8).
func Eps(eps float64) Option { return func(c *config) { c.eps = eps; c.mark("Eps") } }

// Alpha sets RMSprop's smoothing constant (default 0.99).
func Alpha(a float64) Option { return func(c *config) { c.alpha = a; c.mark("Alpha") } }

// Centered makes RMSprop normalize by the estimated variance of the
// gradient rather than its second moment.
func Centered() Option { return func(c *config) { c.centered = true; c.mark("Centered") } }

// Using runs the steps on executor x instead of exec.Default.
func Using(x *exec.Executor) Option { return func(c *config) { c.x = x } }

// rule is one optimizer's update of one parameter p with gradient g and
// state s (the tensors of newState), at step t (counting from 1): the new
// parameter and the new state.
type rule[T dtype.Float] func(c *config, t int, p, g expr.Expr[T], s []expr.Expr[T]) (expr.Expr[T], []expr.Expr[T])

// Optimizer updates a fixed list of parameters in place.
type Optimizer[T dtype.Float] struct {
	name   string
	cfg    config
	rule   rule[T]
	params []*tensor.Tensor[T]
	state  [][]*tensor.Tensor[T] // per parameter, zero-initialized
	steps  int
}

// newOptimizer checks the parameters and options and allocates nState
// zero tensors of each parameter's shape.
func newOptimizer[T dtype.Float](name string, params []*tensor.Tensor[T], opts []Option, allowed []string, defaults config, nState int, r rule[T]) (*Optimizer[T], error) {
	c := defaults
	c.set = nil
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.x == nil {
		c.x = exec.Default
	}
	for opt := range c.set {
		ok := false
		for _, a := range allowed {
			ok = ok || a == opt
		}
		if !ok {
			return nil, &tensor.ArgError{Op: name, Reason: fmt.Sprintf("the %s option does not apply to %s", opt, name)}
		}
	}
	if err := c.check(name); err != nil {
		return nil, err
	}
	if len(params) == 0 {
		return nil, &tensor.ArgError{Op: name, Reason: "no parameters"}
	}
	o := &Optimizer[T]{name: name, cfg: c, rule: r, params: params}
	for i, p := range params {
		if p == nil {
			return nil, &tensor.ArgError{Op: name, Reason: fmt.Sprintf("parameter %d is nil", i)}
		}
		for j := range i {
			if params[j].MayOverlap(p) {
				return nil, &tensor.ArgError{Op: name, Reason: fmt.Sprintf("parameters %d and %d share memory", j, i)}
			}
		}
		s := make([]*tensor.Tensor[T], nState)
		for k := range s {
			t, err := tensor.New[T](p.Shape()...)
			if err != nil {
				return nil, err
			}
			s[k] = t
		}
		o.state = append(o.state, s)
	}
	return o, nil
}

// check rejects hyperparameters outside their ranges, as torch.optim does.
func (c *config) check(name string) error {
	bad := func(what string, v float64) error {
		return &tensor.ArgError{Op: name, Reason: fmt.Sprintf("invalid %s: %v", what, v)}
	}
	switch {
	case !(c.lr >= 0):
		return bad("learning rate", c.lr)
	case !(c.momentum >= 0):
		return bad("momentum", c.momentum)
	case !(c.weightDecay >= 0):
		return bad("weight decay", c.weightDecay)
	case !(c.beta1 >= 0 && c.beta1 < 1):
		return bad("beta1", c.beta1)
	case !(c.beta2 >= 0 && c.beta2 < 1):
		return bad("beta2", c.beta2)
	case !(c.eps >= 0):
		return bad("eps", c.eps)
	case !(c.alpha >= 0):
		return bad("alpha", c.alpha)
	case c.nesterov && c.momentum <= 0:
		return &tensor.ArgError{Op: name, Reason: "Nesterov momentum requires a momentum"}
	}
	return nil
}

// Params returns the parameters the optimizer updates.
func (o *Optimizer[T]) Params() []*tensor.Tensor[T] { return o.params }

// State returns parameter i's optimizer state (momentum buffers, moment
// estimates), in the optimizer's order; nil for a bad i.
func (o *Optimizer[T]) State(i int) []*tensor.Tensor[T] {
	if i < 0 || i >= len(o.state) {
		return nil
	}
	return o.state[i]
}

// Steps returns how many steps have been taken.
func (o *Optimizer[T]) Steps() int { return o.steps }

// Step updates every parameter and its state from grads, one gradient
// expression per parameter, of its shape (autograd.GradOf's results, for
// instance), in one fused evaluation; binds bind the gradients'
// placeholders. On error nothing is written and the step is not counted.
func (o *Optimizer[T]) Step(grads []expr.Expr[T], binds ...exec.Binding) error {
	if len(grads) != len(o.params) {
		return &tensor.ArgError{Op: o.name + ".Step", Reason: fmt.Sprintf("%d gradients for %d parameters", len(grads), len(o.params))}
	}
	t := o.steps + 1
	var roots []*expr.Node
	var dsts []tensor.Any
	for i, p := range o.params {
		g := grads[i]
		if err := g.Err(); err != nil {
			return err
		}
		if !g.Shape().Equal(p.Shape()) {
			return &tensor.ShapeError{Shape: g.Shape(), Axis: -1, Reason: fmt.Sprintf("%s.Step: gradient %d has shape %v, its parameter %v", o.name, i, g.Shape(), p.Shape())}
		}
		s := make([]expr.Expr[T], len(o.state[i]))
		for k, st := range o.state[i] {
			s[k] = expr.Of(st)
		}
		np, ns := o.rule(&o.cfg, t, expr.Of(p), g, s)
		for k, e := range ns {
			roots = append(roots, e.Node())
			dsts = append(dsts, o.state[i][k])
		}
		roots = append(roots, np.Node())
		dsts = append(dsts, p)
	}
	if _, err := o.cfg.x.Run(roots, dsts, binds...); err != nil {
		return err
	}
	o.steps = t
	return nil
}

// scalar is v as a T leaf.
func scalar[T dtype.Float](v float64) expr.Expr[T] { return expr.Scalar(T(v)) }
