package exec

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// CompiledKernel is an elementwise expression compiled ahead of time into
// one Go loop, usually written by cmd/tpkernel. Once registered, the executor runs
// any fused region that computes the same expression with Loop instead of
// interpreting it op by op: one pass over each block instead of one per op,
// which is what a long arithmetic chain needs to keep up with memory.
//
// A region matches when its graph has the same ops on the same operands as
// Expr's, with tensors (vectors within a block) where Expr has its inputs
// and scalar constants where it has its scalars, whatever their values. The
// region still does everything else: broadcasting, strides, tiles and
// workers; Loop sees only equal-length blocks. Loop must round as the ops
// do (each result converted to T), so that a result never depends on
// whether a kernel matched; exp and sigmoid, which the executor computes
// with block kernels of its own, cannot be part of a kernel. A kernel needs
// at least two ops: one op is already one loop per block. A 0-d tensor
// matches only a kernel's scalar; a tensor the region holds constant within
// a block (a broadcast column next to long rows) is expanded for Loop.
type CompiledKernel[T dtype.Float] struct {
	// Name appears in debug plans.
	Name string
	// Inputs and Scalars are the lengths of in and s below.
	Inputs, Scalars int
	// Expr builds the expression from its inputs and its scalars, each
	// given as an expression (a constant): every constant in the result
	// must be one of s, since the kernel stands for any value in its place.
	Expr func(in, s []expr.Expr[T]) expr.Expr[T]
	// Loop sets d[i] to the expression of in[k][i] and s for every i; each
	// in[k] is at least as long as d. d may be one of the in (an in-place
	// update), so d[i] must be computed from element i alone.
	Loop func(d []T, in [][]T, s []T)
}

// compiledEntry is a registered kernel: where each of the pattern region's
// input slots goes, and how to bind the loop to a worker's slots.
type compiledEntry struct {
	name    string
	param   []int // per input slot: the index in Loop's in, or -1-k for s[k]
	nIn, nS int
	bind    func(d slotAny, in, s []slotAny) func(n int)
}

var compiledKernels struct {
	sync.RWMutex
	byKey map[string]*compiledEntry
}

// RegisterCompiled makes k available to every executor; call it from an init
// function, before evaluating graphs it should apply to (plans already
// cached keep interpreting). Registering a kernel for an expression that
// already has one replaces it. An expression that is not one elementwise
// region over all of its inputs and scalars is an error.
func RegisterCompiled[T dtype.Float](k CompiledKernel[T]) error {
	switch dt := dtype.Of[T](); {
	case dt != dtype.Float32 && dt != dtype.Float64:
		return fmt.Errorf("exec: kernel %q: the element type must be float32 or float64, not a named type", k.Name)
	case k.Expr == nil || k.Loop == nil:
		return fmt.Errorf("exec: kernel %q: Expr and Loop are required", k.Name)
	case k.Inputs < 1:
		return fmt.Errorf("exec: kernel %q: %d inputs: at least one is required", k.Name, k.Inputs)
	case k.Scalars < 0:
		return fmt.Errorf("exec: kernel %q: %d scalars", k.Name, k.Scalars)
	}
	// Plan the expression with placeholders for its inputs, so that each
	// of the region's input slots can be traced back by node to the
	// parameter it stands for.
	in := make([]expr.Expr[T], k.Inputs)
	binds := make([]Binding, k.Inputs)
	for i := range in {
		in[i] = expr.Placeholder[T]("in"+strconv.Itoa(i), 2)
		binds[i] = Bind(in[i], tensor.Must(tensor.Zeros[T](2)))
	}
	s := make([]expr.Expr[T], k.Scalars)
	for i := range s {
		s[i] = expr.Scalar(T(i + 1))
	}
	e, err := callExpr(k.Expr, in, s)
	if err != nil {
		return fmt.Errorf("exec: kernel %q: Expr: %v", k.Name, err)
	}
	if err := e.Err(); err != nil {
		return fmt.Errorf("exec: kernel %q: %w", k.Name, err)
	}
	for _, n := range expr.PostOrder(e.Node()) {
		switch op := n.Op(); {
		case op == expr.OpExp || op == expr.OpSigmoid:
			return fmt.Errorf("exec: kernel %q: %s uses the executor's own block kernel, which a compiled loop cannot reproduce bit for bit", k.Name, op)
		case !op.Elementwise() && op.Class() != expr.ClassLeaf:
			return fmt.Errorf("exec: kernel %q: the expression is not one elementwise region (it has a %s)", k.Name, op)
		}
	}
	probe := &compiledProbe{}
	w := getWalker()
	roots := []*expr.Node{e.Node()}
	w.walk(roots, nil, binds)
	_, err = New(Workers(1)).buildPlan(w, roots, nil, binds, probe)
	putWalker(w)
	if err != nil {
		return fmt.Errorf("exec: kernel %q: %w", k.Name, err)
	}
	if probe.regions != 1 || probe.key == "" {
		return fmt.Errorf("exec: kernel %q: the expression is not one elementwise region", k.Name)
	}
	if probe.ops < 2 {
		return fmt.Errorf("exec: kernel %q: the expression has %d op; a kernel needs two or more (one op already runs as one loop)", k.Name, probe.ops)
	}
	ent := &compiledEntry{name: k.Name, nIn: k.Inputs, nS: k.Scalars}
	params := map[*expr.Node]int{}
	for i, x := range in {
		params[x.Node()] = i
	}
	for i, x := range s {
		params[x.Node()] = -1 - i
	}
	used := map[int]bool{}
	for _, n := range probe.inputs {
		p, ok := params[n]
		if !ok {
			return fmt.Errorf("exec: kernel %q: an operand (%s) is neither one of its inputs nor one of its scalars", k.Name, n.Op())
		}
		used[p] = true
		ent.param = append(ent.param, p)
	}
	if len(used) != k.Inputs+k.Scalars {
		return fmt.Errorf("exec: kernel %q: Expr does not use all %d inputs and %d scalars", k.Name, k.Inputs, k.Scalars)
	}
	loop := k.Loop
	ent.bind = func(ds slotAny, ins, ss []slotAny) func(n int) {
		d := ds.(*slot[T])
		inSlots := make([]*slot[T], len(ins))
		for i, a := range ins {
			inSlots[i] = a.(*slot[T])
		}
		sSlots := make([]*slot[T], len(ss))
		for i, a := range ss {
			sSlots[i] = a.(*slot[T])
		}
		vin, vs := make([][]T, len(ins)), make([]T, len(ss))
		fill := make([][]T, len(ins)) // inputs constant within a block, expanded
		return func(n int) {
			for i, a := range inSlots {
				if !a.scalar {
					vin[i] = a.v[:n]
					continue
				}
				if len(fill[i]) < n {
					fill[i] = make([]T, n)
				}
				f := fill[i][:n]
				for j := range f {
					f[j] = a.s
				}
				vin[i] = f
			}
			for i, a := range sSlots {
				vs[i] = a.s
			}
			loop(d.v[:n], vin, vs)
		}
	}
	compiledKernels.Lock()
	defer compiledKernels.Unlock()
	if compiledKernels.byKey == nil {
		compiledKernels.byKey = map[string]*compiledEntry{}
	}
	compiledKernels.byKey[probe.key] = ent
	return nil
}

// MustRegisterCompiled is RegisterCompiled for init functions: it panics on
// error (a kernel that cannot register is a bug in its generated code).
func MustRegisterCompiled[T dtype.Float](k CompiledKernel[T]) {
	if err := RegisterCompiled(k); err != nil {
		panic(err)
	}
}

// CompiledKernels turns the use of registered kernels on or off (default
// on); off, every region is interpreted, which is how the tests compare.
func UseCompiledKernels(on bool) Option { return func(x *Executor) { x.noKernels = !on } }

// compiledProbe records, while a kernel's own expression is planned, the key
// of its region, its number of ops and the node behind each input slot.
type compiledProbe struct {
	regions, ops int
	key          string
	inputs       []*expr.Node
}

// callExpr calls a kernel's Expr, turning a panic (say, an input index
// beyond Inputs) into an error.
func callExpr[T dtype.Float](f func(in, s []expr.Expr[T]) expr.Expr[T], in, s []expr.Expr[T]) (e expr.Expr[T], err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f(in, s), nil
}

// regionKey describes a region's program before pair fusion: each input
// slot's kind (a 0-d value, which can be a kernel's scalar, or a tensor, a
// kernel's input, even where it is constant within a block) and dtype, then
// each instruction's op, dtypes and operand slots. Slots are numbered in the
// planner's order (inputs by first use, then computed nodes in post-order),
// so equal keys mean equal graphs.
func (pl *planner) regionKey(g *region, pr *program, root int) string {
	var b strings.Builder
	for s, v := range pr.inputs {
		kind := "v"
		if len(pl.p.values[v].shape) == 0 {
			kind = "s"
		}
		fmt.Fprintf(&b, "%s%s,", kind, g.slotDT[s])
	}
	for _, in := range g.instrs {
		fmt.Fprintf(&b, ";%d=%s:%s/%s", in.dst, in.op, g.slotDT[in.dst], in.argType)
		for _, a := range in.args {
			fmt.Fprintf(&b, " %d", a)
		}
	}
	fmt.Fprintf(&b, ";out %d", root)
	return b.String()
}

// useCompiled replaces a one-output region's program by a registered kernel
// whose expression is the same, if there is one. While RegisterCompiled plans
// a kernel's own expression, it records the region in probe instead.
func (pl *planner) useCompiled(g *region, pr *program, root *expr.Node) {
	if probe := pl.probe; probe != nil {
		probe.regions++
		probe.ops = len(g.instrs)
		probe.key = pl.regionKey(g, pr, pr.slotOf[root])
		for _, v := range pr.inputs {
			probe.inputs = append(probe.inputs, pl.p.values[v].node)
		}
		return
	}
	if pl.x.noKernels || len(g.instrs) < 2 || g.scalar[pr.slotOf[root]] {
		return // a result constant over every block is computed once per block anyway
	}
	compiledKernels.RLock()
	var ent *compiledEntry
	if len(compiledKernels.byKey) > 0 {
		ent = compiledKernels.byKey[pl.regionKey(g, pr, pr.slotOf[root])]
	}
	compiledKernels.RUnlock()
	if ent == nil {
		return
	}
	spec := instrSpec{op: expr.OpInvalid, dst: pr.slotOf[root], compiled: ent}
	spec.compiledIn = make([]int, ent.nIn)
	spec.compiledS = make([]int, ent.nS)
	for s, p := range ent.param {
		if p >= 0 {
			spec.compiledIn[p] = s
		} else {
			spec.compiledS[-1-p] = s
		}
		spec.args = append(spec.args, s)
	}
	g.instrs = []instrSpec{spec}
}
