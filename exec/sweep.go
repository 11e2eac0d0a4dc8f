package exec

import (
	"fmt"
	"sync"

	"github.com/tensorplay/tensorplay/internal/stash"
	"github.com/tensorplay/tensorplay/tensor"
)

// Sweeps: a region whose inputs read its destination at shifted positions,
// NumPy's in-place slice idiom u[1:-1,1:-1] = 0.25*(u[:-2,1:-1] +
// u[2:,1:-1] + u[1:-1,:-2] + u[1:-1,2:]). Every value must be computed from
// the old ones, so an input that overlaps the destination other than
// element for element is normally staged: copied whole before the region
// runs (planner.stage). A shifted input — the destination's own strides
// from another offset in the same storage — needs less: the output is
// written in increasing address order, block after block, and element i
// reads elements i-reach to i+reach at most, so a block may be written as
// soon as the block after it has been computed (blocks are at least reach
// elements of the iteration long). A swept region computes each block into
// a shadow (a buffer laid out as the block's footprint in the destination)
// and copies the shadow of the block before into the destination after
// computing the next: no full-size copy exists, every input is read in
// place, and the destination is read and written once each.
//
// Tasks are runs of consecutive blocks. A task's first block reads the old
// values of the last one of the task before, and its last block those of
// the next task's first, so a first phase computes every task's first and
// last blocks into shadows of their own before anything is written; the
// second phase runs each task's other blocks a block behind, as above.
//
// Where blocks cannot be that long (a shift across outer axes longer than
// a block of whole inner slices), the region is planned whole: every block
// is computed into one shadow of the destination's footprint, then copied
// (a pooled region-sized scratch; still one copy, not one per input).

// sweepPlan is a swept region's plan beyond its tiles.
type sweepPlan struct {
	// reach is the farthest, in elements of storage, that a shifted input
	// reads from the element being written.
	reach int
	// whole: blocks are shorter than reach; every block is computed
	// before any is written, into one shadow of span elements. Otherwise
	// span is a block's footprint.
	whole bool
	span  int

	runs    stash.Stash[sweepRun]
	workers stash.Stash[sweepWorker]
}

// sweepTasksPerWorker is how many tasks per worker a swept region splits
// into (each costs two shadows for its first and last blocks).
const sweepTasksPerWorker = 4

// shiftedInput reports whether input value in, of broadcast strides st over
// the region, is the destination out read at another offset: the same
// storage from the same first element, the same strides, all positive
// where the extent is above 1 (so that the region writes out in increasing
// address order), the region's only output, not a final pass. It returns
// how far the input reads from the element written.
func (pl *planner) shiftedInput(in, out int, st []int, ms []member) (int, bool) {
	if len(ms) != 1 || ms[0].final || !pl.sameBase(in, out) {
		return 0, false
	}
	ov := &pl.p.values[out]
	if len(st) != len(ov.strides) || len(ov.shape) != len(st) {
		return 0, false
	}
	for k, s := range st {
		if s != ov.strides[k] || ov.shape[k] > 1 && s <= 0 {
			return 0, false
		}
	}
	d := pl.p.values[in].offset - ov.offset
	return max(d, -d), d != 0
}

// sweepTiles is the tile plan of a swept region: whole rows (or, in one
// dimension, runs) at least f.reach elements of the iteration long, where
// the page rule asks for less; in three or more dimensions, blocks that
// divide the rows, so that only the region's last block is short. A
// transposed input is copied as bands copy it.
func sweepTiles(f *tileFacts) tilePlan {
	if f.d == 1 {
		c := min(f.cols, max(f.block, f.reach))
		return tilePlan{r: 1, c: c, piece: min(c, f.block)}
	}
	r := min(f.rows, max((f.reach+f.cols-1)/f.cols, f.block/f.cols, 1))
	if f.d > 2 {
		for f.rows%r != 0 {
			r++
		}
	}
	tp := tilePlan{r: r, c: f.cols, rowwise: true, piece: min(f.cols, f.block)}
	if f.has(accTransposed, true) {
		tp.copyRows, tp.copyRuns = f.band, f.cols // as in bands, a cache line of rows at a time
	}
	return tp
}

// planSweep finishes a swept region's plan once its tiles are planned: the
// shadows' length, or whole when a block is shorter than the reach.
func (g *region) planSweep() {
	sp := g.sweep
	st := g.lay.strides[0]
	d := len(st)
	block := g.tp.r * g.tp.c
	sp.whole = block < sp.reach && g.blocks > 1
	if sp.whole {
		sp.span = 1
		for k, n := range g.lay.sizes {
			sp.span += (n - 1) * st[k]
		}
	} else {
		sp.span = (g.tp.c-1)*st[d-1] + 1
		if d >= 2 {
			sp.span += (g.tp.r - 1) * st[d-2]
		}
	}
	how := fmt.Sprintf("a block behind, from shadows of %d elements", sp.span)
	if sp.whole {
		how = fmt.Sprintf("after every block, from one shadow of %d elements", sp.span)
	}
	g.note = fmt.Sprintf("inputs read the destination up to %d elements away: it is written %s", sp.reach, how)
}

// sweepRun is one evaluation of a swept region.
type sweepRun struct {
	g             *region
	vals          []tensor.Any
	blocksPerTask int
	phase         int          // 1: the tasks' first and last blocks; 2: the rest, then the writes
	held          []tensor.Any // per task its first and last blocks' shadows; whole: the one shadow
	err           error
	mu            sync.Mutex
}

// sweepWorker is one task's state beyond the region's: the destination,
// and the two shadows a task alternates between.
type sweepWorker struct {
	dst slotAny
	mid [2]tensor.Any
}

// runSweep evaluates a swept region: the first phase, then the second.
func (g *region) runSweep(x *Executor, vals []tensor.Any) error {
	sp := g.sweep
	sr := sp.runs.Get()
	if sr == nil {
		sr = &sweepRun{g: g}
	}
	sr.vals, sr.err = vals, nil
	tasks := 1
	if x.workers > 1 && g.numel >= x.grain {
		tasks = min(g.blocks, x.workers*sweepTasksPerWorker, max(x.workers, g.numel/minTask))
	}
	sr.blocksPerTask = (g.blocks + tasks - 1) / tasks
	tasks = (g.blocks + sr.blocksPerTask - 1) / sr.blocksPerTask
	want := 2 * tasks
	if sp.whole {
		want = 1
	}
	dt := g.slotDT[g.outputs[0].src]
	for len(sr.held) < want {
		sr.held = append(sr.held, typedFor(dt).alloc(tensor.Shape{sp.span}))
	}
	for sr.phase = 1; sr.phase <= 2 && sr.err == nil; sr.phase++ {
		if tasks == 1 {
			sr.RunTask(0)
		} else {
			x.pool().parallel(tasks, sr)
		}
	}
	err := sr.err
	sr.vals = nil
	sp.runs.Put(sr)
	return err
}

func (sr *sweepRun) RunTask(task int) {
	g, sp := sr.g, sr.g.sweep
	st := g.states.Get()
	if st == nil {
		var err error
		if st, err = g.newState(); err != nil {
			sr.mu.Lock()
			sr.err = err
			sr.mu.Unlock()
			return
		}
	}
	w := sp.workers.Get()
	if w == nil {
		dt := g.slotDT[g.outputs[0].src]
		w = &sweepWorker{dst: typedFor(dt).newSlot(0, true)}
		if !sp.whole {
			w.mid = [2]tensor.Any{typedFor(dt).alloc(tensor.Shape{sp.span}), typedFor(dt).alloc(tensor.Shape{sp.span})}
		}
	}
	w.dst.bind(sr.vals[g.outputs[0].value])
	for s, v := range g.inputs {
		st.slots[s].bind(sr.vals[v])
	}
	lo := task * sr.blocksPerTask
	hi := min(lo+sr.blocksPerTask, g.blocks)
	nout := len(g.outputs)
	g.blockOffsets(st, lo)
	for _, s := range g.invariant {
		st.slots[s].value(st.offs[nout+s])
	}
	switch {
	case sp.whole && sr.phase == 1:
		for b := lo; b < hi; b++ {
			g.sweepBlock(st, b, sr.held[0], true)
		}
	case sp.whole:
		for b := lo; b < hi; b++ {
			g.sweepWrite(st, w, b, sr.held[0], true)
		}
	case sr.phase == 1:
		g.sweepBlock(st, lo, sr.held[2*task], false)
		if hi-lo > 1 {
			g.sweepBlock(st, hi-1, sr.held[2*task+1], false)
		}
	default:
		prev := sr.held[2*task]
		for b := lo + 1; b < hi-1; b++ {
			cur := w.mid[(b-lo)%2]
			g.sweepBlock(st, b, cur, false)
			g.sweepWrite(st, w, b-1, prev, false)
			prev = cur
		}
		g.sweepWrite(st, w, max(lo, hi-2), prev, false)
		if hi-lo > 1 {
			g.sweepWrite(st, w, hi-1, sr.held[2*task+1], false)
		}
	}
	st.release()
	w.dst.release()
	g.states.Put(st)
	sp.workers.Put(w)
}

// sweepBlock computes block b into shadow: at the block's own place in it
// when whole, else from its start.
func (g *region) sweepBlock(st *regionState, b int, shadow tensor.Any, whole bool) {
	g.blockOffsets(st, b)
	base := st.offs[0]
	if whole {
		base = g.offsets[0]
	}
	st.offs[0] -= base
	st.outs[0].bind(shadow)
	g.runBlock(st, &g.tp)
}

// sweepWrite copies block b from shadow into the destination.
func (g *region) sweepWrite(st *regionState, w *sweepWorker, b int, shadow tensor.Any, whole bool) {
	g.blockOffsets(st, b)
	from := st.offs[0] - g.offsets[0]
	if !whole {
		from = 0
	}
	st.outs[0].bind(shadow)
	w.dst.copyBlock(st.outs[0], &st.geoms[0], st.offs[0], from)
}

// copyBlock copies the r×c block g at fromOff of slot from's storage into
// this slot's storage at off, both laid out by g's strides (the write of a
// swept block).
func (s *slot[T]) copyBlock(from slotAny, g *geom, off, fromOff int) {
	src := from.(*slot[T]).data
	for i := 0; i < g.r; i++ {
		d, o := off+i*g.stR, fromOff+i*g.stR
		if g.stC == 1 {
			copy(s.data[d:d+g.c], src[o:o+g.c])
			continue
		}
		for j := 0; j < g.c; j++ {
			s.data[d+j*g.stC] = src[o+j*g.stC]
		}
	}
}
