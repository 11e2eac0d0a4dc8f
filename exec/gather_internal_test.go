package exec

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGatherMatchesElementLoop checks every path of gather (a broadcast
// row repeated by doubling, short and long contiguous rows, a broadcast
// column, a transposed and a strided operand) against the element loop
// dst[i*c+j] = src[off+i*stR+j*stC].
func TestGatherMatchesElementLoop(t *testing.T) {
	src := make([]int64, 4096)
	for i := range src {
		src[i] = int64(i*7 + 1)
	}
	for _, c := range []struct {
		off int
		g   geom
	}{
		{3, geom{r: 128, c: 4, stR: 0, stC: 1}},  // broadcast row, power of two rows
		{5, geom{r: 7, c: 3, stR: 0, stC: 1}},    // broadcast row, odd rows
		{0, geom{r: 1, c: 9, stR: 0, stC: 1}},    // one row
		{2, geom{r: 33, c: 40, stR: 0, stC: 1}},  // broadcast long row
		{1, geom{r: 50, c: 4, stR: 6, stC: 1}},   // short rows
		{1, geom{r: 20, c: 15, stR: 15, stC: 1}}, // last short length
		{4, geom{r: 9, c: 16, stR: 20, stC: 1}},  // first copied length
		{0, geom{r: 64, c: 10, stR: 1, stC: 0}},  // broadcast column
		{2, geom{r: 5, c: 3, stR: 2, stC: 0}},    // broadcast column shorter than 4
		{1, geom{r: 9, c: 32, stR: 1, stC: 0}},   // broadcast column, whole groups of 4
		{7, geom{r: 12, c: 5, stR: 1, stC: 12}},  // transposed
		{3, geom{r: 6, c: 5, stR: 40, stC: 3}},   // strided
		{0, geom{r: 0, c: 4, stR: 0, stC: 1}},    // empty
		{0, geom{r: 5, c: 0, stR: 0, stC: 1}},    // empty rows
	} {
		t.Run(fmt.Sprintf("%dx%d st %d,%d", c.g.r, c.g.c, c.g.stR, c.g.stC), func(t *testing.T) {
			want := make([]int64, c.g.r*c.g.c)
			for i := range c.g.r {
				for j := range c.g.c {
					want[i*c.g.c+j] = src[c.off+i*c.g.stR+j*c.g.stC]
				}
			}
			dst := make([]int64, c.g.r*c.g.c+3)
			for i := range dst {
				dst[i] = -1
			}
			g := c.g
			gather(dst, src, c.off, &g)
			require.Len(t, dst, len(want)+3)
			assert.Equal(t, want, dst[:len(want)])
			assert.Equal(t, []int64{-1, -1, -1}, dst[len(want):], "wrote past the tile")
		})
	}
}
