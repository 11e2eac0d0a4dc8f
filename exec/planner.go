package exec

import (
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

	order   []*expr.Node // post-order of canonical nodes
	canon   map[*expr.Node]*expr.Node
	mat     map[*expr.Node]bool // elementwise nodes that get a tensor
	valueOf map[*expr.Node]int  // node -> value
	level   map[*expr.Node]int  // dependency depth counted in steps
	members map[groupKey][]member
	groups  []groupKey

	stepLevel    []int     // level of each step in p.steps
	pendingStage []*region // copies the region being built needs first

	probe *compiledProbe // set only while RegisterCompiled plans a kernel
}

// member is one output of a fused region: node's value written to value.
type member struct {
	node  *expr.Node
	value int
	shape tensor.Shape // the iteration shape (a destination may be larger)
	final bool         // a copy into a destination that must come last
}

type groupKey struct {
	level int
	shape string
}

type cseKey struct {
	op      expr.Op
	a, b, c *expr.Node
	leaf    tensor.Any
	attr    string
}

func (x *Executor) buildPlan(w *walker, roots []*expr.Node, dsts []tensor.Any, binds []Binding, probe *compiledProbe) (*plan, error) {
	pl := &planner{x: x, w: w, p: &plan{}, canon: map[*expr.Node]*expr.Node{}, mat: map[*expr.Node]bool{},
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
	seen := map[cseKey]*expr.Node{}
	for _, n := range expr.PostOrder(roots...) {
		k := cseKey{op: n.Op(), leaf: n.Tensor()}
		args := n.Args()
		cargs := make([]*expr.Node, len(args))
		for i, a := range args {
			cargs[i] = pl.canon[a]
		}
		if len(cargs) > 0 {
			k.a = cargs[0]
		}
		if len(cargs) > 1 {
			k.b = cargs[1]
		}
		if len(cargs) > 2 {
			k.c = cargs[2]
		}
		switch {
		case n.Op() == expr.OpPlaceholder || n.Op() == expr.OpScalar:
			k.a = n // never merged with another leaf
		case !n.Op().Elementwise() && n.Op() != expr.OpTensor:
			ax, s0, s1, s2 := n.SliceArgs()
			k.attr = n.DType().String() + n.Shape().String() + tensor.Shape(n.Axes()).String() +
				tensor.Shape{ax, s0, s1, s2}.String()
			if n.KeepDim() {
				k.attr += "k"
			}
		case n.Op() == expr.OpCast:
			k.attr = n.DType().String()
		}
		if c, ok := seen[k]; ok {
			pl.canon[n] = c
			continue
		}
		seen[k] = n
		pl.canon[n] = n
		pl.order = append(pl.order, n)
	}
	// Rewrite nothing: canonical nodes keep their own (possibly duplicate)
	// args; args are looked up through canon wherever they are used.
	out := make([]*expr.Node, len(roots))
	for i, r := range roots {
		out[i] = pl.canon[r]
	}
	return out
}

// args returns n's canonical operands. The slice must not be modified: it
// is n's own when every operand is canonical, as most are.
func (pl *planner) args(n *expr.Node) []*expr.Node {
	args := n.Args()
	for i, a := range args {
		if c := pl.canon[a]; c != a {
			out := append([]*expr.Node(nil), args...)
			out[i] = c
			for j := i + 1; j < len(args); j++ {
				out[j] = pl.canon[args[j]]
			}
			return out
		}
	}
	return args
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
// that several regions would otherwise each recompute. It iterates because
// giving a node a tensor changes the regions.
func (pl *planner) materialize(roots []*expr.Node, dsts []tensor.Any) {
	for _, r := range roots {
		if r.Op().Elementwise() {
			pl.mat[r] = true
		}
	}
	for _, n := range pl.order {
		// An embed's operand is written into the embed's view by a region
		// of its own (see embedValue): it needs no tensor besides.
		if c := n.Op().Class(); c == expr.ClassShape && n.Op() != expr.OpEmbed || c == expr.ClassMatMul {
			for _, a := range pl.args(n) {
				if a.Op().Elementwise() {
					pl.mat[a] = true
				}
			}
		}
	}
	for {
		pl.computeLevels()
		claim := map[*expr.Node]any{}
		changed := false
		// visit claims for owner the fused operands below n, depth first
		// with a stack of its own (chains may be any length).
		type frame struct {
			args []*expr.Node
			next int
		}
		var stack []frame
		visit := func(n *expr.Node, owner any) {
			stack = append(stack[:0], frame{args: pl.args(n)})
			for len(stack) > 0 {
				f := &stack[len(stack)-1]
				if f.next == len(f.args) {
					stack = stack[:len(stack)-1]
					continue
				}
				a := f.args[f.next]
				f.next++
				if !a.Op().Elementwise() || pl.mat[a] {
					continue
				}
				if prev, ok := claim[a]; ok {
					if prev != owner && !pl.mat[a] {
						pl.mat[a] = true
						changed = true
					}
					continue
				}
				claim[a] = owner
				stack = append(stack, frame{args: pl.args(a)})
			}
		}
		for _, n := range pl.order {
			switch {
			case n.Op().Elementwise() && pl.mat[n]:
				visit(n, groupKey{pl.level[n], n.Shape().String()})
			case n.Op().Class() == expr.ClassReduce:
				a := pl.args(n)[0]
				if a.Op().Elementwise() && !pl.mat[a] {
					if prev, ok := claim[a]; ok && prev != any(n) {
						pl.mat[a] = true
						changed = true
						continue
					}
					claim[a] = n
					visit(a, n)
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
// tensor, a view, a reduction or a matmul one above.
func (pl *planner) computeLevels() {
	for _, n := range pl.order {
		lv := 0
		for _, a := range pl.args(n) {
			lv = max(lv, pl.level[a])
		}
		switch {
		case n.Op().Class() == expr.ClassLeaf:
			lv = 0
		case !n.Op().Elementwise() || pl.mat[n]:
			lv++
		}
		pl.level[n] = lv
	}
}
