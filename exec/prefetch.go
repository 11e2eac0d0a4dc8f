package exec

// The prefetches of transposing regions (see region.prefetch).

// prefetchRows is how many rows ahead of the one computed prefetch asks
// for the row-contiguous inputs' rows.
const prefetchRows = 2

// prefetch asks, while row i of an r×c tile is computed, for what later
// rows will read, so that those cache misses are in flight together with
// row i's own:
//   - of each row-contiguous input (a), row i+prefetchRows;
//   - of each transposed input (b.T, its rows one element apart), a share
//     of the cache lines the next band of rows will read (see bandAhead).
//
// The hardware prefetcher follows neither: a's rows are 4 KiB runs, a new
// stream each, and b's lines are c streams at once. On 3162² a + b.T with
// two workers the prefetches took the region from 11.9 ms to 8.6–9.6 ms
// (1.3–1.4x) in float64, 1.35x in float32 and 1.2x in int32 (int8: 1.0x
// at 3162², 1.3x at 4472²); a's alone gave 1.1x in float64. Prefetching
// b two bands ahead or the next tile's first rows too, or a 1 or 4 rows
// ahead, measured the same. A whole-tile gather (tileGather) prefetches
// only a: 1.2x at 2048².
//
// Regions whose operands are smaller than streamBytes together (see
// region.bytes), which the caches may hold from one evaluation to the
// next, do not prefetch: on 300² and 1000² operands the prefetches
// measured 0.77–1.0x.
func (g *region) prefetch(st *regionState, i, r, c int) {
	nout := len(g.outputs)
	for _, s := range g.varying {
		rg := &st.rowGeoms[nout+s]
		off := st.offs[nout+s]
		switch {
		case rg.stC == 1 && rg.stR != 0:
			if next := i + prefetchRows; next < r {
				st.slots[s].prefetch(off+next*rg.stR, c)
			}
		case rg.stC > 1 && rg.stR == 1 && !g.tileGather:
			if row, lo, hi := bandAhead(i, r, c, max(1, 64/g.slotDT[s].Size())); hi > lo {
				st.slots[s].prefetchStrided(off+row+lo*rg.stC, rg.stC, hi-lo)
			}
		}
	}
}

// bandAhead says which cache lines of a transposed operand (its rows one
// element apart, its columns runs down the tile) row i of an r×c tile
// prefetches: those of row row in columns lo to hi-1 (none when lo == hi).
//
// A band is band consecutive rows of the tile, 64 bytes of the operand's
// elements: each column's elements in a band span one cache line, or two
// where the column's run does not start on a line. The first of those
// then also holds the last rows of the band before, which reads it; so
// the line a band is first to read is the one holding its last row. Each
// row of a band asks for that line in c/band of the columns of the next
// band, so by the time the next band starts all of its c new lines have
// been asked for.
func bandAhead(i, r, c, band int) (row, lo, hi int) {
	k := i % band // row i's place in its band
	next := i - k + band
	if next >= r {
		return 0, 0, 0
	}
	return min(next+band-1, r-1), k * c / band, (k + 1) * c / band
}

// bytes is the size of the memory the region reaches: its outputs, and of
// each input it reads in every block the part its layout reaches (a column
// broadcast along the rows counts once, not once per column).
func (g *region) bytes() int {
	n := 0
	for _, o := range g.outputs {
		n += g.numel * g.slotDT[o.src].Size()
	}
	for _, s := range g.varying {
		reach := g.slotDT[s].Size()
		for d, st := range g.lay.strides[len(g.outputs)+s] {
			if st != 0 {
				reach *= g.lay.sizes[d]
			}
		}
		n += reach
	}
	return n
}
