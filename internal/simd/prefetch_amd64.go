//go:build amd64 && !purego

package simd

import "unsafe"

const hasPrefetch = true

//go:noescape
func prefetchL2(p unsafe.Pointer, n int) (lines int)

//go:noescape
func prefetchL2Strided(p unsafe.Pointer, stride, count int) (end uintptr)
