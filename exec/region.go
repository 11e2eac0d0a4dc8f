package exec

import (
	"fmt"
	"io"
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// region is one fused elementwise kernel: it computes several outputs of one
// shape in one pass over memory. Its operands are its outputs (first) and
// its inputs, walked over a merged layout in blocks of r rows × c columns of
// the layout's two innermost axes.
type region struct {
	note    string // why the region is there, for describe: a staged copy, a final pass
	shape   tensor.Shape
	lay     layout
	offsets []int // per operand, the tensor's storage offset

	slotDT []dtype.DType // inputs first, then computed nodes
	scalar []bool
	inputs []int // value of each input slot
	// The input slots with one value over the whole region (a 0-d tensor
	// or one broadcast along every axis), loaded once per task, and the
	// others. An invariant slot is a scalar slot, except the input of a
	// copyRegion, whose layout always merges to one axis: a task's first
	// block is then as long as any later one, so its one load fits them.
	invariant, varying []int
	instrs             []instrSpec
	outputs            []regionOutput
	hint               string // the region as a cmd/tpkernel expression, in debug plans

	// Tiling. In row mode (a transposing region) a block is an r×c tile,
	// computed a row at a time (see runRows).
	r, c, rows, cols int
	rowMode          bool
	piece            int    // in row mode, the elements of a row computed at once
	tileGather       bool   // row mode gathers whole tiles (see tile)
	band             int    // row mode copies transposed inputs band rows at a time (see runRows)
	panel            bool   // row mode in tiles of whole rows (see panelRows)
	banded           []bool // per input slot: copied in bands (see markBands)
	outer            []int  // extents of the axes outside the tile
	rowChunks        int
	colChunks        int
	blocks           int
	numel            int
	streams          bool // some kernel streams its stores: fence after a task
	// bufferless: every block is read and written in place (see
	// lengthenBlocks), so the slots get no buffers.
	bufferless bool
	prefetches bool // runRows prefetches (see prefetch)

	states sync.Pool // *regionState, one per concurrent task
	runs   sync.Pool // *regionRun
}

type instrSpec struct {
	op      expr.Op
	dst     int
	args    []int
	argType dtype.DType
	// A fused pair: op(inner(args[0], args[1]), args[2]) when left, else
	// op(args[2], inner(args[0], args[1])).
	inner       expr.Op
	left        bool
	innerScalar bool // args[1] is constant over the block
	// stream: the kernel writes a large output directly; it stores with
	// non-temporal stores where it has them (see streamBytes).
	stream bool

	// A registered kernel computing the whole region (see Kernel): the
	// slots of its vector inputs and of its scalars, in its own order.
	compiled              *compiledEntry
	compiledIn, compiledS []int
}

type regionOutput struct {
	value  int
	src    int  // slot that holds the output's values
	direct bool // the producing kernel writes the output's storage itself
	stream bool // stored (not direct) with non-temporal stores (see markStreams)
}

// regionState is one worker's scratch for a region: typed slots, the
// kernel calls bound to them, and per-operand block geometry.
type regionState struct {
	slots    []slotAny
	outs     []slotAny
	instrs   []func(n int)
	geoms    []geom
	rowGeoms []geom // one row of the current tile, in row mode
	bandGeom geom   // a band of the current tile's rows, in row mode
	offs     []int
	idx      []int
	cs       castScratch
	rscratch any // a *reduceScratch[T] once the state has reduced

	// prepared is the block length the node slots' buffers are set up for
	// (0: none), so that a run of equal blocks prepares them once.
	prepared int
}

func (g *region) newState() (*regionState, error) {
	st := &regionState{
		slots:    make([]slotAny, len(g.slotDT)),
		outs:     make([]slotAny, len(g.outputs)),
		geoms:    make([]geom, len(g.lay.strides)),
		rowGeoms: make([]geom, len(g.lay.strides)),
		offs:     make([]int, len(g.lay.strides)),
		idx:      make([]int, len(g.outer)),
	}
	// The buffers of slots of one element type come from one allocation
	// (see newSlots).
	done := make([]bool, len(g.slotDT))
	for i, dt := range g.slotDT {
		if done[i] {
			continue
		}
		var idx, lens []int
		var scalar []bool
		for j := i; j < len(g.slotDT); j++ {
			if g.slotDT[j] == dt {
				idx, scalar = append(idx, j), append(scalar, g.scalar[j])
				lens = append(lens, g.slotLen(j))
				done[j] = true
			}
		}
		for k, s := range typedFor(dt).newSlots(lens, scalar) {
			st.slots[idx[k]] = s
		}
	}
	for i, o := range g.outputs {
		st.outs[i] = typedFor(g.slotDT[o.src]).newSlot(0, true)
		if o.stream {
			st.outs[i].streamStores()
		}
	}
	for _, in := range g.instrs {
		args := make([]slotAny, len(in.args))
		for k, a := range in.args {
			args[k] = st.slots[a]
		}
		var f func(n int)
		var err error
		switch {
		case in.compiled != nil:
			ins, ss := make([]slotAny, len(in.compiledIn)), make([]slotAny, len(in.compiledS))
			for k, s := range in.compiledIn {
				ins[k] = st.slots[s]
			}
			for k, s := range in.compiledS {
				ss[k] = st.slots[s]
			}
			f = in.compiled.bind(st.slots[in.dst], ins, ss)
		case in.inner != expr.OpInvalid:
			f, err = typedFor(g.slotDT[in.dst]).fusedInstr(in, st.slots[in.dst], args)
		default:
			f, err = typedFor(g.slotDT[in.dst]).instr(in, st.slots[in.dst], args, &st.cs)
		}
		if err != nil {
			return nil, err
		}
		st.instrs = append(st.instrs, f)
	}
	d := len(g.lay.sizes)
	for op := range st.geoms {
		gm := &st.geoms[op]
		gm.cols = g.cols
		gm.stC = g.lay.strides[op][d-1]
		if d >= 2 {
			gm.stR = g.lay.strides[op][d-2]
		}
	}
	return st, nil
}

// slotLen is the buffer length of slot s: a block, or in row mode a piece of
// a tile's row, a band of a tile's rows for a transposed input copied in
// bands, or a whole tile for a strided input that tileGather gathers or a
// panel copies; none in a bufferless region.
func (g *region) slotLen(s int) int {
	switch {
	case g.bufferless:
		return 0
	case g.tileGather && g.stridedInput(s), g.panel && g.bandedInput(s):
		return g.r * g.c
	case g.bandedInput(s):
		return g.band * g.bandStride(s)
	case g.rowMode:
		return g.piece
	}
	return g.r * g.c
}

// bandedInput reports whether runRows copies input slot s a band of rows at
// a time (see markBands).
func (g *region) bandedInput(s int) bool { return s < len(g.banded) && g.banded[s] }

// transposedBand returns the rows of a band for a region whose strided
// inputs have these layout strides and element types: the most rows any of
// them copies at once, 0 when none has transpose loops (see runRows).
func transposedBand(strides [][]int, dts []dtype.DType) int {
	band := 0
	for s, st := range strides {
		if transposedRows(st) {
			band = max(band, transposeRows(dts[s]))
		}
	}
	return band
}

// transposedRows reports whether an operand with these layout strides is
// a transposed one that bands can copy: strided along the rows, its rows
// one element apart.
func transposedRows(st []int) bool {
	d := len(st)
	return d >= 2 && st[d-1] > 1 && st[d-2] == 1
}

// markBands marks the inputs runRows copies in bands: in a row-mode region
// with bands, each transposed input (its rows one element apart, strided
// along them) whose type has transpose loops (with AVX2, every type). The
// layout's first nout operands are the outputs.
func (g *region) markBands(nout int) {
	g.banded = nil
	if g.band == 0 {
		return
	}
	g.banded = make([]bool, len(g.inputs))
	for s := range g.inputs {
		g.banded[s] = transposedRows(g.lay.strides[nout+s]) && transposeRows(g.slotDT[s]) > 0
	}
}

// bandStride is the distance between the rows of a banded input's buffer: a
// tile's row and a cache line. Rows of 512 float64 or 1024 float32 elements
// (4 KiB) would all start in the same cache sets, with the transposed
// operand's lines and the other operands' rows evicting one another: on
// 3162² a + b.T the padding took the region from 8.4 to 7.1 ms.
func (g *region) bandStride(s int) int { return g.c + max(1, 64/g.slotDT[s].Size()) }

// stridedInput reports whether slot s is an input strided along the rows.
func (g *region) stridedInput(s int) bool {
	if s >= len(g.inputs) {
		return false
	}
	st := g.lay.strides[len(g.outputs)+s]
	return st[len(st)-1] > 1
}

// A region splits into tasksPerWorker tasks per worker, each of at least
// minTask elements where the region is large enough. Workers take tasks in
// turn, so one that is slowed (by the other tenants of a shared machine, or
// by the other worker's memory traffic) takes fewer; the time both wait at
// the end is at most one task. With 4 tasks per worker (a 1e7-element
// region in tasks of 1.25e6) that wait cost (a*b+c)*(a-b)/(c+1.5) 3–8% of
// its time against the hand loop, which splits evenly; with 16, 0–3%.
const (
	tasksPerWorker = 16
	minTask        = 8192
)

// regionRun is one evaluation of a region: the tensors it reads and writes
// and how the blocks are split into tasks.
type regionRun struct {
	g             *region
	vals          []tensor.Any
	blocksPerTask int
	err           error
	mu            sync.Mutex
}

func (g *region) run(x *Executor, vals []tensor.Any) error {
	if g.numel == 0 {
		return nil
	}
	rr, _ := g.runs.Get().(*regionRun)
	if rr == nil {
		rr = &regionRun{g: g}
	}
	rr.vals, rr.err = vals, nil
	tasks := 1
	if x.workers > 1 && g.numel >= x.grain {
		tasks = min(g.blocks, x.workers*tasksPerWorker, max(x.workers, g.numel/minTask))
	}
	rr.blocksPerTask = (g.blocks + tasks - 1) / tasks
	tasks = (g.blocks + rr.blocksPerTask - 1) / rr.blocksPerTask
	if tasks == 1 {
		rr.runTask(0)
	} else {
		x.pool().parallel(tasks, rr)
	}
	err := rr.err
	rr.vals = nil
	g.runs.Put(rr)
	return err
}

func (rr *regionRun) runTask(task int) {
	g := rr.g
	st, _ := g.states.Get().(*regionState)
	if st == nil {
		var err error
		if st, err = g.newState(); err != nil {
			rr.mu.Lock()
			rr.err = err
			rr.mu.Unlock()
			return
		}
	}
	nout := len(g.outputs)
	for i, o := range g.outputs {
		st.outs[i].bind(rr.vals[o.value])
	}
	for s, v := range g.inputs {
		st.slots[s].bind(rr.vals[v])
	}
	lo := task * rr.blocksPerTask
	hi := min(lo+rr.blocksPerTask, g.blocks)
	cc := lo % g.colChunks // the block's chunk of its rows
	for b := lo; b < hi; b, cc = b+1, cc+1 {
		if cc == g.colChunks {
			cc = 0
		}
		if b == lo || cc == 0 {
			g.blockOffsets(st, b)
		} else {
			// The next chunk of the same rows: step along the columns.
			c := min(g.c, g.cols-cc*g.c)
			for op := range st.offs {
				gm := &st.geoms[op]
				st.offs[op] += g.c * gm.stC
				gm.c = c
			}
		}
		if g.panel {
			g.runPanel(st)
			continue
		}
		if g.rowMode {
			g.runRows(st)
			continue
		}
		n := st.geoms[0].r * st.geoms[0].c
		if n != st.prepared && !g.bufferless {
			for s := len(g.inputs); s < len(st.slots); s++ {
				st.slots[s].prepare(n)
			}
			st.prepared = n
		}
		if b == lo {
			for _, s := range g.invariant {
				st.slots[s].load(&st.geoms[nout+s], st.offs[nout+s])
			}
		}
		for _, s := range g.varying {
			st.slots[s].load(&st.geoms[nout+s], st.offs[nout+s])
		}
		g.compute(st, st.geoms, 0, 0, n)
	}
	if g.streams {
		simd.Fence()
	}
	st.release()
	g.states.Put(st)
}

// compute runs the kernels on the n loaded elements and writes the outputs:
// each output's block is row rows and col columns from its current offset,
// of the shape geoms gives. An output whose block is contiguous is written by its
// producing kernel directly; the others are stored after the kernels ran.
func (g *region) compute(st *regionState, geoms []geom, row, col, n int) {
	var direct uint64
	for k, o := range g.outputs {
		if o.direct && st.outs[k].redirect(st.slots[o.src], &geoms[k], st.offs[k]+row*geoms[k].stR+col*geoms[k].stC) {
			direct |= 1 << k // always, in a bufferless region: its output is contiguous
		}
	}
	for _, f := range st.instrs {
		f(n)
	}
	for k, o := range g.outputs {
		if direct&(1<<k) == 0 {
			st.outs[k].storeFrom(st.slots[o.src], &geoms[k], st.offs[k]+row*geoms[k].stR+col*geoms[k].stC)
		}
	}
	for k, o := range g.outputs {
		if direct == 0 {
			break
		}
		if direct&(1<<k) != 0 && !g.bufferless {
			st.slots[o.src].prepare(n) // back to its own buffer for the next block
		}
	}
}

// runRows computes the current tile of a row-mode region a row at a time,
// each row in pieces of up to g.piece elements (the slots' length). Every
// operand's piece is loaded as a block of one row: an operand strided along
// the rows (a transposed view) is gathered, the others are read and written
// in place. The tile's height is what makes the gather cheap: its first row
// reads one cache line from each of c rows of the transposed operand, and
// the next rows find the following elements of those lines in cache.
//
// A transposed input whose type has transpose loops (bandedInput: every
// type, with AVX2) is instead copied g.band rows at a time (64 bytes of its
// elements, a cache line of each of its c rows, or 8 rows of 1- and 2-byte
// elements; more where another input sets a larger band) into a buffer that
// the band's rows take their pieces of. The loops move it through the
// vector registers in square blocks, several elements per instruction where
// the row-by-row gather takes one: on 3162² a + b.T with two workers that
// took the region from 8.9 to 7.1 ms in float64, from 7.2 to 4.5 ms in
// float32, from 6.8 to 3.2 ms in int16 and from 6.8 to 2.1 ms in int8.
//
// With tileGather the strided inputs are instead gathered for the whole
// tile first, in their own memory order (see gather), and each row takes its
// piece of that.
func (g *region) runRows(st *regionState) {
	nout := len(g.outputs)
	r, c := st.geoms[0].r, st.geoms[0].c
	for op := range st.geoms {
		rg, gm := &st.rowGeoms[op], &st.geoms[op]
		*rg = *gm
		rg.r = 1
	}
	if g.tileGather {
		for s := range g.inputs {
			if gm := &st.geoms[nout+s]; gm.stC > 1 {
				st.slots[s].load(gm, st.offs[nout+s])
			}
		}
	}
	for i := 0; i < r; i++ {
		if g.band > 0 && i%g.band == 0 {
			for s := range g.inputs {
				if g.bandedInput(s) {
					bg := &st.bandGeom
					*bg = st.geoms[nout+s]
					bg.r = min(g.band, r-i)
					st.slots[s].loadBand(bg, st.offs[nout+s]+i*bg.stR, g.bandStride(s))
				}
			}
		}
		if g.prefetches {
			g.prefetch(st, i, r, c)
		}
		for j := 0; j < c; j += g.piece {
			n := min(g.piece, c-j)
			g.preparePiece(st, n)
			for s := range g.inputs {
				rg := &st.rowGeoms[nout+s]
				switch {
				case g.tileGather && rg.stC > 1:
					st.slots[s].part(i*c+j, n)
				case g.bandedInput(s):
					st.slots[s].part(i%g.band*g.bandStride(s)+j, n)
				default:
					st.slots[s].load(rg, st.offs[nout+s]+i*rg.stR+j*rg.stC)
				}
			}
			g.compute(st, st.rowGeoms, i, j, n)
		}
	}
}

// preparePiece readies st for a piece of n elements of a row (or, in
// panels, of a panel's run): the node slots' buffers and every operand's
// row geometry.
func (g *region) preparePiece(st *regionState, n int) {
	if n != st.prepared {
		for s := len(g.inputs); s < len(st.slots); s++ {
			st.slots[s].prepare(n)
		}
		st.prepared = n
	}
	for op := range st.rowGeoms {
		st.rowGeoms[op].c = n
	}
}

// release forgets the tensors a task bound, before the state is pooled.
func (st *regionState) release() {
	for _, s := range st.slots {
		s.release()
	}
	for _, s := range st.outs {
		s.release()
	}
	st.prepared = 0
}

// blockOffsets sets every operand's storage offset and the block's extent
// for block b.
func (g *region) blockOffsets(st *regionState, b int) {
	cc := b % g.colChunks
	b /= g.colChunks
	rc := b % g.rowChunks
	b /= g.rowChunks
	for k := len(g.outer) - 1; k >= 0; k-- {
		st.idx[k] = b % g.outer[k]
		b /= g.outer[k]
	}
	r := min(g.r, g.rows-rc*g.r)
	c := min(g.c, g.cols-cc*g.c)
	for op, strides := range g.lay.strides {
		off := g.offsets[op]
		for k, i := range st.idx {
			off += i * strides[k]
		}
		gm := &st.geoms[op]
		off += rc*g.r*gm.stR + cc*g.c*gm.stC
		st.offs[op] = off
		gm.r, gm.c = r, c
	}
}

// tile chooses the block shape: whole rows of up to `block` elements, several
// short rows per block, or, when an operand is strided along the inner axis
// (a transposed view), r×c tiles run in row mode. With bands, a region
// that computes something (panels) runs in panels of whole rows where
// panelRows allows, computed in pieces of `block` elements (see panel.go).
// Otherwise a tile is transposeRun bytes of the strided operand's elements
// high, and when its transposed inputs are copied in bands of band rows
// (band > 0, see runRows) bandRowBytes of them wide: each band reads a
// cache line from each of c rows of the transposed operand, but from no
// more than maxBandCols rows.
// Rows shorter than two such widths (and than maxBandCols) make one tile
// across: a band's rows of the other operands are then one run of memory,
// which the hardware prefetcher follows (on 600² to 1000² float64 and
// 1500² float32 a + b.T, 1.1–1.3x faster than a full tile and the rest).
//
// Without bands a tile is transposeCols columns wide: its first row reads
// one cache line from each of c rows of the transposed operand, and the
// tile's next rows use the rest of those lines from cache. That needs the
// c lines to stay in cache, which they do not when the transposed
// operand's rows are a multiple of 4 KiB apart (aliased): they then all
// fall in a few cache sets. Such a region gathers whole tiles of aliasRun
// bytes × aliasCols columns instead, reading the operand in its own memory
// order, and then computes the tile a row at a time. A band uses each line
// it reads at once, so bands need no such tiles.
//
// A region that would have fewer tiles than workers gets lower ones.
//
// maxBandCols bounds the pages a band reads, one per transposed row: past
// the 2048 entries of the second-level TLB (AMD Zen 2 and 3) every line a
// band reads needs a page walk. int8 a + b.T on 4000² ran 2.4x faster in
// 2048-column tiles than in 4000-column ones.
//
// The figures come from sweeps of a + b.T with two goroutines. With bands,
// 4 KiB of row was 1.2–1.7x faster than 2 or 8 KiB in float32 and float64
// (1.04x in complex128, up to 1.15x in int16, equal in int8) at n = 1000,
// 2048 and 3162, except float64 at 2048 and 3072, where 2 KiB was
// 1.1–1.2x faster. Bands also beat the whole tiles of aliased rows: at
// n = 1024, 1792 and 2048 they were 1.3–2.1x faster. Without bands, at
// n = 3162 (rows 25296 bytes apart), 512 columns were 1.2–1.6x faster than
// 256 or 1024 at every height from 16 to 512 rows, heights of 64 to 256
// rows equal, and gathering whole tiles 1.6–1.8x slower. At n = 2048,
// 2560, 3072 and 4096 (aliased) whole 32×128 tiles were 1.15–1.3x faster
// than the best row-at-a-time tile; at n = 1792 and 2304 (rows a multiple
// of 2 KiB apart) they were 1.05–1.3x slower.
const (
	transposeRun  = 1024
	bandRowBytes  = 4096
	maxBandCols   = 2048
	transposeCols = 512
	aliasRun      = 256
	aliasCols     = 128
	aliasStride   = 4096
)

// shortRow is the row length below which a block holds several rows.
const shortRow = 256

func (g *region) tile(block, elemSize int, aliased bool, band, workers int, panels bool) {
	sizes := g.lay.sizes
	d := len(sizes)
	g.cols = sizes[d-1]
	g.rows = 1
	if d >= 2 {
		g.rows = sizes[d-2]
		g.outer = sizes[:d-2]
	}
	strided := false
	for _, st := range g.lay.strides {
		if st[d-1] > 1 {
			strided = true
		}
	}
	g.band, g.panel = 0, false
	panelRows := 0
	if strided && d >= 2 && band > 0 && panels {
		panelRows = g.panelRows(elemSize, band)
	}
	lowest := 8 // the lowest tile
	switch {
	case panelRows > 0:
		g.c = g.cols
		g.r = min(g.rows, panelRows)
		g.piece = block
		g.rowMode, g.band, g.panel = true, band, true
		lowest = band
	case strided && d >= 2 && band > 0:
		g.c = max(1, min(g.cols, bandRowBytes/max(1, elemSize), maxBandCols))
		if g.cols < 2*g.c && g.cols <= maxBandCols {
			g.c = g.cols // one tile across (see above)
		}
		g.r = min(g.rows, max(band, transposeRun/max(1, elemSize)))
		g.piece = min(g.c, block)
		g.rowMode, g.band = true, band
		lowest = max(lowest, band)
	case strided && d >= 2 && aliased:
		g.c = max(1, min(g.cols, aliasCols, block))
		g.r = min(g.rows, max(8, aliasRun/max(1, elemSize)))
		g.piece = g.c
		g.rowMode, g.tileGather = true, true
	case strided && d >= 2:
		g.c = max(1, min(g.cols, transposeCols))
		g.r = min(g.rows, max(8, transposeRun/max(1, elemSize)))
		g.piece = min(g.c, block)
		g.rowMode = true
	case d >= 2 && g.cols < shortRow:
		// Short rows: several per block. (Long rows go one at a time, so
		// that an operand broadcast along them stays a scalar.)
		g.c = max(1, g.cols)
		g.r = min(g.rows, max(1, block/g.c))
	default:
		g.c = min(g.cols, block)
		g.r = 1
	}
	g.r, g.c = max(g.r, 1), max(g.c, 1) // zero-size spaces run no blocks
	g.countBlocks()
	// A transposing region smaller than a tile per worker gets lower tiles,
	// so that every worker has one.
	for g.rowMode && g.blocks < workers && g.r > lowest {
		g.r = max(lowest, (g.r+1)/2)
		g.countBlocks()
	}
	g.numel = 1
	for _, s := range sizes {
		g.numel *= s
	}
}

// countBlocks sets the number of tiles along each axis and in all.
func (g *region) countBlocks() {
	g.rowChunks = (g.rows + g.r - 1) / g.r
	g.colChunks = (g.cols + g.c - 1) / g.c
	g.blocks = g.rowChunks * g.colChunks
	for _, o := range g.outer {
		g.blocks *= o
	}
}

func (g *region) describe(w io.Writer, names func(v int) string) {
	whole, pf := "", ""
	if g.tileGather {
		whole = " gathered whole"
	}
	if g.band > 0 {
		whole = fmt.Sprintf(" in bands of %d", g.band)
	}
	if g.panel {
		whole = " in panels"
	}
	if g.prefetches {
		pf = ", prefetching"
	}
	fmt.Fprintf(w, "  fused %s: %d outputs, %d kernels, layout %v, tile %dx%d%s%s, %d blocks\n",
		g.shape, len(g.outputs), len(g.instrs), g.lay, g.r, g.c, whole, pf, g.blocks)
	for _, in := range g.instrs {
		if in.compiled != nil {
			fmt.Fprintf(w, "    s%d = compiled %s", in.dst, in.compiled.name)
		} else {
			fmt.Fprintf(w, "    s%d = %s", in.dst, in.op)
		}
		if in.inner != expr.OpInvalid {
			fmt.Fprintf(w, "∘%s", in.inner)
		}
		for _, a := range in.args {
			fmt.Fprintf(w, " s%d", a)
		}
		fmt.Fprintln(w)
	}
	if g.note != "" {
		fmt.Fprintf(w, "    note: %s\n", g.note)
	}
	fmt.Fprint(w, describeHint(g))
	for i, s := range g.inputs {
		fmt.Fprintf(w, "    in  s%d <- %s\n", i, names(s))
	}
	for _, o := range g.outputs {
		mode := "store"
		if o.stream {
			mode = "store, streaming stores"
		}
		if o.direct {
			mode = "direct"
			for _, in := range g.instrs {
				if in.dst == o.src && in.stream {
					mode = "direct, streaming stores"
				}
			}
		}
		fmt.Fprintf(w, "    out %s <- s%d (%s)\n", names(o.value), o.src, mode)
	}
}
