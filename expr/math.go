package expr

// NumPy's elementwise unary math (issue 22). Each is one op of the table,
// fused by the executor like the others. Float functions accept float
// (and, where noted, complex) T only: NumPy computes them on integers in a
// float type, which is Cast[F] first with F = dtype.FloatFor(T)'s type.

// Arcsin returns the inverse sine (NaN outside [-1, 1]).
func (x Expr[T]) Arcsin() Expr[T] { return Expr[T]{unary(OpArcsin, x.Node())} }

// Arccos returns the inverse cosine (NaN outside [-1, 1]).
func (x Expr[T]) Arccos() Expr[T] { return Expr[T]{unary(OpArccos, x.Node())} }

// Arctan returns the inverse tangent.
func (x Expr[T]) Arctan() Expr[T] { return Expr[T]{unary(OpArctan, x.Node())} }

// Sinh returns the hyperbolic sine.
func (x Expr[T]) Sinh() Expr[T] { return Expr[T]{unary(OpSinh, x.Node())} }

// Cosh returns the hyperbolic cosine.
func (x Expr[T]) Cosh() Expr[T] { return Expr[T]{unary(OpCosh, x.Node())} }

// Arcsinh returns the inverse hyperbolic sine.
func (x Expr[T]) Arcsinh() Expr[T] { return Expr[T]{unary(OpArcsinh, x.Node())} }

// Arccosh returns the inverse hyperbolic cosine (NaN below 1).
func (x Expr[T]) Arccosh() Expr[T] { return Expr[T]{unary(OpArccosh, x.Node())} }

// Arctanh returns the inverse hyperbolic tangent (±Inf at ±1, NaN beyond).
func (x Expr[T]) Arctanh() Expr[T] { return Expr[T]{unary(OpArctanh, x.Node())} }

// Log2 returns the base-2 logarithm.
func (x Expr[T]) Log2() Expr[T] { return Expr[T]{unary(OpLog2, x.Node())} }

// Log10 returns the base-10 logarithm.
func (x Expr[T]) Log10() Expr[T] { return Expr[T]{unary(OpLog10, x.Node())} }

// Exp2 returns 2**x.
func (x Expr[T]) Exp2() Expr[T] { return Expr[T]{unary(OpExp2, x.Node())} }

// Trunc rounds toward zero, keeping the sign of a zero (the identity on
// integers; NumPy's trunc of an integer is the float64 Cast[float64](x)).
func (x Expr[T]) Trunc() Expr[T] { return Expr[T]{unary(OpTrunc, x.Node())} }

// Rint rounds to the nearest integer, half to even: NumPy's rint, the same
// op as Round.
func (x Expr[T]) Rint() Expr[T] { return x.Round() }

// Reciprocal returns 1/x; for integers, NumPy's truncating 1/x (0 for 0).
func (x Expr[T]) Reciprocal() Expr[T] { return Expr[T]{unary(OpReciprocal, x.Node())} }

// Rsqrt returns 1/sqrt(x) (PyTorch's rsqrt): +Inf at +0, -Inf at -0.
func (x Expr[T]) Rsqrt() Expr[T] { return Expr[T]{unary(OpRsqrt, x.Node())} }

// Erf returns the error function.
func (x Expr[T]) Erf() Expr[T] { return Expr[T]{unary(OpErf, x.Node())} }

// Erfc returns the complementary error function 1 - erf(x), accurate for
// large x.
func (x Expr[T]) Erfc() Expr[T] { return Expr[T]{unary(OpErfc, x.Node())} }

// Lgamma returns log|Γ(x)| (+Inf at the poles).
func (x Expr[T]) Lgamma() Expr[T] { return Expr[T]{unary(OpLgamma, x.Node())} }

// Digamma returns ψ(x), the derivative of lgamma: -Inf at +0, +Inf at -0,
// NaN at the negative integers (PyTorch's digamma).
func (x Expr[T]) Digamma() Expr[T] { return Expr[T]{unary(OpDigamma, x.Node())} }

// Gelu returns x·Φ(x), the exact GELU (NaN at -Inf, as PyTorch gives).
func (x Expr[T]) Gelu() Expr[T] { return Expr[T]{unary(OpGelu, x.Node())} }

// GeluTanh returns PyTorch's tanh approximation of GELU,
// 0.5x(1+tanh(sqrt(2/π)(x+0.044715x³))).
func (x Expr[T]) GeluTanh() Expr[T] { return Expr[T]{unary(OpGeluTanh, x.Node())} }

// Silu returns x·sigmoid(x) (NaN at -Inf, as PyTorch gives).
func (x Expr[T]) Silu() Expr[T] { return Expr[T]{unary(OpSilu, x.Node())} }

// Softplus returns log(1+e**x), and x itself above 20 (PyTorch's softplus
// with beta 1 and threshold 20).
func (x Expr[T]) Softplus() Expr[T] { return Expr[T]{unary(OpSoftplus, x.Node())} }

// BitNot returns ^x for integers (NumPy's bitwise_not, invert) and the
// logical not for bools.
func (x Expr[T]) BitNot() Expr[T] { return Expr[T]{unary(OpBitNot, x.Node())} }

// IsNaN reports NaN elementwise; a complex value is NaN if either part is,
// an integer or bool never is.
func (x Expr[T]) IsNaN() Expr[bool] { return Expr[bool]{unary(OpIsNaN, x.Node())} }

// IsInf reports ±Inf elementwise; a complex value is infinite if either
// part is.
func (x Expr[T]) IsInf() Expr[bool] { return Expr[bool]{unary(OpIsInf, x.Node())} }

// IsFinite reports neither NaN nor infinite elementwise (always true for
// integers and bools).
func (x Expr[T]) IsFinite() Expr[bool] { return Expr[bool]{unary(OpIsFinite, x.Node())} }

// Signbit reports a set sign bit: true for negative numbers, -0 and
// negative NaNs.
func (x Expr[T]) Signbit() Expr[bool] { return Expr[bool]{unary(OpSignbit, x.Node())} }

// LogicalNot returns x == 0 for any T (NumPy's truthiness: NaN is true, -0
// is false).
func (x Expr[T]) LogicalNot() Expr[bool] { return Expr[bool]{unary(OpLogicalNot, x.Node())} }
