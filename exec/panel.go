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
// whole first, in their own memory order (a run of each of b's rows,
// panelRun bytes of it or smallPanelRun of 1- and 2-byte elements, with
// software prefetches ahead), into a per-worker buffer; the panel is then
// computed as one flat run of r×c elements from that buffer and the other
// operands in place.
//
// Against bands, round-robin in one process, a + b.T with two workers ran
// 1.1–1.3x faster on 3162² float64 (0.53–0.62x of a + b's throughput
// instead of 0.44–0.51x when memory was at its fastest), 1.2–1.3x on 2048²
// and 8000×1000, 1.2–1.7x on 4096² (rows a multiple of 4 KiB apart),
// 1.2–1.5x in float32 (3162²), 1.3x in complex128 (2000²), 1.1–1.35x in
// int16 (3162²) and 1.0–1.25x in int8 and uint8 (2000² to 4000²); equal on
// 300² and 1000², 1.35–1.45x on 100². Wider rows lose: on 1000×8000,
// 1500×6000 and float32 1000×10000, panels low enough for a 2 MiB buffer
// were 0.84–1.0x, so panels are for rows of at most maxPanelCols
// elements. A copy (x.T materialized) gains nothing from the extra pass
// through the buffer (0.88–0.93x in float64 and int8): it keeps its bands.
const (
	// panelRun is how many bytes of each row of a transposed input a panel
	// copies, which sets the panel's height: in float64, 256 bytes were
	// 1.05–1.15x slower, 1 KiB as fast or up to 1.1x slower.
	panelRun = 512
	// smallPanelRun is panelRun for 1- and 2-byte elements, whose
	// transpose loop reads 8 or 16 bytes of each run per call: with 512
	// bytes int8 4000² ran at 0.71–0.76x of bands and int16 3162² at
	// 0.91–1.0x when memory was slow (1.2–1.4x when fast); with 128,
	// 1.04–1.11x and 1.17–1.35x (256 and 64 bytes: a little slower).
	smallPanelRun = 128
	// maxPanelCols is the longest row panels are used for: at 4096
	// columns a panel's copy of a float64 input is 2 MiB.
	maxPanelCols = 4096
	// panelChunk is how many of a transposed input's rows loadPanel copies
	// per call of the transpose loop: with 32 or 64 the copy was 1.2–1.5x
	// faster than with 16 (the region 1.1x), with 8 slower still.
	panelChunk = 32
	// panelAhead is how many rows of a transposed input ahead loadPanel
	// prefetches (when the region prefetches): 32 to 128 measured alike.
	panelAhead = 64
)

// panelRows returns the height of the panels a transposing region with
// bands of band rows runs in, or 0 when it runs in 4 KiB-wide tiles. A
// panel is panelRun (smallPanelRun) bytes of elemSize-byte elements high
// (elemSize is the widest transposed operand's: a narrower one copies
// fewer bytes of each run), a multiple of a band, and needs:
//   - every operand strided along the rows to be a transposed input (its
//     rows one element apart), which the panel copies;
//   - every other operand to be contiguous across its rows or constant
//     over the panel (stride 0 along both axes): a row broadcast down the
//     rows ([1,C]) or a column ([R,1]) is neither;
//   - rows of at most maxPanelCols elements.
func (g *region) panelRows(elemSize, band int) int {
	if g.cols > maxPanelCols {
		return 0
	}
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
	run := panelRun
	if elemSize < 4 {
		run = smallPanelRun
	}
	p := run / max(1, elemSize)
	return max(band, p-p%max(1, band))
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
		g.preparePiece(st, n)
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
