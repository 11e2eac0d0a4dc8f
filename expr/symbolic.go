package expr

import (
	"fmt"
	"math"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Symbolic shapes. A graph whose placeholders have symbolic ("B") or
// unknown extents is built with the same constructors as a concrete one;
// each op infers its shape on Dims (the rules below), checks what can be
// checked, and leaves the rest to Specializer, which replays the graph with
// concrete extents. Concrete graphs never enter this file's code paths.

// SymPlaceholder makes a named leaf whose extents may be known, symbolic or
// unknown: SymPlaceholder[float32]("x", Sym("B"), Known(3), Known(8),
// Known(8)) is the input [B, 3, 8, 8] of a network. With every extent known
// it is Placeholder.
func SymPlaceholder[T dtype.Elem](name string, dims ...Dim) Expr[T] {
	d := Dims(dims)
	if s, ok := d.Shape(); ok {
		return Placeholder[T](name, s...)
	}
	if err := goIntErr[T](); err != nil {
		return Expr[T]{errNode(OpPlaceholder, err)}
	}
	n := mk(OpPlaceholder, dtype.Of[T]())
	n.name = name
	setDims(n, slices.Clone(d))
	return Expr[T]{n}
}

// Dims returns x's shape with its symbolic and unknown extents.
func (x Expr[T]) Dims() Dims { return x.Node().Dims() }

// ReshapeDims is Reshape to a shape that may name symbols:
// x.ReshapeDims(Sym("B"), Known(3), Known(1), Known(1)). One extent may be
// Unknown: it is inferred, as -1 is by Reshape.
func (x Expr[T]) ReshapeDims(dims ...Dim) Expr[T] {
	a := x.Node()
	if a.err != nil {
		return x
	}
	return Expr[T]{reshapeDims(a, Dims(dims))}
}

// SumToDims is SumTo to a shape that may name symbols.
func (x Expr[T]) SumToDims(dims ...Dim) Expr[T] {
	a := x.Node()
	if a.err != nil {
		return x
	}
	target := Dims(dims)
	if s, ok := target.Shape(); ok && a.sym() == nil {
		return x.SumTo(s...)
	}
	pad := len(a.Dims()) - len(target)
	if pad < 0 {
		return Expr[T]{errNode(OpSum, &ShapeOpError{Op: "sum_to_size", Reason: fmt.Sprintf("size %v is not expandable to size %v", target, a.Dims())})}
	}
	var axes []int
	for i, d := range a.Dims() {
		if i < pad {
			axes = append(axes, i)
			continue
		}
		t := target[i-pad]
		if _, ok := broadcastDim(t, d); !ok || (t.known && d.known && t.n != d.n && t.n != 1) {
			return Expr[T]{errNode(OpSum, &ShapeOpError{Op: "sum_to_size", Reason: fmt.Sprintf("size %v is not expandable to size %v", target, a.Dims())})}
		}
		if t.is(1) && !d.is(1) {
			axes = append(axes, i)
		}
	}
	if len(axes) > 0 {
		x = x.SumKeepDims(axes...)
	}
	return x.ReshapeDims(target...)
}

// setDims gives n the shape s: n.shape always (with -1 where an extent is
// not known), the symbolic shape only when s is not concrete.
func setDims(n *Node, s Dims) {
	shape, ok := s.Shape()
	if ok {
		if n.ext != nil {
			n.ext.dims = nil
		}
		setShape(n, shape)
		return
	}
	n.shape = shape // -1 where not known: counted once the graph is concrete
	n.extra().dims = s
}

func symbolic(args ...*Node) bool {
	for _, a := range args {
		if a.sym() != nil {
			return true
		}
	}
	return false
}

// symBroadcast is the symbolic side of binary and Where: NumPy's rules per
// axis (broadcastDim). The restricted-rank and legacy rules need concrete
// extents; they apply when the graph is specialised.
func symBroadcast(n *Node, dt dtype.DType, args ...*Node) *Node {
	shapes := make([]Dims, len(args))
	for i, a := range args {
		shapes[i] = a.Dims()
	}
	s, err := broadcastDims(shapes...)
	if err != nil {
		n.err = err
		return n
	}
	n.dt = dt
	setDims(n, s)
	return n
}

// reshapeDims reshapes a to target, inferring one Unknown extent from the
// element counts when the quotient is unique (3·B / 3 = B); otherwise the
// extent stays unknown until the graph is specialised.
func reshapeDims(a *Node, target Dims) *Node {
	n, ok := newNode(OpReshape, a)
	if !ok {
		return n
	}
	if s, ok := target.Shape(); ok && a.sym() == nil {
		return reshape(a, s)
	}
	out := slices.Clone(target)
	infer := -1
	rest := make(Dims, 0, len(out))
	for i, d := range out {
		if d.IsUnknown() {
			if infer >= 0 {
				n.err = &ShapeOpError{Op: "reshape", Reason: fmt.Sprintf("invalid shape %v: only one dimension can be inferred", target)}
				return n
			}
			infer = i
			continue
		}
		rest = append(rest, d)
	}
	total, known := numelDims(a.Dims()), numelDims(rest)
	if infer >= 0 {
		d, unique, impossible := total.div(known)
		if impossible {
			n.err = &ShapeOpError{Op: "reshape", Reason: fmt.Sprintf("shape %v is invalid for input of size %v", target, total)}
			return n
		}
		if unique {
			out[infer] = d
		}
	} else if total.differs(known) {
		n.err = &ShapeOpError{Op: "reshape", Reason: fmt.Sprintf("shape %v is invalid for input of size %v", target, total)}
		return n
	}
	if out.Same(a.Dims()) {
		return a
	}
	n.dt, n.extra().target = a.dt, target
	setDims(n, out)
	return n
}

// symReshape is Reshape(ints) on a symbolic operand: -1 is the Unknown
// extent of reshapeDims.
func symReshape(a *Node, shape []int) *Node {
	for _, d := range shape {
		if d < -1 {
			return errNode(OpReshape, &ShapeOpError{Op: "reshape", Reason: fmt.Sprintf("invalid shape %v: invalid shape dimension %d", shape, d)})
		}
	}
	return reshapeDims(a, DimsOf(shape...))
}

// symExpand expands a symbolic operand: an axis grows only from 1; a
// symbolic or unknown operand extent is taken to be 1 or the target.
func symExpand(n, a *Node, target Dims) *Node {
	src := a.Dims()
	pad := len(target) - len(src)
	if pad < 0 {
		n.err = &ShapeOpError{Op: "expand", Reason: fmt.Sprintf("the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)", len(target), len(src))}
		return n
	}
	out := make(Dims, len(target))
	for i, t := range target {
		if i < pad {
			if t.IsUnknown() {
				n.err = &ShapeOpError{Op: "expand", Reason: fmt.Sprintf("-1 is not allowed in a leading, non-existing dimension %d", i)}
				return n
			}
			out[i] = t
			continue
		}
		d := src[i-pad]
		switch {
		case t.IsUnknown() || d.Same(t):
			out[i] = d
		case d.known && d.n != 1 && t.known:
			n.err = &ShapeOpError{Op: "expand", Reason: fmt.Sprintf("the expanded size of the tensor (%v) must match the existing size (%v) at non-singleton dimension %d", t, d, i)}
			return n
		case d.known && d.n != 1:
			out[i] = d
		default:
			out[i] = t
		}
	}
	if out.Same(src) {
		return a
	}
	n.dt, n.extra().target = a.dt, target
	setDims(n, out)
	return n
}

// ExpandDims is Expand to a shape that may name symbols; an Unknown extent
// keeps the operand's (as -1 does).
func (x Expr[T]) ExpandDims(dims ...Dim) Expr[T] {
	a := x.Node()
	target := Dims(dims)
	if a.err == nil && a.sym() == nil && !slices.ContainsFunc(target, Dim.IsSym) {
		s, _ := target.Shape() // unknown extents are -1: Expand's rules apply
		return x.Expand(s...)
	}
	n, ok := newNode(OpExpand, a)
	if !ok {
		return Expr[T]{n}
	}
	return Expr[T]{symExpand(n, a, target)}
}

// symSqueeze squeezes a symbolic operand: a named axis must be known to be
// 1; with no axes only the known 1s go.
func symSqueeze(a *Node, axes []int) *Node {
	src := a.Dims()
	drop := make([]bool, len(src))
	for _, ax := range axes {
		p, err := tensor.Axis(ax, len(src))
		if err != nil {
			return errNode(OpReshape, err)
		}
		if !src[p].is(1) {
			return errNode(OpReshape, &ShapeOpError{Op: "squeeze", Reason: fmt.Sprintf("dimension %d of shape %v has extent %v, not 1", ax, src, src[p])})
		}
		drop[p] = true
	}
	out := Dims{}
	for i, d := range src {
		if (len(axes) == 0 && d.is(1)) || drop[i] {
			continue
		}
		out = append(out, d)
	}
	return reshapeDims(a, out)
}

func symUnsqueeze(a *Node, axis int) *Node {
	src := a.Dims()
	p, err := tensor.Axis(axis, len(src)+1)
	if err != nil {
		return errNode(OpReshape, err)
	}
	return reshapeDims(a, slices.Insert(slices.Clone(src), p, Known(1)))
}

// symSlice slices axis p of a symbolic operand. On a known extent the
// concrete rules apply; on a symbolic or unknown one the bounds are kept as
// given and the extent is unknown, except for the whole axis (0:∞:1).
func symSlice(n, a *Node, p, start, stop, step int) *Node {
	src := a.Dims()
	out := slices.Clone(src)
	d := src[p]
	if d.known {
		spec, length, err := sliceOf(p, d.n, start, stop, step)
		if err != nil {
			n.err = err
			return n
		}
		out[p] = Known(length)
		n.slice = spec
	} else {
		if !(start == 0 && stop >= math.MaxInt/2 && step == 1) {
			out[p] = Unknown()
		}
		n.slice = sliceSpec{p, start, stop, step}
	}
	n.dt = a.dt
	setDims(n, out)
	return n
}

// symReduce gives a reduction of a symbolic operand its shape.
func symReduce(n, a *Node, red []bool, keepDim bool) {
	out := Dims{}
	for i, d := range a.Dims() {
		switch {
		case !red[i]:
			out = append(out, d)
		case keepDim:
			out = append(out, Known(1))
		}
	}
	setDims(n, out)
}

// symMatMul is matmulShape on symbolic shapes.
func symMatMul(a, b Dims) (Dims, error) {
	if len(a) == 0 || len(b) == 0 {
		return nil, &ShapeOpError{Op: "matmul", Reason: fmt.Sprintf("both arguments need at least 1 dimension, got shapes %v and %v", a, b)}
	}
	am, bm := a, b
	if len(a) == 1 {
		am = Dims{Known(1), a[0]}
	}
	if len(b) == 1 {
		bm = Dims{b[0], Known(1)}
	}
	rows, k := am[len(am)-2], am[len(am)-1]
	k2, cols := bm[len(bm)-2], bm[len(bm)-1]
	if k.known && k2.known && k.n != k2.n {
		return nil, &ShapeOpError{Op: "matmul", Reason: fmt.Sprintf("shapes %v and %v cannot be multiplied (%d != %d)", a, b, k.n, k2.n)}
	}
	batch, err := broadcastDims(am[:len(am)-2], bm[:len(bm)-2])
	if err != nil {
		return nil, &ShapeOpError{Op: "matmul", Reason: fmt.Sprintf("batch dimensions of %v and %v do not broadcast: %v", a, b, err)}
	}
	out := slices.Clone(batch)
	if len(a) > 1 {
		out = append(out, rows)
	}
	if len(b) > 1 {
		out = append(out, cols)
	}
	return out, nil
}
