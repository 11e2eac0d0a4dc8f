package exec_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Property test: random shapes (rank 0..5, extents 0..6), random strided
// views (permute, slice with a step, expand, unsqueeze, index, and the same
// as lazy expr ops, reshape round trips included), random broadcasting
// operands and random elementwise trees, evaluated by the executor with
// random worker and block settings, into new or strided destinations, and
// compared with a naive evaluator that reads every element by index (At).

// refNode is the naive evaluator's node: a leaf view or an op over args.
// Every node knows its shape; operands are read through right-aligned
// broadcasting, one element at a time.
type refNode[T dtype.Real] struct {
	op    string
	shape tensor.Shape
	args  []*refNode[T]
	leaf  *tensor.Tensor[T] // the leaf's values, as a view built with the tensor package
	perm  []int             // permute
}

// at returns the node's element at idx (len(idx) == len(n.shape)).
func (n *refNode[T]) at(idx []int) T {
	switch n.op {
	case "leaf":
		v, err := n.leaf.At(idx...)
		if err != nil {
			panic(err)
		}
		return v
	case "permute":
		src := make([]int, len(idx))
		for i, p := range n.perm {
			src[p] = idx[i]
		}
		return n.args[0].at(src)
	}
	vals := make([]T, len(n.args))
	for k, a := range n.args {
		vals[k] = a.at(broadcastIndex(idx, a.shape))
	}
	switch n.op {
	case "expand", "copy":
		return vals[0]
	case "add":
		return vals[0] + vals[1]
	case "sub":
		return vals[0] - vals[1]
	case "mul":
		return vals[0] * vals[1]
	case "max":
		x, y := vals[0], vals[1]
		switch {
		case x != x:
			return x
		case y != y:
			return y
		case x > y:
			return x
		}
		return y
	case "min":
		x, y := vals[0], vals[1]
		switch {
		case x != x:
			return x
		case y != y:
			return y
		case x < y:
			return x
		}
		return y
	case "neg":
		return -vals[0]
	case "square":
		return vals[0] * vals[0]
	case "where":
		if vals[0] > vals[1] {
			return vals[0]
		}
		return vals[2]
	}
	panic(n.op)
}

// broadcastIndex maps an index of a broadcast result to an operand of shape s.
func broadcastIndex(idx []int, s tensor.Shape) []int {
	out := make([]int, len(s))
	pad := len(idx) - len(s)
	for i := range s {
		if s[i] != 1 {
			out[i] = idx[pad+i]
		}
	}
	return out
}

// values evaluates n over its whole shape, row-major.
func (n *refNode[T]) values() []T {
	total, _ := n.shape.Numel()
	out := make([]T, 0, total)
	if total == 0 {
		return out
	}
	idx := make([]int, len(n.shape))
	for {
		out = append(out, n.at(idx))
		k := len(idx) - 1
		for ; k >= 0; k-- {
			idx[k]++
			if idx[k] < n.shape[k] {
				break
			}
			idx[k] = 0
		}
		if k < 0 {
			return out
		}
	}
}

// viewGen builds random views and expressions for one trial.
type viewGen[T dtype.Real] struct {
	t   *testing.T
	r   *rand.Rand
	log []string
}

func (g *viewGen[T]) logf(format string, args ...any) {
	g.log = append(g.log, fmt.Sprintf(format, args...))
}

// view returns a tensor of shape s built as a chain of random views, and
// an expression reading the same elements (some steps done lazily in the
// graph instead). With noOverlap, the view never repeats an element (it is
// a valid destination).
func (g *viewGen[T]) view(s tensor.Shape, depth int, noOverlap bool) (*tensor.Tensor[T], expr.Expr[T]) {
	r := g.r
	lazy := !noOverlap && r.IntN(2) == 0
	choice := 0
	if depth > 0 {
		choice = r.IntN(9)
	}
	if noOverlap && (choice == 3 || choice >= 5) {
		choice = 0
	}
	switch choice {
	case 1: // permute
		if len(s) < 2 {
			break
		}
		p := r.Perm(len(s))
		bs := make(tensor.Shape, len(s))
		for i, pi := range p {
			bs[pi] = s[i]
		}
		b, be := g.view(bs, depth-1, noOverlap)
		v := tensor.Must(b.Permute(p...))
		g.logf("permute%v of %v (lazy=%v)", p, bs, lazy)
		if lazy {
			return v, be.Permute(p...)
		}
		return v, expr.Of(v)
	case 2: // slice with a step
		if len(s) == 0 {
			break
		}
		k := r.IntN(len(s))
		step, start := 1+r.IntN(3), r.IntN(3)
		bs := s.Clone()
		stop := start
		if s[k] > 0 {
			stop = start + (s[k]-1)*step + 1
			bs[k] = stop + r.IntN(3)
		} else {
			bs[k] = r.IntN(4)
			start = min(start, bs[k])
			stop = start
		}
		b, be := g.view(bs, depth-1, noOverlap)
		v := tensor.Must(b.Slice(k, start, stop, step))
		g.logf("slice axis %d %d:%d:%d of %v (lazy=%v)", k, start, stop, step, bs, lazy)
		if lazy {
			return v, be.Slice(k, start, stop, step)
		}
		return v, expr.Of(v)
	case 3: // expand size-1 axes, and add leading ones
		lead := r.IntN(len(s) + 1)
		bs := s[lead:].Clone()
		for i := range bs {
			if r.IntN(2) == 0 {
				bs[i] = 1
			}
		}
		b, be := g.view(bs, depth-1, noOverlap)
		v := tensor.Must(b.Expand(s...))
		g.logf("expand %v to %v (lazy=%v)", bs, s, lazy)
		if lazy {
			return v, be.Expand(s...)
		}
		return v, expr.Of(v)
	case 4: // index a longer axis
		k := r.IntN(len(s) + 1)
		m := 1 + r.IntN(3)
		bs := slices.Insert(s.Clone(), k, m)
		i := r.IntN(m)
		b, be := g.view(bs, depth-1, noOverlap)
		v := tensor.Must(b.Index(k, i))
		g.logf("index axis %d at %d of %v (lazy=%v)", k, i, bs, lazy)
		if lazy {
			return v, be.Slice(k, i, i+1, 1).Squeeze(k)
		}
		return v, expr.Of(v)
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
		k := ones[r.IntN(len(ones))]
		bs := slices.Delete(s.Clone(), k, k+1)
		b, be := g.view(bs, depth-1, noOverlap)
		v := tensor.Must(b.Unsqueeze(k))
		g.logf("unsqueeze %d of %v (lazy=%v)", k, bs, lazy)
		if lazy {
			return v, be.Unsqueeze(k)
		}
		return v, expr.Of(v)
	case 7: // flip some axes (negative strides)
		if len(s) == 0 {
			break
		}
		axes := []int{r.IntN(len(s))}
		if r.IntN(3) == 0 {
			axes = nil // every axis
		}
		b, be := g.view(s, depth-1, noOverlap)
		v := tensor.Must(b.Flip(axes...))
		g.logf("flip %v of %v (lazy=%v)", axes, s, lazy)
		if lazy {
			return v, be.Flip(axes...)
		}
		return v, expr.Of(v)
	case 8: // a slice with a negative step
		if len(s) == 0 {
			break
		}
		k := r.IntN(len(s))
		step := -1 - r.IntN(3)
		bs := s.Clone()
		start := 0
		if s[k] > 0 {
			bs[k] = (s[k]-1)*-step + 1 + r.IntN(3)
			start = (s[k]-1)*-step + r.IntN(bs[k]-(s[k]-1)*-step)
		} else {
			bs[k] = r.IntN(4)
			start = -1 - bs[k] // empty
		}
		// The last element is start+(s[k]-1)*step; a stop one below it,
		// written from the end so that -1 is not the last element.
		stop := start + (s[k]-1)*step - 1 - bs[k]
		if s[k] == 0 {
			stop = start
		}
		b, be := g.view(bs, depth-1, noOverlap)
		v := tensor.Must(b.Slice(k, start, stop, step))
		g.logf("slice axis %d %d:%d:%d of %v (lazy=%v)", k, start, stop, step, bs, lazy)
		if lazy {
			return v, be.Slice(k, start, stop, step)
		}
		return v, expr.Of(v)
	case 6: // a lazy reshape round trip: copies when the layout needs it
		b, be := g.view(s, depth-1, noOverlap)
		g.logf("reshape(-1) and back to %v", s)
		return b, be.Reshape(-1).Reshape(s...)
	}
	n, _ := s.Numel()
	v := fromValues(g.t, randomValues[T](r, n), s...)
	if len(s) == 0 && r.IntN(3) == 0 {
		x, _ := v.Item()
		return v, expr.Scalar(x)
	}
	return v, expr.Of(v)
}

// operandShape returns a random shape that broadcasts to s.
func (g *viewGen[T]) operandShape(s tensor.Shape) tensor.Shape {
	lead := 0
	if g.r.IntN(2) == 0 {
		lead = g.r.IntN(len(s) + 1)
	}
	out := s[lead:].Clone()
	for i := range out {
		if g.r.IntN(4) == 0 {
			out[i] = 1
		}
	}
	return out
}

type propNode[T dtype.Real] struct {
	e   expr.Expr[T]
	ref *refNode[T]
}

// tree combines the leaves into one random elementwise expression.
func (g *viewGen[T]) tree(target tensor.Shape, nodes []propNode[T]) propNode[T] {
	r := g.r
	for len(nodes) > 1 || r.IntN(3) == 0 {
		i := r.IntN(len(nodes))
		a := nodes[i]
		nodes = slices.Delete(nodes, i, i+1)
		var out propNode[T]
		switch op := []string{"add", "sub", "mul", "max", "min", "neg", "square", "where", "permute", "expand"}[r.IntN(10)]; op {
		case "neg", "square":
			out = propNode[T]{ref: &refNode[T]{op: op, shape: a.ref.shape, args: []*refNode[T]{a.ref}}}
			if op == "neg" {
				out.e = a.e.Neg()
			} else {
				out.e = a.e.Square()
			}
		case "permute": // a computed value seen through a view, and back
			if len(a.ref.shape) < 2 {
				nodes = append(nodes, a)
				continue
			}
			p := r.Perm(len(a.ref.shape))
			inv := make([]int, len(p))
			ps := make(tensor.Shape, len(p))
			for k, pk := range p {
				ps[k] = a.ref.shape[pk]
				inv[pk] = k
			}
			mid := &refNode[T]{op: "permute", shape: ps, args: []*refNode[T]{a.ref}, perm: p}
			back := &refNode[T]{op: "permute", shape: a.ref.shape, args: []*refNode[T]{mid}, perm: inv}
			out = propNode[T]{e: a.e.Permute(p...).MulScalar(1).Permute(inv...), ref: back}
		case "expand": // to a shape between the node's and the result's
			as := a.ref.shape
			extra := r.IntN(len(target) - len(as) + 1)
			es := target[len(target)-len(as)-extra:].Clone()
			for k := range es {
				if k >= extra && as[k-extra] != 1 {
					continue
				}
				if r.IntN(2) == 0 {
					es[k] = 1
				}
			}
			out = propNode[T]{e: a.e.Expand(es...), ref: &refNode[T]{op: "expand", shape: es, args: []*refNode[T]{a.ref}}}
		default:
			if len(nodes) == 0 {
				nodes = append(nodes, a)
				continue
			}
			j := r.IntN(len(nodes))
			b := nodes[j]
			nodes = slices.Delete(nodes, j, j+1)
			shape, err := tensor.BroadcastShapes(a.ref.shape, b.ref.shape)
			if err != nil {
				panic(err) // operands are built to broadcast
			}
			ref := &refNode[T]{op: op, shape: shape, args: []*refNode[T]{a.ref, b.ref}}
			switch op {
			case "add":
				out.e = a.e.Add(b.e)
			case "sub":
				out.e = a.e.Sub(b.e)
			case "mul":
				out.e = a.e.Mul(b.e)
			case "max":
				out.e = a.e.Maximum(b.e)
			case "min":
				out.e = a.e.Minimum(b.e)
			case "where":
				// where(a > b, a, a*b): the same operand twice.
				ab := &refNode[T]{op: "mul", shape: shape, args: []*refNode[T]{a.ref, b.ref}}
				ref.args = append(ref.args, ab)
				out.e = expr.Where(a.e.Gt(b.e), a.e, a.e.Mul(b.e))
			}
			out.ref = ref
		}
		nodes = append(nodes, out)
	}
	return nodes[0]
}

// propertyCheck runs random trials; zeros lets extents be 0.
func propertyCheck[T dtype.Real](t *testing.T, seed uint64, zeros bool) {
	trials := 600
	if testing.Short() {
		trials = 100
	}
	executors := []*exec.Executor{serial, tiled, wide, odd, exec.Default}
	r := newRand(seed)
	for trial := range trials {
		g := &viewGen[T]{t: t, r: r}
		rank := r.IntN(6)
		s := make(tensor.Shape, rank)
		for i := range s {
			s[i] = 1 + r.IntN(6)
			if zeros && r.IntN(6) == 0 {
				s[i] = 0
			}
		}
		var leaves []propNode[T]
		for range 1 + r.IntN(5) {
			ls := g.operandShape(s)
			v, e := g.view(ls, r.IntN(4), false)
			leaves = append(leaves, propNode[T]{e: e, ref: &refNode[T]{op: "leaf", shape: ls, leaf: v}})
		}
		root := g.tree(s, leaves)
		ctx := func() string {
			return fmt.Sprintf("trial %d, shape %v, views:\n  %s\ngraph:\n%s", trial, root.ref.shape, strings.Join(g.log, "\n  "), root.e)
		}
		require.NoError(t, root.e.Err(), ctx())
		require.Equal(t, root.ref.shape, root.e.Shape(), ctx())
		want := root.ref.values()

		x := executors[r.IntN(len(executors))]
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("%s\nevaluation panicked: %v", ctx(), p)
			}
		}()
		got, err := exec.EvalWith(x, root.e)
		require.NoError(t, err, ctx())
		if !assertValues(t, want, got.Values(), "%s", ctx()) {
			return
		}
		if r.IntN(3) == 0 {
			dst, _ := g.view(root.ref.shape, 3, true)
			require.NoError(t, exec.EvalToWith(x, dst, root.e), ctx())
			if !assertValues(t, want, dst.Values(), "EvalTo a strided destination: %s", ctx()) {
				return
			}
		}
	}
}

func TestPropertyRandomViewsAndBroadcasts(t *testing.T) {
	t.Run("float64", func(t *testing.T) { propertyCheck[float64](t, 101, false) })
	t.Run("float32", func(t *testing.T) { propertyCheck[float32](t, 102, false) })
	t.Run("int32", func(t *testing.T) { propertyCheck[int32](t, 103, false) })
	t.Run("uint8", func(t *testing.T) { propertyCheck[uint8](t, 104, false) })
	t.Run("int64", func(t *testing.T) { propertyCheck[int64](t, 105, false) })
}

// TestPropertyStreaming is the property test with every output large
// enough to stream (the size threshold lowered to 0), so that the paths
// only large outputs take run on small ones.
func TestPropertyStreaming(t *testing.T) {
	defer exec.SetStreamBytes(0)()
	t.Run("float64", func(t *testing.T) { propertyCheck[float64](t, 121, false) })
	t.Run("float32", func(t *testing.T) { propertyCheck[float32](t, 122, false) })
	t.Run("int32", func(t *testing.T) { propertyCheck[int32](t, 123, false) })
}

// TestPropertyZeroExtents is the property test with extents of 0 allowed.
func TestPropertyZeroExtents(t *testing.T) {
	t.Run("float64", func(t *testing.T) { propertyCheck[float64](t, 111, true) })
	t.Run("int32", func(t *testing.T) { propertyCheck[int32](t, 113, true) })
}
