package vmath

import (
	"unsafe"

	"github.com/tensorplay/tensorplay/dtype"
)

// ExpStoreSumLanes sets d[i] = exp(a[i]-k), the difference rounded to T
// and the exponential Exp's, and folds d[i] into s[i%8] as SumLanes does
// (len(d) >= len(a); d may be a): a softmax line's subtract, Exp and
// SumLanes in one pass, with the same bits. While it computes it asks
// for the cache lines of ahead (what its caller reads next, nil for
// nothing) to be brought into L2, one line per sixteen elements done, so
// that the next line streams in while these exponentials run from L1
// (hints, which change no result). The one pass is an AVX-512 loop for
// float32 (ExpStoreSumFused); elsewhere the function is its definition,
// its subtract a Go loop: a caller with a vector subtract of its own
// calls that, Exp and SumLanes instead.
func ExpStoreSumLanes[T dtype.Float](s *[8]T, d, a []T, k T, ahead []T) {
	d = d[:len(a)]
	if ExpStoreSumFused[T]() {
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
			// A group off exp's fast path: its sixteen by the definition,
			// then the loop again (the lanes stay aligned: n and 16 are
			// multiples of 8).
			expStoreSum(s, d[:16], a[:16], k)
			d, a, ahead = d[16:], a[16:], ahead[min(16, len(ahead)):]
		}
	}
	expStoreSum(s, d, a, k)
}

// ExpStoreSumFused reports whether ExpStoreSumLanes runs its one-pass
// vector loop for T.
func ExpStoreSumFused[T dtype.Float]() bool {
	var k T
	return unsafe.Sizeof(k) == 4 && lanesAVX512
}

// expStoreSum is ExpStoreSumLanes by its definition.
func expStoreSum[T dtype.Float](s *[8]T, d, a []T, k T) {
	for i, x := range a {
		d[i] = x - k
	}
	Exp(d, d)
	SumLanes(s, d)
}
