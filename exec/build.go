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
		case expr.ClassExternal:
			pl.addStep(pl.level[n], pl.buildExternal(n))
		case expr.ClassWindow:
			s, err := pl.buildWindow(n)
			if err != nil {
				return err
			}
			pl.addStep(pl.level[n], s)
		case expr.ClassScan:
			pl.addStep(pl.level[n], pl.buildScan(n))
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
	pl.fuseConvEpilogues()
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
	inSlot  map[int]int   // value -> input slot
	reads   []indexedRead // per input slot, its read through an index (see withIndexes)
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
			if iv, ok := pl.indexedOf[n]; ok {
				v = iv // a gather is read through its index
			}
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
	// The indexes of gathered inputs are inputs too, before the computed
	// nodes' slots.
	pr.inputs, pr.reads = pl.withIndexes(pr.inputs)
	for s := len(inValues); s < len(pr.inputs); s++ {
		if _, ok := pr.inSlot[pr.inputs[s]]; !ok {
			pr.inSlot[pr.inputs[s]] = s
		}
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
	reads := pr.reads

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
	reach := 0                      // how far shifted inputs read from the element written (see sweep.go)
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
			if d, ok := pl.shiftedInput(in, m.value, st, ms); err == nil && ok {
				reach = max(reach, d)
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
	pl.unindex(pr.inputs, reads)
	g := &region{shape: shape.Clone(), inputs: pr.inputs, reads: reads}
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
	outDTs := make([]dtype.DType, len(ms))
	for oi, m := range ms {
		outDTs[oi] = pl.p.values[m.value].dt
	}
	inDTs := make([]dtype.DType, len(pr.inputs))
	for s, in := range pr.inputs {
		inDTs[s] = pl.p.values[in].dt
	}
	facts := g.tileFacts(outDTs, inDTs, len(pr.nodes) > 0, pl.x.workers)
	for s := range pr.inputs {
		if k := facts.row[len(ms)+s]; k == accStrided || k == accTransposed || k == accIndexed || k == accReversed {
			scratch += inDTs[s].Size()
		}
	}
	facts.block = pl.x.blockFor(scratch, widest)
	if reach > 0 {
		g.sweep, facts.reach = &sweepPlan{reach: reach}, reach
	}
	g.planTiles(facts)
	if g.sweep != nil {
		g.planSweep()
	}

	// Slots: an input is a scalar slot when its kind is constant.
	pl.compileSlots(g, pr, func(s int) bool { return g.kinds[len(ms)+s].constant() })
	g.sortInputs(len(ms))
	if len(ms) == 1 {
		pl.useCompiled(g, pr, ms[0].node)
		if pl.x.debug != nil && len(g.instrs) > 0 && g.instrs[0].compiled == nil {
			g.hint = pl.tpkernelHint(pr, ms[0].node)
		}
	}
	nslots := len(g.slotDT)
	fusePairs(g, func(s int) bool { return slices.Contains(srcs, s) })

	// Outputs (see planStores). Kernel positions are taken after fusion,
	// which removed kernels.
	si := &storeInputs{exact: exact, lastRead: make([]int, nslots), producer: make([]int, nslots)}
	for i, in := range g.instrs {
		for _, a := range in.args {
			si.lastRead[a] = i
		}
		si.producer[in.dst] = i
	}
	for _, m := range ms {
		g.outputs = append(g.outputs, regionOutput{value: m.value, src: pr.slotOf[m.node]})
	}
	if g.lengthenable(pl.x, si) {
		facts.bufferless = true
		g.planTiles(facts)
	}
	g.planStores(si)
	g.tp.prefetch = g.tp.rowwise || g.tp.copyRows > 0
	g.tp.prefetch = g.tp.prefetch && g.bytes() >= streamBytes
	g.tp.ahead = g.aheadPays()
	return g, nil
}

// tileFacts gathers what tileTable looks at for g's layout, whose operands
// have these element types (outputs, then inputs).
func (g *region) tileFacts(outDTs, inDTs []dtype.DType, computes bool, workers int) *tileFacts {
	f := &tileFacts{nout: len(outDTs), computes: computes, workers: workers}
	d := len(g.lay.sizes)
	cols := g.lay.sizes[d-1]
	var transposed []dtype.DType
	f.row = make([]access, len(g.lay.strides))
	f.indexed = make([]bool, len(g.lay.strides))
	for op, st := range g.lay.strides {
		f.indexed[op] = g.operandIndexed(op, len(outDTs))
		var dt dtype.DType
		if op < len(outDTs) {
			dt = outDTs[op]
		} else {
			dt = inDTs[op-len(outDTs)]
		}
		f.row[op] = classify(st, f.indexed[op], false, cols)
		switch f.row[op] {
		case accTransposed:
			if op >= len(outDTs) {
				transposed = append(transposed, dt)
			}
			f.runSize = max(f.runSize, dt.Size())
		case accStrided, accReversed:
			f.runSize = max(f.runSize, dt.Size())
		}
	}
	f.band, f.loops = copyBand(transposed)
	return f
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

// copyRegion builds a region that copies value src into value dst (same shape).
func (pl *planner) copyRegion(src, dst int) *region {
	v := &pl.p.values[src]
	g := &region{shape: v.shape.Clone()}
	g.inputs, g.reads = pl.withIndexes([]int{src})
	d := &pl.p.values[dst]
	g.offsets = []int{d.offset}
	strides := [][]int{d.strides}
	inDTs := make([]dtype.DType, len(g.inputs))
	for s, in := range g.inputs {
		iv := &pl.p.values[in]
		st, _ := tensor.BroadcastStrides(iv.shape, iv.strides, v.shape)
		strides, inDTs[s] = append(strides, st), iv.dt
		g.offsets = append(g.offsets, iv.offset)
	}
	g.lay = mergeDims(v.shape, strides, 0)
	facts := g.tileFacts([]dtype.DType{d.dt}, inDTs, false, pl.x.workers)
	facts.block = pl.x.blockFor(v.dt.Size(), v.dt.Size())
	g.planTiles(facts)
	g.slotDT = inDTs
	g.scalar = make([]bool, len(g.inputs))
	for s := range g.inputs {
		g.scalar[s] = g.kinds[1+s].constant()
	}
	g.outputs = []regionOutput{{value: dst, src: 0}}
	g.sortInputs(1)
	g.planStores(&storeInputs{exact: [][]int{nil}})
	return g
}

// sortInputs splits the input slots into the invariant ones and the
// others; nout operands (the outputs) precede the inputs in the layout.
func (g *region) sortInputs(nout int) {
	var indexed []int // presented after their indexes
	for s := range g.inputs {
		switch g.kinds[nout+s] {
		case accInvariant:
			g.invariant = append(g.invariant, s)
		case accIndexed:
			indexed = append(indexed, s)
		default:
			g.varying = append(g.varying, s)
		}
	}
	g.varying = append(g.varying, indexed...)
}
