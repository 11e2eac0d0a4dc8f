package simd

import (
	"fmt"
	"unsafe"
)

// Prefetching reports whether PrefetchL2 and PrefetchL2Strided issue
// prefetches: true on amd64 (without the purego tag). Benchmarks may clear
// it to measure what the prefetches gain; it must not change while another
// goroutine prefetches.
var Prefetching = hasPrefetch

// PrefetchL2 asks the core to start loading the cache lines that hold s
// into its L2 cache (PREFETCHT1), and returns without waiting for them.
//
// Go has no prefetch instruction, and a loop of loads to the same end
// waits at its misses: prefetches are how a loop whose next reads are not
// a stream the hardware prefetcher follows can have many misses in flight.
// A prefetch never faults and changes no data; this one reads only the
// lines of s.
//
// unsafe is used only to pass s's address to the instruction.
func PrefetchL2[T any](s []T) {
	var zero T
	if len(s) == 0 || !Prefetching || unsafe.Sizeof(zero) == 0 {
		return
	}
	prefetchL2(unsafe.Pointer(unsafe.SliceData(s)), len(s)*int(unsafe.Sizeof(zero)))
}

// PrefetchL2Strided is PrefetchL2 for the count elements s[0], s[stride],
// …, s[(count-1)*stride]: one cache line each, such as one element of each
// of count rows of a matrix. It panics if the last is out of range or
// stride is negative.
func PrefetchL2Strided[T any](s []T, stride, count int) {
	if count <= 0 {
		return
	}
	last := len(s) - 1
	if stride < 0 || last < 0 || stride > 0 && count-1 > last/stride {
		panic(fmt.Sprintf("simd: PrefetchL2Strided of %d elements %d apart in %d", count, stride, len(s)))
	}
	if stride == 0 {
		count = 1 // one line, asked for once
	}
	var zero T
	if !Prefetching || unsafe.Sizeof(zero) == 0 {
		return
	}
	prefetchL2Strided(unsafe.Pointer(unsafe.SliceData(s)), stride*int(unsafe.Sizeof(zero)), count)
}
