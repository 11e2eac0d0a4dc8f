package vmath

import "math"

// The table-driven exp of ARM's optimized-routines: with k = round(x*N/ln2)
// and r = x - k*ln2/N (|r| ≤ ln2/2N), exp(x) = 2^(k/N) * exp(r), where
// 2^(k/N) is 2^(k>>7) times a table entry and exp(r) - 1 is a short
// polynomial. For |r| < 0.0028 the Taylor terms up to r^5 leave an error
// of r^6/720 < 2^-60, far below an ulp, so no fitted coefficients are
// needed.
const (
	expBits   = 7
	expN      = 1 << expBits
	invLn2N   = 0x1.71547652b82fep0 * expN
	negLn2HiN = -0x1.62e42fefa0000p-8 // 36 bits: k*negLn2HiN is exact for |k| < 2^17
	negLn2LoN = -0x1.cf79abc9e3b3ap-47
	shift     = 0x1.8p52 // adding it rounds to an integer, left in the low bits

	expC2 = 1.0 / 2
	expC3 = 1.0 / 6
	expC4 = 1.0 / 24
	expC5 = 1.0 / 120

	expFastTop = 0x408 // exponent bits of 512: the fast path takes |x| < 512
)

// exp64 is the Go loop of float64 exp.
func exp64(d, a []float64) {
	a = a[:len(d)]
	for i := range d {
		x := a[i]
		if (math.Float64bits(x)>>52)&0x7ff >= expFastTop {
			d[i] = expSpecial(x) // |x| ≥ 512, ±Inf or NaN
			continue
		}
		d[i] = expTail(expReduce(x))
	}
}

// The fast path is split in two so that each half is small enough for the
// inliner: a call per element would cost a third of the time.

// expReduce returns r = x - k*ln2/N and 2^(k/N) as scale*(1+tail).
func expReduce(x float64) (r, scale, tail float64) {
	kd := float64(invLn2N*x) + shift
	ki := math.Float64bits(kd)
	kd -= shift
	r = x + float64(kd*negLn2HiN) + float64(kd*negLn2LoN)
	t := &expTable[ki%expN]
	return r, math.Float64frombits(t[1] + ki<<(52-expBits)), math.Float64frombits(t[0])
}

// expTail is scale*(1+tail) * e**r. Every product is converted to float64,
// so that no compiler fuses a multiply-add (arm64 would): the bits are the
// same on every machine.
func expTail(r, scale, tail float64) float64 {
	r2 := r * r
	tmp := tail + r + float64(r2*(expC2+float64(r*expC3))) + float64(r2*r2*(expC4+float64(r*expC5)))
	return scale + float64(scale*tmp)
}

// expSpecial is e**x for |x| ≥ 512, where 2^k overflows the exponent of
// the table's scale: the specialcase of optimized-routines, which scales by
// 2^1009 or 2^-1022 after the sum and rounds subnormal results once. The
// math package's Exp (its amd64 assembly) gives +Inf from 709.78 on, short
// of the true threshold 709.7827.
func expSpecial(x float64) float64 {
	if !(math.Abs(x) < 746) {
		return math.Exp(x) // 0, +Inf or NaN
	}
	kd := float64(invLn2N*x) + shift
	ki := math.Float64bits(kd)
	kd -= shift
	r := x + float64(kd*negLn2HiN) + float64(kd*negLn2LoN)
	t := &expTable[ki%expN]
	r2 := r * r
	tmp := math.Float64frombits(t[0]) + r + float64(r2*(expC2+float64(r*expC3))) + float64(r2*r2*(expC4+float64(r*expC5)))
	sbits := t[1] + ki<<(52-expBits)
	if ki&0x80000000 == 0 { // k > 0
		scale := math.Float64frombits(sbits - 1009<<52)
		return 0x1p1009 * (scale + float64(scale*tmp))
	}
	scale := math.Float64frombits(sbits + 1022<<52)
	y := scale + float64(scale*tmp)
	if y < 1 {
		lo := scale - y + float64(scale*tmp)
		hi := 1 + y
		lo = 1 - hi + y + lo
		y = (hi + lo) - 1
		if y == 0 {
			y = 0
		}
	}
	return 0x1p-1022 * y
}
