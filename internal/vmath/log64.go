package vmath

import "math"

// log64 is the math package's log (FreeBSD's e_log.c: log(1+f) by
// s = f/(2+f) and a polynomial in s², under 1 ulp) in its branch-free
// form, with the reduction done on the bits: with x = 2^k * m,
// m in [sqrt(1/2), sqrt(2)) and f = m-1,
// log(x) = k*ln2hi - ((f²/2 - (s*(f²/2+R) + k*ln2lo)) - f). k is read
// from the exponent bits with a bias that keeps it positive, and turned
// into a float64 by adding 2^52, so that AVX2 (which has neither a 64-bit
// arithmetic shift nor a 64-bit conversion) does the same. The AVX2 loop
// (log64AVX2) does the same operations in the same order. Zero, negative,
// subnormal and non-finite x take math.Log.
const (
	log64Ln2Hi = 6.93147180369123816490e-01
	log64Ln2Lo = 1.90821492927058770002e-10
	log64L1    = 6.666666666666735130e-01
	log64L2    = 3.999999999940941908e-01
	log64L3    = 2.857142874366239149e-01
	log64L4    = 2.222219843214978396e-01
	log64L5    = 1.818357216161805012e-01
	log64L6    = 1.531383769920937332e-01
	log64L7    = 1.479819860511658591e-01

	log64Sqrt2   = 0x3fe6a09e667f3bcd // bits of sqrt(1/2)
	log64Bias    = 0x400 << 52        // keeps the exponent difference positive
	log64TwoP52  = 0x4330000000000000 // bits of 2^52
	log64MinNorm = 0x0010000000000000
	log64Inf     = 0x7ff0000000000000
)

// log64Go is the Go loop of float64 log.
func log64Go(d, a []float64) {
	a = a[:len(d)]
	for i, x := range a {
		if math.Float64bits(x)-log64MinNorm >= log64Inf-log64MinNorm {
			d[i] = log64Special(x)
			continue
		}
		d[i] = log64Fast1(x)
	}
}

// log64Special is log(x) off the fast path: a subnormal x is scaled by
// 2^52 (the math package's Log, its amd64 assembly, gives -709.09 for
// every subnormal).
func log64Special(x float64) float64 {
	if x > 0 && x < 0x1p-1022 {
		f, k := log64Reduce(x * 0x1p52)
		return log64Core(f, k-52)
	}
	return math.Log(x) // ≤ 0, +Inf or NaN
}

// log64Fast1 is the fast path of log64 for positive normal finite x.
func log64Fast1(x float64) float64 { return log64Core(log64Reduce(x)) }

// log64Reduce returns f = m-1 and k of x = 2^k * m.
func log64Reduce(x float64) (f, k float64) {
	ix := math.Float64bits(x)
	u := (ix - log64Sqrt2 + log64Bias) >> 52 // k + 1024
	f = math.Float64frombits(ix-(u<<52-log64Bias)) - 1
	k = math.Float64frombits(u|log64TwoP52) - 0x1p52 - 1024
	return f, k
}

// log64Core is k*ln2 + log(1+f).
func log64Core(f, k float64) float64 {
	s := f / (2 + f)
	s2 := float64(s * s)
	s4 := float64(s2 * s2)
	t1 := float64(s4*log64L7) + log64L5
	t1 = float64(t1*s4) + log64L3
	t1 = float64(t1*s4) + log64L1
	t1 = float64(t1 * s2)
	t2 := float64(s4*log64L6) + log64L4
	t2 = float64(t2*s4) + log64L2
	t2 = float64(t2 * s4)
	r := t1 + t2
	hfsq := float64(float64(0.5*f) * f)
	return float64(k*log64Ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*log64Ln2Lo))) - f)
}
