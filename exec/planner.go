package exec

import (
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// planner compiles roots into a plan: common subexpressions are merged,
// elementwise nodes are fused into regions (one kernel per region), and
// every node whose value is needed by more than one region, by a non-fusable
// op, or as a result gets a tensor of its own.
type planner struct {
	x     *Executor
	w     *walker // the walk of the graph, for leaf positions
	p     *plan
	binds map[*expr.Node]tensor.Any

	order   []*expr.Node        // post-order of canonical nodes
	mat     map[*expr.Node]bool // elementwise nodes that get a tensor
	valueOf map[*expr.Node]int  // node -> value
	level   map[*expr.Node]int  // dependency depth counted in steps, of the nodes that are steps or have a tensor (see computeLevels)
	members map[groupKey][]member
	groups  []groupKey

	// The planner's own passes index nodes by their position in the walk
	// (pl.w.nodes, a post-order), so that a node costs a few slice entries
	// rather than an entry in each of several maps.
	canon   []int32  // per position: the position of the node it was merged into, or its own
	cargs   []int32  // canonical operand positions, laid out as pl.w.argPos
	merged  bool     // some node was merged into another, so operands must be looked up through canon
	isMat   []bool   // per position: mat
	levels  []int32  // per canonical position: its level, fused nodes too
	marks   []uint32 // per position: the walk that last visited it (see newMark)
	markGen uint32

	stepLevel    []int     // level of each step in p.steps
	pendingStage []*region // copies the region being built needs first

	probe *compiledProbe // set only while RegisterCompiled plans a kernel

	indexedOf map[*expr.Node]int // a gather's indexed value, which regions read (see gatherValue)
}

// member is one output of a fused region: node's value written to value.
type member struct {
	node  *expr.Node
	value int
	shape tensor.Shape // the iteration shape (a destination may be larger)
	final bool         // a copy into a destination that must come last
	copy  bool         // copies node's own tensor instead of computing node again
}

type groupKey struct {
	level int
	shape string
}

// cseKey identifies what a node computes: its op, canonical operands (walk
// positions, -1 for none) and attributes. The shape and axes of views,
// reductions and matmuls enter as a hash (attrs), so nodes with equal keys
// are compared by sameAttrs before they are merged.
type cseKey struct {
	op      expr.Op
	dt      dtype.DType
	keep    bool
	a, b, c int32
	slice   [4]int
	attrs   uint64
	leaf    tensor.Any
}

func (x *Executor) buildPlan(w *walker, roots []*expr.Node, dsts []tensor.Any, binds []Binding, probe *compiledProbe) (*plan, error) {
	pl := &planner{x: x, w: w, p: &plan{}, mat: map[*expr.Node]bool{},
		valueOf: map[*expr.Node]int{}, level: map[*expr.Node]int{}, members: map[groupKey][]member{}, probe: probe}
	if len(binds) > 0 {
		pl.binds = make(map[*expr.Node]tensor.Any, len(binds))
		for _, b := range binds {
			pl.binds[b.node] = b.t
		}
	}
	croots := pl.cse(roots)
	if err := pl.checkDsts(croots, dsts); err != nil {
		return nil, err
	}
	pl.materialize(croots, dsts)
	if err := pl.assignValues(croots, dsts); err != nil {
		return nil, err
	}
	if err := pl.buildSteps(); err != nil {
		return nil, err
	}
	return pl.p, nil
}

// cse returns the canonical roots, merging nodes that compute the same thing.
func (pl *planner) cse(roots []*expr.Node) []*expr.Node {
	nodes := pl.w.nodes
	pl.canon = make([]int32, len(nodes))
	pl.cargs = make([]int32, len(pl.w.argPos))
	pl.order = make([]*expr.Node, 0, len(nodes))
	seen := make(map[cseKey]int32, len(nodes)-len(pl.w.leaves))
	var sameKey map[int32]int32 // an earlier canonical node with the key, where keys collide
	for i, n := range nodes {
		ca := pl.cargsAt(i)
		for j, a := range pl.w.argsAt(i) {
			ca[j] = pl.canon[a]
		}
		pl.canon[i] = int32(i)
		op := n.Op()
		if op == expr.OpPlaceholder || op == expr.OpScalar {
			pl.order = append(pl.order, n) // never merged with another leaf
			continue
		}
		k := cseKey{op: op, a: -1, b: -1, c: -1, leaf: n.Tensor()}
		if len(ca) > 0 {
			k.a = ca[0]
		}
		if len(ca) > 1 {
			k.b = ca[1]
		}
		if len(ca) > 2 {
			k.c = ca[2]
		}
		switch {
		case !op.Elementwise() && op != expr.OpTensor:
			ax, s0, s1, s2 := n.SliceArgs()
			k.dt, k.keep, k.slice, k.attrs = n.DType(), n.KeepDim(), [4]int{ax, s0, s1, s2}, attrHash(n)
		case op == expr.OpCast:
			k.dt = n.DType()
		}
		c, ok := seen[k]
		for ok && !sameAttrs(n, nodes[c]) {
			c, ok = sameKey[c]
		}
		if ok {
			pl.canon[i], pl.merged = c, true
			continue
		}
		if prev, ok := seen[k]; ok {
			if sameKey == nil {
				sameKey = map[int32]int32{}
			}
			sameKey[int32(i)] = prev
		}
		seen[k] = int32(i)
		pl.order = append(pl.order, n)
	}
	// Rewrite nothing: canonical nodes keep their own (possibly duplicate)
	// args; args are looked up through canon wherever they are used.
	out := make([]*expr.Node, len(roots))
	for i, r := range roots {
		out[i] = nodes[pl.canon[pl.pos(r)]]
	}
	return out
}

// attrHash is FNV-1a over a node's shape and axes, the attributes a cseKey
// holds only as a hash.
func attrHash(n *expr.Node) uint64 {
	h := uint64(14695981039346656037)
	mix := func(v int) {
		h ^= uint64(v)
		h *= 1099511628211
	}
	mix(len(n.Shape()))
	for _, d := range n.Shape() {
		mix(d)
	}
	mix(len(n.Axes()))
	for _, a := range n.Axes() {
		mix(a)
	}
	mix(int(n.ExternalKey()))
	for _, v := range expr.PieceKey(nil, n) {
		mix(int(v))
	}
	return h
}

// sameAttrs reports whether nodes with equal cseKeys have equal shapes and
// axes too, so that they compute the same thing.
func sameAttrs(n, m *expr.Node) bool {
	return slices.Equal(n.Shape(), m.Shape()) && slices.Equal(n.Axes(), m.Axes()) && n.ExternalKey() == m.ExternalKey() && sameWindow(n, m) && expr.SamePieces(n, m)
}

// pos returns n's position in the walk.
func (pl *planner) pos(n *expr.Node) int {
	i, _ := pl.w.lookup(n)
	return i
}

// cargsAt returns the canonical operand positions of the node at position
// i. The slice must not be modified.
func (pl *planner) cargsAt(i int) []int32 {
	s := pl.w.argStart[i]
	return pl.cargs[s : int(s)+len(pl.w.nodes[i].Args())]
}

// args returns n's canonical operands. The slice must not be modified: it
// is n's own when every operand is canonical, as most are.
func (pl *planner) args(n *expr.Node) []*expr.Node {
	args := n.Args()
	if !pl.merged {
		return args
	}
	i := pl.pos(n)
	ca := pl.cargsAt(i)
	for j, a := range pl.w.argsAt(i) {
		if ca[j] != a {
			out := make([]*expr.Node, len(ca))
			for k, c := range ca {
				out[k] = pl.w.nodes[c]
			}
			return out
		}
	}
	return args
}

// newMark starts a walk over positions that marks what it visits: position
// i is visited in it when pl.marks[i] is the mark returned.
func (pl *planner) newMark() uint32 {
	if pl.marks == nil {
		pl.marks = make([]uint32, len(pl.w.nodes))
	}
	pl.markGen++
	return pl.markGen
}

// checkDsts applies the in-place rules to destinations before anything runs.
func (pl *planner) checkDsts(roots []*expr.Node, dsts []tensor.Any) error {
	for i, d := range dsts {
		if d == nil {
			continue
		}
		r := roots[i]
		if d.DType() != r.DType() {
			return &InplaceError{Reason: "destination is " + d.DType().String() + ", value is " + r.DType().String()}
		}
		if err := checkDst(d); err != nil {
			return err
		}
		if err := checkExpands(d.Shape(), r.Shape()); err != nil {
			return err
		}
	}
	return nil
}

// materialize decides which elementwise nodes get a tensor of their own:
// results, operands of views (but not of embeds) and matmuls, and nodes
// that several regions would otherwise each recompute, unless they are
// cheap to recompute (see recomputable). It iterates because giving a node
// a tensor changes the regions.
func (pl *planner) materialize(roots []*expr.Node, dsts []tensor.Any) {
	nodes := pl.w.nodes
	pl.isMat = make([]bool, len(nodes))
	setMat := func(i int32) {
		pl.isMat[i] = true
		pl.mat[nodes[i]] = true
	}
	for _, r := range roots {
		if r.Op().Elementwise() {
			setMat(int32(pl.pos(r)))
		}
	}
	for i, n := range nodes {
		if pl.canon[i] != int32(i) {
			continue
		}
		// An embed's operand is written into the embed's view by a region
		// of its own (see embedValue): it needs no tensor besides.
		if c := n.Op().Class(); c == expr.ClassShape && n.Op() != expr.OpEmbed && n.Op() != expr.OpAssemble && n.Op() != expr.OpViewEmbed || c == expr.ClassMatMul || c == expr.ClassExternal || c == expr.ClassWindow || c == expr.ClassScan || c == expr.ClassIndex {
			for k, a := range pl.cargsAt(i) {
				// A scatter's base is written into its value by a region (see scatterValue).
				if nodes[a].Op().Elementwise() && !(k == 0 && n.Op() != expr.OpGather && c == expr.ClassIndex) {
					setMat(a)
				}
			}
		}
		// An assemble's operand that a piece reads a box of needs a
		// tensor; a whole one is computed into its box (see assembleValue).
		for _, a := range pl.boxedOperands(n, pl.cargsAt(i)) {
			if nodes[a].Op().Elementwise() {
				setMat(a)
			}
		}
	}
	// claim holds per position the owner that claimed a fused operand: a
	// group of materialized nodes (an id > 0, one per level and shape, as
	// they share a region) or a reduction at position r (-r-1); 0 for none.
	claim := make([]int32, len(nodes))
	groupID := map[groupKey]int32{}
	type frame struct {
		args []int32
		next int
	}
	var stack []frame
	for {
		pl.computeLevels()
		clear(claim)
		clear(groupID)
		changed := false
		// visit claims for owner the fused operands below position i,
		// depth first with a stack of its own (chains may be any length).
		visit := func(i int, owner int32, size int) {
			stack = append(stack[:0], frame{args: pl.cargsAt(i)})
			for len(stack) > 0 {
				f := &stack[len(stack)-1]
				if f.next == len(f.args) {
					stack = stack[:len(stack)-1]
					continue
				}
				a := f.args[f.next]
				f.next++
				if !nodes[a].Op().Elementwise() || pl.isMat[a] {
					continue
				}
				if n, _ := nodes[a].Shape().Numel(); n > 1 && n*hoistRatio <= size {
					setMat(a) // computed once at its own shape (see hoistRatio)
					changed = true
					continue
				}
				if prev := claim[a]; prev != 0 {
					if prev != owner && !pl.recomputable(a) {
						setMat(a)
						changed = true
					}
					continue
				}
				claim[a] = owner
				stack = append(stack, frame{args: pl.cargsAt(int(a))})
			}
		}
		for i, n := range nodes {
			if pl.canon[i] != int32(i) {
				continue
			}
			switch {
			case n.Op().Elementwise() && pl.isMat[i]:
				k := groupKey{int(pl.levels[i]), n.Shape().String()}
				id, ok := groupID[k]
				if !ok {
					id = int32(len(groupID) + 1)
					groupID[k] = id
				}
				size, _ := n.Shape().Numel()
				visit(i, id, size)
			case n.Op().Class() == expr.ClassReduce:
				a := pl.cargsAt(i)[0]
				if nodes[a].Op().Elementwise() && !pl.isMat[a] {
					owner := -int32(i) - 1
					if prev := claim[a]; prev != 0 && prev != owner {
						if !pl.recomputable(a) {
							setMat(a)
							changed = true
						}
						continue
					}
					claim[a] = owner
					size, _ := nodes[a].Shape().Numel()
					visit(int(a), owner, size)
				}
			}
		}
		if !changed {
			return
		}
	}
}

// computeLevels gives every node the number of steps below it: a fused node
// without a tensor sits at the level of its deepest input; a node with a
// tensor, a view, a reduction or a matmul one above. pl.level keeps the
// levels of the nodes that are steps or have a tensor, the only ones read
// once the nodes are materialized (a leaf is at level 0).
func (pl *planner) computeLevels() {
	nodes := pl.w.nodes
	if pl.levels == nil {
		pl.levels = make([]int32, len(nodes))
	}
	for i, n := range nodes {
		if pl.canon[i] != int32(i) {
			continue
		}
		lv := int32(0)
		for _, a := range pl.cargsAt(i) {
			lv = max(lv, pl.levels[a])
		}
		switch {
		case n.Op().Class() == expr.ClassLeaf:
			lv = 0
		case !n.Op().Elementwise() || pl.isMat[i]:
			lv++
			pl.level[n] = int(lv)
		}
		pl.levels[i] = lv
	}
}

// recomputeMaxOps is the most fused nodes a shared operand may take to
// compute for every region and reduction that reads it to compute it again
// rather than read it from a tensor of its own (see recomputable).
const recomputeMaxOps = 2

// recomputable reports whether the fused node at position i, which several
// regions or reductions read, is cheaper to compute in each of them than
// to store: at most recomputeMaxOps nodes of plain arithmetic (costCheap)
// down to the nodes that have a tensor (or are steps or leaves). Storing
// it costs a full-size write and a read by every reader; computing it
// again costs a few operations on inputs its readers mostly read anyway.
// A centred x - mean(x), read by the variance's reduction and by the
// normalization that divides by it, is then never stored.
func (pl *planner) recomputable(i int32) bool {
	nodes := pl.w.nodes
	ops := 0
	stack := []int32{i}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := nodes[j]
		if !n.Op().Elementwise() || pl.isMat[j] {
			continue
		}
		if ops++; ops > recomputeMaxOps || costOf(n.Op()) != costCheap {
			return false
		}
		stack = append(stack, pl.cargsAt(int(j))...)
	}
	return true
}

// hoistRatio is how many times fewer elements than the region or reduction
// that reads it a fused node must have to be computed once, at its own
// shape, into a tensor of its own, rather than at every element of the
// region: the sqrt(var + eps) of a per-channel normalization is 3 values
// of a [32,3,224,224] region, which computed in the region cost a sqrt
// per element, not per channel. (A 0-d node is one value per block
// already: a region computes its scalar slots once.)
const hoistRatio = 4096
