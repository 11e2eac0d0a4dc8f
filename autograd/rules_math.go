package autograd

import (
	"math"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// addMathRules fills the rows of NumPy's elementwise math (issue 22): the
// local derivatives PyTorch uses, built from ops that have rules in turn.
func addMathRules[T dtype.Float](t *[expr.NumOps]vjp[T]) {
	c := func(v float64) expr.Expr[T] { return expr.Scalar(T(v)) }
	t[expr.OpArcsin] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		return g.Div(one[T]().Sub(x.Square()).Sqrt())
	})
	t[expr.OpArccos] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		return g.Neg().Div(one[T]().Sub(x.Square()).Sqrt())
	})
	t[expr.OpArctan] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return g.Div(x.Square().AddScalar(1)) })
	t[expr.OpSinh] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, x.Cosh()) })
	t[expr.OpCosh] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, x.Sinh()) })
	t[expr.OpArcsinh] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		return g.Div(x.Square().AddScalar(1).Sqrt())
	})
	t[expr.OpArccosh] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		return g.Div(x.Square().SubScalar(1).Sqrt())
	})
	t[expr.OpArctanh] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return g.Div(one[T]().Sub(x.Square())) })
	t[expr.OpLog2] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return g.Div(x.Mul(c(math.Ln2))) })
	t[expr.OpLog10] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return g.Div(x.Mul(c(math.Ln10))) })
	t[expr.OpExp2] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, y.Mul(c(math.Ln2))) })
	t[expr.OpTrunc] = zeroGrad[T]
	t[expr.OpReciprocal] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, y.Square().Neg()) })
	t[expr.OpRsqrt] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		return scale(g, y.Mul(y).Mul(y).Mul(c(-0.5)))
	})
	t[expr.OpErf] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		return scale(g, x.Square().Neg().Exp().Mul(c(2/math.SqrtPi)))
	})
	t[expr.OpErfc] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		return scale(g, x.Square().Neg().Exp().Mul(c(-2/math.SqrtPi)))
	})
	t[expr.OpLgamma] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, x.Digamma()) })
	// gelu'(x) = Φ(x) + x·φ(x).
	t[expr.OpGelu] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		cdf := x.Mul(c(1 / math.Sqrt2)).Erf().AddScalar(1).Mul(c(0.5))
		pdf := x.Square().Mul(c(-0.5)).Exp().Mul(c(1 / math.Sqrt(2*math.Pi)))
		return scale(g, cdf.Add(x.Mul(pdf)))
	})
	// With u = β(x+κx³) and t = tanh(u): 0.5(1+t) + 0.5x(1-t²)β(1+3κx²).
	t[expr.OpGeluTanh] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		const beta, kappa = 0.7978845608028654, 0.044715
		th := x.Add(x.Mul(x).Mul(x).Mul(c(kappa))).Mul(c(beta)).Tanh()
		du := x.Square().Mul(c(3 * kappa)).AddScalar(1).Mul(c(beta))
		left := th.AddScalar(1).Mul(c(0.5))
		right := x.Mul(c(0.5)).Mul(one[T]().Sub(th.Square())).Mul(du)
		return scale(g, left.Add(right))
	})
	// silu'(x) = s(1 + x(1-s)), s = sigmoid(x).
	t[expr.OpSilu] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		s := x.Sigmoid()
		return scale(g, s.Mul(x.Mul(one[T]().Sub(s)).AddScalar(1)))
	})
	// softplus'(x) = sigmoid(x), and 1 above the threshold where it is x.
	t[expr.OpSoftplus] = unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
		return expr.Where(x.Gt(c(20)), g, scale(g, x.Sigmoid()))
	})

	// remainder: a - b·floor(a/b), so d/db = -floor(a/b); fmod likewise
	// with trunc.
	t[expr.OpMod] = binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) {
		return g, g.Neg().Mul(a.Div(b).Floor())
	})
	t[expr.OpFmod] = binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) {
		return g, g.Neg().Mul(a.Div(b).Trunc())
	})
	t[expr.OpArctan2] = binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) {
		r := a.Square().Add(b.Square())
		return g.Mul(b).Div(r), g.Neg().Mul(a).Div(r)
	})
	t[expr.OpHypot] = binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) {
		return g.Mul(a).Div(y), g.Mul(b).Div(y)
	})
	// copysign(a, b) = |a|·sign(b): d/da = sign(a)·sign(y), 0 for b.
	t[expr.OpCopysign] = binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) {
		return scale(g, a.Sign().Mul(y.Sign())), zero[T]().Expand(y.Shape()...)
	})
	t[expr.OpFmax] = binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) { return fpick(a, b, g), fpick(b, a, g) })
	t[expr.OpFmin] = binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) {
		return fpick(a.Neg(), b.Neg(), g), fpick(b.Neg(), a.Neg(), g)
	})
	t[expr.OpLogAddExp] = binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) {
		return scale(g, a.Sub(y).Exp()), scale(g, b.Sub(y).Exp())
	})
	t[expr.OpLogAddExp2] = binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) {
		return scale(g, a.Sub(y).Exp2()), scale(g, b.Sub(y).Exp2())
	})
}

// fpick is the gradient of fmax(a, b) for a: pick's tie rule, and all of
// g to a where b is NaN and a is not (fmax chose a).
func fpick[T dtype.Float](a, b, g expr.Expr[T]) expr.Expr[T] {
	return expr.Where(b.IsNaN().And(a.IsNaN().Not()), g, pick(a, b, g))
}

// whyNotMath explains the ops of NumPy's math that have no row.
func whyNotMath(op expr.Op) string {
	switch op {
	case expr.OpIsNaN, expr.OpIsInf, expr.OpIsFinite, expr.OpSignbit:
		return "predicates are not differentiable"
	case expr.OpLogicalNot, expr.OpXor:
		return "logical ops are not differentiable"
	case expr.OpBitNot, expr.OpBitAnd, expr.OpBitOr, expr.OpBitXor, expr.OpShl, expr.OpShr:
		return "bitwise ops are integer ops, not differentiable"
	case expr.OpDigamma:
		return "digamma's derivative (trigamma) is not implemented"
	}
	return ""
}
