package expr

import (
	"fmt"

	"github.com/tensorplay/tensorplay/tensor"
)

// Views (issue 23): NumPy's flip, basic indexing, diagonal, moveaxis,
// swapaxes, broadcast_to and split as lazy nodes. Flip, Idx, Diagonal and
// slices with a negative step are one op, OpView, that holds a
// tensor.ViewMap: the executor applies the map to the strides of whatever
// value the node reads, so a view of a tensor leaf reads the leaf in place
// (a reversed view is a negative stride). MoveAxis and SwapAxes are
// permutes, BroadcastTo an expand, the splits slices. As every Expr
// method, each carries the first error of a chain (sticky): a chain of
// views needs one check, at Err or at evaluation. The errors are the
// tensor package's *tensor.ViewError values, naming the shape and the
// dimension.

// Flip reverses the order of elements along the given axes (every axis
// when none are given), NumPy's flip.
func (x Expr[T]) Flip(axes ...int) Expr[T] {
	a := x.Node()
	if err := viewOperand(a, "Flip"); err != nil {
		return Expr[T]{err}
	}
	m, err := tensor.FlipMap(a.shape, axes...)
	return Expr[T]{viewNode(a, m, err)}
}

// Idx is NumPy's basic index x[items...] in one call (see tensor.Tensor.Idx
// and tensor.IndexMap): integers, slices of any nonzero step, new axes and
// an ellipsis, as x.Idx(tensor.Ellipsis, tensor.NewAxis, tensor.Step(2))
// for x[..., None, ::2]. With index tensors (tensor.At of an integer
// expression or tensor: NumPy's advanced indexing, tensor.AdvancedIndexMap
// has the rules) it is a lazy gather that fuses into its consumer (see
// advindex.go); their values are checked when the graph runs, before
// anything is written. Boolean masks are refused: their result's shape
// depends on their values (Tensor.Idx and exec.MaskSelect evaluate).
func (x Expr[T]) Idx(items ...tensor.IndexItem) Expr[T] {
	a := x.Node()
	if err := viewOperand(a, "Idx"); err != nil {
		return Expr[T]{err}
	}
	if tensor.HasArrays(items) {
		return Expr[T]{advancedIdx(a, items)}
	}
	m, err := tensor.IndexMap(a.shape, items...)
	return Expr[T]{viewNode(a, m, err)}
}

// Diagonal is NumPy's diagonal(x, offset, axis1, axis2): the elements
// [i, i+offset] of the plane of the two axes, which are removed, as a
// last axis.
func (x Expr[T]) Diagonal(offset, axis1, axis2 int) Expr[T] {
	a := x.Node()
	if err := viewOperand(a, "Diagonal"); err != nil {
		return Expr[T]{err}
	}
	m, err := tensor.DiagonalMap(a.shape, offset, axis1, axis2)
	return Expr[T]{viewNode(a, m, err)}
}

// View is the view of x that m describes (see tensor.ViewMap), m made for
// x's shape (tensor.FlipMap, IndexMap, DiagonalMap); a map that does not
// fit x's shape is a *ShapeOpError. Flip, Idx and Diagonal are views.
func (x Expr[T]) View(m tensor.ViewMap) Expr[T] {
	a := x.Node()
	if err := viewOperand(a, "View"); err != nil {
		return Expr[T]{err}
	}
	if !m.Fits(a.shape) {
		return Expr[T]{errNode(OpView, &ShapeOpError{Op: "view", Reason: fmt.Sprintf("the view %v does not fit shape %v", m, a.shape)})}
	}
	return Expr[T]{viewNode(a, m, nil)}
}

// MoveAxis moves axes source[k] to positions destination[k], the others
// keeping their order (NumPy's moveaxis): a permute.
func (x Expr[T]) MoveAxis(source, destination []int) Expr[T] {
	a := x.Node()
	if err := viewOperand(a, "MoveAxis"); err != nil {
		return Expr[T]{err}
	}
	perm, err := tensor.MoveAxisPerm(a.shape, source, destination)
	if err != nil {
		return Expr[T]{errNode(OpPermute, err)}
	}
	return x.Permute(perm...)
}

// SwapAxes exchanges axes i and j (NumPy's swapaxes): Transpose.
func (x Expr[T]) SwapAxes(i, j int) Expr[T] { return x.Transpose(i, j) }

// BroadcastTo is NumPy's broadcast_to: Expand without -1.
func (x Expr[T]) BroadcastTo(shape ...int) Expr[T] {
	a := x.Node()
	if a.err != nil {
		return x
	}
	for i, d := range shape {
		if d < 0 {
			return Expr[T]{errNode(OpExpand, &tensor.ShapeError{Shape: tensor.Shape(shape).Clone(), Axis: i, Reason: fmt.Sprintf("negative extent %d", d)})}
		}
	}
	if len(shape) < len(a.shape) {
		// The tensor package's error, word for word.
		return Expr[T]{errNode(OpExpand, &tensor.ArgError{Op: "BroadcastTo", Reason: fmt.Sprintf("cannot broadcast shape %v to %v, which has fewer dimensions", a.shape, tensor.Shape(shape))})}
	}
	return x.Expand(shape...)
}

// Split is NumPy's split(x, sections, axis): sections equal pieces (an
// error when the extent does not divide), each a slice of x. An error
// gives one piece that carries it.
func (x Expr[T]) Split(sections, axis int) []Expr[T] {
	return x.splitBy("Split", axis, sections, nil, true)
}

// ArraySplit is NumPy's array_split(x, sections, axis): the first
// extent % sections pieces one element longer.
func (x Expr[T]) ArraySplit(sections, axis int) []Expr[T] {
	return x.splitBy("ArraySplit", axis, sections, nil, false)
}

// SplitAt is NumPy's split(x, indices, axis): the pieces [:i0], [i0:i1],
// …, [ik:] along axis, each a Python slice.
func (x Expr[T]) SplitAt(indices []int, axis int) []Expr[T] {
	if indices == nil {
		indices = []int{}
	}
	return x.splitBy("SplitAt", axis, 0, indices, false)
}

func (x Expr[T]) splitBy(op string, axis, sections int, indices []int, even bool) []Expr[T] {
	a := x.Node()
	if err := viewOperand(a, op); err != nil {
		return []Expr[T]{{err}}
	}
	ax, bounds, err := tensor.SplitBounds(op, a.shape, axis, sections, indices, even)
	if err != nil {
		return []Expr[T]{{errNode(OpSlice, err)}}
	}
	out := make([]Expr[T], len(bounds))
	for k, b := range bounds {
		out[k] = x.Slice(ax, b[0], b[1], 1)
	}
	return out
}

// EmbedView is the adjoint of a view: a tensor of zeros of the given
// shape with x written into the view m of it (m made for that shape, and
// x of m's shape; anything else is a *ShapeOpError). It is the gradient
// of a view that repeats no element (Idx, Diagonal); autograd uses it.
func (x Expr[T]) EmbedView(m tensor.ViewMap, shape tensor.Shape) Expr[T] {
	return Expr[T]{embedView(x.Node(), m, shape)}
}

func embedView(a *Node, m tensor.ViewMap, shape tensor.Shape) *Node {
	n, ok := newNode(OpViewEmbed, a)
	if !ok {
		return n
	}
	if a.sym() != nil || !a.shape.Equal(m.Shape) || !m.Fits(shape) {
		n.err = &ShapeOpError{Op: "embed_view", Reason: fmt.Sprintf("operand of shape %v does not fit the view %v of shape %v", a.Dims(), m, shape)}
		return n
	}
	n.dt, n.axes = a.dt, encodeViewMap(m)
	setShape(n, shape.Clone())
	return n
}

// ViewMap returns the map of a view node (OpView: from its operand's
// shape to its own; OpViewEmbed: from its own shape to its operand's).
func (n *Node) ViewMap() tensor.ViewMap {
	shape := n.shape
	if n.op == OpViewEmbed {
		shape = n.args[0].shape
	}
	return decodeViewMap(n.axes, shape)
}

// viewOperand returns an error node for an operand that cannot be viewed:
// one that carries an error, or one of a symbolic shape (specialise it
// first).
func viewOperand(a *Node, op string) *Node {
	if a == nil {
		return errNode(OpView, errZeroExpr)
	}
	if a.err != nil {
		return a
	}
	if a.sym() != nil {
		return errNode(OpView, &ShapeOpError{Op: op, Reason: fmt.Sprintf("needs a concrete shape, got %v (specialise the graph first)", a.Dims())})
	}
	return nil
}

// viewNode builds the view of a by m, or the node of err; a view that
// changes nothing is a itself.
func viewNode(a *Node, m tensor.ViewMap, err error) *Node {
	if err != nil {
		return errNode(OpView, err)
	}
	if isIdentity(m, a.shape) {
		return a
	}
	n, _ := newNode(OpView, a)
	n.dt, n.axes = a.dt, encodeViewMap(m)
	setShape(n, m.Shape.Clone())
	return n
}

// isIdentity reports whether m views a tensor of the given shape as
// itself.
func isIdentity(m tensor.ViewMap, shape tensor.Shape) bool {
	if !m.Shape.Equal(shape) {
		return false
	}
	for j, c := range m.Coef {
		for i, k := range c {
			if (i == j && k != 1 && shape[j] > 1) || (i != j && k != 0) {
				return false
			}
		}
	}
	for _, b := range m.Base {
		if b != 0 {
			return false
		}
	}
	return true
}

// encodeViewMap flattens m into a node's integer attributes, which the
// executor's plan signature, common-subexpression merging and autograd's
// cache all key on: the operand's rank, the coefficients row by row, the
// base.
func encodeViewMap(m tensor.ViewMap) []int {
	r := len(m.Base)
	out := make([]int, 0, 1+len(m.Coef)*r+r)
	out = append(out, r)
	for _, c := range m.Coef {
		out = append(out, c...)
	}
	return append(out, m.Base...)
}

// decodeViewMap is encodeViewMap's inverse, for a view of the given shape.
func decodeViewMap(enc []int, shape tensor.Shape) tensor.ViewMap {
	if len(enc) == 0 {
		return tensor.ViewMap{}
	}
	r, q := enc[0], len(shape)
	m := tensor.ViewMap{Shape: shape.Clone(), Coef: make([][]int, q)}
	p := 1
	for j := range q {
		m.Coef[j] = append([]int(nil), enc[p:p+r]...)
		p += r
	}
	m.Base = append([]int(nil), enc[p:p+r]...)
	return m
}
