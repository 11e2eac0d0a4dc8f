package expr

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// unary builds an elementwise one-operand node.
func unary(op Op, a *Node) *Node {
	n, ok := newNode(op, a)
	if !ok {
		return n
	}
	if err := checkAccepts(op, a.dt); err != nil {
		n.err = err
		return n
	}
	if op.IsIdentityFor(a.dt) {
		return a
	}
	n.dt = resultDType(op, a.dt)
	if d := a.sym(); d != nil {
		setDims(n, d)
		return n
	}
	setShape(n, a.shape)
	return n
}

// binary builds an elementwise two-operand node: the shapes broadcast (or
// the node carries the *tensor.BroadcastError), subject to the compat rules.
func binary(op Op, a, b *Node) *Node {
	n, ok := newNode(op, a, b)
	if !ok {
		return n
	}
	if err := checkAccepts(op, a.dt); err != nil {
		n.err = err
		return n
	}
	if symbolic(a, b) {
		return symBroadcast(n, resultDType(op, a.dt), a, b)
	}
	if op == OpPow && a.dt.IsInteger() && negativeScalar(b) {
		n.err = &IntegerPowerError{DType: a.dt}
		return n
	}
	shape, b2, warn, err := broadcastOperands(a, b)
	if err != nil {
		n.err = err
		return n
	}
	n.args[1] = b2
	n.dt = resultDType(op, a.dt)
	setShape(n, shape)
	if n.err == nil && warn != "" {
		warnBuilt(warn) // the node is built: every check passed
	}
	return n
}

// negativeScalar reports whether n is a scalar leaf of a signed integer type
// holding a negative value.
func negativeScalar(n *Node) bool {
	if n.op != OpScalar {
		return false
	}
	switch t := n.leaf.(type) {
	case *tensor.Tensor[int8]:
		return negativeItem(t)
	case *tensor.Tensor[int16]:
		return negativeItem(t)
	case *tensor.Tensor[int32]:
		return negativeItem(t)
	case *tensor.Tensor[int64]:
		return negativeItem(t)
	}
	return false
}

func negativeItem[T int8 | int16 | int32 | int64](t *tensor.Tensor[T]) bool {
	v, err := t.Item()
	return err == nil && v < 0
}

// Elementwise binary ops. The operands broadcast (NumPy's rules); an
// incompatible pair makes the result carry a *tensor.BroadcastError.

// Add returns x + y.
func (x Expr[T]) Add(y Expr[T]) Expr[T] { return Expr[T]{binary(OpAdd, x.Node(), y.Node())} }

// Sub returns x - y.
func (x Expr[T]) Sub(y Expr[T]) Expr[T] { return Expr[T]{binary(OpSub, x.Node(), y.Node())} }

// Mul returns x * y.
func (x Expr[T]) Mul(y Expr[T]) Expr[T] { return Expr[T]{binary(OpMul, x.Node(), y.Node())} }

// Div returns x / y, true division, for floating and complex T. For
// integers use DivTrunc or DivFloor, or TrueDiv for a float result.
func (x Expr[T]) Div(y Expr[T]) Expr[T] { return Expr[T]{binary(OpDiv, x.Node(), y.Node())} }

// DivTrunc returns x / y rounded toward zero (torch.div rounding_mode="trunc").
// Integer division by zero gives 0, as NumPy does.
func (x Expr[T]) DivTrunc(y Expr[T]) Expr[T] {
	return Expr[T]{binary(OpDivTrunc, x.Node(), y.Node())}
}

// DivFloor returns x / y rounded toward negative infinity (NumPy's //,
// torch.div rounding_mode="floor"). Integer division by zero gives 0.
func (x Expr[T]) DivFloor(y Expr[T]) Expr[T] {
	return Expr[T]{binary(OpDivFloor, x.Node(), y.Node())}
}

// Pow returns x ** y. Integers to negative integer powers are not allowed,
// as in NumPy: a negative scalar exponent (PowScalar(-1), Pow(Scalar(-1)))
// makes the node carry an *IntegerPowerError when it is built; a tensor
// exponent is checked when the graph is evaluated.
func (x Expr[T]) Pow(y Expr[T]) Expr[T] { return Expr[T]{binary(OpPow, x.Node(), y.Node())} }

// Maximum returns the elementwise maximum; NaN in either operand gives NaN.
func (x Expr[T]) Maximum(y Expr[T]) Expr[T] { return Expr[T]{binary(OpMaximum, x.Node(), y.Node())} }

// Minimum returns the elementwise minimum; NaN in either operand gives NaN.
func (x Expr[T]) Minimum(y Expr[T]) Expr[T] { return Expr[T]{binary(OpMinimum, x.Node(), y.Node())} }

// And returns the logical and of two bool expressions.
func (x Expr[T]) And(y Expr[T]) Expr[T] { return Expr[T]{binary(OpAnd, x.Node(), y.Node())} }

// Or returns the logical or of two bool expressions.
func (x Expr[T]) Or(y Expr[T]) Expr[T] { return Expr[T]{binary(OpOr, x.Node(), y.Node())} }

// Eq returns x == y elementwise.
func (x Expr[T]) Eq(y Expr[T]) Expr[bool] { return Expr[bool]{binary(OpEq, x.Node(), y.Node())} }

// Ne returns x != y elementwise.
func (x Expr[T]) Ne(y Expr[T]) Expr[bool] { return Expr[bool]{binary(OpNe, x.Node(), y.Node())} }

// Lt returns x < y elementwise.
func (x Expr[T]) Lt(y Expr[T]) Expr[bool] { return Expr[bool]{binary(OpLt, x.Node(), y.Node())} }

// Le returns x <= y elementwise.
func (x Expr[T]) Le(y Expr[T]) Expr[bool] { return Expr[bool]{binary(OpLe, x.Node(), y.Node())} }

// Gt returns x > y elementwise.
func (x Expr[T]) Gt(y Expr[T]) Expr[bool] { return Expr[bool]{binary(OpGt, x.Node(), y.Node())} }

// Ge returns x >= y elementwise.
func (x Expr[T]) Ge(y Expr[T]) Expr[bool] { return Expr[bool]{binary(OpGe, x.Node(), y.Node())} }

// AddScalar returns x + s.
func (x Expr[T]) AddScalar(s T) Expr[T] { return x.Add(Scalar(s)) }

// SubScalar returns x - s.
func (x Expr[T]) SubScalar(s T) Expr[T] { return x.Sub(Scalar(s)) }

// MulScalar returns x * s.
func (x Expr[T]) MulScalar(s T) Expr[T] { return x.Mul(Scalar(s)) }

// DivScalar returns x / s (true division; see Div).
func (x Expr[T]) DivScalar(s T) Expr[T] { return x.Div(Scalar(s)) }

// PowScalar returns x ** s; for integer T, s must not be negative (see Pow).
func (x Expr[T]) PowScalar(s T) Expr[T] { return x.Pow(Scalar(s)) }

// Where returns a where cond is true and b elsewhere. The three broadcast,
// and their broadcast is held to the restricted-rank rule for a's dtype:
// the merged rank of cond, a and b together (see compat).
func Where[T dtype.Elem](cond Expr[bool], a, b Expr[T]) Expr[T] {
	return Expr[T]{where(cond.Node(), a.Node(), b.Node())}
}

func where(c, an, bn *Node) *Node {
	n, ok := newNode(OpWhere, c, an, bn)
	if !ok {
		return n
	}
	if symbolic(c, an, bn) {
		return symBroadcast(n, an.dt, c, an, bn)
	}
	shape, err := tensor.BroadcastShapes(c.shape, an.shape, bn.shape)
	if err == nil {
		err = checkRestrictedRank(an.dt, c.shape, an.shape, bn.shape)
	}
	if err != nil {
		n.err = err
		return n
	}
	n.dt = an.dt
	setShape(n, shape)
	return n
}

// Elementwise unary ops.

// Neg returns -x (wrapping for unsigned integers).
func (x Expr[T]) Neg() Expr[T] { return Expr[T]{unary(OpNeg, x.Node())} }

// Abs returns |x| for integer and float T; see CAbs for complex.
func (x Expr[T]) Abs() Expr[T] { return Expr[T]{unary(OpAbs, x.Node())} }

// Exp returns e**x.
func (x Expr[T]) Exp() Expr[T] { return Expr[T]{unary(OpExp, x.Node())} }

// Log returns the natural logarithm.
func (x Expr[T]) Log() Expr[T] { return Expr[T]{unary(OpLog, x.Node())} }

// Log1p returns log(1+x), accurate near 0.
func (x Expr[T]) Log1p() Expr[T] { return Expr[T]{unary(OpLog1p, x.Node())} }

// Expm1 returns e**x - 1, accurate near 0.
func (x Expr[T]) Expm1() Expr[T] { return Expr[T]{unary(OpExpm1, x.Node())} }

// Sqrt returns the square root (NaN for negative floats).
func (x Expr[T]) Sqrt() Expr[T] { return Expr[T]{unary(OpSqrt, x.Node())} }

// Square returns x*x.
func (x Expr[T]) Square() Expr[T] { return Expr[T]{unary(OpSquare, x.Node())} }

// Sin returns the sine.
func (x Expr[T]) Sin() Expr[T] { return Expr[T]{unary(OpSin, x.Node())} }

// Cos returns the cosine.
func (x Expr[T]) Cos() Expr[T] { return Expr[T]{unary(OpCos, x.Node())} }

// Tan returns the tangent.
func (x Expr[T]) Tan() Expr[T] { return Expr[T]{unary(OpTan, x.Node())} }

// Tanh returns the hyperbolic tangent.
func (x Expr[T]) Tanh() Expr[T] { return Expr[T]{unary(OpTanh, x.Node())} }

// Sigmoid returns 1/(1+e**-x).
func (x Expr[T]) Sigmoid() Expr[T] { return Expr[T]{unary(OpSigmoid, x.Node())} }

// Relu returns max(x, 0) (NaN stays NaN).
func (x Expr[T]) Relu() Expr[T] { return Expr[T]{unary(OpRelu, x.Node())} }

// Floor rounds toward negative infinity (the identity on integers).
func (x Expr[T]) Floor() Expr[T] { return Expr[T]{unary(OpFloor, x.Node())} }

// Ceil rounds toward positive infinity (the identity on integers).
func (x Expr[T]) Ceil() Expr[T] { return Expr[T]{unary(OpCeil, x.Node())} }

// Round rounds half to even, as NumPy does (the identity on integers).
func (x Expr[T]) Round() Expr[T] { return Expr[T]{unary(OpRound, x.Node())} }

// Sign returns -1, 0 or 1 (NaN for NaN); for complex x, NumPy 1.24's sign(re),
// or sign(im) where re is 0, plus 0j.
func (x Expr[T]) Sign() Expr[T] { return Expr[T]{unary(OpSign, x.Node())} }

// Conj returns the complex conjugate (the identity on real T).
func (x Expr[T]) Conj() Expr[T] { return Expr[T]{unary(OpConj, x.Node())} }

// Not returns the logical negation of a bool expression.
func (x Expr[T]) Not() Expr[T] { return Expr[T]{unary(OpNot, x.Node())} }

// Real returns the real part of a complex expression; F is its component
// type (float32 for complex64, float64 for complex128).
func Real[F dtype.Float, C dtype.Complex](x Expr[C]) Expr[F] {
	return Wrap[F](unary(OpReal, x.Node()))
}

// Imag returns the imaginary part of a complex expression.
func Imag[F dtype.Float, C dtype.Complex](x Expr[C]) Expr[F] {
	return Wrap[F](unary(OpImag, x.Node()))
}

// CAbs returns the modulus |z| of a complex expression.
func CAbs[F dtype.Float, C dtype.Complex](x Expr[C]) Expr[F] {
	return Wrap[F](unary(OpCAbs, x.Node()))
}

// Cast converts x to element type U, as NumPy's astype does: floats to
// integers truncate toward zero, complex to real takes the real part, any
// non-zero value becomes true.
func Cast[U, T dtype.Elem](x Expr[T]) Expr[U] {
	return Expr[U]{cast(x.Node(), dtype.Of[U]())}
}

func cast(a *Node, to dtype.DType) *Node {
	if a != nil && a.err == nil && a.dt == to {
		return a
	}
	n, ok := newNode(OpCast, a)
	if !ok {
		return n
	}
	n.dt = to
	if d := a.sym(); d != nil {
		setDims(n, d)
		return n
	}
	setShape(n, a.shape)
	return n
}

// TrueDiv returns x / y computed in the floating type F, NumPy's / on
// integers (torch.div gives float32 for integer tensors: TrueDiv[float32]).
func TrueDiv[F dtype.Float, T dtype.Elem](x, y Expr[T]) Expr[F] {
	return Cast[F](x).Div(Cast[F](y))
}
