package exec

import (
	"fmt"
	"io"
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/internal/stash"
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
	scalar []bool        // per slot: one value per run (see access.constant)
	inputs []int         // value of each input slot
	// kinds is each operand's access kind (outputs first, then inputs, as
	// in the layout), decided by classify for the tile plan.
	kinds []access
	// reads is, per input slot, how it reads through an index (nil when
	// no input does; see index.go).
	reads []indexedRead
	// The input slots with one value over the whole region (a 0-d tensor
	// or one broadcast along every axis), loaded once per task, and the
	// others.
	invariant, varying []int
	instrs             []instrSpec
	outputs            []regionOutput
	hint               string // the region as a cmd/tpkernel expression, in debug plans

	tp         tilePlan // the blocks' shape and how they are computed
	rows, cols int      // extents of the layout's two innermost axes
	outer      []int    // extents of the axes outside the tile
	rowChunks  int
	colChunks  int
	blocks     int
	numel      int
	streams    bool       // some output stores around the caches: fence after a task
	sweep      *sweepPlan // inputs read the destination shifted: written a block behind (see sweep.go)

	states stash.Stash[regionState] // one per concurrent task
	runs   stash.Stash[regionRun]
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
	value int
	src   int   // slot that holds the output's values
	store store // how it is written (see planStores)
}

// regionState is one worker's scratch for a region: typed slots, the
// kernel calls bound to them, and per-operand block geometry.
type regionState struct {
	slots    []slotAny
	outs     []slotAny
	instrs   []func(n int)
	geoms    []geom // the current block
	rowGeoms []geom // the current piece, when it is not the whole block
	copyGeom geom   // the rows of a transposed input being copied
	offs     []int
	idx      []int
	cs       castScratch
	rscratch any       // a *reduceScratch[T] once the state has reduced
	rel      *releases // the task's mapped operands, or nil (see RangeReleaser)

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
		if o.store == storeCopiedStream {
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
		gm.stC = g.lay.strides[op][d-1]
		if d >= 2 {
			gm.stR = g.lay.strides[op][d-2]
		}
	}
	return st, nil
}

// slotLen is the buffer length of slot s, one row per access kind: none
// for a constant or direct input, a copy of copyRows rows for a
// transposed one, a piece for a strided input or a computed node; none at
// all in a bufferless region.
func (g *region) slotLen(s int) int {
	if g.tp.bufferless {
		return 0
	}
	if s >= len(g.inputs) {
		return g.tp.piece
	}
	switch g.kinds[len(g.outputs)+s] {
	case accTransposed, accRepeated:
		return max(1, g.tp.copyRows) * g.copyStride(s)
	case accStrided, accIndexed, accReversed:
		return g.tp.piece
	}
	return 0 // constant: a value; direct: its storage
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
	if g.sweep != nil {
		return g.runSweep(x, vals)
	}
	tasks := 1
	if x.workers > 1 && g.numel >= x.grain {
		tasks = min(g.blocks, x.workers*tasksPerWorker, max(x.workers, g.numel/minTask))
	}
	if tasks == 1 {
		return g.runBlocks(vals, 0, g.blocks)
	}
	rr := g.runs.Get()
	if rr == nil {
		rr = &regionRun{g: g}
	}
	rr.vals, rr.err = vals, nil
	rr.blocksPerTask = (g.blocks + tasks - 1) / tasks
	tasks = (g.blocks + rr.blocksPerTask - 1) / rr.blocksPerTask
	x.pool().parallel(tasks, rr)
	err := rr.err
	rr.vals = nil
	g.runs.Put(rr)
	return err
}

func (rr *regionRun) RunTask(task int) {
	lo := task * rr.blocksPerTask
	if err := rr.g.runBlocks(rr.vals, lo, min(lo+rr.blocksPerTask, rr.g.blocks)); err != nil {
		rr.mu.Lock()
		rr.err = err
		rr.mu.Unlock()
	}
}

// runBlocks computes blocks lo to hi-1 of the region over the run's
// tensors vals, with a worker state of the region's pool.
func (g *region) runBlocks(vals []tensor.Any, lo, hi int) error {
	st := g.states.Get()
	if st == nil {
		var err error
		if st, err = g.newState(); err != nil {
			return err
		}
	}
	nout := len(g.outputs)
	mapped := false // some operand's storage is mapped (see RangeReleaser)
	for i, o := range g.outputs {
		mapped = st.outs[i].bind(vals[o.value]) || mapped
	}
	for s, v := range g.inputs {
		mapped = st.slots[s].bind(vals[v]) || mapped
	}
	if mapped {
		st.rel = g.mappedOperands(vals, false).forTask()
	}
	cc := lo % g.colChunks // the block's chunk of its rows
	for b := lo; b < hi; b, cc = b+1, cc+1 {
		if cc == g.colChunks {
			cc = 0
		}
		if b == lo || cc == 0 {
			g.blockOffsets(st, b)
		} else {
			// The next chunk of the same rows: step along the columns.
			c := min(g.tp.c, g.cols-cc*g.tp.c)
			for op := range st.offs {
				gm := &st.geoms[op]
				st.offs[op] += g.tp.c * gm.stC
				gm.c = c
			}
		}
		if b == lo {
			for _, s := range g.invariant {
				st.slots[s].value(st.offs[nout+s])
			}
		}
		g.runBlock(st, &g.tp)
		if st.rel != nil {
			st.rel.touch(st)
		}
	}
	if g.streams {
		simd.Fence()
	}
	if st.rel != nil {
		st.rel.done()
		st.rel = nil
	}
	st.release()
	g.states.Put(st)
	return nil
}

// runBlock computes the current block (st.geoms and st.offs) by plan tp,
// the one driver of every region, reduction and epilogue: as one run of
// r×c elements or (rowwise) a row at a time, each run in pieces of
// tp.piece elements. Every copyRows rows it first copies that many rows of
// each transposed input into the input's buffer (copyTransposed); each
// piece then presents every varying input by its kind (present), runs the
// kernels and stores the outputs (compute). A region runs its own g.tp (a
// reduction's producer its "reduction runs" plan, a block per run); an
// epilogue one of its two plans, which keep g.tp's buffers (see epilogue).
func (g *region) runBlock(st *regionState, tp *tilePlan) {
	nout := len(g.outputs)
	r, c := st.geoms[0].r, st.geoms[0].c
	if n := r * c; !tp.rowwise && tp.copyRows == 0 && tp.piece >= n {
		// One run in one piece, nothing copied (every block of a small
		// region, and of a region of one axis): the loops below once,
		// without their bookkeeping.
		g.prepareNodes(st, n, tp)
		if tp.ahead {
			g.prefetchNext(st, n)
		}
		for _, s := range g.varying {
			g.present(st, s, &st.geoms[nout+s], st.offs[nout+s], 0, 0, st.geoms)
		}
		g.compute(st, st.geoms, 0, 0, n)
		return
	}
	rowsPerRun, run := r, r*c
	if tp.rowwise {
		rowsPerRun, run = 1, c
	}
	// A run computed in one piece keeps the block's geometry (a gathered
	// input reads it by rows); pieces are one row of n elements.
	geoms := st.geoms
	whole := tp.piece >= run
	if tp.rowwise || !whole {
		geoms = st.rowGeoms
		for op := range geoms {
			geoms[op] = st.geoms[op]
			geoms[op].r = 1
		}
	}
	for i := 0; i < r; i += rowsPerRun {
		if tp.copyRows > 0 && i%tp.copyRows == 0 {
			g.copyTransposed(st, i, min(tp.copyRows, r-i))
		}
		if tp.prefetch && tp.rowwise {
			g.prefetch(st, i, r, c)
		}
		at := 0 // the row's place in the transposed inputs' buffers
		if tp.rowwise && tp.copyRows > 0 {
			at = i % tp.copyRows
		}
		for k := 0; k < run; k += tp.piece {
			n := min(tp.piece, run-k)
			g.prepareNodes(st, n, tp)
			if !whole {
				for op := range geoms {
					geoms[op].c = n
				}
			}
			for _, s := range g.varying {
				gm := &geoms[nout+s]
				g.present(st, s, gm, st.offs[nout+s]+i*gm.stR+k*gm.stC, at, k, geoms)
			}
			g.compute(st, geoms, i, k, n)
		}
	}
}

// prepareNodes points the computed nodes' slots at their buffers for
// pieces of n elements, unless they already are.
func (g *region) prepareNodes(st *regionState, n int, tp *tilePlan) {
	if n != st.prepared && !tp.bufferless {
		for s := len(g.inputs); s < len(st.slots); s++ {
			st.slots[s].prepare(n)
		}
		st.prepared = n
	}
}

// present points input slot s at its elements of the current piece (of
// geometry gm at storage offset off), one way per access kind: a constant
// is one value, a direct input its storage, a strided one is gathered, a
// transposed one is the part of its copy at row at and column col, and an
// indexed one is gathered through its index's slot, presented before it
// (geoms are the piece's geometries of every operand).
func (g *region) present(st *regionState, s int, gm *geom, off, at, col int, geoms []geom) {
	sl := st.slots[s]
	switch g.kinds[len(g.outputs)+s] {
	case accInvariant, accScalar:
		sl.value(off)
	case accDirect:
		sl.view(off, gm.r*gm.c)
	case accStrided:
		sl.gather(gm, off)
	case accReversed:
		sl.gatherReversed(gm, off)
	case accTransposed, accRepeated:
		sl.part(at*g.copyStride(s)+col, gm.r*gm.c)
	case accIndexed:
		ir := g.reads[s]
		sl.gatherIndexed(gm, off, st.slots[ir.slot], geoms[len(g.outputs)+ir.slot].stC, ir.stride, ir.n)
	}
}

// copyTransposed copies rows i to i+rows-1 of the current block of every
// transposed input into its buffer (see slot.copyTransposed), and the row
// of every repeated one into rows of its buffer (see slot.copyRepeated).
func (g *region) copyTransposed(st *regionState, i, rows int) {
	nout := len(g.outputs)
	ahead := 0
	if g.tp.prefetch && !g.tp.rowwise {
		ahead = panelAhead
	}
	for _, s := range g.varying {
		if g.kinds[nout+s] == accRepeated {
			st.slots[s].copyRepeated(st.offs[nout+s], st.geoms[nout+s].c, rows)
			continue
		}
		if g.kinds[nout+s] != accTransposed {
			continue
		}
		cg := &st.copyGeom
		*cg = st.geoms[nout+s]
		cg.r = rows
		st.slots[s].copyTransposed(cg, st.offs[nout+s]+i*cg.stR, g.copyStride(s), g.tp.copyRuns, ahead)
	}
}

// compute runs the kernels on the n presented elements and writes the
// outputs, each by its store (see store): each output's piece is at row
// row and column col of its block, of the shape geoms gives.
func (g *region) compute(st *regionState, geoms []geom, row, col int, n int) {
	redirected := false
	for k, o := range g.outputs {
		if o.store.direct() {
			st.outs[k].redirect(st.slots[o.src], st.offs[k]+row*geoms[k].stR+col*geoms[k].stC, n)
			redirected = true
		}
	}
	for _, f := range st.instrs {
		f(n)
	}
	for k, o := range g.outputs {
		off := st.offs[k] + row*geoms[k].stR + col*geoms[k].stC
		switch o.store {
		case storeCopied, storeCopiedStream:
			st.outs[k].copyFrom(st.slots[o.src], off, n)
		case storeScattered:
			st.outs[k].scatterFrom(st.slots[o.src], &geoms[k], off)
		}
	}
	if redirected && !g.tp.bufferless {
		for _, o := range g.outputs {
			if o.store.direct() {
				st.slots[o.src].prepare(n) // back to its own buffer for the next piece
			}
		}
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
	if b == 0 {
		// The first block: the operands' own offsets.
		r, c := min(g.tp.r, g.rows), min(g.tp.c, g.cols)
		copy(st.offs, g.offsets)
		for op := range st.geoms {
			st.geoms[op].r, st.geoms[op].c = r, c
		}
		return
	}
	cc := b % g.colChunks
	b /= g.colChunks
	rc := b % g.rowChunks
	b /= g.rowChunks
	for k := len(g.outer) - 1; k >= 0; k-- {
		st.idx[k] = b % g.outer[k]
		b /= g.outer[k]
	}
	r := min(g.tp.r, g.rows-rc*g.tp.r)
	c := min(g.tp.c, g.cols-cc*g.tp.c)
	for op, strides := range g.lay.strides {
		off := g.offsets[op]
		for k, i := range st.idx {
			off += i * strides[k]
		}
		gm := &st.geoms[op]
		off += rc*g.tp.r*gm.stR + cc*g.tp.c*gm.stC
		st.offs[op] = off
		gm.r, gm.c = r, c
	}
}

// values lists what the step reads (its input slots) and writes (its
// outputs).
func (g *region) values() (reads, writes []int) {
	writes = make([]int, len(g.outputs))
	for i, o := range g.outputs {
		writes[i] = o.value
	}
	return g.inputs, writes
}

func (g *region) describe(w io.Writer, names func(v int) string) {
	fmt.Fprintf(w, "  fused %s: %d outputs, %d kernels, layout %v, tile %v, %d blocks\n",
		g.shape, len(g.outputs), len(g.instrs), g.lay, &g.tp, g.blocks)
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
	nout := len(g.outputs)
	for i, s := range g.inputs {
		fmt.Fprintf(w, "    in  s%d <- %s (%s)\n", i, names(s), g.inputKind(i, nout))
	}
	for k, o := range g.outputs {
		kind := ""
		if g.kinds[k] != accDirect {
			kind = ": " + g.kinds[k].String()
		}
		fmt.Fprintf(w, "    out %s <- s%d (%s%s)\n", names(o.value), o.src, o.store, kind)
	}
}
