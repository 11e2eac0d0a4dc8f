package vmath

import "math"

// fma32 is x*y + z rounded once to float32, the value of the vector
// loops' VFMADD on float32 lanes, computed in float64: x*y is exact there
// (48 bits), so s, the float64 sum, is x*y+z rounded once to float64, and
// rounding s to float32 gives x*y+z rounded once unless s is a tie
// between two float32 values that the first rounding made (every float32
// tie is a float64, so an s that is no tie lies on the same side of each
// tie as the exact sum), or s is below float32's normal range, where ties
// lie on a coarser grid. Those rare cases take fma32Tie.
func fma32(x, y, z float32) float32 {
	s := float64(x)*float64(y) + float64(z)
	b := math.Float64bits(s)
	if b&(1<<29-1) == 1<<28 || b&(0x7ff<<52) < (1023-126)<<52 {
		return fma32Tie(x, y, z, s)
	}
	return float32(s)
}

// fma32Fast is x*y + z rounded to float64 and then to float32, and
// whether that may differ from fma32 (it does not unless the second is
// true): fma32 without its rare cases, small enough to inline.
func fma32Fast(x, y, z float32) (float32, bool) {
	s := float64(x)*float64(y) + float64(z)
	b := math.Float64bits(s)
	return float32(s), b&(1<<29-1) == 1<<28 || b&(0x7ff<<52) < (1023-126)<<52
}

// fma32Tie is fma32 where s, x*y+z rounded to float64, is a float32 tie
// or below float32's normal range: with e, the exact error of s (x*y+z =
// s+e, by TwoSum, as x*y is exact), a tie goes to the side e is on.
func fma32Tie(x, y, z float32, s float64) float32 {
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return float32(s)
	}
	xy, zd := float64(x)*float64(y), float64(z)
	bv := s - xy
	e := (xy - (s - bv)) + (zd - bv)
	r := float32(s)
	if e == 0 || float64(r) == s {
		return r // s is the exact sum, or a float32 (the exact sum within far less than half its spacing)
	}
	// The neighbour of r on s's other side; s is a tie if it lies halfway.
	toward := float32(math.Inf(1))
	if float64(r) > s {
		toward = float32(math.Inf(-1))
	}
	o := math.Nextafter32(r, toward)
	mid := (float64(r) + float64(o)) / 2 // exact: adjacent float32s
	if math.IsInf(float64(r), 0) {
		mid = math.Copysign(0x1.ffffffp127, s) // where float32 rounds to ±Inf
	}
	if mid != s {
		return r
	}
	if (e > 0) == (float64(o) > float64(r)) {
		return o
	}
	return r
}
