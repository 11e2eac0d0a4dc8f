package autograd

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// addScanRules adds the rows of the scans (issue 22): cumsum, cumprod and
// softmax.
func addScanRules[T dtype.Float](t *[expr.NumOps]vjp[T]) {
	t[expr.OpCumSum] = cumSumGrad[T]
	t[expr.OpCumProd] = cumProdGrad[T]
	t[expr.OpSoftmax] = softmaxGrad[T]
}

// softmaxGrad: with y = softmax(x) along axis, x's gradient is
// y·(g - Σ g·y) along the axis (PyTorch's softmax_backward_data).
func softmaxGrad[T dtype.Float](n *expr.Node, g expr.Expr[T]) []expr.Any {
	axis, _ := n.ScanArgs()
	y := expr.Wrap[T](n)
	return grads(y.Mul(g.Sub(g.Mul(y).SumKeepDims(axis))))
}

// cumSumGrad: element k of a cumsum is the sum of x[0..k], so x[k]'s
// gradient is the sum of g[k..n-1], a cumsum of g from the end (and a
// reverse cumsum's is a forward cumsum of g). A CumSumAs from another float
// type casts it back; an integer operand takes none.
func cumSumGrad[T dtype.Float](n *expr.Node, g expr.Expr[T]) []expr.Any {
	axis, reverse := n.ScanArgs()
	if reverse {
		return grads(toOperand(g.CumSum(axis), n.Args()[0]))
	}
	return grads(toOperand(g.RevCumSum(axis), n.Args()[0]))
}

// cumProdGrad is torch's cumprod_backward. Where no zero comes at or
// before k along the line, x[k]'s gradient is sum_{j>=k} g[j]y[j] / x[k].
// At a line's first zero z, y[j] without the factor x[z] is the cumprod of
// the line with that zero replaced by one, so its gradient is
// sum_{j>=z} g[j]y'[j]; past it, every y[j] keeps the factor x[z] = 0 and
// the gradient is 0. The masks come from a cumsum of (x == 0).
func cumProdGrad[T dtype.Float](n *expr.Node, g expr.Expr[T]) []expr.Any {
	a := n.Args()
	if !a[0].DType().IsFloat() {
		return grads(nil) // integer and bool operands take no gradient
	}
	axis, _ := n.ScanArgs()
	x, y := asFloat[T](a[0]), expr.Wrap[T](n)
	isZero := x.Eq(zero[T]())
	zeros := expr.Cast[T](isZero).CumSum(axis) // zeros at or before k
	before := zeros.Eq(zero[T]())
	first := isZero.And(zeros.Eq(one[T]()))
	yFirst := expr.Where(first, one[T]().Expand(x.Shape()...), x).CumProd(axis)
	plain := g.Mul(y).RevCumSum(axis).Div(x)
	atZero := g.Mul(yFirst).RevCumSum(axis)
	return grads(toOperand(expr.Where(before, plain, expr.Where(first, atZero, zero[T]().Expand(x.Shape()...))), a[0]))
}

// asFloat is the float operand a as T (itself when it is a T): a
// CumProdAs from another float type computes its gradient in T.
func asFloat[T dtype.Float](a *expr.Node) expr.Expr[T] {
	if a.DType() == dtype.Float32 {
		return expr.Cast[T](expr.Wrap[float32](a))
	}
	return expr.Cast[T](expr.Wrap[float64](a))
}

// toOperand casts a gradient to operand a's float type (nil for integer
// and bool operands, which take none).
func toOperand[T dtype.Float](g expr.Expr[T], a *expr.Node) expr.Any {
	switch a.DType() {
	case dtype.Float32:
		return expr.Cast[float32](g)
	case dtype.Float64:
		return expr.Cast[float64](g)
	}
	return nil
}

// whyNotScan explains the scans without a rule.
func whyNotScan(op expr.Op) string {
	switch op {
	case expr.OpCumMax, expr.OpCumMin:
		return "cummax and cummin have no gradient rule yet (it needs their indices)"
	case expr.OpLogCumSumExp:
		return "logcumsumexp has no gradient rule yet"
	case expr.OpNanCumSum, expr.OpNanCumProd:
		return "the nan-scans have no gradient rule yet (compose CumSum with Where for one)"
	}
	return ""
}
