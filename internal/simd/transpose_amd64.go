//go:build amd64 && !purego

package simd

import "unsafe"

const (
	transposeRows1  = 8
	transposeRows2  = 8
	transposeRows4  = 16
	transposeRows8  = 8
	transposeRows16 = 4
)

func transposeLoop(size int, d, s unsafe.Pointer, dStride, sStride, n int) {
	switch size {
	case 1:
		transpose1(d, s, dStride, sStride, n)
	case 2:
		transpose2(d, s, dStride, sStride, n)
	case 4:
		transpose4(d, s, dStride, sStride, n)
	case 8:
		transpose8(d, s, dStride, sStride, n)
	default:
		transpose16(d, s, dStride, sStride, n)
	}
}

//go:noescape
func transpose1(d, s unsafe.Pointer, dStride, sStride, n int)

//go:noescape
func transpose2(d, s unsafe.Pointer, dStride, sStride, n int)

//go:noescape
func transpose4(d, s unsafe.Pointer, dStride, sStride, n int)

//go:noescape
func transpose8(d, s unsafe.Pointer, dStride, sStride, n int)

//go:noescape
func transpose16(d, s unsafe.Pointer, dStride, sStride, n int)
