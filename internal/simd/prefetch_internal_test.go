//go:build amd64 && !purego

package simd

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
)

// TestPrefetchL2Lines: the loop prefetches every 64-byte line that holds a
// byte of [p, p+n) and no other, from every offset within a line.
func TestPrefetchL2Lines(t *testing.T) {
	buf := make([]byte, 4096+64)
	base := unsafe.Pointer(&buf[(64-int(uintptr(unsafe.Pointer(&buf[0]))%64))%64])
	for _, off := range []int{0, 1, 8, 31, 32, 56, 63} {
		for _, n := range []int{1, 2, 8, 56, 63, 64, 65, 127, 128, 129, 1000, 4000} {
			t.Run(fmt.Sprintf("offset %d, %d bytes", off, n), func(t *testing.T) {
				want := (off+n+63)/64 - off/64
				assert.Equal(t, want, prefetchL2(unsafe.Add(base, off), n))
			})
		}
	}
}

// TestPrefetchL2StridedWalks: the strided loop steps stride bytes count
// times from p.
func TestPrefetchL2StridedWalks(t *testing.T) {
	buf := make([]byte, 1<<16)
	p := unsafe.Pointer(&buf[0])
	for _, c := range []struct{ stride, count int }{{64, 1}, {8, 7}, {25296, 2}, {3, 1000}, {0, 1}} {
		assert.Equal(t, uintptr(p)+uintptr(c.stride*c.count), prefetchL2Strided(p, c.stride, c.count),
			"%d addresses %d bytes apart", c.count, c.stride)
	}
}
