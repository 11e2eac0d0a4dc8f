package exec

//go:generate go run ./internal/kernelgen

import (
	"math"
	"math/cmplx"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// inexact is a floating or complex element type: one with true division.
type inexact interface {
	dtype.Float | dtype.Complex
}

// pairFns are the three loop variants of one binary op from T to U: both
// operands vectors, the second a scalar, the first a scalar.
type pairFns[T, U any] struct {
	vv func(d []U, a, b []T)
	vs func(d []U, a []T, s T)
	sv func(d []U, s T, b []T)
}

// binFns are the variants of an op whose result has its operands' type.
type binFns[T any] = pairFns[T, T]

// cmpFns are the variants of an op with a bool result.
type cmpFns[T any] = pairFns[T, bool]

// maxNaN is NumPy's maximum: NaN in either operand gives NaN.
func maxNaN[T dtype.Real](x, y T) T {
	if x > y || x != x {
		return x
	}
	return y
}

// minNaN is NumPy's minimum: NaN in either operand gives NaN.
func minNaN[T dtype.Real](x, y T) T {
	if x < y || x != x {
		return x
	}
	return y
}

func reluNaN[T dtype.Real](x T) T {
	if x > 0 || x != x {
		return x
	}
	return 0
}

// signNaN is NumPy's sign: -1, 0 (+0 also for -0) or 1, NaN for NaN.
func signNaN[T dtype.Real](x T) T {
	switch {
	case x > 0:
		return 1
	case x < 0:
		one := T(1)
		return -one
	case x == 0:
		return 0
	}
	return x // NaN
}

func absInt[T dtype.Integer](x T) T {
	if x < 0 {
		return -x
	}
	return x
}

// divTruncInt divides rounding toward zero; division by zero gives 0 (NumPy).
func divTruncInt[T dtype.Integer](x, y T) T {
	if y == 0 {
		return 0
	}
	return x / y
}

// divFloorInt divides rounding toward negative infinity; by zero gives 0.
func divFloorInt[T dtype.Integer](x, y T) T {
	if y == 0 {
		return 0
	}
	q := x / y
	if (x%y != 0) && ((x < 0) != (y < 0)) {
		q--
	}
	return q
}

// divFloorFloat is Python's and NumPy's float floor division (npy_divmod),
// which PyTorch's rounding_mode="floor" follows: computed from fmod so that
// 1 // 0.1 is 9, not floor(1/0.1) = 10. Every step rounds to T, as NumPy's
// float32 loop (npy_divmodf) does: computed in float64, a float32 quotient
// of 2^23 or more could differ by one unit in the last place.
func divFloorFloat[T dtype.Float](x, y T) T {
	if y == 0 {
		return x / y
	}
	mod := T(math.Mod(float64(x), float64(y))) // exact in T
	div := (x - mod) / y
	if mod != 0 && (y < 0) != (mod < 0) {
		div--
	}
	if div == 0 {
		return T(math.Copysign(0, float64(x/y)))
	}
	fl := T(math.Floor(float64(div)))
	if div-fl > 0.5 {
		fl++
	}
	return fl
}

// signedPow is the integer pow of the signed types, which refuses a
// negative exponent as NumPy does ("Integers to negative integer powers
// are not allowed."): before computing a block it checks the block's
// exponents, and a negative one stops the run (see fail) with an
// *expr.IntegerPowerError, the error expr gives a negative scalar
// exponent when the graph is built. The planner has every destination of
// such a graph written by a copy after all the kernels (see
// planner.mayFail), so nothing is written. It answers for OpPow ahead of
// integerBinary; unsigned exponents cannot be negative.
func signedPow[T dtype.Integer](op expr.Op) (binFns[T], bool) {
	if op != expr.OpPow || dtype.Of[T]().Kind() != dtype.KindSigned {
		return binFns[T]{}, false
	}
	return binFns[T]{
		vv: func(d, a, b []T) {
			refuseNegative(b[:len(d)])
			binPowIntVV(d, a, b)
		},
		vs: func(d, a []T, y T) {
			if y < 0 {
				fail(&expr.IntegerPowerError{DType: dtype.Of[T]()})
			}
			binPowIntVS(d, a, y)
		},
		sv: func(d []T, x T, b []T) {
			refuseNegative(b[:len(d)])
			binPowIntSV(d, x, b)
		},
	}, true
}

// refuseNegative stops the run if an exponent in b is negative (see
// signedPow).
func refuseNegative[T dtype.Integer](b []T) {
	for _, y := range b {
		if y < 0 {
			fail(&expr.IntegerPowerError{DType: dtype.Of[T]()})
		}
	}
}

// powInt is exponentiation by squaring, wrapping like Go's integer
// arithmetic. The executor never gives it a negative exponent (see
// signedPow); one truncates: 1 for x == 1, ±1 for x == -1, otherwise 0.
func powInt[T dtype.Integer](x, y T) T {
	if y < 0 {
		one := T(1)
		switch {
		case x == 1:
			return 1
		case x == -one:
			if y%2 == 0 {
				return 1
			}
			return x
		}
		return 0
	}
	r := T(1)
	for y > 0 {
		if y&1 == 1 {
			r *= x
		}
		x *= x
		y >>= 1
	}
	return r
}

func powComplex[T dtype.Complex](x, y T) T {
	return T(cmplx.Pow(complex128(x), complex128(y)))
}
