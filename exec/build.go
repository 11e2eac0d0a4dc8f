package exec

import (
	"fmt"
	"slices"
	"sort"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// buildSteps turns the regions, reductions and matmuls into steps and
// orders all steps by level.
func (pl *planner) buildSteps() error {
	pl.mergeGroups()
	for _, k := range pl.groups {
		ms := pl.members[k]
		g, err := pl.buildRegion(ms[0].shape, ms)
		if err != nil {
			return err
		}
		level := k.level
		if ms[0].final {
			level-- // before every final region: each may write what another reads
		}
		for _, cp := range pl.pendingStage {
			pl.addStep(level, cp)
		}
		pl.pendingStage = pl.pendingStage[:0]
		pl.addStep(k.level, g)
	}
	for _, n := range pl.order {
		switch n.Op().Class() {
		case expr.ClassReduce:
			s, err := pl.buildReduce(n)
			if err != nil {
				return err
			}
			pl.addStep(pl.level[n], s)
		case expr.ClassMatMul:
			s, err := pl.buildMatMul(n)
			if err != nil {
				return err
			}
			pl.addStep(pl.level[n], s)
		}
	}
	idx := make([]int, len(pl.p.steps))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return pl.stepLevel[idx[a]] < pl.stepLevel[idx[b]] })
	steps := make([]step, len(idx))
	for i, j := range idx {
		steps[i] = pl.p.steps[j]
	}
	pl.p.steps = steps
	pl.dropDeadSteps()
	pl.fuseEpilogues()
	pl.p.splitScratch()
	return nil
}

// mergeGroups joins a group to an earlier group of the same shape when the
// only values it waits for are that group's own outputs: a backward pass's
// bias gradient g is both a result and a factor of the weight gradients
// g*x, and all of them then come from one pass over memory.
func (pl *planner) mergeGroups() {
	for changed := true; changed; {
		changed = false
		for i := 0; i < len(pl.groups) && !changed; i++ {
			k1 := pl.groups[i]
			in1 := map[*expr.Node]bool{}
			for _, m := range pl.members[k1] {
				in1[m.node] = true
			}
			for j := range pl.groups {
				k2 := pl.groups[j]
				if k2.level <= k1.level || k2.shape != k1.shape || !pl.waitsOnlyFor(pl.members[k2], in1, k1.level) {
					continue
				}
				pl.members[k1] = append(pl.members[k1], pl.members[k2]...)
				delete(pl.members, k2)
				pl.groups = slices.Delete(pl.groups, j, j+1)
				changed = true
				break
			}
		}
	}
}

// waitsOnlyFor reports whether the members ms read, besides the nodes in
// own, only values made before level. It walks each member's fused
// operands with a stack of its own; a node met again needs no second look.
func (pl *planner) waitsOnlyFor(ms []member, own map[*expr.Node]bool, level int) bool {
	nodes := pl.w.nodes
	mark := pl.newMark()
	var stack []int32
	for _, m := range ms {
		// A member written into a view (an embed) must wait for the view;
		// a final copy must wait for everything.
		if m.final || pl.p.values[m.value].kind == valView {
			return false
		}
		stack = append(stack[:0], int32(pl.pos(m.node)))
		for top := true; len(stack) > 0; top = false {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if pl.marks[i] == mark {
				continue
			}
			pl.marks[i] = mark
			n := nodes[i]
			if own[n] {
				continue
			}
			if _, has := pl.valueOf[n]; has && !top {
				if n.Op().Class() != expr.ClassLeaf && pl.level[n] >= level {
					return false
				}
				continue
			}
			if !n.Op().Elementwise() {
				if pl.level[n] >= level { // a copy member of a view or reduction
					return false
				}
				continue
			}
			stack = append(stack, pl.cargsAt(int(i))...)
		}
	}
	return true
}

func (pl *planner) addStep(level int, s step) {
	pl.p.steps = append(pl.p.steps, s)
	pl.stepLevel = append(pl.stepLevel, level)
}

// program is the elementwise part of a region or a reduction: the input
// values it loads, the nodes it computes in order, and their slots.
type program struct {
	inputs  []int // value per input slot
	nodes   []*expr.Node
	slotOf  map[*expr.Node]int
	inSlot  map[int]int // value -> input slot
	members map[*expr.Node]bool
}

// compileNodes collects what computing roots inside one kernel needs:
// nodes with a tensor of their own (other than members) are inputs, the
// rest are computed, operands first. It walks the graph depth first with a
// stack of its own, as a recursive walk would, operands in order.
func (pl *planner) compileNodes(roots []*expr.Node, members map[*expr.Node]bool) *program {
	pr := &program{members: members}
	nodes := pl.w.nodes
	mark := pl.newMark()
	var inNodes, computed []int32 // positions: inputs as met, computed nodes in order
	var inValues []int            // the value of each of inNodes
	enter := func(i int32) bool { // whether the node at i is computed, its operands still to visit
		if pl.marks[i] == mark {
			return false
		}
		pl.marks[i] = mark
		n := nodes[i]
		if v, ok := pl.valueOf[n]; ok && !(n.Op().Elementwise() && members[n]) {
			inNodes = append(inNodes, i)
			inValues = append(inValues, v)
			return false
		}
		return true
	}
	type frame struct {
		i    int32
		next int
	}
	var stack []frame
	for _, r := range roots {
		if i := int32(pl.pos(r)); enter(i) {
			stack = append(stack, frame{i: i})
		}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if args := pl.cargsAt(int(f.i)); f.next < len(args) {
				a := args[f.next]
				f.next++
				if enter(a) {
					stack = append(stack, frame{i: a})
				}
				continue
			}
			computed = append(computed, f.i)
			stack = stack[:len(stack)-1]
		}
	}
	pr.inSlot = make(map[int]int, len(inValues))
	pr.slotOf = make(map[*expr.Node]int, len(inNodes)+len(computed))
	for k, i := range inNodes {
		v := inValues[k]
		s, ok := pr.inSlot[v]
		if !ok {
			s = len(pr.inputs)
			pr.inSlot[v] = s
			pr.inputs = append(pr.inputs, v)
		}
		pr.slotOf[nodes[i]] = s
	}
	pr.nodes = make([]*expr.Node, len(computed))
	for k, i := range computed {
		pr.nodes[k] = nodes[i]
		pr.slotOf[nodes[i]] = len(pr.inputs) + k
	}
	return pr
}

// buildRegion compiles the members of one group into a fused kernel over
// the iteration shape.
func (pl *planner) buildRegion(shape tensor.Shape, ms []member) (*region, error) {
	roots := make([]*expr.Node, len(ms))
	memberSet := map[*expr.Node]bool{}
	for i, m := range ms {
		roots[i] = m.node
		if !m.copy {
			memberSet[m.node] = true
		}
	}
	pr := pl.compileNodes(roots, memberSet)

	// Inputs that share memory with an output: exactly the output is fine
	// (each element is read before it is written); any other overlap is
	// staged through a copy, decided here before the layout is built. So is
	// an input exactly an output that a later output is stored from (roots
	// a → b and b → c): outputs are stored in order, so that one would copy
	// the new b.
	srcs := make([]int, len(ms)) // each output's slot
	for oi, m := range ms {
		srcs[oi] = pr.slotOf[m.node]
	}
	exact := make([][]int, len(ms)) // per output, input slots that are exactly it
	for oi, m := range ms {
		ov := &pl.p.values[m.value]
		for s, in := range pr.inputs {
			if !pl.shareStorage(in, m.value) {
				continue
			}
			iv := &pl.p.values[in]
			st, err := tensor.BroadcastStrides(iv.shape, iv.strides, shape)
			if err == nil && iv.offset == ov.offset && slices.Equal(st, ov.strides) && pl.sameBase(in, m.value) &&
				!slices.Contains(srcs[oi+1:], s) {
				exact[oi] = append(exact[oi], s)
				continue
			}
			pr.inputs[s] = pl.stage(in, fmt.Sprintf("it overlaps destination v%d other than element for element", m.value))
		}
	}
	if ms[0].final {
		// The final regions (one per destination shape) run one after
		// another: an input that shares storage with another one's
		// destination is staged before any of them runs.
		own := map[int]bool{}
		for _, m := range ms {
			own[m.value] = true
		}
		for s, in := range pr.inputs {
			if !slices.ContainsFunc(exact, func(e []int) bool { return slices.Contains(e, s) }) && pl.finalWrites(in, own) {
				pr.inputs[s] = pl.stage(in, "another final pass writes its storage")
			}
		}
	}
	g := &region{shape: shape.Clone(), inputs: pr.inputs}
	if ms[0].final {
		g.note = finalNote(ms, exact)
	}

	// Operands: outputs, then inputs, each with strides over shape.
	nops := len(ms) + len(pr.inputs)
	strides := make([][]int, 0, nops)
	g.offsets = make([]int, 0, nops)
	for _, m := range ms {
		v := &pl.p.values[m.value]
		strides = append(strides, v.strides)
		g.offsets = append(g.offsets, v.offset)
	}
	for _, in := range pr.inputs {
		v := &pl.p.values[in]
		st, err := tensor.BroadcastStrides(v.shape, v.strides, shape)
		if err != nil {
			return nil, err
		}
		strides = append(strides, st)
		g.offsets = append(g.offsets, v.offset)
	}
	g.lay = mergeDims(shape, strides, 0)
	scratch := 0 // bytes of per-worker buffer per element of a block
	widest := 1  // the widest element the region reads, computes or writes
	for _, n := range pr.nodes {
		scratch += n.DType().Size()
		widest = max(widest, n.DType().Size())
	}
	for _, in := range pr.inputs {
		widest = max(widest, pl.p.values[in].dt.Size())
	}
	runSize := 1 // the widest element of an operand strided along the rows
	for oi, m := range ms {
		if st := g.lay.strides[oi]; st[len(st)-1] > 1 {
			runSize = max(runSize, pl.p.values[m.value].dt.Size())
		}
	}
	aliased := false
	for s, in := range pr.inputs {
		if st := g.lay.strides[len(ms)+s]; st[len(st)-1] > 1 {
			size := pl.p.values[in].dt.Size()
			scratch += size
			runSize = max(runSize, size)
			aliased = aliased || aliasedRows(st, size)
		}
	}
	inDTs := make([]dtype.DType, len(pr.inputs))
	for s, in := range pr.inputs {
		inDTs[s] = pl.p.values[in].dt
	}
	g.tile(pl.x.blockFor(scratch, widest), runSize, aliased, transposedBand(g.lay.strides[len(ms):], inDTs), pl.x.workers, len(pr.nodes) > 0)

	// Slots and which of them are constant within a block.
	d := len(g.lay.sizes)
	pl.compileSlots(g, pr, func(s int) bool {
		st := g.lay.strides[len(ms)+s]
		return st[d-1] == 0 && (g.r == 1 || d < 2 || st[d-2] == 0)
	})
	g.sortInputs(len(ms))
	g.markBands(len(ms))
	if len(ms) == 1 {
		pl.useCompiled(g, pr, ms[0].node)
		if pl.x.debug != nil && len(g.instrs) > 0 && g.instrs[0].compiled == nil {
			g.hint = pl.tpkernelHint(pr, ms[0].node)
		}
	}
	nslots := len(g.slotDT)
	fusePairs(g, func(s int) bool { return slices.Contains(srcs, s) })

	// Outputs. A kernel writes its output's storage directly unless an input
	// that is exactly that output is still read by a later kernel, or by an
	// earlier output's store (which comes after every kernel). Kernel
	// positions are taken after fusion, which removed kernels.
	lastRead := make([]int, nslots)
	producer := make([]int, nslots)
	for i, in := range g.instrs {
		for _, a := range in.args {
			lastRead[a] = i
		}
		producer[in.dst] = i
	}
	redirected := map[int]bool{}
	for oi, m := range ms {
		src := pr.slotOf[m.node]
		direct := src >= len(pr.inputs) && !g.scalar[src] && !redirected[src] && oi < 64
		for _, s := range exact[oi] {
			direct = direct && lastRead[s] <= producer[src] && !slices.Contains(srcs[:oi], s)
		}
		if direct {
			redirected[src] = true
		}
		g.outputs = append(g.outputs, regionOutput{value: m.value, src: src, direct: direct})
	}
	g.lengthenBlocks(pl.x)
	g.markStreams(producer, lastRead, exact)
	g.prefetches = g.rowMode && g.bytes() >= streamBytes
	return g, nil
}

// lengthenBlocks gives long blocks (up to directBlock elements) to a
// region that reads and writes only in place: one AVX2 kernel writing the
// one output, contiguous along its rows, directly from inputs that are
// contiguous or constant along them, in blocks of one row piece each. Its
// blocks pass through no scratch, so their length buys no cache locality,
// and every block costs a kernel call and the interpreter's per-block
// work. On 1e7-element float64 a+b with two workers, 65536-element blocks
// were 1.02–1.35x faster than the 1024 the scratch budget gives (8192: up
// to 1.12x), as fast as a hand loop calling the same kernel on long chunks;
// the gain is largest when the machine is quiet. Over 3162² float64, whole
// rows instead of 1024-element pieces made [R,C]+[1,C] 1.17–1.3x faster,
// [R,C]+[R,1] 1.17–1.45x and [R,1]*[1,C] 1.6x; over 1000² the rows are
// 1000 long either way. A block length set with BlockSize is kept; a
// longer block is taken only as far as the region still splits into its
// tasks (a block the scratch budget already gives is never shortened).
// Its slots get no buffers, whether or not its blocks got longer: a+b's
// three, 512 KiB each per worker and unused, had made each Eval of 1e6
// elements that ran after a garbage collection emptied the pooled states
// 1.5x slower.
func (g *region) lengthenBlocks(x *Executor) {
	d := len(g.lay.sizes)
	if x.block > 0 || g.blocks == 0 || g.rowMode || g.r != 1 || len(g.instrs) != 1 || len(g.outputs) != 1 ||
		!g.outputs[0].direct || g.lay.strides[0][d-1] != 1 || !g.vectorized(g.instrs[0]) {
		return
	}
	for _, st := range g.lay.strides {
		if st[d-1] > 1 {
			return
		}
	}
	// Still a block per task where the region has them (see run): rows
	// (and outer dims) give lines blocks, each row split into enough.
	tasks := x.workers * tasksPerWorker
	lines := g.blocks / g.colChunks
	split := (tasks + lines - 1) / lines
	perTask := ((g.cols+split-1)/split + 63) / 64 * 64
	g.c = max(g.c, min(g.cols, directBlock, perTask))
	g.countBlocks()
	g.bufferless = true
}

// markStreams has the AVX2 kernels that write large outputs store around
// the caches (see streamBytes). producer and lastRead give each slot's
// kernel and the last kernel that reads it, exact the input slots that are
// exactly each output. An output streams only when its kernel writes it in
// place in every block, in whole cache lines, and nothing reads it back:
//   - an output updated in place (exact) is read anyway: streaming slowed
//     a += b down to 0.84x;
//   - one whose blocks are not contiguous in it is written to scratch and
//     copied: streaming the scratch made a strided destination 1.33x slower;
//   - one a later kernel reads (s = a+b; p = s*c) would be read back from
//     memory: 1.08x slower;
//   - in row mode (a transposed operand), where a kernel writes a piece of
//     a tile's row at a time, short pieces that do not start and end on
//     cache lines leave many lines half streamed: a + b.T on 2049² float64
//     in 128-column tiles was 1.24x slower, on 2048² 1.16x faster. Pieces
//     of streamRow bytes or more stream anyway: in 512-column tiles float64
//     2049² was 1.05–1.07x faster and 3162² 1.06–1.1x (float32 3162², in
//     pieces of 2 KiB, 0.96–0.97x).
//
// A region without kernels, a copy, stores its outputs from its inputs'
// slots with the streaming copy under the same rules.
func (g *region) markStreams(producer, lastRead []int, exact [][]int) {
	bytes := 0
	for _, o := range g.outputs {
		bytes += g.numel * g.slotDT[o.src].Size()
	}
	if bytes < streamBytes {
		return
	}
	for oi, o := range g.outputs {
		size := g.slotDT[o.src].Size()
		if !o.direct {
			// A region without kernels copies its inputs into its outputs
			// (x.T materialized): the copy streams like a kernel would.
			if len(g.instrs) == 0 && len(exact[oi]) == 0 && !g.scalar[o.src] && g.streamsCopy(o.src) && g.wholeLines(oi, size) {
				g.outputs[oi].stream, g.streams = true, true
			}
			continue
		}
		in := &g.instrs[producer[o.src]]
		if len(exact[oi]) > 0 || lastRead[o.src] > producer[o.src] || !g.vectorized(*in) || !g.wholeLines(oi, size) {
			continue
		}
		in.stream, g.streams = true, true
	}
}

// wholeLines reports whether output oi's blocks are contiguous in it and,
// in row mode, either long pieces or pieces in whole cache lines (see
// markStreams); a panel's pieces are one run (see panelRows).
func (g *region) wholeLines(oi, size int) bool {
	st := g.lay.strides[oi]
	d := len(st)
	if st[d-1] != 1 || !g.rowMode && g.r > 1 && d >= 2 && st[d-2] != g.cols {
		return false // blocks not contiguous in the output
	}
	return !g.rowMode || g.panel || g.piece*size >= streamRow ||
		st[d-2]*size%64 == 0 && g.offsets[oi]*size%64 == 0 && g.c*size%64 == 0 && g.piece*size%64 == 0
}

// sameBase reports whether values a and b index one storage slice from the
// same first element, so that equal offsets mean equal addresses.
func (pl *planner) sameBase(a, b int) bool {
	va, vb := &pl.p.values[pl.p.values[a].storage], &pl.p.values[pl.p.values[b].storage]
	if va == vb {
		return true
	}
	return va.kind == valFixed && vb.kind == valFixed && va.fixed.SameBase(vb.fixed)
}

// compileSlots gives g a slot per input of pr, then per computed node with
// its kernel. inputScalar says which inputs are constant over a block; a
// computed node is constant when all its operands are.
func (pl *planner) compileSlots(g *region, pr *program, inputScalar func(slot int) bool) {
	nslots := len(pr.inputs) + len(pr.nodes)
	g.slotDT = make([]dtype.DType, nslots)
	g.scalar = make([]bool, nslots)
	for s, in := range pr.inputs {
		g.slotDT[s] = pl.p.values[in].dt
		g.scalar[s] = inputScalar(s)
	}
	// One allocation for every instruction's operand slots (at most 3 each).
	g.instrs = slices.Grow(g.instrs, len(pr.nodes))
	argSlots := make([]int, 0, 3*len(pr.nodes))
	for i, n := range pr.nodes {
		s := len(pr.inputs) + i
		g.slotDT[s] = n.DType()
		g.scalar[s] = true
		spec := instrSpec{op: n.Op(), dst: s}
		args := pl.args(n)
		start := len(argSlots)
		for _, a := range args {
			argSlots = append(argSlots, pr.slotOf[a])
			g.scalar[s] = g.scalar[s] && g.scalar[pr.slotOf[a]]
		}
		spec.args = argSlots[start:len(argSlots):len(argSlots)]
		spec.argType = args[0].DType()
		if n.Op() == expr.OpWhere {
			spec.argType = args[1].DType() // args[0] is the bool condition
		}
		g.instrs = append(g.instrs, spec)
	}
}

// shareStorage reports whether values a and b may share memory.
func (pl *planner) shareStorage(a, b int) bool {
	va, vb := &pl.p.values[pl.p.values[a].storage], &pl.p.values[pl.p.values[b].storage]
	if va == vb {
		return true
	}
	if va.kind == valFixed && vb.kind == valFixed {
		return va.fixed.SameStorage(vb.fixed)
	}
	return false
}

// finalWrites reports whether value in shares storage with the
// destination of a final member (see assignValues) other than those in own.
func (pl *planner) finalWrites(in int, own map[int]bool) bool {
	for _, k := range pl.groups {
		for _, m := range pl.members[k] {
			if m.final && !own[m.value] && pl.shareStorage(in, m.value) {
				return true
			}
		}
	}
	return false
}

// stage copies value in to a new contiguous tensor before the region being
// built runs, so that the region's writes cannot change what it reads. The
// copy is the only extra memory an overlapping in-place op costs.
func (pl *planner) stage(in int, why string) int {
	v := pl.p.values[in]
	tmp := pl.addValue(value{kind: valTemp, node: v.node, dt: v.dt, shape: v.shape, strides: tensor.RowMajorStrides(v.shape)})
	g := pl.copyRegion(in, tmp)
	g.note = fmt.Sprintf("stages the old values of v%d: %s", in, why)
	pl.pendingStage = append(pl.pendingStage, g)
	return tmp
}

// aliasedRows reports whether an operand with these layout strides and
// element size is strided along the layout's rows a multiple of aliasStride
// bytes apart (see region.tile).
func aliasedRows(strides []int, size int) bool {
	st := strides[len(strides)-1]
	return st > 1 && st*size%aliasStride == 0
}

// copyRegion builds a region that copies value src into value dst (same shape).
func (pl *planner) copyRegion(src, dst int) *region {
	v := &pl.p.values[src]
	g := &region{shape: v.shape.Clone(), inputs: []int{src}}
	d := &pl.p.values[dst]
	g.offsets = []int{d.offset, v.offset}
	g.lay = mergeDims(v.shape, [][]int{d.strides, v.strides}, 0)
	band := transposedBand(g.lay.strides[1:], []dtype.DType{v.dt})
	g.tile(pl.x.blockFor(v.dt.Size(), v.dt.Size()), v.dt.Size(), aliasedRows(g.lay.strides[1], v.dt.Size()), band, pl.x.workers, false)
	g.slotDT = []dtype.DType{v.dt}
	g.scalar = []bool{false}
	g.outputs = []regionOutput{{value: dst, src: 0}}
	g.sortInputs(1)
	g.markBands(1)
	return g
}

// sortInputs splits the input slots into those with one value over the
// whole region and the others; nout operands (the outputs) precede the
// inputs in the layout.
func (g *region) sortInputs(nout int) {
	for s := range g.inputs {
		if slices.ContainsFunc(g.lay.strides[nout+s], func(st int) bool { return st != 0 }) {
			g.varying = append(g.varying, s)
		} else {
			g.invariant = append(g.invariant, s)
		}
	}
}
