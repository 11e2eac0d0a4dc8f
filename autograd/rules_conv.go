package autograd

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// addConvRules fills the rows of the convolution and pooling ops (issue
// 26): a convolution's input gradient is its transposed convolution and its
// weight gradient a GEMM over the input's patches (expr.ConvInputGrad and
// ConvWeightGrad), its bias gradient the sum of g over every axis but the
// channels; a pooling's gradient goes to each window's first maximum or is
// spread over the window (expr.PoolGrad). The gradient nodes themselves
// have no rules: second derivatives stop there.
func addConvRules[T dtype.Float](t *[expr.NumOps]vjp[T]) {
	t[expr.OpConv] = func(n *expr.Node, g expr.Expr[T]) []expr.Any {
		args := n.Args()
		x, w := expr.Wrap[T](args[0]), expr.Wrap[T](args[1])
		out := grads(expr.ConvInputGrad(g, w, n), expr.ConvWeightGrad(x, g, n))
		if len(args) > 2 {
			axes := []int{0}
			for a := 2; a < len(n.Shape()); a++ {
				axes = append(axes, a)
			}
			out = append(out, g.Sum(axes...))
		}
		return out
	}
	pool := func(n *expr.Node, g expr.Expr[T]) []expr.Any {
		return grads(expr.PoolGrad(expr.Wrap[T](n.Args()[0]), g, n))
	}
	for _, op := range []expr.Op{expr.OpMaxPool, expr.OpAvgPool, expr.OpAdaptiveAvgPool, expr.OpAdaptiveMaxPool} {
		t[op] = pool
	}
}

// whyNotConv explains the gradient ops of convolution and pooling.
func whyNotConv(op expr.Op) string {
	switch op {
	case expr.OpConvInputGrad, expr.OpConvWeightGrad, expr.OpPoolGrad:
		return "second derivatives of convolution and pooling are not supported"
	}
	return ""
}
