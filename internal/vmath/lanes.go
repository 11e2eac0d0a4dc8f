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
func MaxLanes[T dtype.Float](s *[8]T, a []T) { fold(s, a, 0, &max32F, &max64F) }

// SumLanes sets s[i%8] += a[i].
func SumLanes[T dtype.Float](s *[8]T, a []T) { fold(s, a, 0, &sum32F, &sum64F) }

// SqDevLanes sets s[i%8] += (a[i]-k)², the difference and the square each
// rounded to T: the squared deviations of a variance from the mean k.
func SqDevLanes[T dtype.Float](s *[8]T, a []T, k T) { fold(s, a, k, &sqDev32F, &sqDev64F) }

// ExpSumLanes sets s[i%8] += exp(a[i]-k), the difference rounded to T and
// the exponential Exp's: the sums of a logsumexp shifted by its maximum k.
func ExpSumLanes[T dtype.Float](s *[8]T, a []T, k T) { fold(s, a, k, &expSum32F, &expSum64F) }

// laneFold is one fold: the vector loop (nil without one) and the Go loop.
type laneFold[T float32 | float64] struct {
	vec  func(s *[8]T, a []T, k T) int
	goFn func(s *[8]T, a []T, k T)
}

func (f *laneFold[T]) run(s *[8]T, a []T, k T) {
	for f.vec != nil && len(a) >= 8 {
		a = a[f.vec(s, a, k):]
		if len(a) < 8 {
			break
		}
		f.goFn(s, a[:8], k) // a group off the fast path
		a = a[8:]
	}
	f.goFn(s, a, k)
}

func fold[T dtype.Float](s *[8]T, a []T, k T, f32 *laneFold[float32], f64 *laneFold[float64]) {
	if unsafe.Sizeof(k) == 4 {
		f32.run((*[8]float32)(unsafe.Pointer(s)), as[float32](a), float32(k))
		return
	}
	f64.run((*[8]float64)(unsafe.Pointer(s)), as[float64](a), float64(k))
}

// The folds; vector loops are filled in by init on CPUs that have them.
var (
	max32F    = laneFold[float32]{goFn: maxLanesGo[float32]}
	max64F    = laneFold[float64]{goFn: maxLanesGo[float64]}
	sum32F    = laneFold[float32]{goFn: sumLanesGo[float32]}
	sum64F    = laneFold[float64]{goFn: sumLanesGo[float64]}
	sqDev32F  = laneFold[float32]{goFn: sqDevLanesGo[float32]}
	sqDev64F  = laneFold[float64]{goFn: sqDevLanesGo[float64]}
	expSum32F = laneFold[float32]{goFn: expSumLanes32Go}
	expSum64F = laneFold[float64]{goFn: expSumLanes64Go}
)

func maxLanesGo[T float32 | float64](s *[8]T, a []T, _ T) {
	for i, x := range a {
		s[i&7] = max(s[i&7], x)
	}
}

func sumLanesGo[T float32 | float64](s *[8]T, a []T, _ T) {
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
