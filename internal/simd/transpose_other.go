//go:build !amd64 || purego

package simd

import "unsafe"

// Without the assembly TransposeRows reports 0 and Transpose is never
// reached.
const (
	transposeRows1  = 0
	transposeRows2  = 0
	transposeRows4  = 0
	transposeRows8  = 0
	transposeRows16 = 0
)

func transposeLoop(size int, d, s unsafe.Pointer, dStride, sStride, n int) {
	panic("simd: no transpose loops")
}
