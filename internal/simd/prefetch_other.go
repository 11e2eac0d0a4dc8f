//go:build !amd64 || purego

package simd

import "unsafe"

const hasPrefetch = false

func prefetchL2(p unsafe.Pointer, n int) (lines int) { return 0 }

func prefetchL2Strided(p unsafe.Pointer, stride, count int) (end uintptr) { return 0 }
