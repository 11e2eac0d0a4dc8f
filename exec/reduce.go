package exec

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/stash"
	"github.com/tensorplay/tensorplay/tensor"
)

// reduceStep evaluates a reduction with its elementwise producer fused in:
// the producer is computed block by block (as in a region) and each block is
// folded into the result; no tensor of the producer's size is made.
//
// Determinism: every output folds its reduced elements in their logical
// order (row-major over the reduced axes) through one tree that depends only
// on their count: leaves of reduceLeaf consecutive elements, each folded in
// eight lanes (element i into lane i%8, in order) whose partials combine as
// ((0+1)+(2+3))+((4+5)+(6+7)), and the leaves combined by a binary counter
// (pstack). The layout only decides how the elements are reached: along
// rows, one output at a time (case A), or rows of the reduced axes folded
// into runs of outputs, lane by lane (case B). Chunks, which split the work
// between tasks, hold a power of two of leaves and combine as the counter
// would, so neither the chunking, nor the number of workers, nor the input's
// layout, nor what is fused in changes a bit.
type reduceStep struct {
	op    expr.Op
	prod  *region // the producer: its operands are its inputs, then out
	root  int     // producer slot holding the values reduced
	out   int     // result value
	argDT dtype.DType

	inner      bool  // case A: the innermost layout axis is reduced (and logically last)
	dot        bool  // case A sum of a product: the product is folded by a dot kernel
	dotA, dotB int   // the product's operand slots
	rows       bool  // short rows: the producer in blocks of whole rows (see reduce_rows.go)
	kept, red  []int // layout axes (outermost first), the inner one excluded
	innerSize  int
	c          int // block length along the innermost axis
	innerBlks  int // blocks along the innermost axis
	seqLen     int // per output (A) or output block (B): elements (A) or rows (B)
	nOut       int // outputs (A) or output blocks (B)
	chunks     int
	perChunk   int // elements (A) or rows (B) of a chunk: a power of two of leaves
	perGroup   int
	groups     int
	count      int // elements reduced into each output, for mean
	outNumel   int
	outStrides []int // the result's strides on the layout axes

	partials sync.Pool // chunk partial buffers, reused across runs
	runs     stash.Stash[reduceRun]
}

const (
	reduceChunk      = 65536 // elements per chunk of a split reduction, about
	reduceBlock      = 4096  // elements per producer block along rows (A)
	reduceOuterBlock = 4096  // outputs per run of case B (8 lanes of float64: 256 KiB, in L2)
	reduceLeaf       = 128   // elements per leaf of the fixed tree (a multiple of 8)
)

func (pl *planner) buildReduce(n *expr.Node) (step, error) {
	arg := pl.args(n)[0]
	pr := pl.compileNodes([]*expr.Node{arg}, nil)
	reads := pr.reads
	shape := arg.Shape()
	rs := &reduceStep{op: n.Op(), out: pl.valueOf[n], argDT: arg.DType(), root: pr.slotOf[arg]}

	// Operands: the producer's inputs, then the result with stride 0 on the
	// reduced axes.
	isRed := make([]bool, len(shape))
	rs.count = 1
	for _, a := range n.Axes() {
		isRed[a] = true
		rs.count *= shape[a]
	}
	keptShape := tensor.Shape{}
	for i, d := range shape {
		if !isRed[i] {
			keptShape = append(keptShape, d)
		}
	}
	ks := tensor.RowMajorStrides(keptShape)
	outSt := make([]int, len(shape))
	for i, k := 0, 0; i < len(shape); i++ {
		if !isRed[i] {
			outSt[i] = ks[k]
			k++
		}
	}
	g := &region{shape: shape.Clone(), inputs: pr.inputs, reads: reads}
	var strides [][]int
	order, best := 0, -1
	for s, in := range pr.inputs {
		v := &pl.p.values[in]
		st, err := tensor.BroadcastStrides(v.shape, v.strides, shape)
		if err != nil {
			return nil, err
		}
		nz := 0
		for _, x := range st {
			if x != 0 {
				nz++
			}
		}
		if nz > best {
			order, best = s, nz
		}
		strides = append(strides, st)
		g.offsets = append(g.offsets, v.offset)
	}
	strides = append(strides, outSt)
	g.offsets = append(g.offsets, 0)
	g.lay = reduceLayout(shape, strides, isRed, order, pairedOp(rs.op))
	rs.prod = g

	outOp := len(pr.inputs)
	sizes := g.lay.sizes
	d := len(sizes)
	rs.outStrides = g.lay.strides[outOp]
	// Case A when the result is constant along the innermost axis: that
	// axis is reduced.
	rs.inner = classify(rs.outStrides, false, false, sizes[d-1]).constant()
	for ax := 0; ax < d-1; ax++ {
		if rs.outStrides[ax] == 0 {
			rs.red = append(rs.red, ax)
		} else {
			rs.kept = append(rs.kept, ax)
		}
	}
	rs.innerSize = sizes[d-1]
	// Block lengths only cut the producer's evaluation: the tree is fixed
	// by the count alone.
	rs.c = max(1, min(rs.innerSize, reduceBlock))
	if !rs.inner {
		rs.c = max(1, min(rs.innerSize, reduceOuterBlock))
	}
	rs.innerBlks = (rs.innerSize + rs.c - 1) / rs.c
	rs.outNumel = 1
	for _, x := range n.Shape() {
		rs.outNumel *= x
	}
	redRows := 1
	for _, ax := range rs.red {
		redRows *= sizes[ax]
	}
	keptOuter := 1
	for _, ax := range rs.kept {
		keptOuter *= sizes[ax]
	}
	var work int    // elements per output (A) or per run of reduceBlock outputs (B)
	var outputs int // independent outputs (A) or runs of reduceBlock outputs (B)
	if rs.inner {
		rs.seqLen = redRows * rs.innerSize
		rs.nOut = keptOuter
		work, outputs = rs.seqLen, keptOuter
	} else {
		rs.seqLen = redRows
		rs.nOut = keptOuter * rs.innerBlks
		work = redRows * min(rs.innerSize, reduceBlock)
		outputs = keptOuter * ((rs.innerSize + reduceBlock - 1) / reduceBlock)
	}
	// Few outputs: split each one's sequence into chunks for the workers,
	// each a power of two of leaves (see reduceStep), so that the split does
	// not change the tree.
	want := 1
	if outputs < 32 && rs.op != expr.OpArgMax && rs.op != expr.OpArgMin {
		want = max(1, min(256, (work+reduceChunk-1)/reduceChunk))
	}
	leaves := (rs.seqLen + reduceLeaf - 1) / reduceLeaf
	perChunk := 1
	for perChunk*want < leaves {
		perChunk *= 2
	}
	rs.perChunk = perChunk * reduceLeaf
	rs.chunks = max(1, (rs.seqLen+rs.perChunk-1)/rs.perChunk)
	rs.perGroup = max(1, reduceChunk/max(1, work))
	rs.groups = (rs.nOut + rs.perGroup - 1) / rs.perGroup

	// Producer slots: blocks are one run along the innermost axis, from
	// the tile table's reduction row, every operand read by its kind.
	inDTs := make([]dtype.DType, 0, len(pr.inputs)+1)
	for _, in := range pr.inputs {
		inDTs = append(inDTs, pl.p.values[in].dt)
	}
	facts := g.tileFacts(nil, append(inDTs, n.DType()), len(pr.nodes) > 0, pl.x.workers)
	rs.planProducer(g, facts, pl.x.blockFor(1, widestOf(pr, inDTs, n.DType())))
	pl.compileSlots(g, pr, func(s int) bool { return g.kinds[s].constant() })
	g.sortInputs(0)
	fusePairs(g, func(s int) bool { return s == rs.root })
	// sum(a*b) along rows: fold the product into the sum (a dot product)
	// instead of writing it to a buffer first; the product's kernel goes.
	if last := len(g.instrs) - 1; rs.inner && last >= 0 && (rs.op == expr.OpSum || rs.op == expr.OpMean) {
		if in := g.instrs[last]; in.op == expr.OpMul && in.inner == expr.OpInvalid && in.dst == rs.root && rs.argDT.Kind() != dtype.KindBool {
			rs.dot, rs.dotA, rs.dotB = true, in.args[0], in.args[1]
			g.instrs = g.instrs[:last]
		}
	}
	if r, ok := typedFor(rs.argDT).(reducer); !ok || pairedOp(rs.op) && !r.pairs() {
		return nil, fmt.Errorf("exec: no reduction kernels for %s", rs.argDT)
	}
	return rs, nil
}

// reduceLayout orders and merges the axes of a reduction. Each output folds
// its elements in logical order, so the reduced axes keep their logical
// order; how they are reached follows the operand `order` walked in memory
// order. When its innermost axis is kept (case B), the reduced axes go
// outside and the kept axes inside, in memory order, and rows of outputs are
// folded at a time. Otherwise (case A) the kept axes go outside and the
// reduced ones inside, the logically last innermost: that is the innermost
// axis in memory unless the operand is transposed across reduced axes, and
// then it is gathered by strides. Merging adjacent reduced axes keeps their
// logical order, and a reduced axis never merges with a kept one (the
// result's strides differ). alongRows forces case A (paired reductions).
func reduceLayout(sizes []int, strides [][]int, isRed []bool, order int, alongRows bool) layout {
	var axes []int
	for i, d := range sizes {
		if d != 1 {
			axes = append(axes, i)
		}
	}
	byMem := slices.Clone(axes)
	key := strides[order]
	slices.SortStableFunc(byMem, func(a, b int) int { return cmp.Compare(key[b], key[a]) })
	var perm []int
	appendAxes := func(from []int, red bool) {
		for _, a := range from {
			if isRed[a] == red {
				perm = append(perm, a)
			}
		}
	}
	if len(byMem) > 0 && !isRed[byMem[len(byMem)-1]] && !alongRows {
		appendAxes(axes, true)
		appendAxes(byMem, false)
	} else {
		appendAxes(byMem, false)
		appendAxes(axes, true)
	}
	return mergeAxes(sizes, strides, perm)
}

// reducer is implemented by impl[T]: the typed part of a reduction.
type reducer interface {
	reduceTask(rs *reduceStep, st *regionState, task int, out tensor.Any, partial any)
	reduceFinish(rs *reduceStep, out tensor.Any, partial any)
	newPartial(rs *reduceStep) any
	pairs() bool // the type has the paired reductions
}

// reduceRun is one evaluation of a reduce step.
type reduceRun struct {
	rs      *reduceStep
	vals    []tensor.Any
	partial any
	mapped  *releases // mapped inputs, or nil (see RangeReleaser)
	red     reducer
	err     error
	mu      sync.Mutex // guards err
}

func (rs *reduceStep) run(x *Executor, vals []tensor.Any) error {
	if rs.outNumel == 0 {
		return nil
	}
	rr := rs.runs.Get()
	if rr == nil {
		rr = &reduceRun{rs: rs, red: typedFor(rs.argDT).(reducer)}
	}
	rr.vals, rr.err = vals, nil
	rr.mapped = rs.prod.mappedOperands(vals, true)
	if rs.chunks > 1 {
		if rr.partial = rs.partials.Get(); rr.partial == nil {
			rr.partial = rr.red.newPartial(rs)
		}
	}
	defer func() {
		if rr.partial != nil {
			rs.partials.Put(rr.partial)
		}
		rr.vals, rr.partial, rr.mapped, rr.err = nil, nil, nil, nil
		rs.runs.Put(rr)
	}()
	tasks := rs.chunks * rs.groups
	if x.workers > 1 && rs.prod.numel >= x.grain && tasks > 1 {
		x.pool().parallel(tasks, rr)
	} else {
		for t := 0; t < tasks; t++ {
			rr.RunTask(t)
		}
	}
	if rr.err != nil {
		return rr.err
	}
	rr.red.reduceFinish(rs, vals[rs.out], rr.partial)
	return nil
}

func (rr *reduceRun) RunTask(task int) {
	g := rr.rs.prod
	st := g.states.Get()
	if st == nil {
		var err error
		if st, err = g.newState(); err != nil {
			rr.mu.Lock()
			rr.err = err
			rr.mu.Unlock()
			return
		}
	}
	for s, v := range g.inputs {
		st.slots[s].bind(rr.vals[v])
	}
	for _, s := range g.invariant {
		st.slots[s].value(g.offsets[s])
	}
	st.rel = rr.mapped.forTask()
	rr.red.reduceTask(rr.rs, st, task, rr.vals[rr.rs.out], rr.partial)
	if st.rel != nil {
		st.rel.done()
		st.rel = nil
	}
	st.release()
	g.states.Put(st)
}

// evalBlock computes the producer for the n-element run at st.offs: one
// block of the region's "reduction runs" plan, through runBlock like every
// region's (a transposed input's run copied first, every input presented
// by its kind).
func (g *region) evalBlock(st *regionState, n int) {
	for op := range st.geoms {
		st.geoms[op].r, st.geoms[op].c = 1, n
	}
	g.runBlock(st, &g.tp)
	if st.rel != nil {
		st.rel.touch(st)
	}
}

// seek sets st.offs to the start of the layout position given by the
// indices of the listed axes, on top of the operands' base offsets.
func (rs *reduceStep) seek(st *regionState, base []int, axes []int, flat int) {
	lay := rs.prod.lay
	for op := range st.offs {
		st.offs[op] = base[op]
	}
	for k := len(axes) - 1; k >= 0; k-- {
		ax := axes[k]
		i := flat % lay.sizes[ax]
		flat /= lay.sizes[ax]
		for op := range st.offs {
			st.offs[op] += i * lay.strides[op][ax]
		}
	}
}

// values lists what the step reads (its producer's inputs) and writes.
func (rs *reduceStep) values() (reads, writes []int) { return rs.prod.inputs, []int{rs.out} }

func (rs *reduceStep) describe(w io.Writer, names func(v int) string) {
	kind := "outer (rows into columns)"
	if rs.inner {
		kind = "inner (along rows)"
	}
	if rs.dot {
		kind += ", a dot product"
	}
	fmt.Fprintf(w, "  reduce %s -> %s: %s, layout %v, tile %v, %d chunks x %d groups, %d fused kernels\n",
		rs.op, names(rs.out), kind, rs.prod.lay, &rs.prod.tp, rs.chunks, rs.groups, len(rs.prod.instrs))
	for i, s := range rs.prod.inputs {
		fmt.Fprintf(w, "    in  s%d <- %s (%s)\n", i, names(s), rs.prod.inputKind(i, 0))
	}
}
