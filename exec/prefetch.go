package exec

// The prefetches of transposing regions (see region.prefetch) and of
// regions with slow kernels (see region.prefetchNext).

// prefetchRows is how many rows ahead of the one computed prefetch asks
// for the row-contiguous inputs' rows.
const prefetchRows = 2

// prefetch asks, while row i of an r×c tile computed a row at a time is
// computed, for what later rows will read, so that those cache misses are
// in flight together with row i's own:
//   - of each direct input (a), row i+prefetchRows;
//   - of each transposed input (b.T), a share of the cache lines the next
//     copy of rows will read (see bandAhead).
//
// The hardware prefetcher follows neither: a's rows are 4 KiB runs, a new
// stream each, and b's lines are c streams at once (docs/executor.md has
// the measurements). Regions whose operands are smaller than streamBytes
// together (see region.bytes) do not prefetch.
func (g *region) prefetch(st *regionState, i, r, c int) {
	nout := len(g.outputs)
	for _, s := range g.varying {
		gm := &st.geoms[nout+s]
		off := st.offs[nout+s]
		switch g.kinds[nout+s] {
		case accDirect:
			if next := i + prefetchRows; next < r {
				st.slots[s].prefetch(off+next*gm.stR, c)
			}
		case accTransposed:
			if row, lo, hi := bandAhead(i, r, c, max(1, 64/g.slotDT[s].Size())); hi > lo {
				st.slots[s].prefetchStrided(off+row+lo*gm.stC, gm.stC, hi-lo)
			}
		}
	}
}

// bandAhead says which cache lines of a transposed operand (its rows one
// element apart, its columns runs down the tile) row i of an r×c tile
// prefetches: those of row row in columns lo to hi-1 (none when lo == hi).
//
// A band is line consecutive rows of the tile, a 64-byte cache line of the
// operand's elements: each column's elements in a band span one line, or two
// where the column's run does not start on a line. The first of those
// then also holds the last rows of the band before, which reads it; so
// the line a band is first to read is the one holding its last row. Each
// row of a band asks for that line in c/line of the columns of the next
// band, so by the time the next band starts all of its c new lines have
// been asked for.
func bandAhead(i, r, c, line int) (row, lo, hi int) {
	k := i % line // row i's place in its band
	next := i - k + line
	if next >= r {
		return 0, 0, 0
	}
	return min(next+line-1, r-1), k * c / line, (k + 1) * c / line
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

// prefetchNext asks, while a block of a region of one axis computes, for
// the next block of each direct input: the n elements after the block's.
//
// The hardware prefetcher starts on a page only at its first misses, and
// a block reads each input as one page-long burst: in a region of cheap
// kernels those bursts follow each other closely enough to keep memory
// busy, but where the block's kernels compute for longer than its pages
// take to arrive (exp, sin), each burst waits for its own misses, one
// page at a time. Asked for a block ahead, they arrive while the block
// before computes. exp(a)*sin(b)+sqrt(abs(c)) over 1e7 elements, two
// workers, alternating: float32 9.9–10.2 ms against 15.4–15.6 ms without,
// float64 25.8 against 35.2–35.5 ms. A region of cheap kernels is slower
// with it (a+b over 1e7 float64: 9.0 against 5.8 ms), so only regions
// with a slow kernel prefetch (see aheadPays).
func (g *region) prefetchNext(st *regionState, n int) {
	nout := len(g.outputs)
	for _, s := range g.varying {
		if g.kinds[nout+s] == accDirect {
			st.slots[s].prefetchUpTo(st.offs[nout+s]+n, n)
		}
	}
}

// aheadPays reports whether g prefetches the next block (see
// prefetchNext): a large region of one axis, each block computed in one
// piece (runBlock's first case, where prefetchNext is called), at least
// one of whose kernels is slow and computes floats or complex numbers
// (integer pow and remainders were not measured). A region computed by a
// registered kernel (see Kernel) has no instructions to tell, and does not
// prefetch.
func (g *region) aheadPays() bool {
	if g.tp.rowwise || g.tp.copyRows > 0 || g.tp.piece < g.tp.r*g.tp.c || len(g.lay.sizes) != 1 || g.bytes() < streamBytes {
		return false
	}
	for _, in := range g.instrs {
		dt := g.slotDT[in.dst]
		if (costOf(in.op) == costSlow || costOf(in.inner) == costSlow) && (dt.IsFloat() || dt.IsComplex()) {
			return true
		}
	}
	return false
}
