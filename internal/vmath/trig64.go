package vmath

import "math"

// sin64 and cos64 are trig32's method in float64: x = j*pi/2 + rhi + rlo
// with pi/2 = p1+p2+p3+p4, p1..p3 of 33 bits (j*p1..j*p3 exact for
// |j| < 2^20), the first two differences summed by TwoSum and the last
// by Fast2Sum; then the polynomials of the math package's sin and cos
// (Cephes), with rlo added to the small terms only. The AVX2 loops
// (sin64AVX2, cos64AVX2) do the same operations in the same order. The
// fast path takes 0 < |x| < trig64Fast; beyond it trig64Huge reduces
// the argument exactly.
const (
	trig64TwoOverPi = 0x1.45f306dc9c883p-01
	trig64P1        = 0x1.921fb544p+00
	trig64P2        = 0x1.0b4611a6p-34
	trig64P3        = 0x1.3198a2ep-69
	trig64P4        = 0x1.b839a252049c1p-104
	shift64         = 0x1.8p52

	sin64S0 = 1.58962301576546568060e-10
	sin64S1 = -2.50507477628578072866e-8
	sin64S2 = 2.75573136213857245213e-6
	sin64S3 = -1.98412698295895385996e-4
	sin64S4 = 8.33333333332211858878e-3
	sin64S5 = -1.66666666666666307295e-1
	cos64C0 = -1.13585365213876817300e-11
	cos64C1 = 2.08757008419747316778e-9
	cos64C2 = -2.75573141792967388112e-7
	cos64C3 = 2.48015872888517045348e-5
	cos64C4 = -1.38888888888730564116e-3
	cos64C5 = 4.16666666666665929218e-2

	// trig64Fast bounds the fast path: |j| < 2^20.
	trig64Fast = 1e6
)

// sin64 is the Go loop of float64 sin.
func sin64(d, a []float64) {
	a = a[:len(d)]
	for i, x := range a {
		if !(math.Abs(x) < trig64Fast) || x == 0 {
			d[i] = trig64Special(x, 0)
			continue
		}
		d[i] = trig64Fast1(x, 0)
	}
}

// cos64 is the Go loop of float64 cos.
func cos64(d, a []float64) {
	a = a[:len(d)]
	for i, x := range a {
		if !(math.Abs(x) < trig64Fast) || x == 0 {
			d[i] = trig64Special(x, 1)
			continue
		}
		d[i] = trig64Fast1(x, 1)
	}
}

// trig64Special is sin(x) (q = 0) or cos(x) (q = 1) off the fast path.
func trig64Special(x float64, q uint64) float64 {
	switch {
	case math.IsInf(x, 0) || math.IsNaN(x):
		return math.NaN()
	case x == 0 && q == 0:
		return x
	case x == 0:
		return 1
	}
	return trig64Huge(x, q)
}

// trig64Fast1 is sin(x) (q = 0) or cos(x) (q = 1) on the fast path.
func trig64Fast1(x float64, q uint64) float64 {
	jd := float64(x*trig64TwoOverPi) + shift64
	j := math.Float64bits(jd) + q
	jd -= shift64
	t1 := x - float64(jd*trig64P1)
	p2 := float64(jd * trig64P2)
	th := t1 - p2
	bb := th - t1
	tl := (t1 - (th - bb)) - (p2 + bb)
	p3 := float64(jd * trig64P3)
	u := th - p3
	bb = u - th
	tl += (th - (u - bb)) - (p3 + bb)
	tl -= float64(jd * trig64P4)
	rhi := u + tl
	rlo := (u - rhi) + tl
	return trig64Poly(rhi, rlo, j)
}

// trig64Poly is sin(r) (j even) or cos(r) (j odd), negated if j&2 != 0,
// for r = rhi+rlo in [-pi/4, pi/4].
func trig64Poly(rhi, rlo float64, j uint64) float64 {
	z := float64(rhi * rhi)
	s := float64(z*sin64S0) + sin64S1
	s = float64(s*z) + sin64S2
	s = float64(s*z) + sin64S3
	s = float64(s*z) + sin64S4
	s = float64(s*z) + sin64S5
	s = rhi + (rlo + float64(float64(rhi*z)*s))
	c := float64(z*cos64C0) + cos64C1
	c = float64(c*z) + cos64C2
	c = float64(c*z) + cos64C3
	c = float64(c*z) + cos64C4
	c = float64(c*z) + cos64C5
	hz := float64(z * 0.5)
	w := 1 - hz
	e := (1 - w) - hz
	c = w + (e + (float64(float64(z*z)*c) - float64(rhi*rlo)))
	r := s
	if j&1 != 0 {
		r = c
	}
	return math.Float64frombits(math.Float64bits(r) ^ (j&2)<<62)
}
