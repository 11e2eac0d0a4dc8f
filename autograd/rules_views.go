package autograd

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// addViewRules adds the rows of the views (issue 23). A view's gradient
// is the adjoint of its map: zeros of the operand's shape with the
// gradient written through the same view (EmbedView), as a slice's is an
// embed. A flip is its own inverse, so its gradient is the flipped
// gradient, a view again. MoveAxis and SwapAxes are permutes and
// BroadcastTo an expand, whose rows exist; a split's pieces are slices,
// whose gradients (embeds) autograd sums.
func addViewRules[T dtype.Float](t *[expr.NumOps]vjp[T]) {
	t[expr.OpView] = func(n *expr.Node, g expr.Expr[T]) []expr.Any {
		m, shape := n.ViewMap(), n.Args()[0].Shape()
		if m.IsFlipOf(shape) {
			return grads(g.View(m))
		}
		return grads(g.EmbedView(m, shape))
	}
	t[expr.OpViewEmbed] = func(n *expr.Node, g expr.Expr[T]) []expr.Any {
		return grads(g.View(n.ViewMap()))
	}
}
