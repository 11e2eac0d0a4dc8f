package autograd

import (
	"math"
	"slices"
	"sync"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// The gradient cache.
//
// A training loop rebuilds its loss every step over the same tensors (the
// data, the parameters it updates in place) and asks for the same
// gradients. Those gradients are the same graph every time: they depend on
// the ops, shapes and attributes of the loss's graph, its scalar constants,
// and which tensors and placeholders its leaves are, never on the values
// the tensors hold. Grad and VJP keep the gradients of recent small graphs
// under that key, as exec keeps plans, and return them again for a graph
// with the same key: the nodes built the first time, which compute the
// same values as the new graph's would. A step then builds no backward
// graph, and exec, seeing the graph of the step before, reuses its plan.
//
// The cached nodes reference the first graph, and so its tensors: the cache
// takes only graphs whose tensors hold at most gradCacheGraphBytes, and
// starts afresh when the graphs it holds reach gradCacheBytes or
// gradCacheEntries, so what it keeps alive stays small.
const (
	gradCacheGraphBytes = 4 << 20
	gradCacheBytes      = 16 << 20
	gradCacheEntries    = 64
)

// The key holds every attribute a node has today: op, dtype, shape,
// operands, axes, keep-dims and slice arguments, a scalar's value. An op
// given an attribute of another kind must add it here, as in exec's plan
// signature (exec/signature.go), or two graphs that differ in it would
// share gradients.

// gradKey is the identity of a gradient request: sig encodes the graph's
// structure, its scalar constants and the targets' positions; leaves are
// the graph's tensors and placeholders, compared by identity.
type gradKey struct {
	sig    []uint64
	leaves []any
}

type gradEntry struct {
	key   gradKey
	seed  bool // a VJP (upstream given) rather than Grad's seed of 1
	grads []*expr.Node
	bytes int
}

var gradCache struct {
	sync.Mutex
	entries map[uint64][]*gradEntry // by hash of sig
	bytes   int
}

// gradWalk is the scratch of one key computation.
type gradWalk struct {
	idx   expr.NodeIndex // the walk's nodes, in post-order
	stack []gradFrame
	key   gradKey
	bytes int
	ok    bool // the graph may be cached
}

type gradFrame struct {
	n   *expr.Node
	arg int
}

var gradWalks = sync.Pool{New: func() any { return new(gradWalk) }}

// keyOf computes the key of the gradients of the graph of roots (y, and a
// VJP's upstream) with respect to targets. ok is false for a graph that is
// not cached: a target outside the graph, too many bytes, a scalar whose
// value cannot be read.
func (g *gradWalk) keyOf(roots, targets []*expr.Node) {
	g.idx.Reset()
	defer g.idx.Reset() // holds no node once the key is made
	g.key.sig, g.key.leaves, g.bytes, g.ok = g.key.sig[:0], g.key.leaves[:0], 0, true
	for _, r := range roots {
		g.walk(r)
	}
	g.key.sig = append(g.key.sig, uint64(len(roots)))
	for _, r := range roots {
		i, _ := g.idx.Lookup(r)
		g.key.sig = append(g.key.sig, uint64(i))
	}
	g.key.sig = append(g.key.sig, uint64(len(targets)))
	for _, t := range targets {
		i, in := g.idx.Lookup(t)
		if !in {
			g.ok = false
			return
		}
		g.key.sig = append(g.key.sig, uint64(i))
	}
	g.ok = g.ok && g.bytes <= gradCacheGraphBytes
}

func (g *gradWalk) walk(root *expr.Node) {
	if _, seen := g.idx.Lookup(root); seen {
		return
	}
	g.stack = append(g.stack[:0], gradFrame{root, 0})
	for len(g.stack) > 0 {
		f := &g.stack[len(g.stack)-1]
		if args := f.n.Args(); f.arg < len(args) {
			a := args[f.arg]
			f.arg++
			if _, seen := g.idx.Lookup(a); !seen {
				g.stack = append(g.stack, gradFrame{a, 0})
			}
			continue
		}
		n := f.n
		g.stack = g.stack[:len(g.stack)-1]
		if _, seen := g.idx.Lookup(n); seen { // reached twice on one path
			continue
		}
		g.visit(n)
	}
	clear(g.stack)
}

func (g *gradWalk) visit(n *expr.Node) {
	g.idx.Add(n)
	args := n.Args()
	g.key.sig = append(g.key.sig, uint64(n.Op())<<56|uint64(n.DType())<<48|uint64(len(args))<<32|uint64(len(n.Shape())))
	for _, d := range n.Shape() {
		g.key.sig = append(g.key.sig, uint64(d))
	}
	for _, a := range args {
		i, _ := g.idx.Lookup(a)
		g.key.sig = append(g.key.sig, uint64(i))
	}
	ax, s0, s1, s2 := n.SliceArgs()
	keep := uint64(0)
	if n.KeepDim() {
		keep = 1
	}
	g.key.sig = append(g.key.sig, uint64(ax), uint64(s0), uint64(s1), uint64(s2), keep, uint64(len(n.Axes())))
	for _, a := range n.Axes() {
		g.key.sig = append(g.key.sig, uint64(a))
	}
	if w := n.Window(); w != nil { // convolution and pooling geometry
		g.key.sig = append(g.key.sig, w.Key()...)
	}
	g.key.sig = expr.PieceKey(g.key.sig, n)
	switch n.Op() {
	case expr.OpExternal:
		g.key.sig = append(g.key.sig, n.ExternalKey())
	case expr.OpScalar:
		bits, ok := scalarBits(n.Tensor())
		g.key.sig = append(g.key.sig, bits)
		g.ok = g.ok && ok
	case expr.OpTensor:
		t := n.Tensor()
		g.key.leaves = append(g.key.leaves, t)
		g.bytes += t.StorageLen() * t.DType().Size()
	case expr.OpPlaceholder:
		g.key.leaves = append(g.key.leaves, n)
	}
	if n.Symbolic() {
		g.ok = false
	}
}

// scalarBits returns the bits of a scalar leaf's value, for the real
// dtypes gradients flow through and the integer ones that may meet them.
func scalarBits(t tensor.Any) (uint64, bool) {
	switch t := t.(type) {
	case *tensor.Tensor[float64]:
		return math.Float64bits(t.Data()[t.Offset()]), true
	case *tensor.Tensor[float32]:
		return uint64(math.Float32bits(t.Data()[t.Offset()])), true
	case *tensor.Tensor[int64]:
		return uint64(t.Data()[t.Offset()]), true
	case *tensor.Tensor[int32]:
		return uint64(t.Data()[t.Offset()]), true
	case *tensor.Tensor[bool]:
		if t.Data()[t.Offset()] {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

func (k *gradKey) hash() uint64 {
	h := uint64(14695981039346656037)
	for _, v := range k.sig {
		h ^= v
		h *= 1099511628211
	}
	return h
}

func (k *gradKey) equal(o *gradKey) bool {
	return slices.Equal(k.sig, o.sig) && slices.Equal(k.leaves, o.leaves)
}

// cachedBackward is backward through the cache, from y seeded with
// upstream, or with 1 for a nil upstream (Grad).
func cachedBackward(y, upstream *expr.Node, targets []*expr.Node) ([]*expr.Node, error) {
	vjp := upstream != nil
	seeded := func() *expr.Node {
		if vjp {
			return upstream
		}
		return fill(y, 1)
	}
	g := gradWalks.Get().(*gradWalk)
	defer func() {
		clear(g.key.leaves)
		gradWalks.Put(g)
	}()
	rootBuf := [2]*expr.Node{y, upstream}
	roots := rootBuf[:1]
	if vjp {
		roots = rootBuf[:2]
	}
	g.keyOf(roots, targets)
	if !g.ok {
		return backward(y, seeded(), targets)
	}
	h := g.key.hash()
	gradCache.Lock()
	for _, e := range gradCache.entries[h] {
		if e.seed == vjp && e.key.equal(&g.key) {
			gradCache.Unlock()
			return slices.Clone(e.grads), nil
		}
	}
	gradCache.Unlock()
	grads, err := backward(y, seeded(), targets)
	if err != nil {
		return nil, err
	}
	e := &gradEntry{key: gradKey{sig: slices.Clone(g.key.sig), leaves: slices.Clone(g.key.leaves)},
		seed: vjp, grads: slices.Clone(grads), bytes: g.bytes}
	gradCache.Lock()
	if gradCache.entries == nil || gradCache.bytes+e.bytes > gradCacheBytes || countEntries() >= gradCacheEntries {
		gradCache.entries, gradCache.bytes = map[uint64][]*gradEntry{}, 0
	}
	gradCache.entries[h] = append(gradCache.entries[h], e)
	gradCache.bytes += e.bytes
	gradCache.Unlock()
	return grads, nil
}

// countEntries is the number of cached gradients; gradCache is locked.
func countEntries() int {
	n := 0
	for _, es := range gradCache.entries {
		n += len(es)
	}
	return n
}
