package exec_test

import (
	"math"
	"math/big"
	"sync"
)

// The reference of sin and cos: the math package's below 2^29, and a
// reduction by pi/2 in math/big beyond, where the math package's
// Payne-Hanek reduction keeps only 53 bits of the fraction and loses
// digits when the remainder is small (sin(1e30) is 40 ulp off, and errors
// of thousands of ulp occur between 1e9 and 1e22; golang/go#37839).

// refTrigThreshold is the math package's reduceThreshold: below it math.Sin
// reduces by Cody-Waite and is within about 1 ulp.
const refTrigThreshold = 1 << 29

// bigPiRef is pi to 1300 bits, enough to reduce any float64 (2^1024) to
// more than 200 bits; Machin's formula, 16 atan(1/5) - 4 atan(1/239).
var bigPiRef = sync.OnceValue(func() *big.Float {
	const prec = 1300
	atanInv := func(n int64) *big.Float {
		x := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), new(big.Float).SetPrec(prec).SetInt64(n))
		x2 := new(big.Float).SetPrec(prec).Mul(x, x)
		sum, term := new(big.Float).SetPrec(prec).Set(x), new(big.Float).SetPrec(prec).Set(x)
		for k := int64(3); k < 1900; k += 2 {
			term.Mul(term, x2).Neg(term)
			sum.Add(sum, new(big.Float).SetPrec(prec).Quo(term, new(big.Float).SetPrec(prec).SetInt64(k)))
		}
		return sum
	}
	a := atanInv(5)
	a.Mul(a, big.NewFloat(16))
	b := atanInv(239)
	b.Mul(b, big.NewFloat(4))
	return a.Sub(a, b)
})

// refTrig is sin(x) (q = 0) or cos(x) (q = 1) within about 1 ulp.
func refTrig(x float64, q int) float64 {
	if !(math.Abs(x) >= refTrigThreshold) || math.IsInf(x, 0) {
		if q == 0 {
			return math.Sin(x)
		}
		return math.Cos(x)
	}
	// x = n*pi/2 + r, |r| <= pi/4, r to 1300-1024 bits at least.
	const prec = 1300
	half := new(big.Float).SetPrec(prec).Quo(bigPiRef(), big.NewFloat(2))
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	quo := new(big.Float).SetPrec(prec).Quo(bx, half)
	n, _ := quo.Add(quo, big.NewFloat(math.Copysign(0.5, x))).Int(nil) // round half away
	r := new(big.Float).SetPrec(prec).Sub(bx, new(big.Float).SetPrec(prec).Mul(half, new(big.Float).SetInt(n)))
	rhi, _ := r.Float64()
	rlo, _ := r.Sub(r, big.NewFloat(rhi)).Float64()
	// sin(rhi+rlo) = sin(rhi) + cos(rhi)*rlo, cos(rhi+rlo) = cos(rhi) - sin(rhi)*rlo,
	// to far below an ulp (rlo < 2^-53 |rhi|); the math package is within
	// 1 ulp for |rhi| <= pi/4, where it does not reduce.
	s := math.Sin(rhi) + math.Cos(rhi)*rlo
	c := math.Cos(rhi) - math.Sin(rhi)*rlo
	quad := (new(big.Int).Mod(n, big.NewInt(4)).Int64() + int64(q)) % 4
	switch quad {
	case 0:
		return s
	case 1:
		return c
	case 2:
		return -s
	}
	return -c
}
