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
