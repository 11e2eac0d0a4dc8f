package exec

import "github.com/tensorplay/tensorplay/internal/simd"

// Panels: the tiles of whole rows that a transposing region runs in when
// its other operands are contiguous across their rows (see panelRows).
//
// In 4 KiB-wide tiles (see tile) a transposing region reads both its
// inputs in pieces: a's rows 4 KiB at a time, and b.T's columns (b's rows)
// a cache line per band. The hardware prefetcher follows neither, so on
// 3162² float64 a + b.T took twice a + b's time, however the tiles were
// shaped (docs/executor.md). A panel is instead a tile of whole rows: its
// rows of a and of the output follow one another in memory, one run each
// that the hardware prefetcher follows. Its transposed inputs are copied
// whole first, in their own memory order (a run of each of b's rows, 512
// bytes of it, with software prefetches ahead), into a per-worker buffer;
// the panel is then computed as one flat run of r×c elements from that
// buffer and the other operands in place.
//
// On 3162² float64 a + b.T with two workers panels took the region from
// 0.44–0.51x of a + b's throughput to 0.53–0.62x in one process (1.2–1.3x
// faster); 1.3–1.5x in float32 and int16, 1.2x in int8, 1.1–1.35x in
// complex128 (2000²), 1.2–1.4x at 2048² and 1.6x at 4096² (rows a multiple
// of 4 KiB apart), 1.2–1.3x on 8000×1000, and equal on 1000². Wider rows
// lose: on 1000×8000, 1500×6000 and 1000×10000 float32, panels of fewer
// rows (to keep the buffer small) were 0.84–1.0x, so panels are for rows
// of at most maxPanelBytes/panelRun elements (4096). A copy (x.T
// materialized) gains nothing from the extra pass through the buffer
// (0.88–0.93x in float64 and int8): it keeps its bands.
const (
	// panelRun is how many bytes of each row of a transposed input a panel
	// copies: the panel's height. 1 KiB was slower (1.1–1.2x).
	panelRun = 512
	// maxPanelBytes bounds a panel's copy of one transposed input.
	maxPanelBytes = 2 << 20
	// panelChunk is how many of a transposed input's rows loadPanel copies
	// per call of the transpose loop: 32 and 64 were 1.3–1.4x faster than
	// 16, 8 slower still.
	panelChunk = 32
	// panelAhead is how many rows of a transposed input ahead loadPanel
	// prefetches (when the region prefetches): 32 to 128 measured alike.
	panelAhead = 64
)

// panelRows returns the height of the panels a transposing region with
// bands of band rows runs in, or 0 when it runs in 4 KiB-wide tiles. A
// panel is panelRun bytes of elemSize-byte elements high, a multiple of a
// band, and needs:
//   - every operand strided along the rows to be a transposed input (its
//     rows one element apart), which the panel copies;
//   - every other operand to be contiguous across its rows or constant;
//   - the copy of a transposed input to fit maxPanelBytes.
func (g *region) panelRows(elemSize, band int) int {
	d := len(g.lay.sizes)
	nout := len(g.lay.strides) - len(g.inputs)
	for op, st := range g.lay.strides {
		stR, stC := st[d-2], st[d-1]
		switch {
		case stC > 1 && (op < nout || stR != 1):
			return 0
		case stC == 1 && stR != g.cols, stC == 0 && stR != 0:
			return 0
		}
	}
	p := panelRun / max(1, elemSize)
	p -= p % max(1, band)
	if p == 0 || p*g.cols*elemSize > maxPanelBytes {
		return 0
	}
	return p
}

// runPanel computes the current tile of a region in panels: it copies the
// tile of each transposed input into that input's buffer (loadPanel) and
// then computes the tile as one run of r×c elements, in pieces of
// g.piece, from those copies and the other operands in place.
func (g *region) runPanel(st *regionState) {
	nout := len(g.outputs)
	ahead := 0
	if g.prefetches {
		ahead = panelAhead
	}
	for s := range g.inputs {
		if g.bandedInput(s) {
			st.slots[s].loadPanel(&st.geoms[nout+s], st.offs[nout+s], ahead)
		}
	}
	for op := range st.rowGeoms {
		rg := &st.rowGeoms[op]
		*rg = st.geoms[op]
		rg.r = 1
	}
	total := st.geoms[0].r * st.geoms[0].c
	for k := 0; k < total; k += g.piece {
		n := min(g.piece, total-k)
		if n != st.prepared {
			for s := len(g.inputs); s < len(st.slots); s++ {
				st.slots[s].prepare(n)
			}
			st.prepared = n
		}
		for op := range st.rowGeoms {
			st.rowGeoms[op].c = n
		}
		for s := range g.inputs {
			if g.bandedInput(s) {
				st.slots[s].part(k, n)
			} else {
				rg := &st.rowGeoms[nout+s]
				st.slots[s].load(rg, st.offs[nout+s]+k*rg.stC)
			}
		}
		g.compute(st, st.rowGeoms, 0, k, n)
	}
}

func (s *slot[T]) loadPanel(g *geom, off, ahead int) {
	k, r, c := s.transposeRows, g.r, g.c
	body := 0
	if k > 0 && simd.Enabled {
		body = r - r%k
	}
	for j0 := 0; j0 < c; j0 += panelChunk {
		n := min(panelChunk, c-j0)
		if ahead > 0 {
			for j := j0 + ahead; j < min(j0+ahead+n, c); j++ {
				o := off + j*g.stC
				simd.PrefetchL2(s.data[o : o+r])
			}
		}
		for i := 0; i < body; i += k {
			s.transpose(s.buf[i*c+j0:], c, s.data[off+j0*g.stC+i:], g.stC, n)
		}
		// Rows past the last whole k, or all of them when the loops were
		// turned off (simd.Enabled) after the slot was made.
		for i := body; i < r; i++ {
			row, o := s.buf[i*c+j0:i*c+j0+n], off+j0*g.stC+i
			for j := range row {
				row[j] = s.data[o]
				o += g.stC
			}
		}
	}
}
