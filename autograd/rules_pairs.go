package autograd

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// addPairRules fills the rows of the paired reductions (logsumexp and the
// sum of squared deviations, which var and std are built on), in ops that
// have rules in turn.
func addPairRules[T dtype.Float](t *[expr.NumOps]vjp[T]) {
	// d/dx log(sum(exp(x))) = exp(x - lse): the softmax.
	t[expr.OpLogSumExp] = reduction(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		return scale(g, x.Sub(y).Exp())
	})
	// d/dx Σ(x - mean)² = 2(x - mean): the mean's own derivative sums to 0.
	t[expr.OpSumSqDev] = reduction(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		return scale(g, x.Sub(x.MeanKeepDims(n.Axes()...)).MulScalar(2))
	})
}
