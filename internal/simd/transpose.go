package simd

import (
	"fmt"
	"unsafe"
)

// Transposable is the element types Transpose moves: every numeric type
// and bool (none holds a pointer).
type Transposable interface {
	~bool | ~int8 | ~uint8 | ~int16 | ~uint16 | ~int32 | ~uint32 | ~int64 | ~uint64 |
		~float32 | ~float64 | ~complex64 | ~complex128
}

// TransposeRows returns how many rows Transpose writes for T: for 4-, 8-
// and 16-byte elements 64 bytes of them, a cache line of each run it reads
// (16, 8 and 4 rows); for 1- and 2-byte elements 8 rows (8 or 16 bytes of
// each run); 0 where the loops are missing (see Enabled).
func TransposeRows[T Transposable]() int {
	if !Enabled {
		return 0
	}
	var zero T
	switch unsafe.Sizeof(zero) {
	case 1:
		return transposeRows1
	case 2:
		return transposeRows2
	case 4:
		return transposeRows4
	case 8:
		return transposeRows8
	case 16:
		return transposeRows16
	}
	return 0
}

// Transpose copies n columns of k = TransposeRows[T]() rows of a
// transposed matrix into d: d[r*dStride+c] = s[c*sStride+r] for r < k and
// c < n. That is, it reads n runs of k elements, sStride apart (a
// transposed view's rows), and writes them as the columns of k rows of d.
// It does nothing when n <= 0, and otherwise panics when there are no loops
// for T, when sStride < 1 or dStride < n, or when d or s is too short.
//
// Read one element at a time, a transposed view costs a load, a store and
// an index step per element, and a transposed copy of a matrix in cache
// runs at a quarter of a contiguous one. These loops move square blocks
// through the vector registers: 32 bytes of each of 8, 4 or 2 runs per
// load, 4 to 8 elements per store (for 1- and 2-byte elements 8 or 16 bytes
// of each of 8 runs, 8 elements per store). Values are copied bit for bit.
//
// unsafe is used only to pass the slices' addresses to the loops, after
// their lengths are checked here.
func Transpose[T Transposable](d []T, dStride int, s []T, sStride, n int) {
	k := TransposeRows[T]()
	if k == 0 {
		panic("simd: Transpose without loops for this type")
	}
	if n <= 0 {
		return
	}
	// The last run ends at (n-1)*sStride+k and d's last row at
	// (k-1)*dStride+n: checked by division, so that no product overflows.
	if dStride < n || sStride < 1 || len(s) < k || len(d) < n ||
		n > 1 && sStride > (len(s)-k)/(n-1) || dStride > (len(d)-n)/(k-1) {
		panic(fmt.Sprintf("simd: Transpose of %d×%d from %d elements (stride %d) into %d (stride %d)",
			k, n, len(s), sStride, len(d), dStride))
	}
	var zero T
	size := int(unsafe.Sizeof(zero))
	body := n &^ (runsPerBlock(size) - 1)
	if body > 0 {
		transposeLoop(size, unsafe.Pointer(unsafe.SliceData(d)), unsafe.Pointer(unsafe.SliceData(s)),
			dStride*size, sStride*size, body)
	}
	for c := body; c < n; c++ {
		run := s[c*sStride : c*sStride+k]
		for r, v := range run {
			d[r*dStride+c] = v
		}
	}
}

// runsPerBlock is how many runs the loop for size-byte elements moves at a
// time: 32 bytes of each make a square block, or 8 runs of 1- and 2-byte
// elements.
func runsPerBlock(size int) int { return min(8, 32/size) }

// TransposeOf returns Transpose for T and TransposeRows[T](), for callers
// whose element type parameter is wider than Transposable; nil and 0 for
// the other types and where the loops are missing. Named types get nil.
func TransposeOf[T any]() (func(d []T, dStride int, s []T, sStride, n int), int) {
	var f any
	k := 0
	switch any(*new(T)).(type) {
	case bool:
		f, k = Transpose[bool], TransposeRows[bool]()
	case int8:
		f, k = Transpose[int8], TransposeRows[int8]()
	case uint8:
		f, k = Transpose[uint8], TransposeRows[uint8]()
	case int16:
		f, k = Transpose[int16], TransposeRows[int16]()
	case uint16:
		f, k = Transpose[uint16], TransposeRows[uint16]()
	case float32:
		f, k = Transpose[float32], TransposeRows[float32]()
	case int32:
		f, k = Transpose[int32], TransposeRows[int32]()
	case uint32:
		f, k = Transpose[uint32], TransposeRows[uint32]()
	case float64:
		f, k = Transpose[float64], TransposeRows[float64]()
	case int64:
		f, k = Transpose[int64], TransposeRows[int64]()
	case uint64:
		f, k = Transpose[uint64], TransposeRows[uint64]()
	case complex64:
		f, k = Transpose[complex64], TransposeRows[complex64]()
	case complex128:
		f, k = Transpose[complex128], TransposeRows[complex128]()
	}
	if k == 0 {
		return nil, 0
	}
	return f.(func(d []T, dStride int, s []T, sStride, n int)), k
}
