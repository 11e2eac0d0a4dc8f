package vmath

import (
	"math"
	"unsafe"

	"github.com/tensorplay/tensorplay/dtype"
)

// Lane folds: the inner loops of reductions' leaves (package exec's
// fixed tree puts a leaf's element i into lane i%8 of eight running
// partials). Each folds a into s in that order, a's first element into
// lane 0: s[i%8] = f(s[i%8], a[i]) for i in order. Like the block
// kernels they have a Go loop and, with AVX2, a vector loop that takes
// groups of eight while every element of a group is on its fast path;
// both do the same operations, so the bits are the same on every path.

// MaxLanes sets s[i%8] = max(s[i%8], a[i]) (Go's max: NaN wins). Of +0
// and -0, which one a lane keeps is left open.
func MaxLanes[T dtype.Float](s *[8]T, a []T) { fold(foldMax, s, a, 0) }

// MaxOfLanes sets s[i%8] = MaxOf(s[i%8], a[i]): the lanes of a max
// reduction whose bits do not depend on the order of its operands.
func MaxOfLanes[T dtype.Float](s *[8]T, a []T) { fold(foldMaxOf, s, a, 0) }

// MinOfLanes sets s[i%8] = MinOf(s[i%8], a[i]).
func MinOfLanes[T dtype.Float](s *[8]T, a []T) { fold(foldMinOf, s, a, 0) }

// MaxOf is max whose result does not depend on the order of x and y: NaN
// wins (x when both are NaN), and of +0 and -0 it is +0.
func MaxOf[T dtype.Float](x, y T) T {
	switch {
	case x > y || x != x:
		return x
	case y > x || y != y:
		return y
	}
	if x == 0 {
		return x + y // ±0: +0 + -0 is +0
	}
	return x
}

// MinOf is min whose result does not depend on the order of x and y: NaN
// wins (x when both are NaN), and of +0 and -0 it is -0.
func MinOf[T dtype.Float](x, y T) T {
	switch {
	case x < y || x != x:
		return x
	case y < x || y != y:
		return y
	}
	if x == 0 {
		return -(-x + -y) // ±0: -(-0 + +0) is -0
	}
	return x
}

// SumLanes sets s[i%8] += a[i].
func SumLanes[T dtype.Float](s *[8]T, a []T) { fold(foldSum, s, a, 0) }

// SqDevLanes sets s[i%8] += (a[i]-k)², the difference and the square each
// rounded to T: the squared deviations of a variance from the mean k.
func SqDevLanes[T dtype.Float](s *[8]T, a []T, k T) { fold(foldSqDev, s, a, k) }

// ExpSumLanes sets s[i%8] += exp(a[i]-k), the difference rounded to T and
// the exponential Exp's: the sums of a logsumexp shifted by its maximum k.
func ExpSumLanes[T dtype.Float](s *[8]T, a []T, k T) { fold(foldExpSum, s, a, k) }

// foldKind names a fold. The folds are called directly, not through
// function values, so that s does not escape (the vector loops are
// noescape): a caller's lanes stay on its stack.
type foldKind uint8

const (
	foldMax foldKind = iota
	foldSum
	foldSqDev
	foldExpSum
	foldMaxOf
	foldMinOf
)

func fold[T dtype.Float](f foldKind, s *[8]T, a []T, k T) {
	if unsafe.Sizeof(k) == 4 {
		fold32(f, (*[8]float32)(unsafe.Pointer(s)), as[float32](a), float32(k))
		return
	}
	fold64(f, (*[8]float64)(unsafe.Pointer(s)), as[float64](a), float64(k))
}

// fold32 runs the vector loop (lanes32Vec, 0 elements without one) while
// it takes groups, the Go loop on a group it leaves and on the tail.
func fold32(f foldKind, s *[8]float32, a []float32, k float32) {
	for len(a) >= 8 {
		a = a[lanes32Vec(f, s, a, k):]
		if len(a) < 8 {
			break
		}
		lanes32Go(f, s, a[:8], k) // a group off the fast path
		a = a[8:]
	}
	lanes32Go(f, s, a, k)
}

func fold64(f foldKind, s *[8]float64, a []float64, k float64) {
	for len(a) >= 8 {
		a = a[lanes64Vec(f, s, a, k):]
		if len(a) < 8 {
			break
		}
		lanes64Go(f, s, a[:8], k)
		a = a[8:]
	}
	lanes64Go(f, s, a, k)
}

// lanes32Go and lanes64Go are the folds' Go loops, from lane 0.
func lanes32Go(f foldKind, s *[8]float32, a []float32, k float32) {
	switch f {
	case foldMax:
		maxLanesGo(s, a)
	case foldSum:
		sumLanesGo(s, a)
	case foldSqDev:
		sqDevLanesGo(s, a, k)
	case foldMaxOf:
		maxOfLanesGo(s, a)
	case foldMinOf:
		minOfLanesGo(s, a)
	default:
		expSumLanes32Go(s, a, k)
	}
}

func lanes64Go(f foldKind, s *[8]float64, a []float64, k float64) {
	switch f {
	case foldMax:
		maxLanesGo(s, a)
	case foldSum:
		sumLanesGo(s, a)
	case foldSqDev:
		sqDevLanesGo(s, a, k)
	case foldMaxOf:
		maxOfLanesGo(s, a)
	case foldMinOf:
		minOfLanesGo(s, a)
	default:
		expSumLanes64Go(s, a, k)
	}
}

func maxLanesGo[T float32 | float64](s *[8]T, a []T) {
	for i, x := range a {
		s[i&7] = max(s[i&7], x)
	}
}

func maxOfLanesGo[T float32 | float64](s *[8]T, a []T) {
	for i, x := range a {
		s[i&7] = MaxOf(s[i&7], x)
	}
}

func minOfLanesGo[T float32 | float64](s *[8]T, a []T) {
	for i, x := range a {
		s[i&7] = MinOf(s[i&7], x)
	}
}

func sumLanesGo[T float32 | float64](s *[8]T, a []T) {
	for i, x := range a {
		s[i&7] += x
	}
}

func sqDevLanesGo[T float32 | float64](s *[8]T, a []T, k T) {
	for i, x := range a {
		d := x - k
		s[i&7] += T(d * d)
	}
}

func expSumLanes32Go(s *[8]float32, a []float32, k float32) {
	for i, x := range a {
		d := x - k
		e := exp32Fast1(d)
		if !(abs32(d) < exp32Fast) {
			e = float32(math.Exp(float64(d))) // large, ±Inf or NaN: exp32Go's
		}
		s[i&7] += e
	}
}

func expSumLanes64Go(s *[8]float64, a []float64, k float64) {
	for i, x := range a {
		d := x - k
		var e float64
		if (math.Float64bits(d)>>52)&0x7ff >= expFastTop {
			e = expSpecial(d) // exp64's
		} else {
			e = expTail(expReduce(d))
		}
		s[i&7] += e
	}
}
