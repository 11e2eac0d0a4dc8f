package autograd

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// addIndexRules adds the rows of the indexing ops (expr/index.go): a
// gather's gradient is the scatter_add of the upstream gradient into
// zeros of its operand's shape, at the same indices; stop_gradient passes
// none. Take, take_along_axis, gather and index_select are gathers (with
// views around them, whose rows autograd has), masked_fill is a where.
func addIndexRules[T dtype.Float](t *[expr.NumOps]vjp[T]) {
	t[expr.OpGather] = gatherGrad[T]
	t[expr.OpStopGradient] = func(n *expr.Node, g expr.Expr[T]) []expr.Any { return grads(nil) }
}

// gatherGrad is the adjoint of a gather of x along axis with m index axes:
// the gradient g and the index (broadcast to g's shape) are viewed with
// the index axes as one, and added into zeros of x's shape there, each
// duplicate index accumulating in order.
func gatherGrad[T dtype.Float](n *expr.Node, g expr.Expr[T]) []expr.Any {
	args := n.Args()
	x, idx := args[0], expr.Wrap[int64](args[1])
	axis, m, neg := n.IndexArgs()
	shape := n.Shape()
	flat := make([]int, 0, len(shape)-m+1)
	flat = append(flat, shape[:axis]...)
	k := 1
	for _, e := range shape[axis : axis+m] {
		k *= e
	}
	flat = append(flat, k)
	flat = append(flat, shape[axis+m:]...)
	ix := idx.Expand(shape...).Reshape(flat...)
	zeros := expr.Scalar(T(0)).Expand(x.Shape()...)
	return grads(expr.ScatterAddAlong(zeros, axis, ix, g.Reshape(flat...), neg), nil)
}
