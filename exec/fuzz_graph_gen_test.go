package exec_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// FuzzGraph's generator: the byte decoder, the graph's nodes and leaf
// views, and the loop that builds a graph from the fuzzer's bytes.

// fuzzBytes reads the fuzzer's bytes; past the end every read is 0.
type fuzzBytes struct {
	b []byte
	i int
}

func (r *fuzzBytes) byte() int {
	if r.i >= len(r.b) {
		return 0
	}
	c := r.b[r.i]
	r.i++
	return int(c)
}

func (r *fuzzBytes) intn(n int) int {
	if n <= 1 {
		return 0
	}
	return r.byte() % n
}

// chance is true with probability about 1/n.
func (r *fuzzBytes) chance(n int) bool { return r.intn(n) == n-1 }

// fuzzBase is a storage that leaves are views of.
type fuzzBase struct {
	dt   dtype.DType
	data any        // []T
	t    tensor.Any // 1-D over data
}

// leafView is a tensor leaf: its tensor and its layout in its base, as the
// generator computed it (independently of package tensor).
type leafView struct {
	base    *fuzzBase
	t       tensor.Any
	off     int
	shape   tensor.Shape
	strides []int
}

// gnode is a node of the graph with its reference.
type gnode struct {
	id    int
	n     *expr.Node
	dt    dtype.DType
	shape tensor.Shape // the reference's; meaningless when bad
	bad   bool         // the reference says building fails
	args  []*gnode
	// eval computes the reference value from the arguments' values; a
	// non-nil approx marks the value as inexact (checked within bounds).
	eval    func(args []rval) (any, *approx)
	inexact bool
	redux   bool // a float reduction or matmul (order-dependent bits)
	leaf    *leafView
	scalar  any // the value of a Scalar leaf ([]T of one element)
	desc    string
	val     rval
}

type anyNode struct{ n *expr.Node }

func (a anyNode) Node() *expr.Node { return a.n }

const fuzzBaseLen = 2048

// graphGen decodes bytes into a graph.
type graphGen struct {
	in      *fuzzBytes
	r       *rand.Rand
	special bool
	main    dtype.DType
	target  tensor.Shape
	bases   []*fuzzBase
	nodes   []*gnode
	views   []string
}

var fuzzDTypes = []dtype.DType{dtype.Float64, dtype.Float32, dtype.Int64, dtype.Int32, dtype.Uint8}

func (g *graphGen) add(n *gnode) *gnode {
	n.id = len(g.nodes)
	g.nodes = append(g.nodes, n)
	return n
}

func (g *graphGen) extent() int {
	return []int{1, 2, 3, 4, 5, 6, 1, 2, 3, 0, 2, 3, 4, 1, 2, 5}[g.in.intn(16)]
}

// operandShape returns a shape that broadcasts to s (rarely one that need not).
func (g *graphGen) operandShape(s tensor.Shape) tensor.Shape {
	if g.in.chance(24) {
		out := make(tensor.Shape, g.in.intn(5))
		for i := range out {
			out[i] = g.extent()
		}
		return out
	}
	lead := 0
	if g.in.chance(2) {
		lead = g.in.intn(len(s) + 1)
	}
	out := s[lead:].Clone()
	for i := range out {
		if g.in.chance(4) {
			out[i] = 1
		}
	}
	return out
}

// base returns a storage of dt: a shared one or a new one.
func (g *graphGen) base(dt dtype.DType) *fuzzBase {
	var have []*fuzzBase
	for _, b := range g.bases {
		if b.dt == dt {
			have = append(have, b)
		}
	}
	if len(have) > 0 && !g.in.chance(3) {
		return have[g.in.intn(len(have))]
	}
	b := opsOf(dt).newBase(fuzzBaseLen, g.r, g.special)
	g.bases = append(g.bases, b)
	return b
}

// view returns a view of shape s of base b, built as a chain of tensor
// view ops, with its layout. With noOverlap no two elements share memory.
func (g *graphGen) view(b *fuzzBase, s tensor.Shape, depth int, noOverlap bool, log *[]string) *leafView {
	ops := opsOf(b.dt)
	must := func(t tensor.Any, err error) tensor.Any {
		if err != nil {
			panic(fmt.Sprintf("view: %v", err))
		}
		return t
	}
	choice := 0
	if depth > 0 {
		choice = g.in.intn(7)
	}
	if noOverlap && choice == 3 {
		choice = 0
	}
	switch choice {
	case 1: // permute
		if len(s) < 2 {
			break
		}
		p := g.perm(len(s))
		bs := make(tensor.Shape, len(s))
		for i, pi := range p {
			bs[pi] = s[i]
		}
		v := g.view(b, bs, depth-1, noOverlap, log)
		st := make([]int, len(s))
		for i, pi := range p {
			st[i] = v.strides[pi]
		}
		*log = append(*log, fmt.Sprintf("permute%v", p))
		return &leafView{b, must(ops.tpermute(v.t, p)), v.off, s.Clone(), st}
	case 2: // slice with a step, maybe a negative start
		if len(s) == 0 {
			break
		}
		k := g.in.intn(len(s))
		step, start := 1+g.in.intn(3), g.in.intn(3)
		bs := s.Clone()
		stop := start
		if s[k] > 0 {
			stop = start + (s[k]-1)*step + 1
		}
		bs[k] = stop + g.in.intn(3)
		if numelOf(bs) > fuzzBaseLen {
			break
		}
		v := g.view(b, bs, depth-1, noOverlap, log)
		startArg, stopArg := start, stop
		if s[k] > 0 {
			stopArg += g.in.intn(step)
		}
		if start < bs[k] && g.in.chance(2) {
			startArg -= bs[k]
		}
		st := slices.Clone(v.strides)
		st[k] *= step
		*log = append(*log, fmt.Sprintf("slice(%d, %d, %d, %d) of %v", k, startArg, stopArg, step, bs))
		return &leafView{b, must(ops.tslice(v.t, k, startArg, stopArg, step)), v.off + start*v.strides[k], s.Clone(), st}
	case 3: // expand
		lead := g.in.intn(len(s) + 1)
		bs := s[lead:].Clone()
		for i := range bs {
			if g.in.chance(2) {
				bs[i] = 1
			}
		}
		v := g.view(b, bs, depth-1, noOverlap, log)
		st := make([]int, len(s))
		for i := range bs {
			if bs[i] == s[lead+i] {
				st[lead+i] = v.strides[i]
			}
		}
		*log = append(*log, fmt.Sprintf("expand %v to %v", bs, s))
		return &leafView{b, must(ops.texpand(v.t, s)), v.off, s.Clone(), st}
	case 4: // index a longer axis
		k := g.in.intn(len(s) + 1)
		m := 1 + g.in.intn(3)
		bs := slices.Insert(s.Clone(), k, m)
		if numelOf(bs) > fuzzBaseLen {
			break
		}
		i := g.in.intn(m)
		v := g.view(b, bs, depth-1, noOverlap, log)
		st := slices.Delete(slices.Clone(v.strides), k, k+1)
		*log = append(*log, fmt.Sprintf("index(%d, %d) of %v", k, i, bs))
		return &leafView{b, must(ops.tindex(v.t, k, i)), v.off + i*v.strides[k], s.Clone(), st}
	case 5: // unsqueeze a size-1 axis
		var ones []int
		for i, d := range s {
			if d == 1 {
				ones = append(ones, i)
			}
		}
		if len(ones) == 0 {
			break
		}
		k := ones[g.in.intn(len(ones))]
		bs := slices.Delete(s.Clone(), k, k+1)
		v := g.view(b, bs, depth-1, noOverlap, log)
		st := slices.Insert(slices.Clone(v.strides), k, 0)
		*log = append(*log, fmt.Sprintf("unsqueeze(%d)", k))
		return &leafView{b, must(ops.tunsqueeze(v.t, k)), v.off, s.Clone(), st}
	}
	if choice == 6 && len(s) > 0 { // reverse an axis: a negative stride
		k := g.in.intn(len(s))
		v := g.view(b, s, depth-1, noOverlap, log)
		st, off := slices.Clone(v.strides), v.off
		if s[k] > 1 {
			off += (s[k] - 1) * st[k]
			st[k] = -st[k]
		}
		*log = append(*log, fmt.Sprintf("slice(%d, MaxInt, MinInt, -1)", k))
		return &leafView{b, must(ops.tslice(v.t, k, math.MaxInt, math.MinInt, -1)), off, s.Clone(), st}
	}
	n := numelOf(s)
	o := g.in.intn(min(fuzzBaseLen-n, 40) + 1)
	t := must(ops.tslice(b.t, 0, o, o+n, 1))
	*log = append(*log, fmt.Sprintf("base[%d:%d] as %v", o, o+n, s))
	return &leafView{b, must(ops.treshape(t, s)), o, s.Clone(), rowStrides(s)}
}

func (g *graphGen) perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := g.in.intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

// leaf adds a leaf of dt and shape s.
func (g *graphGen) leaf(dt dtype.DType, s tensor.Shape) *gnode {
	ops := opsOf(dt)
	if len(s) == 0 && g.in.chance(3) {
		v := ops.randomScalar(g.r, g.special)
		return g.add(&gnode{n: ops.scalarNode(v), dt: dt, shape: tensor.Shape{}, scalar: v, desc: fmt.Sprintf("scalar %v", v)})
	}
	var log []string
	v := g.view(g.base(dt), s, g.in.intn(4), false, &log)
	slices.Reverse(log)
	nd := g.add(&gnode{n: ops.of(v.t), dt: dt, shape: s.Clone(), leaf: v})
	nd.desc = fmt.Sprintf("leaf %v of base %p: %s", s, v.base, strings.Join(log, ", then "))
	return nd
}

// pick returns a node, the recent ones more often.
func (g *graphGen) pick() *gnode {
	n := len(g.nodes)
	return g.nodes[n-1-g.in.intn(min(n, 1+g.in.intn(n+1)))]
}

// partner returns a second operand of dt for a, broadcastable to it.
func (g *graphGen) partner(a *gnode) *gnode {
	if g.in.chance(3) {
		var same []*gnode
		for _, n := range g.nodes {
			if n.dt == a.dt && n != a {
				same = append(same, n)
			}
		}
		if len(same) > 0 {
			return same[g.in.intn(len(same))]
		}
	}
	if g.in.chance(3) {
		return g.leaf(a.dt, tensor.Shape{})
	}
	return g.leaf(a.dt, g.operandShape(a.shape))
}

func anyBad(args ...*gnode) bool {
	for _, a := range args {
		if a.bad {
			return true
		}
	}
	return false
}

// build decodes the whole graph and returns its root.
func (g *graphGen) build() *gnode {
	in := g.in
	seed := uint64(in.byte()) | uint64(in.byte())<<8
	g.r = rand.New(rand.NewPCG(seed, 0x9e3779b9))
	c := in.byte()
	g.main = fuzzDTypes[c%len(fuzzDTypes)]
	g.special = c&0x80 != 0
	g.target = make(tensor.Shape, in.intn(5))
	for i := range g.target {
		g.target[i] = g.extent()
	}
	for range 1 + in.intn(3) {
		g.leaf(g.main, g.operandShape(g.target))
	}
	nops := 1 + in.intn(12)
	for range nops {
		a := g.pick()
		if a.bad && !in.chance(4) {
			continue // rarely build on an invalid node: the error sticks
		}
		switch in.intn(16) {
		case 0, 1:
			g.unary(a)
		case 2, 3:
			g.binary(a)
		case 4:
			g.scalarOp(a)
		case 5:
			g.compare(a)
		case 6:
			g.where(a)
		case 7:
			g.cast(a)
		case 8:
			if in.chance(3) {
				g.argReduce(a)
			} else {
				g.reduceOp(a)
			}
		case 9:
			g.reduceOp(a)
		case 10:
			if in.chance(2) {
				g.reshape(a)
			} else {
				g.sumTo(a)
			}
		case 11:
			g.permute(a)
		case 12:
			g.expand(a)
		case 13:
			if in.chance(3) {
				g.embed(a)
			} else {
				g.slice(a)
			}
		case 14:
			g.squeeze(a)
		case 15:
			g.matmul(a)
		}
	}
	return g.nodes[len(g.nodes)-1]
}
