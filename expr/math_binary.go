package expr

// NumPy's elementwise binary math (issue 22). The operands broadcast.

// Mod returns NumPy's remainder (mod, Python's %): the result takes the
// divisor's sign, a zero result is +0 for a positive divisor and -0 for a
// negative one; integer x % 0 gives 0, float gives NaN.
func (x Expr[T]) Mod(y Expr[T]) Expr[T] { return Expr[T]{binary(OpMod, x.Node(), y.Node())} }

// Fmod returns C's remainder: the result takes the dividend's sign;
// integer fmod by 0 gives 0, float gives NaN.
func (x Expr[T]) Fmod(y Expr[T]) Expr[T] { return Expr[T]{binary(OpFmod, x.Node(), y.Node())} }

// Arctan2 returns the angle of the point (y, x) = (the receiver, the
// operand), with C's special values.
func (x Expr[T]) Arctan2(y Expr[T]) Expr[T] { return Expr[T]{binary(OpArctan2, x.Node(), y.Node())} }

// Hypot returns sqrt(x²+y²) without overflow (+Inf if either is infinite,
// even with a NaN).
func (x Expr[T]) Hypot(y Expr[T]) Expr[T] { return Expr[T]{binary(OpHypot, x.Node(), y.Node())} }

// Copysign returns |x| with y's sign bit.
func (x Expr[T]) Copysign(y Expr[T]) Expr[T] { return Expr[T]{binary(OpCopysign, x.Node(), y.Node())} }

// Fmax returns the elementwise maximum ignoring NaN: NaN only where both
// are NaN (Maximum propagates NaN).
func (x Expr[T]) Fmax(y Expr[T]) Expr[T] { return Expr[T]{binary(OpFmax, x.Node(), y.Node())} }

// Fmin returns the elementwise minimum ignoring NaN (see Fmax).
func (x Expr[T]) Fmin(y Expr[T]) Expr[T] { return Expr[T]{binary(OpFmin, x.Node(), y.Node())} }

// LogAddExp returns log(e**x + e**y) without overflow (NumPy's logaddexp).
func (x Expr[T]) LogAddExp(y Expr[T]) Expr[T] {
	return Expr[T]{binary(OpLogAddExp, x.Node(), y.Node())}
}

// LogAddExp2 returns log2(2**x + 2**y) without overflow.
func (x Expr[T]) LogAddExp2(y Expr[T]) Expr[T] {
	return Expr[T]{binary(OpLogAddExp2, x.Node(), y.Node())}
}

// Xor returns the logical exclusive or of two bool expressions.
func (x Expr[T]) Xor(y Expr[T]) Expr[T] { return Expr[T]{binary(OpXor, x.Node(), y.Node())} }

// BitAnd returns x & y for integers and bools.
func (x Expr[T]) BitAnd(y Expr[T]) Expr[T] { return Expr[T]{binary(OpBitAnd, x.Node(), y.Node())} }

// BitOr returns x | y for integers and bools.
func (x Expr[T]) BitOr(y Expr[T]) Expr[T] { return Expr[T]{binary(OpBitOr, x.Node(), y.Node())} }

// BitXor returns x ^ y for integers and bools.
func (x Expr[T]) BitXor(y Expr[T]) Expr[T] { return Expr[T]{binary(OpBitXor, x.Node(), y.Node())} }

// LeftShift returns x << y, NumPy's left_shift: a count at or beyond the
// bit width, or a negative count, gives 0.
func (x Expr[T]) LeftShift(y Expr[T]) Expr[T] { return Expr[T]{binary(OpShl, x.Node(), y.Node())} }

// RightShift returns x >> y, arithmetic for signed integers: a count at or
// beyond the bit width, or a negative count, gives 0, or -1 for negative x.
func (x Expr[T]) RightShift(y Expr[T]) Expr[T] { return Expr[T]{binary(OpShr, x.Node(), y.Node())} }
