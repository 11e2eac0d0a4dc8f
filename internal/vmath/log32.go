package vmath

import "math"

// log32 computes log(x) in float32 arithmetic for positive normal x: with
// x = 2^e * m, m in [sqrt(1/2), sqrt(2)) and f = m-1 (exact),
// log(x) = e*ln2 + f - f²/2 + f³P(f), P the minimax polynomial of Cephes'
// logf. e*ln2hi + f is summed exactly (Fast2Sum) and its rounding error
// joins the small terms, so that only the last addition rounds at full
// size. The AVX2 loop (log32AVX2) does the same operations in the same
// order. Zero, negative, subnormal and non-finite x take the math
// package's value rounded to float32.
const (
	log32Ln2Hi = float32(0x1.63p-01) // 9 bits: e*log32Ln2Hi is exact
	log32Ln2Lo = float32(-0x1.bd0106p-13)
	log32Sqrt2 = 0x3f3504f3 // bits of float32(sqrt(1/2))

	log32P0 = float32(7.0376836292e-2)
	log32P1 = float32(-1.1514610310e-1)
	log32P2 = float32(1.1676998740e-1)
	log32P3 = float32(-1.2420140846e-1)
	log32P4 = float32(1.4249322787e-1)
	log32P5 = float32(-1.6668057665e-1)
	log32P6 = float32(2.0000714765e-1)
	log32P7 = float32(-2.4999993993e-1)
	log32P8 = float32(3.3333331174e-1)

	log32MinNormal = 0x00800000
	log32Inf       = 0x7f800000
)

// log32Go is the Go loop of float32 log.
func log32Go(d, a []float32) {
	a = a[:len(d)]
	for i, x := range a {
		if math.Float32bits(x)-log32MinNormal >= log32Inf-log32MinNormal {
			d[i] = float32(math.Log(float64(x))) // ≤ 0, subnormal, +Inf or NaN
			continue
		}
		d[i] = log32Fast1(x)
	}
}

// log32Fast1 is the fast path of log32 for positive normal finite x.
func log32Fast1(x float32) float32 {
	ix := math.Float32bits(x)
	e := int32(ix-log32Sqrt2) >> 23
	f := math.Float32frombits(ix-uint32(e)<<23) - 1
	ef := float32(e)
	z := float32(f * f)
	p := float32(f*log32P0) + log32P1
	p = float32(p*f) + log32P2
	p = float32(p*f) + log32P3
	p = float32(p*f) + log32P4
	p = float32(p*f) + log32P5
	p = float32(p*f) + log32P6
	p = float32(p*f) + log32P7
	p = float32(p*f) + log32P8
	y := float32(float32(f*z)*p) - float32(z*0.5)
	y += float32(ef * log32Ln2Lo)
	h := float32(ef * log32Ln2Hi)
	hi := h + f
	hl := (h - hi) + f
	return hi + (y + hl)
}
