package expr

import (
	"math"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Composites of NumPy's elementwise vocabulary: each is a few ops of the
// table, which the executor fuses into one pass.

// Clip returns NumPy's clip, minimum(maximum(x, lo), hi): lo and hi
// broadcast with x, a NaN bound gives NaN, and lo > hi gives hi.
func (x Expr[T]) Clip(lo, hi Expr[T]) Expr[T] { return x.Maximum(lo).Minimum(hi) }

// ClipMin returns clip with only a lower bound, maximum(x, lo).
func (x Expr[T]) ClipMin(lo Expr[T]) Expr[T] { return x.Maximum(lo) }

// ClipMax returns clip with only an upper bound, minimum(x, hi).
func (x Expr[T]) ClipMax(hi Expr[T]) Expr[T] { return x.Minimum(hi) }

// truth is x != 0 (NumPy's truthiness), x itself for bools.
func truth[T dtype.Elem](x Expr[T]) Expr[bool] {
	n := x.Node()
	if n.err == nil && n.dt == dtype.Bool {
		return Wrap[bool](n)
	}
	var zero T
	return x.Ne(Scalar(zero))
}

// LogicalAnd returns NumPy's logical_and: the truth values of x and y
// (non-zero is true, NaN too), and-ed.
func LogicalAnd[T dtype.Elem](x, y Expr[T]) Expr[bool] { return truth(x).And(truth(y)) }

// LogicalOr returns NumPy's logical_or of the truth values of x and y.
func LogicalOr[T dtype.Elem](x, y Expr[T]) Expr[bool] { return truth(x).Or(truth(y)) }

// LogicalXor returns NumPy's logical_xor of the truth values of x and y.
func LogicalXor[T dtype.Elem](x, y Expr[T]) Expr[bool] { return truth(x).Xor(truth(y)) }

// IsClose returns NumPy's isclose: |a-b| <= atol + rtol*|b| where both are
// finite (asymmetric: b is the reference), a == b where either is not, and,
// with equalNaN, true where both are NaN. Floats compute in T, complex
// numbers with the modulus, integers in float64 (as NumPy does). NumPy's
// defaults are rtol 1e-5, atol 1e-8, equalNaN false.
func IsClose[T dtype.Numeric](a, b Expr[T], rtol, atol float64, equalNaN bool) Expr[bool] {
	return Wrap[bool](isClose(a.Node(), b.Node(), rtol, atol, equalNaN))
}

func isClose(a, b *Node, rtol, atol float64, equalNaN bool) *Node {
	if a.err != nil || b.err != nil || a.dt != b.dt {
		return binary(OpSub, a, b) // the operands' error (or their dtype mismatch)
	}
	if a.dt.IsInteger() {
		a, b = cast(a, dtype.Float64), cast(b, dtype.Float64)
	}
	abs := func(n *Node) *Node {
		if n.dt.IsComplex() {
			return unary(OpCAbs, n)
		}
		return unary(OpAbs, n)
	}
	rd := realOf(a.dt)
	bound := binary(OpAdd, scalarNode(rd, complex(atol, 0)), binary(OpMul, scalarNode(rd, complex(rtol, 0)), abs(b)))
	within := binary(OpLe, abs(binary(OpSub, a, b)), bound)
	finite := binary(OpAnd, unary(OpIsFinite, a), unary(OpIsFinite, b))
	r := where(finite, within, binary(OpEq, a, b))
	if equalNaN {
		r = binary(OpOr, r, binary(OpAnd, unary(OpIsNaN, a), unary(OpIsNaN, b)))
	}
	return r
}

// NanToNum returns NumPy's nan_to_num with posinf and neginf left at
// their defaults: NaN becomes nan, +Inf the dtype's largest finite value,
// -Inf its lowest. Complex values are replaced in each part; integers and
// bools are returned unchanged.
func NanToNum[T dtype.Elem](x Expr[T], nan float64) Expr[T] {
	return Expr[T]{nanToNum(x.Node(), nan, 0, 0, true)}
}

// NanToNumInf is NanToNum with the replacements of +Inf and -Inf given;
// they are converted to the dtype first, so 1e39 is +Inf in float32.
func NanToNumInf[T dtype.Elem](x Expr[T], nan, posinf, neginf float64) Expr[T] {
	return Expr[T]{nanToNum(x.Node(), nan, posinf, neginf, false)}
}

func nanToNum(n *Node, nan, pos, neg float64, defaults bool) *Node {
	if n.err != nil {
		return n
	}
	switch n.dt.Kind() {
	case dtype.KindFloat:
		if defaults {
			pos = math.MaxFloat64
			if n.dt == dtype.Float32 {
				pos = math.MaxFloat32
			}
			neg = -pos
		}
		s := func(v float64) *Node { return scalarNode(n.dt, complex(v, 0)) }
		r := where(binary(OpEq, n, s(math.Inf(-1))), s(neg), n)
		r = where(binary(OpEq, n, s(math.Inf(1))), s(pos), r)
		return where(unary(OpIsNaN, n), s(nan), r)
	case dtype.KindComplex:
		re := nanToNum(unary(OpReal, n), nan, pos, neg, defaults)
		im := nanToNum(unary(OpImag, n), nan, pos, neg, defaults)
		// re + im·i: (im+0i)(0+1i) is exactly 0 + im·i for finite im.
		return binary(OpAdd, cast(re, n.dt), binary(OpMul, cast(im, n.dt), scalarNode(n.dt, 1i)))
	}
	return n
}

// scalarNode is a constant of dtype d holding v (its real part for real
// dtypes, v != 0 for bool), converted as Go converts.
func scalarNode(d dtype.DType, v complex128) *Node {
	r := real(v)
	switch d {
	case dtype.Bool:
		return Scalar(v != 0).Node()
	case dtype.Int8:
		return Scalar(int8(r)).Node()
	case dtype.Int16:
		return Scalar(int16(r)).Node()
	case dtype.Int32:
		return Scalar(int32(r)).Node()
	case dtype.Int64:
		return Scalar(int64(r)).Node()
	case dtype.Uint8:
		return Scalar(uint8(r)).Node()
	case dtype.Uint16:
		return Scalar(uint16(r)).Node()
	case dtype.Uint32:
		return Scalar(uint32(r)).Node()
	case dtype.Uint64:
		return Scalar(uint64(r)).Node()
	case dtype.Float32:
		return Scalar(float32(r)).Node()
	case dtype.Float64:
		return Scalar(r).Node()
	case dtype.Complex64:
		return Scalar(complex64(v)).Node()
	case dtype.Complex128:
		return Scalar(v).Node()
	}
	return errNode(OpScalar, &tensor.ArgError{Op: "expr.scalarNode", Reason: "invalid dtype " + d.String()})
}
