package autograd

import (
	"slices"
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// vjp is a VJP rule: given node n and the gradient g of n's value, it
// returns the gradient of each of n's operands (nil for an operand that
// takes none), each of the operand's shape.
type vjp[T dtype.Float] func(n *expr.Node, g expr.Expr[T]) []expr.Any

// ruleTable is the one table of VJP rules, one row per differentiable op;
// an op without a row has no gradient (whyNot says why). It is instantiated
// once per float type.
func ruleTable[T dtype.Float]() *[expr.NumOps]vjp[T] {
	t := baseRules[T]()
	addMathRules(t)
	addPairRules(t)
	addConvRules(t)
	addComposeRules(t)
	addScanRules(t)
	addViewRules(t)
	addIndexRules(t)
	return t
}

// baseRules are the rows of the original op set; addMathRules adds those of
// NumPy's elementwise math (rules_math.go), addPairRules those of the
// paired reductions (rules_pairs.go).
func baseRules[T dtype.Float]() *[expr.NumOps]vjp[T] {
	return &[expr.NumOps]vjp[T]{
		expr.OpNeg:     unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return g.Neg() }),
		expr.OpAbs:     unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, x.Sign()) }),
		expr.OpExp:     unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, y) }),
		expr.OpLog:     unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return g.Div(x) }),
		expr.OpLog1p:   unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return g.Div(x.AddScalar(1)) }),
		expr.OpExpm1:   unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, y.AddScalar(1)) }),
		expr.OpSqrt:    unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return g.Div(y.MulScalar(2)) }),
		expr.OpSquare:  unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, x.MulScalar(2)) }),
		expr.OpSin:     unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, x.Cos()) }),
		expr.OpCos:     unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, x.Sin().Neg()) }),
		expr.OpTan:     unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, y.Square().AddScalar(1)) }),
		expr.OpTanh:    unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, one[T]().Sub(y.Square())) }),
		expr.OpSigmoid: unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, one[T]().Sub(y).Mul(y)) }),
		// relu(x) >= 0, so sign(relu(x)) is the 0/1 mask of x > 0, built from
		// an op with a (zero) gradient: second derivatives stay defined.
		expr.OpRelu:  unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return scale(g, y.Sign()) }),
		expr.OpFloor: zeroGrad[T],
		expr.OpCeil:  zeroGrad[T],
		expr.OpRound: zeroGrad[T],
		expr.OpSign:  zeroGrad[T],
		expr.OpConj:  unary(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return g.Conj() }),
		expr.OpCast:  castGrad[T],

		expr.OpAdd:          binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) { return g, g }),
		expr.OpBroadcastAdd: binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) { return g, g }),
		expr.OpSub:          binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) { return g, g.Neg() }),
		expr.OpMul:          binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) { return scale(g, b), scale(g, a) }),
		expr.OpDiv: binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) {
			return g.Div(b), g.Neg().Mul(a).Div(b.Mul(b))
		}),
		expr.OpPow:     binary(powGrad[T]),
		expr.OpMaximum: binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) { return pick(a, b, g), pick(b, a, g) }),
		expr.OpMinimum: binary(func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) { return pick(b, a, g), pick(a, b, g) }),
		expr.OpWhere:   whereGrad[T],

		expr.OpReshape: func(n *expr.Node, g expr.Expr[T]) []expr.Any { return grads(g.Reshape(n.Args()[0].Shape()...)) },
		expr.OpPermute: func(n *expr.Node, g expr.Expr[T]) []expr.Any { return grads(g.Permute(inverse(n.Axes())...)) },
		expr.OpExpand:  func(n *expr.Node, g expr.Expr[T]) []expr.Any { return grads(sumTo(g, n.Args()[0])) },
		expr.OpSlice: func(n *expr.Node, g expr.Expr[T]) []expr.Any {
			axis, start, _, step := n.SliceArgs()
			return grads(g.Embed(axis, start, step, n.Args()[0].Shape()[axis]))
		},
		expr.OpEmbed: func(n *expr.Node, g expr.Expr[T]) []expr.Any {
			axis, start, stop, step := n.SliceArgs()
			return grads(g.Slice(axis, start, stop, step))
		},

		expr.OpSum:  reduction(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return g }),
		expr.OpMean: reduction(func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] { return g.DivScalar(T(reducedCount(n))) }),
		expr.OpProd: reduction(prodGrad[T]),
		expr.OpMax:  reduction(extremumGrad[T]),
		expr.OpMin:  reduction(extremumGrad[T]),

		expr.OpMatMul: matmulGrad[T],

		expr.OpExternal: externalGrad[T],
	}
}

var (
	rules32 = sync.OnceValue(ruleTable[float32])
	rules64 = sync.OnceValue(ruleTable[float64])
)

// whyNot explains the ops that have no row.
func whyNot(op expr.Op) string {
	switch op {
	case expr.OpEq, expr.OpNe, expr.OpLt, expr.OpLe, expr.OpGt, expr.OpGe:
		return "comparisons are not differentiable"
	case expr.OpArgMax, expr.OpArgMin:
		return "indices are not differentiable"
	case expr.OpAny, expr.OpAll, expr.OpAnd, expr.OpOr, expr.OpNot:
		return "logical ops are not differentiable"
	case expr.OpDivTrunc, expr.OpDivFloor:
		return "rounding division is not differentiable (use Div, then Floor for a zero gradient)"
	case expr.OpReal, expr.OpImag, expr.OpCAbs:
		return "complex gradients are not supported"
	case expr.OpScatter, expr.OpScatterAdd:
		return "scatter and scatter_add have no gradient rule (a gather's gradient is a scatter_add)"
	}
	if why := whyNotMath(op); why != "" {
		return why
	}
	if why := whyNotConv(op); why != "" {
		return why
	}
	if why := whyNotScan(op); why != "" {
		return why
	}
	return "the op has no gradient rule"
}

func one[T dtype.Float]() expr.Expr[T] { return expr.Scalar(T(1)) }

func zero[T dtype.Float]() expr.Expr[T] { return expr.Scalar(T(0)) }

func grads(gs ...expr.Any) []expr.Any { return gs }

// scale returns g*x, or x itself when g is a constant 1 of x's shape (the
// seed of a scalar output, broadcast by a reduction): one op less per
// element in the fused backward kernel, and the same bits.
func scale[T dtype.Float](g, x expr.Expr[T]) expr.Expr[T] {
	if isOne(g.Node()) && g.Shape().Equal(x.Shape()) {
		return x
	}
	return g.Mul(x)
}

// isOne reports whether n is the constant 1, possibly reshaped or expanded.
func isOne(n *expr.Node) bool {
	for n.Op() == expr.OpExpand || n.Op() == expr.OpReshape {
		n = n.Args()[0]
	}
	if n.Op() != expr.OpScalar {
		return false
	}
	switch t := n.Tensor().(type) {
	case *tensor.Tensor[float32]:
		v, err := t.Item()
		return err == nil && v == 1
	case *tensor.Tensor[float64]:
		v, err := t.Item()
		return err == nil && v == 1
	}
	return false
}

// unary makes the rule of an elementwise one-operand op from its local
// derivative: f(n, x, y, g) with x the operand and y the result.
func unary[T dtype.Float](f func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T]) vjp[T] {
	return func(n *expr.Node, g expr.Expr[T]) []expr.Any {
		return grads(f(n, expr.Wrap[T](n.Args()[0]), expr.Wrap[T](n), g))
	}
}

// zeroGrad is the rule of piecewise-constant ops (floor, ceil, round, sign):
// zeros, which do not depend on g (so NaN and Inf upstream stay out).
func zeroGrad[T dtype.Float](n *expr.Node, g expr.Expr[T]) []expr.Any {
	return grads(zero[T]().Expand(n.Shape()...))
}

// castGrad casts the gradient back to the operand's float type.
func castGrad[T dtype.Float](n *expr.Node, g expr.Expr[T]) []expr.Any {
	switch n.Args()[0].DType() {
	case dtype.Float32:
		return grads(expr.Cast[float32](g))
	case dtype.Float64:
		return grads(expr.Cast[float64](g))
	}
	return grads(nil) // integer and bool operands take no gradient
}

// binary makes the rule of a broadcasting two-operand op: f gives the
// gradients at the result's shape, which are then summed back to each
// operand's shape (PyTorch's sum_to_size).
func binary[T dtype.Float](f func(a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T])) vjp[T] {
	return func(n *expr.Node, g expr.Expr[T]) []expr.Any {
		args := n.Args()
		ga, gb := f(expr.Wrap[T](args[0]), expr.Wrap[T](args[1]), expr.Wrap[T](n), g)
		return grads(sumTo(ga, args[0]), sumTo(gb, args[1]))
	}
}

// sumTo reduces a gradient to operand a's shape: the leading axes a lacks
// and the axes where a has 1 are summed, with the deterministic reduction.
func sumTo[T dtype.Float](g expr.Expr[T], a *expr.Node) expr.Expr[T] {
	if g.Shape().Equal(a.Shape()) {
		return g
	}
	return g.SumTo(a.Shape()...)
}

// powGrad is PyTorch's: d/da a**b = b*a**(b-1), 0 where b == 0;
// d/db a**b = a**b*log(a), 0 where a == 0 and b >= 0.
func powGrad[T dtype.Float](a, b, y, g expr.Expr[T]) (ga, gb expr.Expr[T]) {
	ga = expr.Where(b.Eq(zero[T]()), zero[T](), scale(g, b.Mul(a.Pow(b.SubScalar(1)))))
	cond := a.Eq(zero[T]()).And(b.Ge(zero[T]()))
	gb = scale(g, expr.Where(cond, zero[T](), y.Mul(a.Log())))
	return ga, gb
}

// pick is the gradient of maximum(a, b) (or minimum(b, a)) for a, with
// PyTorch's tie rule: g where a wins, g/2 where a == b, 0 where it loses.
func pick[T dtype.Float](a, b, g expr.Expr[T]) expr.Expr[T] {
	return expr.Where(a.Lt(b), zero[T](), expr.Where(a.Eq(b), g.DivScalar(2), g))
}

// whereGrad sends g to the branch each element came from; the condition
// takes no gradient.
func whereGrad[T dtype.Float](n *expr.Node, g expr.Expr[T]) []expr.Any {
	args := n.Args()
	c := expr.Wrap[bool](args[0])
	return grads(nil,
		sumTo(expr.Where(c, g, zero[T]()), args[1]),
		sumTo(expr.Where(c, zero[T](), g), args[2]))
}

// inverse returns the inverse permutation.
func inverse(perm []int) []int {
	inv := make([]int, len(perm))
	for i, p := range perm {
		inv[p] = i
	}
	return inv
}

// reduction makes the rule of a reduction: f gets the operand x, and the
// result y and its gradient g with the reduced axes kept (extent 1), and
// returns the gradient in a shape that broadcasts to x's; it is then
// expanded to x's shape.
func reduction[T dtype.Float](f func(n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T]) vjp[T] {
	return func(n *expr.Node, g expr.Expr[T]) []expr.Any {
		x := expr.Wrap[T](n.Args()[0])
		gx := f(n, x, keepDims(n, expr.Wrap[T](n)), keepDims(n, g))
		if !gx.Shape().Equal(x.Shape()) {
			gx = gx.Expand(x.Shape()...)
		}
		return grads(gx)
	}
}

// keepDims reshapes a reduction's result (or gradient) to the shape with
// the reduced axes kept as 1. A 0-d value broadcasts as it is.
func keepDims[T dtype.Float](n *expr.Node, v expr.Expr[T]) expr.Expr[T] {
	if n.KeepDim() || len(v.Shape()) == 0 {
		return v
	}
	shape := slices.Clone(n.Args()[0].Shape())
	for _, ax := range n.Axes() {
		shape[ax] = 1
	}
	return v.Reshape(shape...)
}

// reducedCount is the number of elements each result of reduction n combines.
func reducedCount(n *expr.Node) int {
	c := 1
	for _, ax := range n.Axes() {
		c *= n.Args()[0].Shape()[ax]
	}
	return c
}

// prodGrad is the product of the other elements, computed without dividing
// by zero as PyTorch does: y/x when the slice has no zero; where it has
// exactly one, the zero's position gets the product of the rest and the
// others 0; with more, everything is 0.
func prodGrad[T dtype.Float](n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
	axes := n.Axes()
	isZero := x.Eq(zero[T]())
	zeros := expr.Where(isZero, one[T](), zero[T]()).SumKeepDims(axes...)
	rest := expr.Where(isZero, one[T](), x).ProdKeepDims(axes...)
	oneZero := expr.Where(zeros.Eq(one[T]()).And(isZero), rest, zero[T]())
	return scale(g, expr.Where(zeros.Eq(zero[T]()), y.Div(x), oneZero))
}

// extremumGrad splits g evenly among the elements equal to the max (min),
// PyTorch's rule for amax/amin.
func extremumGrad[T dtype.Float](n *expr.Node, x, y, g expr.Expr[T]) expr.Expr[T] {
	hit := x.Eq(y)
	count := expr.Where(hit, one[T](), zero[T]()).SumKeepDims(n.Axes()...)
	return expr.Where(hit, g.Div(count), zero[T]())
}

// matmulGrad treats 1-D operands as a row (a) or a column (b), so that
// every case is a batched matrix product C = A @ B with broadcasting batch
// axes: dA = dC @ Bᵀ and dB = Aᵀ @ dC, each summed back to its operand's
// batch shape and reshaped to the operand's shape.
func matmulGrad[T dtype.Float](n *expr.Node, g expr.Expr[T]) []expr.Any {
	args := n.Args()
	a, b := expr.Wrap[T](args[0]), expr.Wrap[T](args[1])
	as, bs := a.Shape(), b.Shape()
	gs := slices.Clone(n.Shape())
	if len(as) == 1 {
		a = a.Reshape(1, as[0])
		gs = slices.Insert(gs, len(gs)-min(len(bs), 2)+1, 1)
	}
	if len(bs) == 1 {
		b = b.Reshape(bs[0], 1)
		gs = append(gs, 1)
	}
	g = g.Reshape(gs...)
	ga := g.MatMul(b.Transpose(-1, -2))
	gb := a.Transpose(-1, -2).MatMul(g)
	return grads(sumTo(ga, a.Node()).Reshape(as...), sumTo(gb, b.Node()).Reshape(bs...))
}

// externalGrad runs an external op's own rule (see expr.External); enterable
// has refused an external op without one.
func externalGrad[T dtype.Float](n *expr.Node, g expr.Expr[T]) []expr.Any {
	gs := n.External().VJP(n, g.Node())
	out := make([]expr.Any, len(n.Args()))
	for i := range out {
		if i < len(gs) && gs[i] != nil {
			out[i] = expr.Wrap[T](gs[i])
		}
	}
	return out
}
