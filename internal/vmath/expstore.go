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
// (hints, which change no result, and none without the AVX-512 loop).
func ExpStoreSumLanes[T dtype.Float](s *[8]T, d, a []T, k T, ahead []T) {
	d = d[:len(a)]
	if unsafe.Sizeof(k) == 4 && lanesAVX512 && len(a) >= 16 {
		pf := &a[0] // prefetching lines already in L1: no hint
		if len(ahead) >= len(a) {
			pf = &ahead[0]
		}
		n := expStoreSumLanes32AVX512((*[8]float32)(unsafe.Pointer(s)), as[float32](d), as[float32](a), float32(k), (*float32)(unsafe.Pointer(pf)))
		d, a = d[n:], a[n:]
	}
	for i, x := range a {
		d[i] = x - k
	}
	Exp(d, d)
	SumLanes(s, d)
}
