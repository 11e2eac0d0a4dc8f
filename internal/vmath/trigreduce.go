package vmath

import (
	"math"
	"math/big"
	"math/bits"
	"sync"
)

// trig64Huge is sin(x) (q = 0) or cos(x) (q = 1) for finite |x| ≥
// trig64Fast, by Payne-Hanek reduction: the fraction of x*2/pi from the
// product of x's 53-bit integer mantissa and a 192-bit window of the bits
// of 2/pi, exact to at least 2^-67 of r even for the doubles nearest a
// multiple of pi/2 (2^-61 away), then r = fraction*pi/2 as a double-double
// and the fast path's polynomials. The math package's reduction loses the
// low bits of small fractions (cos(6381956970095103*2^797) is wrong in its
// fourth digit).
func trig64Huge(x float64, q uint64) float64 {
	neg := x < 0
	x = math.Abs(x)
	b := math.Float64bits(x)
	e := int(b>>52) - 1075 // x = m * 2^e
	m := b&(1<<52-1) | 1<<52
	// Bit i of 2/pi (weight 2^-i) gives m*2^(e-i): bits with i < e-1 add
	// multiples of 4, so the window starts at bit e-1.
	w0, w1, w2 := twoOverPiWindow(e - 1)
	// m*W = P3:P2:P1:P0; 2^190 is bit 62 of P2.
	h2, p0 := bits.Mul64(m, w2)
	h1, l1 := bits.Mul64(m, w1)
	_, l0 := bits.Mul64(m, w0)
	p1, c := bits.Add64(l1, h2, 0)
	p2, _ := bits.Add64(l0, h1, c)
	j := p2 >> 62
	// The fraction, fraction*2^128 in fh:fl.
	fh := p2<<2 | p1>>62
	fl := p1<<2 | p0>>62
	sign := 1.0
	if fh>>63 != 0 { // ≥ 1/2: round j up, the fraction is negative
		j++
		var borrow uint64
		fl, borrow = bits.Sub64(0, fl, 0)
		fh, _ = bits.Sub64(0, fh, borrow)
		sign = -1
	}
	lz := bits.LeadingZeros64(fh)
	if fh == 0 {
		lz = 64 + bits.LeadingZeros64(fl)
	}
	fh, fl = shl128(fh, fl, uint(lz))
	hiInt := fh >> 11 // 53 bits
	loInt := (fh&(1<<11-1))<<52 | fl>>12
	hi := math.Ldexp(float64(hiInt), -53-lz)
	lo := math.Ldexp(float64(loInt), -117-lz)
	// r = (hi+lo)*pi/2 as rhi+rlo.
	const pio2Hi, pio2Lo = 0x1.921fb54442d18p0, 0x1.1a62633145c07p-54
	rhi := hi * pio2Hi
	rlo := math.FMA(hi, pio2Hi, -rhi) + (hi*pio2Lo + lo*pio2Hi)
	r := rhi + rlo
	rlo = (rhi - r) + rlo
	rhi = r
	rhi, rlo = sign*rhi, sign*rlo
	if neg && q == 0 {
		rhi, rlo, j = -rhi, -rlo, -j
	}
	return trig64Poly(rhi, rlo, j+q)
}

func shl128(h, l uint64, s uint) (uint64, uint64) {
	switch {
	case s == 0:
		return h, l
	case s >= 64:
		return l << (s - 64), 0
	}
	return h<<s | l>>(64-s), l << s
}

// twoOverPiWindow returns bits i..i+191 of 2/pi (bit 1 has weight 1/2;
// bits before 1 are zero) as three words, the first the most significant.
func twoOverPiWindow(i int) (uint64, uint64, uint64) {
	t := twoOverPiBits()
	i += 64                      // t starts with a zero word, for bits 1-64..0
	word := func(k int) uint64 { // bits k..k+63
		wi, sh := (k-1)/64, uint((k-1)%64)
		if sh == 0 {
			return t[wi]
		}
		return t[wi]<<sh | t[wi+1]>>(64-sh)
	}
	return word(i), word(i + 64), word(i + 128)
}

// twoOverPiBits is a zero word and then the first 1280 bits of 2/pi,
// computed once with math/big from Machin's formula for pi.
var twoOverPiBits = sync.OnceValue(func() []uint64 {
	const prec = 1500
	atanInv := func(n int64) *big.Float {
		x := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), new(big.Float).SetPrec(prec).SetInt64(n))
		x2 := new(big.Float).SetPrec(prec).Mul(x, x)
		sum, term := new(big.Float).SetPrec(prec).Set(x), new(big.Float).SetPrec(prec).Set(x)
		for k := int64(3); k < 1200; k += 2 {
			term.Mul(term, x2).Neg(term)
			sum.Add(sum, new(big.Float).SetPrec(prec).Quo(term, new(big.Float).SetPrec(prec).SetInt64(k)))
		}
		return sum
	}
	pi := atanInv(5)
	pi.Mul(pi, big.NewFloat(16))
	b := atanInv(239)
	pi.Sub(pi, b.Mul(b, big.NewFloat(4)))
	f := new(big.Float).SetPrec(prec).Quo(big.NewFloat(2), pi)
	t := make([]uint64, 1+1280/64+1)
	for k := 1; k < len(t); k++ {
		f.SetMantExp(f, 64)
		w, _ := f.Uint64()
		t[k] = w
		f.Sub(f, new(big.Float).SetPrec(prec).SetUint64(w))
	}
	return t
})
