package exec_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Property test of Executor.Run with several roots whose destinations are
// views of the storages the roots read. A case is a description (storages,
// views, roots that build their graphs over views), so the reference builds
// the same graphs over a copy of the storages and evaluates each root alone.
// Values are halves of small integers, so every result is exact whatever
// the order of a sum, and results are compared bit for bit.

// runView is a strided view of one of a case's storages (strides >= 0).
type runView struct {
	base, off      int
	shape, strides []int
}

func (v runView) String() string {
	return fmt.Sprintf("b%d[off %d shape %v strides %v]", v.base, v.off, v.shape, v.strides)
}

// addrs returns the storage index of each element of v, row-major.
func (v runView) addrs() []int {
	out := []int{v.off}
	for i, n := range v.shape {
		next := make([]int, 0, len(out)*n)
		for _, a := range out {
			for j := range n {
				next = append(next, a+j*v.strides[i])
			}
		}
		out = next
	}
	return out
}

// overlaps reports whether v and w share an element (shared), and whether
// their spans intersect (tensor.Any.MayOverlap: what Run refuses).
func (v runView) overlaps(w runView) (shared, span bool) {
	va, wa := v.addrs(), w.addrs()
	if v.base != w.base || slices.Max(va) < slices.Min(wa) || slices.Max(wa) < slices.Min(va) {
		return false, false
	}
	return slices.ContainsFunc(va, func(a int) bool { return slices.Contains(wa, a) }), true
}

type runExpr = expr.Expr[float64]

// runNode builds an expression over a case's views, so that one description
// gives both the graph Run evaluates and the graph of the reference.
type runNode struct {
	desc  string
	build func(views []*tensor.Tensor[float64]) runExpr
}

func applyUnary(name string, f func(runExpr) runExpr, a runNode) runNode {
	return runNode{name + "(" + a.desc + ")", func(vs []*tensor.Tensor[float64]) runExpr { return f(a.build(vs)) }}
}

func applyBinary(name string, f func(x, y runExpr) runExpr, a, b runNode) runNode {
	return runNode{name + "(" + a.desc + ", " + b.desc + ")", func(vs []*tensor.Tensor[float64]) runExpr { return f(a.build(vs), b.build(vs)) }}
}

// A root's destination: none (Run returns a new tensor), a new zero
// tensor, or one of the case's views.
const (
	dstNil = iota
	dstNew
	dstView
)

type runDst struct {
	kind, view int
	shape      []int
}

type runCase struct {
	init  [][]float64 // the storages
	views []runView
	roots []runNode
	dsts  []runDst

	r       *rand.Rand       // the generator's
	byShape map[string][]int // indices of views
}

func (c *runCase) String() string {
	var b strings.Builder
	for i, s := range c.init {
		fmt.Fprintf(&b, "  b%d = %v\n", i, s)
	}
	for i, r := range c.roots {
		d := fmt.Sprintf("new %v", c.dsts[i].shape)
		switch c.dsts[i].kind {
		case dstNil:
			d = "nil"
		case dstView:
			d = c.views[c.dsts[i].view].String()
		}
		fmt.Fprintf(&b, "  root %d: %s -> %s\n", i, r.desc, d)
	}
	return b.String()
}

func (c *runCase) add(v runView) int {
	c.views = append(c.views, v)
	k := fmt.Sprint(v.shape)
	c.byShape[k] = append(c.byShape[k], len(c.views)-1)
	return len(c.views) - 1
}

// newView returns a view of shape s cut from a row-major block of a random
// storage: the block (a slice, or a slice reshaped), its transpose, or
// every other element along one axis. Half of the time the block starts
// near another view's first element.
func (c *runCase) newView(s []int) (runView, bool) {
	r := c.r
	b, block := r.IntN(len(c.init)), slices.Clone(s)
	kind, k, start := r.IntN(4), 0, r.IntN(2)
	switch {
	case kind == 1 && len(s) == 2:
		block = []int{s[1], s[0]}
	case kind == 2 && len(s) > 0:
		k = r.IntN(len(s))
		block[k] = start + 2*(s[k]-1) + 1
	default:
		kind = 0
	}
	n, _ := tensor.Shape(block).Numel()
	L := len(c.init[b])
	if n > L {
		return runView{}, false
	}
	off := r.IntN(L - n + 1)
	if len(c.views) > 0 && r.IntN(2) == 0 {
		if w := c.views[r.IntN(len(c.views))]; w.base == b {
			off = max(0, min(L-n, w.off+r.IntN(5)-2))
		}
	}
	strides := tensor.RowMajorStrides(block)
	switch kind {
	case 1:
		strides[0], strides[1] = strides[1], strides[0]
	case 2:
		off += start * strides[k]
		strides[k] *= 2
	}
	return runView{base: b, off: off, shape: slices.Clone(s), strides: strides}, true
}

// leaf reads a view of shape s, most often one made before: a destination,
// a neighbour of one, an operand of another root.
func (c *runCase) leaf(s []int) runNode {
	i := -1
	if seen := c.byShape[fmt.Sprint(s)]; len(seen) > 0 && c.r.IntN(4) > 0 {
		i = seen[c.r.IntN(len(seen))]
	}
	for try := 0; i < 0 && try < 10; try++ {
		if v, ok := c.newView(s); ok {
			i = c.add(v)
		}
	}
	if i < 0 { // a storage of its own
		n, _ := tensor.Shape(s).Numel()
		c.init = append(c.init, runValues(c.r, n))
		i = c.add(runView{base: len(c.init) - 1, shape: s, strides: tensor.RowMajorStrides(s)})
	}
	return runNode{c.views[i].String(), func(vs []*tensor.Tensor[float64]) runExpr { return expr.Of(vs[i]) }}
}

// broadcastable returns a random shape that broadcasts to s.
func (c *runCase) broadcastable(s []int) []int {
	out := slices.Clone(s[c.r.IntN(len(s)+1)/2:])
	for i := range out {
		if c.r.IntN(3) == 0 {
			out[i] = 1
		}
	}
	return out
}

// expr returns a random expression of shape s (of rank 0 to 3).
func (c *runCase) expr(s []int, depth int) runNode {
	r := c.r
	switch p := r.IntN(100); {
	case depth <= 0 || p < 20:
		return c.leaf(s)
	case p < 40:
		sc, i := []float64{2, -1, 0.5, 3}[r.IntN(4)], r.IntN(4)
		f := [...]func(runExpr) runExpr{runExpr.Neg, runExpr.Abs,
			func(x runExpr) runExpr { return x.AddScalar(sc) }, func(x runExpr) runExpr { return x.MulScalar(sc) }}[i]
		return applyUnary([...]string{"neg", "abs", fmt.Sprint("add", sc), fmt.Sprint("mul", sc)}[i], f, c.expr(s, depth-1))
	case p < 65:
		a, b := c.expr(s, depth-1), c.expr(c.broadcastable(s), depth-1)
		if r.IntN(2) == 0 {
			a, b = b, a
		}
		i := r.IntN(3)
		return applyBinary([...]string{"add", "sub", "mul"}[i], [...]func(x, y runExpr) runExpr{runExpr.Add, runExpr.Sub, runExpr.Mul}[i], a, b)
	case p < 78 && len(s) < 3:
		k := r.IntN(len(s) + 1)
		a := c.expr(slices.Insert(slices.Clone(s), k, 1+r.IntN(3)), depth-1)
		return applyUnary(fmt.Sprint("sum", k), func(x runExpr) runExpr { return x.Sum(k) }, a)
	case p < 90 && (len(s) == 1 || len(s) == 2):
		K := 1 + r.IntN(3)
		as, bs := []int{K}, []int{K, s[0]}
		if len(s) == 2 {
			as, bs = []int{s[0], K}, []int{K, s[1]}
		}
		return applyBinary("matmul", runExpr.MatMul, c.expr(as, depth-1), c.expr(bs, depth-1))
	case len(s) == 2:
		return applyUnary("T", runExpr.T, c.expr([]int{s[1], s[0]}, depth-1))
	}
	return c.leaf(s)
}

func runValues(r *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(r.IntN(17)-8) / 2
	}
	return v
}

// genRunCase returns 2–4 roots over 1–3 storages, written into new tensors
// or views of the storages that overlap each other in one case of eight.
// The roots read the destinations and views near them.
func genRunCase(r *rand.Rand) *runCase {
	c := &runCase{r: r, byShape: map[string][]int{}}
	main := []int{1 + r.IntN(4)}
	if r.IntN(3) > 0 {
		main = append(main, 1+r.IntN(4))
	}
	n, _ := tensor.Shape(main).Numel()
	for range 1 + r.IntN(3) {
		c.init = append(c.init, runValues(r, n+2+r.IntN(2*n+4)))
	}
	clash := r.IntN(8) == 0
	var dviews []runView
	clashes := func(v runView) bool {
		return slices.ContainsFunc(dviews, func(w runView) bool { _, span := v.overlaps(w); return span })
	}
	for range 2 + r.IntN(3) {
		d := runDst{kind: dstView, shape: slices.Clone(main)}
		switch p := r.IntN(10); {
		case p < 2 && len(main) == 2:
			d.shape = []int{main[1], main[0]}
		case p < 4:
			d.shape = []int{n}
		case p < 5:
			d.shape = []int{1 + r.IntN(3), 1 + r.IntN(3)}
		}
		v, ok := c.newView(d.shape)
		for try := 0; try < 20 && (!ok || !clash && clashes(v)); try++ {
			v, ok = c.newView(d.shape)
		}
		switch p := r.IntN(100); {
		case p < 10:
			d.kind = dstNil
		case p < 25 || !ok || !clash && clashes(v):
			d.kind = dstNew
		default:
			if k := r.IntN(len(v.shape)); v.shape[k] > 1 && r.IntN(30) == 0 {
				v.strides[k] = 0 // elements that share memory
			}
			d.view = c.add(v)
			k := fmt.Sprint(v.shape)
			c.byShape[k] = append(c.byShape[k], d.view) // leaves read destinations twice as often
			dviews = append(dviews, v)
		}
		c.dsts = append(c.dsts, d)
	}
	// Views that overlap the destinations: shifted, transposed, flat.
	for _, v := range dviews {
		for _, delta := range []int{-1, 1} {
			w := v
			w.off += delta
			if w.off >= 0 && slices.Max(w.addrs()) < len(c.init[v.base]) && r.IntN(2) == 0 {
				c.add(w)
			}
		}
		if len(v.shape) == 2 && r.IntN(2) == 0 {
			c.add(runView{v.base, v.off, []int{v.shape[1], v.shape[0]}, []int{v.strides[1], v.strides[0]}})
		}
		if len(v.shape) == 2 && slices.Equal(v.strides, tensor.RowMajorStrides(v.shape)) {
			c.add(runView{v.base, v.off, []int{v.shape[0] * v.shape[1]}, []int{1}})
		}
	}
	for _, d := range c.dsts {
		s := d.shape
		if d.kind != dstNil && r.IntN(6) == 0 {
			s = c.broadcastable(s)
		}
		c.roots = append(c.roots, c.expr(s, r.IntN(4)))
	}
	return c
}

// materialize returns a copy of the storages and the views over it.
func (c *runCase) materialize() ([][]float64, []*tensor.Tensor[float64]) {
	storages := make([][]float64, len(c.init))
	for i, s := range c.init {
		storages[i] = slices.Clone(s)
	}
	views := make([]*tensor.Tensor[float64], len(c.views))
	for i, v := range c.views {
		views[i] = tensor.Must(tensor.AsStrided(storages[v.base], tensor.Shape(v.shape), slices.Clone(v.strides), v.off))
	}
	return storages, views
}

// reference evaluates each root alone, on a copy of the storages.
func (c *runCase) reference(t *testing.T) []*tensor.Tensor[float64] {
	_, snap := c.materialize()
	refs := make([]*tensor.Tensor[float64], len(c.roots))
	for i, n := range c.roots {
		var err error
		refs[i], err = exec.Eval(n.build(snap))
		require.NoError(t, err, n.desc)
	}
	return refs
}

// checkRun runs c with x and compares every storage element and every
// returned tensor with the reference values refs; it reports whether all
// match.
func checkRun(t *testing.T, x *exec.Executor, c *runCase, refs []*tensor.Tensor[float64], ctx string) bool {
	t.Helper()
	storages, views := c.materialize()
	roots := make([]*expr.Node, len(c.roots))
	dsts := make([]tensor.Any, len(c.roots))
	var news []*tensor.Tensor[float64]
	internal, shared, span := false, false, false
	for i, n := range c.roots {
		roots[i] = n.build(views).Node()
		switch d := c.dsts[i]; d.kind {
		case dstNew:
			news = append(news, tensor.Must(tensor.Zeros[float64](d.shape...)))
			dsts[i] = news[len(news)-1]
		case dstView:
			dsts[i] = views[d.view]
			internal = internal || slices.Contains(c.views[d.view].strides, 0) // as generated
			for _, e := range c.dsts[:i] {
				if e.kind == dstView {
					rl, sp := c.views[d.view].overlaps(c.views[e.view])
					shared, span = shared || rl, span || sp
				}
			}
		}
	}
	outs, err := x.Run(roots, dsts)
	if (internal || shared) && !assert.Error(t, err, "destinations that share memory: %s", ctx) {
		return false
	}
	ok := true
	if err != nil {
		// Destinations whose spans intersect are refused, even when they
		// share no element.
		var oe *exec.OverlapError
		var ie *exec.InplaceError
		if !assert.True(t, internal && errors.As(err, &oe) || span && errors.As(err, &ie), "error %T: %v\n%s", err, err, ctx) {
			return false
		}
		for b := range storages {
			ok = assertValues(t, c.init[b], storages[b], "a refused Run changed b%d: %s", b, ctx) && ok
		}
		for _, d := range news {
			ok = assertValues(t, make([]float64, d.Numel()), d.Values(), "a refused Run changed a new destination: %s", ctx) && ok
		}
		return ok
	}
	want, _ := c.materialize()
	for i, d := range c.dsts {
		if d.kind == dstView {
			v := c.views[d.view]
			vals := broadcastValues(t, refs[i], tensor.Shape(v.shape))
			for k, a := range v.addrs() {
				want[v.base][a] = vals[k]
			}
		}
	}
	for b := range storages {
		ok = assertValues(t, want[b], storages[b], "storage b%d: %s", b, ctx) && ok
	}
	for i, o := range outs {
		got, shape := o.(*tensor.Tensor[float64]), refs[i].Shape()
		if c.dsts[i].kind != dstNil {
			shape = tensor.Shape(c.dsts[i].shape)
			ok = assertValues(t, dsts[i].(*tensor.Tensor[float64]).Values(), got.Values(), "root %d's result and destination: %s", i, ctx) && ok
		}
		ok = assert.Equal(t, shape, got.Shape(), "root %d's result: %s", i, ctx) &&
			assertValues(t, broadcastValues(t, refs[i], shape), got.Values(), "root %d's result: %s", i, ctx) && ok
	}
	return ok
}

// TestPropertyRunAliasedDestinations: Run with 2–4 roots over views of 1–3
// storages, written into views of those storages (the views the roots
// read, shifted by one, transposed, reshaped, stepped) or new tensors,
// gives what evaluating each root alone on the storages as they were before
// the call, then writing the results, gives: the same storages element for
// element, written or not, and the same returned tensors. Destinations that
// share memory are refused with *OverlapError or *InplaceError and nothing
// written. Each case runs on a serial and a parallel executor, twice (the
// second time from the plan cache), one case in four with every output
// streamed.
func TestPropertyRunAliasedDestinations(t *testing.T) {
	cases := 400
	if testing.Short() {
		cases = 100
	}
	names := []string{"workers=1 block=16", "workers=2 block=64"}
	xs := []*exec.Executor{exec.New(exec.Workers(1), exec.Grain(1), exec.BlockSize(16)), exec.New(exec.Workers(2), exec.Grain(1), exec.BlockSize(64))}
	for _, x := range xs {
		defer x.Close()
	}
	for i := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			c := genRunCase(newRand(uint64(7100 + i)))
			refs := c.reference(t)
			stream := i%4 == 3
			if stream {
				defer exec.SetStreamBytes(0)()
			}
			for k, x := range xs {
				for run := range 2 {
					if !checkRun(t, x, c, refs, fmt.Sprintf("%s, run %d, stream=%v, case:\n%v", names[k], run, stream, c)) {
						return
					}
				}
			}
		})
	}
}
