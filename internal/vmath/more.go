package vmath

import (
	"math"

	"github.com/tensorplay/tensorplay/dtype"
)

// Expm1, Log1p and Erf are loops over the math package (FreeBSD's
// s_expm1.c, s_log1p.c and s_erf.c, each under 1 ulp), with no call per
// element beyond the function's own; float32 arguments go through float64
// and the result is rounded once, which is within 0.5 ulp and a hair.

// Expm1 sets d[i] = e**a[i] - 1 for every i < len(d); a must be at least as
// long (d may be a).
func Expm1[T dtype.Float](d, a []T) { each(d, a, math.Expm1) }

// Log1p sets d[i] = log(1 + a[i]) for every i < len(d); a must be at least
// as long (d may be a).
func Log1p[T dtype.Float](d, a []T) { each(d, a, math.Log1p) }

// Erf sets d[i] = erf(a[i]), the error function, for every i < len(d); a
// must be at least as long (d may be a).
func Erf[T dtype.Float](d, a []T) { each(d, a, math.Erf) }

// each sets d[i] = f(a[i]) through float64.
func each[T dtype.Float](d, a []T, f func(float64) float64) {
	a = a[:len(d)]
	for i, x := range a {
		d[i] = T(f(float64(x)))
	}
}
