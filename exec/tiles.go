package exec

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
)

// Tile plans: how a region's blocks are shaped and computed, one value per
// region filled from the rows of tileTable (the first row whose case
// holds). docs/executor.md gives the measurements behind every number.

// tilePlan is the shape of a region's blocks and how runBlock computes one.
type tilePlan struct {
	name string // the table row, for the debug plan
	// r and c are a block's extent on the layout's two innermost axes.
	r, c int
	// rowwise: the block is computed a row at a time; otherwise it is one
	// run of r×c elements (which needs its direct operands contiguous
	// across rows, see classify).
	rowwise bool
	// copyRows is how many rows of each transposed input are copied into
	// its buffer at once (0: the region has none); copyRuns how many of
	// the transposed operand's runs (its rows) one call of the transpose
	// loop copies.
	copyRows, copyRuns int
	// piece is the elements per kernel call: a run is computed in pieces.
	piece int
	// prefetch: runBlock asks for what the next rows read (see prefetch).
	prefetch bool
	// ahead: runBlock asks for the next block's inputs (see prefetchNext).
	ahead bool
	// bufferless: every block is read and written in place, so the slots
	// get no buffers (see tileFacts.bufferless).
	bufferless bool
}

// tileFacts is what the table's cases look at.
type tileFacts struct {
	strides    [][]int  // per operand (outputs first), over the layout
	row        []access // per operand, in runs of one row
	indexed    []bool   // per operand: read through an index
	nout       int
	d          int
	rows, cols int
	numel      int
	block      int  // elements per block from the page rule (blockFor)
	runSize    int  // the widest element of an operand strided along the rows
	band       int  // rows the transposed inputs' copy loops write at once
	loops      bool // every transposed input has transpose loops (AVX2)
	computes   bool
	bufferless bool // one AVX2 kernel reading and writing in place (see lengthenable)
	reach      int  // a swept region's reach (see sweepPlan); 0 otherwise
	workers    int
	// reduce: the region is a reduction's producer, whose operands are its
	// inputs and then the result (see reduceStep); block is then the run
	// length along the innermost axis.
	reduce bool
	// epilogue: the region runs on blocks of a matrix product's result,
	// which the product chooses (see epilogue.runSpan), rows of cols
	// elements; wholeRows: the block is whole rows read as one run. block
	// is then the piece the region's buffers hold.
	epilogue, wholeRows bool
}

// has reports whether some operand (inputs only, with in) is of kind a.
func (f *tileFacts) has(a access, in bool) bool {
	for op, k := range f.row {
		if k == a && (!in || op >= f.nout) {
			return true
		}
	}
	return false
}

// reducesTransposed reports whether a reduction's producer reads a
// transposed input (its last operand is the result, never read).
func (f *tileFacts) reducesTransposed() bool {
	for _, k := range f.row[:max(0, len(f.row)-1)] {
		if k == accTransposed {
			return true
		}
	}
	return false
}

// panelsFit reports whether every operand can be read as part of one run
// of whole rows: direct across rows, constant, or a transposed input the
// panel copies with its transpose loops (the Go loop copies a panel's
// columns into rows a row apart, which measured 0.5–0.75x of bands on
// W9 under -tags purego).
func (f *tileFacts) panelsFit() bool {
	return f.cols <= maxPanelCols && f.computes && f.loops && f.runsFit()
}

// runsFit reports whether every operand can be read as part of one run of
// whole rows: direct across rows, constant, or a transposed input or a
// repeated row (copied into its buffer first).
func (f *tileFacts) runsFit() bool {
	if f.d < 2 {
		return false
	}
	for op, st := range f.strides {
		switch classify(st, f.indexed[op], true, f.cols) {
		case accStrided:
			if !repeatedRow(st) || op < f.nout {
				return false
			}
		case accIndexed, accReversed:
			return false
		case accTransposed:
			if op < f.nout {
				return false
			}
		}
	}
	return true
}

const (
	// transposeRun is the bytes of a transposed operand's run (its row) a
	// tile covers, which sets the height of bands and strided tiles.
	transposeRun = 1024
	// bandRowBytes is a band tile's width in bytes; maxBandCols caps it
	// (one page per transposed row: past the second-level TLB's entries
	// every line needs a page walk).
	bandRowBytes = 4096
	maxBandCols  = 2048
	// stridedCols is a strided tile's width.
	stridedCols = 512
	// shortRow is the row length below which a block holds several rows.
	shortRow = 256
	// panelRun (smallPanelRun for 1- and 2-byte elements) is the bytes of
	// each run of a transposed input a panel copies, which sets its height;
	// maxPanelCols the longest row a panel takes.
	panelRun      = 512
	smallPanelRun = 128
	maxPanelCols  = 4096
	// panelRuns is how many runs one transpose call of a panel's copy
	// takes, panelAhead how many runs ahead it prefetches.
	panelRuns  = 32
	panelAhead = 64
	// interleaveRow is the widest row (in bytes of the transposed
	// elements) an interleave tile takes: a band's row shorter than a
	// cache line costs a kernel call per few elements. interleaveElems is
	// the elements of an interleave tile.
	interleaveRow   = 64
	interleaveElems = 4096
)

// tileTable is the table of cases: the first row whose when holds plans
// the region's tiles.
var tileTable = []struct {
	name string
	when func(f *tileFacts) bool
	plan func(f *tileFacts) tilePlan
}{
	{"epilogue runs", func(f *tileFacts) bool { return f.epilogue && f.wholeRows }, func(f *tileFacts) tilePlan {
		// A block of the product's rows, one run in pieces (its extents
		// are the product's: r and c are one row, for the buffers).
		return tilePlan{r: 1, c: f.cols, piece: f.block, bufferless: f.bufferless}
	}},
	{"epilogue rows", func(f *tileFacts) bool { return f.epilogue }, func(f *tileFacts) tilePlan {
		// Any other block of the product: a row at a time, in pieces.
		return tilePlan{r: 1, c: f.cols, rowwise: true, piece: f.block, bufferless: f.bufferless}
	}},
	{"reduction runs", func(f *tileFacts) bool { return f.reduce }, func(f *tileFacts) tilePlan {
		// One run along the innermost axis per block, as the reduction's
		// tree consumes it (a transposed input's run copied first).
		c := max(1, min(f.cols, f.block))
		tp := tilePlan{r: 1, c: c, rowwise: true, piece: c}
		if f.reducesTransposed() {
			tp.copyRows, tp.copyRuns = 1, c
		}
		return tp
	}},
	{"sweep", func(f *tileFacts) bool { return f.reach > 0 }, sweepTiles},
	{"bufferless rows", func(f *tileFacts) bool { return f.bufferless }, func(f *tileFacts) tilePlan {
		// Still a block per task where the region has them (see run):
		// the rows (and outer axes) give lines blocks, each row split
		// into enough.
		lines := max(1, f.numel/max(1, f.cols))
		split := (f.workers*tasksPerWorker + lines - 1) / lines
		perTask := ((f.cols+split-1)/split + 63) / 64 * 64
		c := max(min(f.cols, f.block), min(f.cols, directBlock, perTask))
		return tilePlan{r: 1, c: c, piece: c, bufferless: true}
	}},
	{"interleave", func(f *tileFacts) bool {
		return f.cols*f.runSize <= interleaveRow && f.has(accTransposed, true) && f.runsFit()
	}, func(f *tileFacts) tilePlan {
		// Short rows from a transposed input (NCHW → NHWC: the rows are C
		// wide): blocks of many rows, each transposed input copied whole
		// (c runs of r elements, contiguous along the long axis) into rows
		// of c, interleaved, then computed as one run.
		r := min(f.rows, max(f.band, interleaveElems/f.cols/f.band*f.band))
		return tilePlan{r: r, c: f.cols, copyRows: r, copyRuns: f.cols, piece: f.block}
	}},
	{"panels", func(f *tileFacts) bool { return f.has(accTransposed, true) && f.panelsFit() }, func(f *tileFacts) tilePlan {
		run := panelRun
		if f.runSize < 4 {
			run = smallPanelRun
		}
		p := run / f.runSize
		r := min(f.rows, max(f.band, p-p%f.band))
		return tilePlan{r: r, c: f.cols, copyRows: r, copyRuns: panelRuns, piece: f.block}
	}},
	{"bands", func(f *tileFacts) bool { return f.has(accTransposed, true) }, func(f *tileFacts) tilePlan {
		c := max(1, min(f.cols, bandRowBytes/f.runSize, maxBandCols))
		if f.cols < 2*c && f.cols <= maxBandCols {
			c = f.cols // one tile across: the other operands' band rows are one run
		}
		r := min(f.rows, max(f.band, transposeRun/f.runSize))
		return tilePlan{r: r, c: c, rowwise: true, copyRows: f.band, copyRuns: c, piece: min(c, f.block)}
	}},
	{"strided tiles", func(f *tileFacts) bool { return f.d >= 2 && (f.has(accStrided, false) || f.has(accTransposed, false)) },
		func(f *tileFacts) tilePlan {
			c := max(1, min(f.cols, stridedCols))
			return tilePlan{r: min(f.rows, max(8, transposeRun/f.runSize)), c: c, rowwise: true, piece: min(c, f.block)}
		}},
	{"short rows", func(f *tileFacts) bool { return f.d >= 2 && f.cols < shortRow }, func(f *tileFacts) tilePlan {
		c := max(1, f.cols)
		r := min(f.rows, max(1, f.block/c))
		return tilePlan{r: r, c: c, piece: r * c}
	}},
	{"long rows", func(*tileFacts) bool { return true }, func(f *tileFacts) tilePlan {
		c := min(f.cols, f.block)
		return tilePlan{r: 1, c: c, piece: c}
	}},
}

// planTiles fills g.tp from the table and sets every operand's access
// kind for it.
func (g *region) planTiles(f *tileFacts) {
	sizes := g.lay.sizes
	d := len(sizes)
	g.cols, g.rows, g.outer = sizes[d-1], 1, nil
	if d >= 2 {
		g.rows, g.outer = sizes[d-2], sizes[:d-2]
	}
	g.numel = 1
	for _, s := range sizes {
		g.numel *= s
	}
	f.strides, f.d, f.rows, f.cols, f.numel = g.lay.strides, d, g.rows, g.cols, g.numel
	f.runSize, f.block, f.band = max(1, f.runSize), max(1, f.block), max(1, f.band)
	g.tp = tileFor(f)
	tp := &g.tp
	tp.r, tp.c = max(tp.r, 1), max(tp.c, 1) // zero-size spaces run no blocks
	g.countBlocks()
	// A tiled region smaller than a tile per worker gets lower tiles, so
	// that every worker has one; no lower than the copy's rows.
	if (tp.rowwise || tp.copyRows > 0) && f.reach == 0 {
		lowest := max(8, tp.copyRows)
		if tp.copyRows == tp.r {
			lowest = f.band // a panel
		}
		for g.blocks < f.workers && tp.r > lowest {
			tp.r = max(lowest, (tp.r+1)/2)
			g.countBlocks()
		}
		if !tp.rowwise {
			tp.copyRows = tp.r // a panel copies its whole tile
		}
	}
	g.kinds = make([]access, len(f.strides))
	across := !tp.rowwise && tp.r > 1
	for op, st := range f.strides {
		g.kinds[op] = classify(st, f.indexed[op], across, g.cols)
		if g.kinds[op] == accStrided && across && tp.copyRows > 0 && op >= f.nout && repeatedRow(st) {
			g.kinds[op] = accRepeated
		}
	}
}

// repeatedRow reports whether an operand of these layout strides is one
// row broadcast down the rows: unit stride along the row, 0 across rows.
func repeatedRow(st []int) bool {
	d := len(st)
	return d >= 2 && st[d-1] == 1 && st[d-2] == 0
}

// tileFor returns the plan of the first row of tileTable whose case holds.
func tileFor(f *tileFacts) tilePlan {
	for _, row := range tileTable {
		if row.when(f) {
			tp := row.plan(f)
			tp.name = row.name
			return tp
		}
	}
	panic("exec: no tile table row") // the last row always holds
}

// countBlocks sets the number of tiles along each axis and in all.
func (g *region) countBlocks() {
	g.rowChunks = (g.rows + g.tp.r - 1) / g.tp.r
	g.colChunks = (g.cols + g.tp.c - 1) / g.tp.c
	g.blocks = g.rowChunks * g.colChunks
	for _, o := range g.outer {
		g.blocks *= o
	}
}

// copyBand returns the rows the transposed inputs of these types copy at
// once: the most rows any of their transpose loops writes, or a cache
// line of the widest's elements where they have none (the copy is then a
// Go loop).
func copyBand(dts []dtype.DType) (band int, loops bool) {
	loops = true
	for _, dt := range dts {
		if k := transposeRows(dt); k > 0 {
			band = max(band, k)
		} else {
			band = max(band, min(16, max(1, 64/dt.Size())))
			loops = false
		}
	}
	return max(1, band), loops
}

// copyStride is the distance between the rows of a transposed input's
// buffer: a tile's row, and for a tile computed row by row a cache line
// more, so that rows of 4 KiB do not all start in the same cache sets.
func (g *region) copyStride(s int) int {
	if !g.tp.rowwise {
		return g.tp.c
	}
	return g.tp.c + max(1, 64/g.slotDT[s].Size())
}

// describe prints the plan: rows x cols, the table row and its values.
func (tp *tilePlan) String() string {
	s := fmt.Sprintf("%dx%d %s", tp.r, tp.c, tp.name)
	if tp.copyRows > 0 {
		s += fmt.Sprintf(", copying %d rows", tp.copyRows)
	}
	if tp.piece < tp.r*tp.c {
		s += fmt.Sprintf(", pieces of %d", tp.piece)
	}
	if tp.prefetch {
		s += ", prefetching"
	}
	if tp.ahead {
		s += ", prefetching the next block"
	}
	return s
}
