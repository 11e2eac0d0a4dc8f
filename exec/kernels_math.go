package exec

import (
	"math"

	"github.com/tensorplay/tensorplay/dtype"
)

// The scalar helpers of the elementwise math of issue 22 (the generated
// kernels of exec/internal/kernelgen/math.go call them), each NumPy 1.24's
// definition, or PyTorch 1.13's where NumPy has none.

// reciprocalInt is NumPy's integer reciprocal, the truncating division
// 1/x; 1/0 gives 0, as every integer division by zero does here.
func reciprocalInt[T dtype.Integer](x T) T {
	if x == 0 {
		return 0
	}
	return 1 / x
}

// modInt is NumPy's integer remainder (Python's %): the divisor's sign; by
// zero gives 0.
func modInt[T dtype.Integer](x, y T) T {
	if y == 0 {
		return 0
	}
	r := x % y
	if r != 0 && (r < 0) != (y < 0) {
		r += y
	}
	return r
}

// fmodInt is C's integer remainder: the dividend's sign; by zero gives 0.
func fmodInt[T dtype.Integer](x, y T) T {
	if y == 0 {
		return 0
	}
	return x % y
}

// modFloat is NumPy's float remainder (npy_divmod): fmod, moved into the
// divisor's sign, a zero result signed like the divisor; by zero gives NaN.
// Every step rounds to T, as NumPy's float32 loop does.
func modFloat[T dtype.Float](x, y T) T {
	m := T(math.Mod(float64(x), float64(y)))
	if y == 0 {
		return m
	}
	if m != 0 {
		if (y < 0) != (m < 0) {
			m += y
		}
		return m
	}
	return T(math.Copysign(0, float64(y)))
}

// fmaxNum is NumPy's fmax: a NaN operand is ignored unless both are NaN.
func fmaxNum[T dtype.Real](x, y T) T {
	if x >= y || y != y {
		return x
	}
	return y
}

// fminNum is NumPy's fmin: a NaN operand is ignored unless both are NaN.
func fminNum[T dtype.Real](x, y T) T {
	if x <= y || y != y {
		return x
	}
	return y
}

// shl is NumPy's left shift: a count at or beyond the width, or a negative
// one, gives 0 (Go's << gives 0 for the first already).
func shl[T dtype.Integer](x, y T) T {
	if y < 0 {
		return 0
	}
	return x << y
}

// shr is NumPy's right shift, arithmetic for signed values: a count at or
// beyond the width, or a negative one, gives 0, or -1 for a negative x (Go's
// >> does so for the first already).
func shr[T dtype.Integer](x, y T) T {
	if y < 0 {
		if x < 0 {
			return ^T(0)
		}
		return 0
	}
	return x >> y
}

// logAddExp is NumPy's npy_logaddexp: log(e**x + e**y) without overflow.
func logAddExp(x, y float64) float64 {
	if x == y {
		return x + math.Ln2 // equal infinities too
	}
	d := x - y
	switch {
	case d > 0:
		return x + math.Log1p(math.Exp(-d))
	case d <= 0:
		return y + math.Log1p(math.Exp(d))
	}
	return d // NaN
}

// logAddExp2 is NumPy's npy_logaddexp2: log2(2**x + 2**y).
func logAddExp2(x, y float64) float64 {
	if x == y {
		return x + 1
	}
	d := x - y
	switch {
	case d > 0:
		return x + math.Log1p(math.Exp2(-d))/math.Ln2
	case d <= 0:
		return y + math.Log1p(math.Exp2(d))/math.Ln2
	}
	return d
}

// lgamma is log|Γ(x)|, +Inf at the poles and at -Inf (C's lgamma).
func lgamma(x float64) float64 {
	if math.IsInf(x, -1) {
		return math.Inf(1)
	}
	v, _ := math.Lgamma(x)
	return v
}

// digamma is PyTorch's calc_digamma: ψ(+0) = -Inf, ψ(-0) = +Inf, NaN at
// the negative integers, the reflection formula below 0 and the asymptotic
// series from 10 up.
func digamma(x float64) float64 {
	const psi10 = 2.25175258906672110764
	if x == 0 {
		return math.Copysign(math.Inf(1), -x)
	}
	if x < 0 {
		if x == math.Trunc(x) {
			return math.NaN()
		}
		_, r := math.Modf(x)
		return digamma(1-x) - math.Pi/math.Tan(math.Pi*r)
	}
	result := 0.0
	for x < 10 {
		result -= 1 / x
		x++
	}
	if x == 10 {
		return result + psi10
	}
	y := 0.0
	if x < 1e17 {
		z := 1 / (x * x)
		a := [...]float64{
			8.33333333333333333333e-2, -2.10927960927960927961e-2, 7.57575757575757575758e-3,
			-4.16666666666666666667e-3, 3.96825396825396825397e-3, -8.33333333333333333333e-3,
			8.33333333333333333333e-2,
		}
		p := 0.0
		for _, c := range a {
			p = p*z + c
		}
		y = z * p
	}
	return result + math.Log(x) - 0.5/x - y
}

// gelu is x·Φ(x), PyTorch's exact GELU (NaN at -Inf, as PyTorch gives).
func gelu(x float64) float64 { return x * 0.5 * (1 + math.Erf(x*(1/math.Sqrt2))) }

// geluTanh is PyTorch's GELU with approximate="tanh".
func geluTanh(x float64) float64 {
	const beta = 0.7978845608028654 // sqrt(2/pi)
	return 0.5 * x * (1 + math.Tanh(beta*(x+0.044715*x*x*x)))
}

// silu is x·σ(x) (NaN at -Inf, as PyTorch gives).
func silu(x float64) float64 { return x / (1 + math.Exp(-x)) }

// softplus is PyTorch's softplus with beta 1 and threshold 20.
func softplus(x float64) float64 {
	if x > 20 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

// signComplex is NumPy 1.24's complex sign: sign(re), or sign(im) when re
// is 0, plus 0j.
func signComplex[T dtype.Complex](x T) T {
	re, im := real(complex128(x)), imag(complex128(x))
	s := re
	switch {
	case re > 0:
		s = 1
	case re < 0:
		s = -1
	case re == 0:
		switch {
		case im > 0:
			s = 1
		case im < 0:
			s = -1
		case im == 0:
			s = 0
		default:
			s = im
		}
	}
	return T(complex(s, 0))
}

// log10Sub is math.Log10, right for subnormal x too (Go's amd64 math.Log
// gives -709.09 for 5e-324, whose log is -744.44): a subnormal is scaled
// by 2**54 into the normal range first. (log itself is vmath's kernel.)
func log10Sub(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		return math.Log10(x*0x1p54) - 54*(math.Ln2/math.Ln10)
	}
	return math.Log10(x)
}
