package vmath

import "math"

// sin32 and cos32 compute in float32 arithmetic: with j = round(x*2/pi),
// x = j*pi/2 + rhi + rlo, where pi/2 = p1+p2+p3+p4 (p1, p2 and p3 of at
// most 12 bits, so that j*p1, j*p2 and j*p3 are exact for |j| < 2^12) and
// the differences are summed by Fast2Sum; then sin or cos of r by the minimax polynomials of
// Cephes' sinf and cosf, chosen and signed by j mod 4, with rlo added to
// the small terms only. The AVX2 loops (sin32AVX2, cos32AVX2) do the same
// operations in the same order. The fast path takes 0 < |x| < trig32Fast;
// beyond it (and for ±0, ±Inf, NaN) the kernels round the float64
// kernels' value, which reduce huge arguments exactly (Payne-Hanek).
const (
	trig32TwoOverPi = float32(0x1.45f306p-01)
	trig32P1        = float32(0x1.92p+00)
	trig32P2        = float32(0x1.fb4p-12)
	trig32P3        = float32(0x1.444p-24)
	trig32P4        = float32(0x1.68c234p-39)

	sin32S0 = float32(-1.9515295891e-4)
	sin32S1 = float32(8.3321608736e-3)
	sin32S2 = float32(-1.6666654611e-1)
	cos32C0 = float32(2.443315711809948e-5)
	cos32C1 = float32(-1.388731625493765e-3)
	cos32C2 = float32(4.166664568298827e-2)

	// trig32Fast bounds the fast path: |j| < 2^12.
	trig32Fast = float32(6000)
)

// sin32Go is the Go loop of float32 sin.
func sin32Go(d, a []float32) {
	a = a[:len(d)]
	for i, x := range a {
		if !(abs32(x) < trig32Fast) || x == 0 {
			d[i] = float32(trig64Special(float64(x), 0))
			continue
		}
		d[i] = trig32Fast1(x, 0)
	}
}

// cos32Go is the Go loop of float32 cos.
func cos32Go(d, a []float32) {
	a = a[:len(d)]
	for i, x := range a {
		if !(abs32(x) < trig32Fast) || x == 0 {
			d[i] = float32(trig64Special(float64(x), 1))
			continue
		}
		d[i] = trig32Fast1(x, 1)
	}
}

// trig32Fast1 is sin(x) (q = 0) or cos(x) = sin(x + pi/2) (q = 1) on the
// fast path.
func trig32Fast1(x float32, q uint32) float32 {
	jd := float32(x*trig32TwoOverPi) + shift32
	j := math.Float32bits(jd) + q
	jd -= shift32
	t1 := x - float32(jd*trig32P1)
	p2 := float32(jd * trig32P2)
	th := t1 - p2
	tl := (t1 - th) - p2
	p3 := float32(jd * trig32P3)
	u := th - p3
	tl += (th - u) - p3
	tl -= float32(jd * trig32P4)
	rhi := u + tl
	rlo := (u - rhi) + tl
	z := float32(rhi * rhi)
	// sin(r) = rhi + (rlo + rhi*z*S(z))
	s := float32(z*sin32S0) + sin32S1
	s = float32(s*z) + sin32S2
	s = rhi + (rlo + float32(float32(rhi*z)*s))
	// cos(r) = 1 - z/2 + z²C(z) - rhi*rlo, with 1 - z/2 by Fast2Sum
	c := float32(z*cos32C0) + cos32C1
	c = float32(c*z) + cos32C2
	hz := float32(z * 0.5)
	w := 1 - hz
	e := (1 - w) - hz
	c = w + (e + (float32(float32(z*z)*c) - float32(rhi*rlo)))
	r := s
	if j&1 != 0 {
		r = c
	}
	return math.Float32frombits(math.Float32bits(r) ^ (j&2)<<30)
}
