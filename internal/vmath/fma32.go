package vmath

import "math"

// fma32 is a*b + c rounded once to float32, as the CPU's float32 fused
// multiply-add (VFMADD…PS) rounds it. Go has no float32 FMA, and
// float32(math.FMA(a, b, c)) in float64 would round twice: a*b is exact in
// float64 (48 bits), but the float64 sum can land exactly on a midpoint
// between two float32s that the exact sum is off. So the sum's rounding
// error is kept (TwoSum, exact), and a sum that is such a midpoint is
// rounded to the side the error is on.
func fma32(a, b, c float32) float32 {
	p := float64(a) * float64(b) // exact
	cc := float64(c)
	s := p + cc
	bv := s - p
	e := (p - (s - bv)) + (cc - bv) // s + e == p + c exactly
	f := float32(s)
	if e == 0 || float64(f) == s || math.IsInf(s, 0) {
		return f
	}
	// g is the float32 next to f on s's side; s is a midpoint when it is
	// their average (which float64 holds exactly).
	g := math.Nextafter32(f, float32(math.Copysign(math.Inf(1), s-float64(f))))
	if s != (float64(f)+float64(g))/2 {
		return f
	}
	if (e > 0) == (g > f) {
		return g
	}
	return f
}
