package expr

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Indexing with index tensors. Every read through an index is one node,
// OpGather, and every write one of OpScatter and OpScatterAdd; the
// functions of this file (take, take_along_axis, gather, index_select,
// one_hot, scatter, scatter_add, index_add, put) build them, with views
// and casts around them.
//
// A gather of x along axis, with m index axes, has the shape
//
//	shape[:axis] ++ index axes (m of them) ++ shape[axis+m:]
//
// its non-index extents at most x's (x.shape[:axis] and x.shape[axis+1:]),
// and its value at position p is x at p's non-index coordinates, with the
// axis coordinate idx[p] (idx broadcasts to the gather's shape, an extent
// 1 repeating). With negative, an index in [-n, 0) counts from the end
// (NumPy), else indices are in [0, n) (torch). A scatter writes the same
// positions of a copy of its base: for every p of idx's shape, out[p's
// non-index coordinates, idx[p]] = src[p] (or += for scatter_add), the
// positions in row-major order of p, so that among duplicates the last
// wins (scatter) or all are added in that order (scatter_add).
//
// Index values are checked when the graph runs, before anything is
// written: an index outside the axis is a *tensor.IndexError.

// IndexArgs returns a gather's or scatter's axis, the number m of index
// axes that replace it, and whether negative indices count from the end.
func (n *Node) IndexArgs() (axis, m int, negative bool) {
	return n.slice.axis, n.slice.start, n.slice.stop == 1
}

// indexNode converts idx to the int64 index of an op: integers of any
// width are cast (take, take_along_axis); onlyInt64 refuses the others
// (torch's gather, scatter and one_hot take int64 only).
func indexNode(op string, idx Any, onlyInt64, int32ok bool) *Node {
	n := nodeOf(idx)
	if n.err != nil {
		return n
	}
	switch {
	case n.dt == dtype.Int64:
		return n
	case n.dt == dtype.Int32 && int32ok, n.dt.IsInteger() && !onlyInt64:
		return cast(n, dtype.Int64)
	}
	want := "an integer"
	if onlyInt64 {
		want = "int64"
		if int32ok {
			want = "int32 or int64"
		}
	}
	return errNode(OpGather, &tensor.ArgError{Op: "expr." + op, Reason: fmt.Sprintf("the index must be %s, not %s", want, n.dt)})
}

// gather builds the OpGather node described above: x along axis, m index
// axes, of the given shape, idx (int64) broadcasting to it.
func gather(op string, x, idx *Node, axis, m int, negative bool, shape tensor.Shape) *Node {
	n, ok := newNode(OpGather, x, idx)
	if !ok {
		return n
	}
	if x.sym() != nil || idx.sym() != nil {
		n.err = &ShapeOpError{Op: op, Reason: "symbolic shapes are not supported"}
		return n
	}
	if err := checkIndexShape(op, x.shape, idx.shape, axis, m, shape); err != nil {
		n.err = err
		return n
	}
	n.dt = x.dt
	n.slice = indexSpec(axis, m, negative)
	setShape(n, shape.Clone())
	return n
}

func indexSpec(axis, m int, negative bool) sliceSpec {
	s := sliceSpec{axis: axis, start: m}
	if negative {
		s.stop = 1
	}
	return s
}

// checkIndexShape checks a gather's (or scatter's) shape against its
// operand x and index idx.
func checkIndexShape(op string, x, idx tensor.Shape, axis, m int, shape tensor.Shape) error {
	if len(shape) != len(x)-1+m || len(idx) != len(shape) || axis < 0 || axis >= len(x) {
		return &ShapeOpError{Op: op, Reason: fmt.Sprintf("index of shape %v does not fit a tensor of shape %v along axis %d", idx, x, axis)}
	}
	for d, e := range shape {
		if idx[d] != e && idx[d] != 1 {
			return &ShapeOpError{Op: op, Reason: fmt.Sprintf("index of shape %v does not broadcast to %v at dimension %d", idx, shape, d)}
		}
		if d >= axis && d < axis+m {
			continue
		}
		xd := d
		if d >= axis+m {
			xd = d - m + 1
		}
		if e > x[xd] {
			return &ShapeOpError{Op: op, Reason: fmt.Sprintf("Size does not match at dimension %d expected index %v to be smaller than self %v apart from dimension %d", d, idx, x, axis)}
		}
	}
	return nil
}

// TakeAlongAxis picks elements of x along axis at the positions idx gives
// (np.take_along_axis): idx has x's rank and broadcasts against x on the
// other axes; the result has the broadcast shape with idx's extent on the
// axis. Negative indices count from the end; idx may be of any integer
// type. logp[arange(B), labels] is TakeAlongAxis(logp, labels[:, None], 1).
func TakeAlongAxis[T dtype.Elem](x Expr[T], idx Any, axis int) Expr[T] {
	xn, in := x.Node(), indexNode("TakeAlongAxis", idx, false, true)
	if bad := firstErr(OpGather, xn, in); bad != nil {
		return Expr[T]{bad}
	}
	if len(in.shape) != len(xn.shape) {
		return Expr[T]{errNode(OpGather, &ShapeOpError{Op: "take_along_axis", Reason: fmt.Sprintf("index of rank %d and a tensor of rank %d: they must match", len(in.shape), len(xn.shape))})}
	}
	p, err := tensor.Axis(axis, len(xn.shape))
	if err != nil {
		return Expr[T]{errNode(OpGather, err)}
	}
	shape := make(tensor.Shape, len(xn.shape))
	grow := make([]int, len(xn.shape)) // x's shape broadcast on the other axes
	for d := range shape {
		a, b := xn.shape[d], in.shape[d]
		switch {
		case d == p:
			shape[d], grow[d] = b, a
			continue
		case a == b, b == 1:
			shape[d] = a
		case a == 1:
			shape[d] = b
		default:
			return Expr[T]{errNode(OpGather, &tensor.BroadcastError{A: xn.shape, B: in.shape})}
		}
		grow[d] = shape[d]
	}
	return Expr[T]{gather("take_along_axis", expand(xn, grow), in, p, 1, true, shape)}
}

// Gather is torch.gather(x, dim, idx): out[i][j][k] = x[idx[i][j][k]][j][k]
// for dim 0 (and so on). idx is int64 of x's rank, at most x's extent on
// every other axis (the result has idx's shape); indices are in [0, n).
func Gather[T dtype.Elem](x Expr[T], dim int, idx Any) Expr[T] {
	xn, in := x.Node(), indexNode("Gather", idx, true, false)
	if bad := firstErr(OpGather, xn, in); bad != nil {
		return Expr[T]{bad}
	}
	p, err := tensor.Axis(dim, len(xn.shape))
	if err != nil {
		return Expr[T]{errNode(OpGather, err)}
	}
	return Expr[T]{gather("gather", xn, in, p, 1, false, in.shape)}
}

// IndexSelect is torch.index_select(x, dim, idx): the slices of x along
// dim at the positions of the 1-D int32 or int64 idx, in its order
// (repeats allowed); indices are in [0, n).
func IndexSelect[T dtype.Elem](x Expr[T], dim int, idx Any) Expr[T] {
	in := indexNode("IndexSelect", idx, true, true)
	if in.err == nil && len(in.shape) != 1 {
		return Expr[T]{errNode(OpGather, &ShapeOpError{Op: "index_select", Reason: fmt.Sprintf("Index is supposed to be a vector, got shape %v", in.shape)})}
	}
	return Expr[T]{take("index_select", x.Node(), in, dim, false)}
}

// TakeMode is what Take does with an index outside the axis (NumPy's
// mode): TakeRaise refuses it, TakeWrap wraps it around, TakeClip clips it
// to the axis.
type TakeMode uint8

// The modes.
const (
	TakeRaise TakeMode = iota
	TakeWrap
	TakeClip
)

// Take is np.take(x, idx, axis): the result is x.shape[:axis] ++
// idx.shape ++ x.shape[axis+1:], x's slices along axis at the indices of
// idx (of any integer type, any shape; a 0-d idx drops the axis). With
// TakeRaise (the default) negative indices count from the end and any
// other index outside the axis is an error when the graph runs.
func Take[T dtype.Elem](x Expr[T], idx Any, axis int, mode ...TakeMode) Expr[T] {
	in := indexNode("Take", idx, false, true)
	xn := x.Node()
	if len(mode) > 0 && mode[0] != TakeRaise && xn.err == nil && in.err == nil {
		p, err := tensor.Axis(axis, len(xn.shape))
		if err != nil {
			return Expr[T]{errNode(OpGather, err)}
		}
		in = modeIndex(in, xn.shape[p], mode[0])
	}
	return Expr[T]{take("take", xn, in, axis, true)}
}

// TakeFlat is np.take(x, idx) without an axis: x's elements in row-major
// order at the indices of idx, in idx's shape.
func TakeFlat[T dtype.Elem](x Expr[T], idx Any, mode ...TakeMode) Expr[T] {
	return Take(x.Reshape(-1), idx, 0, mode...)
}

// modeIndex applies a wrap or clip mode to an index into an axis of n.
func modeIndex(in *Node, n int, mode TakeMode) *Node {
	if n == 0 {
		return in // every index is outside an empty axis: raised
	}
	ix := Expr[int64]{in}
	switch mode {
	case TakeWrap:
		return ix.Mod(Scalar(int64(n))).Node()
	case TakeClip:
		return ix.Maximum(Scalar(int64(0))).Minimum(Scalar(int64(n - 1))).Node()
	}
	return errNode(OpGather, &tensor.ArgError{Op: "expr.Take", Reason: fmt.Sprintf("unknown mode %d", mode)})
}

// take gathers x's slices along axis at the indices of in (int64, any
// shape): in is viewed with size-1 axes around it, which broadcast.
func take(op string, x, in *Node, axis int, negative bool) *Node {
	if bad := firstErr(OpGather, x, in); bad != nil {
		return bad
	}
	p, err := tensor.Axis(axis, len(x.shape))
	if err != nil {
		return errNode(OpGather, err)
	}
	var view []int
	var shape tensor.Shape
	for d := 0; d < p; d++ {
		view, shape = append(view, 1), append(shape, x.shape[d])
	}
	view, shape = append(view, in.shape...), append(shape, in.shape...)
	for d := p + 1; d < len(x.shape); d++ {
		view, shape = append(view, 1), append(shape, x.shape[d])
	}
	if shape == nil {
		shape = tensor.Shape{}
	}
	return gather(op, x, reshape(in, view), p, len(in.shape), negative, shape)
}

// OneHot is torch.nn.functional.one_hot with the result's element type U:
// idx.shape ++ [numClasses], 1 where the last coordinate is idx's value and
// 0 elsewhere. idx is int64 in [0, numClasses), checked when the graph
// runs. numClasses must be given (torch's -1, inferred from the values,
// cannot be known before they are computed); one_hot has no gradient.
func OneHot[U dtype.Elem](idx Any, numClasses int) Expr[U] {
	in := indexNode("OneHot", idx, true, false)
	if in.err != nil {
		return Expr[U]{in}
	}
	if numClasses < 0 {
		return Expr[U]{errNode(OpGather, &ShapeOpError{Op: "one_hot", Reason: fmt.Sprintf("num_classes %d: the count must be given (inferring it needs the values)", numClasses)})}
	}
	classes, err := tensor.Arange[int64](0, int64(numClasses), 1)
	if err != nil {
		return Expr[U]{errNode(OpGather, err)}
	}
	c := Of(classes).Node()
	checked := take("one_hot", c, in, 0, false) // idx itself, its range checked
	col := append(tensor.Shape{}, in.shape...)
	hit := binary(OpEq, reshape(checked, append(col, 1)), c)
	return Expr[U]{cast(hit, dtype.Of[U]())}
}

// MaskedFill is torch.masked_fill: value where mask (which broadcasts to
// x's shape) is true, x elsewhere. Its gradient is x's gradient where the
// mask is false.
func MaskedFill[T dtype.Elem](x Expr[T], mask Expr[bool], value T) Expr[T] {
	n := where(mask.Node(), Scalar(value).Node(), x.Node())
	if n.err == nil && !n.shape.Equal(x.Node().shape) {
		return Expr[T]{errNode(OpWhere, &ShapeOpError{Op: "masked_fill", Reason: fmt.Sprintf("mask of shape %v does not broadcast to the tensor's %v", mask.Shape(), x.Shape())})}
	}
	return Expr[T]{n}
}

// scatter builds an OpScatter or OpScatterAdd node: a copy of base with
// src's elements written (or added) at the positions idx (int64) gives
// along axis, over idx's shape; src is at least idx's extent on every axis
// (its first elements are read). A 0-d src is a value written everywhere.
func scatter(op Op, name string, base, idx, src *Node, axis int, negative bool) *Node {
	if src.err == nil && idx.err == nil && len(src.shape) == 0 && len(idx.shape) > 0 {
		src = expand(src, idx.shape)
	}
	n, ok := newNode(op, base, idx, src)
	if !ok {
		return n
	}
	if base.sym() != nil || idx.sym() != nil || src.sym() != nil {
		n.err = &ShapeOpError{Op: name, Reason: "symbolic shapes are not supported"}
		return n
	}
	if err := checkAccepts(op, base.dt); err != nil {
		n.err = err
		return n
	}
	p, err := tensor.Axis(axis, len(base.shape))
	if err != nil {
		n.err = err
		return n
	}
	if len(idx.shape) != len(base.shape) && !(len(idx.shape) == 0 && len(base.shape) == 0) {
		n.err = &ShapeOpError{Op: name, Reason: fmt.Sprintf("Index tensor must have the same number of dimensions as self tensor (%v and %v)", idx.shape, base.shape)}
		return n
	}
	if err := checkIndexShape(name, base.shape, idx.shape, p, 1, idx.shape); err != nil {
		n.err = err
		return n
	}
	if len(src.shape) != len(idx.shape) {
		n.err = &ShapeOpError{Op: name, Reason: fmt.Sprintf("Index tensor must have the same number of dimensions as src tensor (%v and %v)", idx.shape, src.shape)}
		return n
	}
	for d, e := range idx.shape {
		if src.shape[d] < e {
			n.err = &ShapeOpError{Op: name, Reason: fmt.Sprintf("Expected index %v to be smaller than src %v at dimension %d", idx.shape, src.shape, d)}
			return n
		}
	}
	n.dt = base.dt
	n.slice = indexSpec(p, 1, negative)
	setShape(n, base.shape.Clone())
	return n
}

// Scatter is torch.scatter(x, dim, idx, src): a copy of x with
// out[idx[i][j]][j] = src[i][j] for dim 0 (and so on) over idx's shape;
// idx is int64 in [0, n), of x's rank, at most x's extent on the other
// axes and at most src's on every axis. A 0-d src is torch's value form.
// Where indices repeat, the write last in idx's row-major order wins.
func Scatter[T dtype.Elem](x Expr[T], dim int, idx Any, src Expr[T]) Expr[T] {
	return Expr[T]{scatter(OpScatter, "scatter", x.Node(), indexNode("Scatter", idx, true, false), src.Node(), dim, false)}
}

// ScatterAdd is torch.scatter_add: as Scatter, adding src's elements into
// the copy of x; repeated indices accumulate in idx's row-major order, so
// the bits do not depend on the number of workers.
func ScatterAdd[T dtype.Numeric](x Expr[T], dim int, idx Any, src Expr[T]) Expr[T] {
	return Expr[T]{scatter(OpScatterAdd, "scatter_add", x.Node(), indexNode("ScatterAdd", idx, true, false), src.Node(), dim, false)}
}

// IndexAdd is torch.index_add(x, dim, idx, src, alpha=alpha): a copy of
// x with alpha*src's slices along dim added at the positions of the 1-D
// int32 or int64 idx, repeated positions accumulating in idx's order.
func IndexAdd[T dtype.Numeric](x Expr[T], dim int, idx Any, src Expr[T], alpha T) Expr[T] {
	xn, in, sn := x.Node(), indexNode("IndexAdd", idx, true, true), src.Node()
	if bad := firstErr(OpScatterAdd, xn, in, sn); bad != nil {
		return Expr[T]{bad}
	}
	p, err := tensor.Axis(dim, len(xn.shape))
	if err != nil {
		return Expr[T]{errNode(OpScatterAdd, err)}
	}
	if len(in.shape) != 1 || len(sn.shape) != len(xn.shape) || sn.shape[p] != in.shape[0] {
		return Expr[T]{errNode(OpScatterAdd, &ShapeOpError{Op: "index_add", Reason: fmt.Sprintf("index of shape %v and source of shape %v do not fit a tensor of shape %v along dim %d", in.shape, sn.shape, xn.shape, p)})}
	}
	view := make([]int, len(xn.shape))
	for d := range view {
		view[d] = 1
	}
	view[p] = in.shape[0]
	if alpha != 1 {
		sn = binary(OpMul, sn, Scalar(alpha).Node())
	}
	return Expr[T]{scatter(OpScatterAdd, "index_add", xn, expand(reshape(in, view), sn.shape), sn, p, false)}
}

// Put is np.put on a copy of x (torch.Tensor.put with accumulate): x's
// elements at the flat row-major positions idx (any integer type, any
// shape; negative positions count from the end) set to values, which
// repeat when shorter than idx; where positions repeat, the last in idx's
// order wins. With accumulate the values are added instead, repeated
// positions accumulating in order.
func Put[T dtype.Numeric](x Expr[T], idx Any, values Expr[T], accumulate bool) Expr[T] {
	xn, in, vn := x.Node(), indexNode("Put", idx, false, true), values.Node()
	if bad := firstErr(OpScatter, xn, in, vn); bad != nil {
		return Expr[T]{bad}
	}
	k, _ := in.shape.Numel()
	nv, _ := vn.shape.Numel()
	flatIdx, flatV := reshape(in, []int{k}), reshape(vn, []int{nv})
	if nv != k {
		if nv == 0 {
			if k > 0 {
				return Expr[T]{errNode(OpScatter, &ShapeOpError{Op: "put", Reason: "no values to put"})}
			}
		} else {
			cyc := make([]int64, k)
			for i := range cyc {
				cyc[i] = int64(i % nv)
			}
			ct, err := tensor.FromSlice(cyc, k)
			if err != nil {
				return Expr[T]{errNode(OpScatter, err)}
			}
			flatV = take("put", flatV, Of(ct).Node(), 0, false)
		}
	}
	op, name := OpScatter, "put"
	if accumulate {
		op = OpScatterAdd
	}
	out := scatter(op, name, reshape(xn, []int{-1}), flatIdx, flatV, 0, true)
	return Expr[T]{reshape(out, append([]int{}, xn.shape...))}
}

// StopGradient returns x unchanged as a value that autograd treats as a
// constant: no gradient flows through it into x (jax.lax.stop_gradient,
// torch's detach). Evaluating it is a view of x's value.
func StopGradient[T dtype.Elem](x Expr[T]) Expr[T] {
	a := x.Node()
	n, ok := newNode(OpStopGradient, a)
	if !ok {
		return Expr[T]{n}
	}
	n.dt = a.dt
	if d := a.sym(); d != nil {
		setDims(n, d)
		return Expr[T]{n}
	}
	setShape(n, a.shape)
	return Expr[T]{n}
}

// Detach is StopGradient(x).
func (x Expr[T]) Detach() Expr[T] { return StopGradient(x) }

// ScatterAddAlong is ScatterAdd with NumPy's rule for negative indices
// when negative is set (they count from the end): the adjoint of
// TakeAlongAxis and Take, which autograd builds their gradients from.
func ScatterAddAlong[T dtype.Numeric](x Expr[T], axis int, idx Any, src Expr[T], negative bool) Expr[T] {
	return Expr[T]{scatter(OpScatterAdd, "scatter_add", x.Node(), indexNode("ScatterAddAlong", idx, true, false), src.Node(), axis, negative)}
}
