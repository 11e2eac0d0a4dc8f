package optim

import (
	"math"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// NewSGD returns stochastic gradient descent (torch.optim.SGD without
// dampening): with weight decay wd, momentum μ and learning rate lr,
//
//	g = grad + wd·p
//	b = μ·b + g                    (with momentum; b starts at 0)
//	g = g + μ·b  (Nesterov)  or  g = b
//	p = p - lr·g
//
// Options: LR (required), Momentum, Nesterov, WeightDecay, Using.
func NewSGD[T dtype.Float](params []*tensor.Tensor[T], opts ...Option) (*Optimizer[T], error) {
	set := probe(opts)
	if !set.set["LR"] {
		return nil, &tensor.ArgError{Op: "SGD", Reason: "a learning rate (optim.LR) is required"}
	}
	states := 0
	if set.momentum > 0 {
		states = 1 // the momentum buffer
	}
	return newOptimizer("SGD", params, opts, []string{"LR", "Momentum", "Nesterov", "WeightDecay"}, config{}, states,
		func(c *config, t int, p, g expr.Expr[T], s []expr.Expr[T]) (expr.Expr[T], []expr.Expr[T]) {
			if c.weightDecay != 0 {
				g = g.Add(p.Mul(scalar[T](c.weightDecay)))
			}
			var state []expr.Expr[T]
			if c.momentum > 0 {
				b := s[0].Mul(scalar[T](c.momentum)).Add(g)
				state = []expr.Expr[T]{b}
				if c.nesterov {
					g = g.Add(b.Mul(scalar[T](c.momentum)))
				} else {
					g = b
				}
			}
			return p.Sub(g.Mul(scalar[T](c.lr))), state
		})
}

// NewAdam returns Adam (torch.optim.Adam): with step t, betas β1, β2,
//
//	g = grad + wd·p
//	m = β1·m + (1-β1)·g
//	v = β2·v + (1-β2)·g²
//	p = p - (lr/(1-β1ᵗ))·m / (√v/√(1-β2ᵗ) + ε)
//
// Options: LR (default 1e-3), Betas (0.9, 0.999), Eps (1e-8),
// WeightDecay (0), Using.
func NewAdam[T dtype.Float](params []*tensor.Tensor[T], opts ...Option) (*Optimizer[T], error) {
	return newOptimizer("Adam", params, opts, []string{"LR", "Betas", "Eps", "WeightDecay"}, adamDefaults(0), 2, adamRule[T](false))
}

// NewAdamW returns AdamW (torch.optim.AdamW): Adam whose weight decay is
// decoupled from the gradient, p = p·(1 - lr·wd) before Adam's step.
// Options as NewAdam, with WeightDecay defaulting to 0.01.
func NewAdamW[T dtype.Float](params []*tensor.Tensor[T], opts ...Option) (*Optimizer[T], error) {
	return newOptimizer("AdamW", params, opts, []string{"LR", "Betas", "Eps", "WeightDecay"}, adamDefaults(0.01), 2, adamRule[T](true))
}

func adamDefaults(wd float64) config {
	return config{lr: 1e-3, beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: wd}
}

func adamRule[T dtype.Float](decoupled bool) rule[T] {
	return func(c *config, t int, p, g expr.Expr[T], s []expr.Expr[T]) (expr.Expr[T], []expr.Expr[T]) {
		if c.weightDecay != 0 {
			if decoupled {
				p = p.Mul(scalar[T](1 - c.lr*c.weightDecay))
			} else {
				g = g.Add(p.Mul(scalar[T](c.weightDecay)))
			}
		}
		m := s[0].Mul(scalar[T](c.beta1)).Add(g.Mul(scalar[T](1 - c.beta1)))
		v := s[1].Mul(scalar[T](c.beta2)).Add(g.Mul(g).Mul(scalar[T](1 - c.beta2)))
		bc1 := 1 - math.Pow(c.beta1, float64(t))
		bc2 := 1 - math.Pow(c.beta2, float64(t))
		denom := v.Sqrt().Div(scalar[T](math.Sqrt(bc2))).Add(scalar[T](c.eps))
		return p.Sub(m.Div(denom).Mul(scalar[T](c.lr / bc1))), []expr.Expr[T]{m, v}
	}
}

// NewRMSprop returns RMSprop (torch.optim.RMSprop): with smoothing α,
//
//	g = grad + wd·p
//	v = α·v + (1-α)·g²
//	a = √v + ε, or with Centered: ḡ = α·ḡ + (1-α)·g, a = √(v - ḡ²) + ε
//	b = μ·b + g/a, p = p - lr·b   (with momentum)  or  p = p - lr·g/a
//
// Options: LR (default 1e-2), Alpha (0.99), Eps (1e-8), Momentum (0),
// Centered, WeightDecay (0), Using. Its state is v, then ḡ when centered,
// then b with momentum.
func NewRMSprop[T dtype.Float](params []*tensor.Tensor[T], opts ...Option) (*Optimizer[T], error) {
	set := probe(opts)
	states := 1
	if set.centered {
		states++
	}
	if set.momentum > 0 {
		states++
	}
	return newOptimizer("RMSprop", params, opts, []string{"LR", "Alpha", "Eps", "Momentum", "Centered", "WeightDecay"},
		config{lr: 1e-2, alpha: 0.99, eps: 1e-8}, states,
		func(c *config, t int, p, g expr.Expr[T], s []expr.Expr[T]) (expr.Expr[T], []expr.Expr[T]) {
			if c.weightDecay != 0 {
				g = g.Add(p.Mul(scalar[T](c.weightDecay)))
			}
			v := s[0].Mul(scalar[T](c.alpha)).Add(g.Mul(g).Mul(scalar[T](1 - c.alpha)))
			state := []expr.Expr[T]{v}
			avg := v
			if c.centered {
				gm := s[1].Mul(scalar[T](c.alpha)).Add(g.Mul(scalar[T](1 - c.alpha)))
				state = append(state, gm)
				avg = v.Sub(gm.Mul(gm))
			}
			den := avg.Sqrt().Add(scalar[T](c.eps))
			if c.momentum > 0 {
				b := s[len(s)-1].Mul(scalar[T](c.momentum)).Add(g.Div(den))
				state = append(state, b)
				return p.Sub(b.Mul(scalar[T](c.lr))), state
			}
			return p.Sub(g.Div(den).Mul(scalar[T](c.lr))), state
		})
}

// probe applies opts to an empty configuration, to see what they set.
func probe(opts []Option) config {
	var c config
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}
