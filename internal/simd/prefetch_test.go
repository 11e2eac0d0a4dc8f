package simd_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tensorplay/tensorplay/internal/simd"
)

// TestPrefetchLeavesData: prefetching any part of a slice of any element
// size, strided or not, from its first element to its last, changes
// nothing (a prefetch cannot fault, so where it reads is tested by
// TestPrefetchL2Lines and TestPrefetchL2StridedWalks).
func TestPrefetchLeavesData(t *testing.T) {
	t.Run("int8", func(t *testing.T) { testPrefetchLeavesData(t, func(i int) int8 { return int8(i) }) })
	t.Run("float32", func(t *testing.T) { testPrefetchLeavesData(t, func(i int) float32 { return float32(i) }) })
	t.Run("float64", func(t *testing.T) { testPrefetchLeavesData(t, func(i int) float64 { return float64(i) }) })
	t.Run("complex128", func(t *testing.T) {
		testPrefetchLeavesData(t, func(i int) complex128 { return complex(float64(i), -1) })
	})
}

func testPrefetchLeavesData[T comparable](t *testing.T, value func(i int) T) {
	s := make([]T, 1000)
	for i := range s {
		s[i] = value(i)
	}
	want := slices.Clone(s)
	for _, lo := range []int{0, 1, 7, 999} {
		for _, n := range []int{0, 1, 2, 9, 1000 - lo} {
			simd.PrefetchL2(s[lo:min(lo+n, len(s))])
		}
	}
	simd.PrefetchL2(s[1000:])
	for _, c := range []struct{ stride, count int }{{0, 5}, {1, 1000}, {37, 27}, {999, 2}, {5, 0}} {
		simd.PrefetchL2Strided(s, c.stride, c.count)
	}
	assert.Equal(t, want, s)
}

// TestPrefetchStridedRange: a strided prefetch whose last element is past
// the slice's end panics, as indexing it would, however large the stride.
func TestPrefetchStridedRange(t *testing.T) {
	s := make([]float64, 100)
	// 1<<62 on 64-bit, 1<<30 on 32-bit: either way the last offset, 2 strides
	// in, overflows int.
	const huge = 1 << (strconv.IntSize - 2)
	for _, c := range []struct{ stride, count int }{
		{10, 11}, {100, 2}, {-1, 2}, {huge, 3}, {1, 101},
	} {
		t.Run(fmt.Sprintf("%d elements %d apart", c.count, c.stride), func(t *testing.T) {
			assert.PanicsWithValue(t,
				fmt.Sprintf("simd: PrefetchL2Strided of %d elements %d apart in 100", c.count, c.stride),
				func() { simd.PrefetchL2Strided(s, c.stride, c.count) })
		})
	}
	assert.PanicsWithValue(t, "simd: PrefetchL2Strided of 1 elements 0 apart in 0",
		func() { simd.PrefetchL2Strided([]float64{}, 0, 1) })
	assert.NotPanics(t, func() { simd.PrefetchL2Strided(s, 11, 10) })
}
