package vmath

import (
	"math"
	"unsafe"

	"github.com/tensorplay/tensorplay/dtype"
)

// Max returns the maximum of a: NaN when a holds one (which NaN is left
// open), of +0 and -0 either, -Inf when a is empty. It is the maximum a
// logsumexp shifts its block by: with AVX-512 float32 runs sixteen lanes
// an instruction in four independent sets, with no check per group, where
// MaxLanes checks every group for a NaN; a run holding a NaN or an
// infinity (which the loop's sum of the elements shows) is taken again by
// MaxLanes.
func Max[T dtype.Float](a []T) T {
	var zero T
	if unsafe.Sizeof(zero) == 4 {
		return T(max32(as[float32](a)))
	}
	return T(maxByLanes(as[float64](a)))
}

func max32(a []float32) float32 {
	if !lanesAVX512 || len(a) < 16 {
		return maxByLanes(a)
	}
	m, sum, d := max32AVX512(a)
	if sum-sum != 0 {
		return maxByLanes(a) // a NaN, an infinity, or a sum too large
	}
	if d < len(a) {
		m = max(m, maxByLanes(a[d:]))
	}
	return m
}

// maxByLanes is Max by MaxLanes: eight lanes, then their maximum.
func maxByLanes[T float32 | float64](a []T) T {
	inf := T(math.Inf(-1))
	ln := [8]T{inf, inf, inf, inf, inf, inf, inf, inf}
	MaxLanes(&ln, a)
	return max(max(max(ln[0], ln[1]), max(ln[2], ln[3])), max(max(ln[4], ln[5]), max(ln[6], ln[7])))
}
