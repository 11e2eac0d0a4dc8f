package vmath

import (
	"unsafe"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/simd"
)

// ExpStoreSumLanes sets d[i] = exp(a[i]-k), the difference rounded to T
// and the exponential Exp's, and folds d[i] into s[i%8] as SumLanes does
// (len(d) >= len(a); d may be a): a softmax line's subtract, Exp and
// SumLanes with the same bits as the three one after another. For float32
// with AVX-512 it is one pass, which also asks for the cache lines of
// ahead (what its caller reads next, nil for nothing) to be brought into
// L2, a line per sixteen elements done, so that the next line streams in
// while these exponentials run from L1 (hints, which change no result);
// elsewhere, and for a group off exp's fast path, it is the three loops.
func ExpStoreSumLanes[T dtype.Float](s *[8]T, d, a []T, k T, ahead []T) {
	d = d[:len(a)]
	if unsafe.Sizeof(k) == 4 && lanesAVX512 {
		for len(a) >= 16 {
			pf := &a[0] // prefetching lines already in L1: no hint
			if len(ahead) >= len(a) {
				pf = &ahead[0]
			}
			n := expStoreSumLanes32AVX512((*[8]float32)(unsafe.Pointer(s)), as[float32](d), as[float32](a), float32(k), (*float32)(unsafe.Pointer(pf)))
			d, a, ahead = d[n:], a[n:], ahead[min(n, len(ahead)):]
			if len(a) < 16 {
				break
			}
			// A group off exp's fast path: its sixteen by the three loops,
			// then the pass again (the lanes stay aligned: n and 16 are
			// multiples of 8).
			expStoreSum(s, d[:16], a[:16], k)
			d, a, ahead = d[16:], a[16:], ahead[min(16, len(ahead)):]
		}
	}
	expStoreSum(s, d, a, k)
}

// subVS32 and subVS64 are internal/simd's d = a - s loops where it has
// them (the executor's subtract), else Go loops: the same bits.
var subVS32, subVS64 = subVS[float32](), subVS[float64]()

func subVS[T simd.Float]() func(d, a []T, s T) {
	if b, ok := simd.BinaryOf[T](simd.Sub); ok {
		return b.VS
	}
	return func(d, a []T, s T) {
		for i, x := range a[:len(d)] {
			d[i] = x - s
		}
	}
}

// expStoreSum is ExpStoreSumLanes as its three loops.
func expStoreSum[T dtype.Float](s *[8]T, d, a []T, k T) {
	if unsafe.Sizeof(k) == 4 {
		subVS32(as[float32](d), as[float32](a), float32(k))
	} else {
		subVS64(as[float64](d), as[float64](a), float64(k))
	}
	Exp(d, d)
	SumLanes(s, d)
}
