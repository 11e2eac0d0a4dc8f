package expr

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Scans. A scan keeps its operand's shape: element k along the axis is the
// running sum (product, maximum, ...) of the elements 0..k of its line, the
// line being the elements that differ only in their index along the axis.
// Each line is folded in order, one element after another, as NumPy's
// ufunc.accumulate and PyTorch's cumulative ops do, so the bits of a result
// do not depend on how the lines are shared among workers. The axis may be
// negative; NumPy's axis=None (the flattened input) is x.Reshape(-1)
// scanned along 0. The executor runs a scan as a step of its own
// (docs/scans.md): an elementwise operand gets a tensor first, as a
// matmul's does.

// scan builds a scan node of op over a along axis with result dtype dt;
// reverse folds each line from its end.
func scan(op Op, a *Node, axis int, reverse bool, dt dtype.DType) *Node {
	n, ok := newNode(op, a)
	if !ok {
		return n
	}
	if err := checkAccepts(op, dt); err != nil {
		n.err = err
		return n
	}
	ax, err := tensor.Axis(axis, len(a.Dims()))
	if err != nil {
		n.err = err
		return n
	}
	n.dt = dt
	n.slice = sliceSpec{axis: ax, step: 1}
	if reverse {
		n.slice.step = -1
	}
	if d := a.sym(); d != nil {
		setDims(n, d)
		return n
	}
	setShape(n, a.shape)
	return n
}

// ScanArgs returns a scan node's axis (non-negative) and whether it folds
// each line from its end (a reverse scan, the gradient of a cumsum).
func (n *Node) ScanArgs() (axis int, reverse bool) {
	return n.slice.axis, n.slice.step < 0
}

// CumSum returns the running sums of x along axis (np.cumsum,
// torch.cumsum), in T: integers wrap as Go's arithmetic does. NumPy and
// PyTorch sum bool and signed integers in int64 and NumPy unsigned ones in
// uint64: that is CumSumAs[int64] (CumSumAs[uint64]).
func (x Expr[T]) CumSum(axis int) Expr[T] {
	return Expr[T]{scan(OpCumSum, x.Node(), axis, false, dtype.Of[T]())}
}

// CumSumAs returns the running sums of x along axis accumulated in U,
// NumPy's cumsum(x, dtype=U): each element is converted to U as the scan
// reads it (as Cast converts), with no converted copy of x.
func CumSumAs[U dtype.Numeric, T dtype.Elem](x Expr[T], axis int) Expr[U] {
	return Expr[U]{scan(OpCumSum, x.Node(), axis, false, dtype.Of[U]())}
}

// RevCumSum returns the sums of each element of x and those after it along
// axis: a cumsum folded from the end of each line (torch's
// x.flip(axis).cumsum(axis).flip(axis)), the gradient of CumSum.
func (x Expr[T]) RevCumSum(axis int) Expr[T] {
	return Expr[T]{scan(OpCumSum, x.Node(), axis, true, dtype.Of[T]())}
}

// CumProd returns the running products of x along axis (np.cumprod,
// torch.cumprod), in T; CumProdAs[int64] is NumPy's cumprod of bool and
// signed integers.
func (x Expr[T]) CumProd(axis int) Expr[T] {
	return Expr[T]{scan(OpCumProd, x.Node(), axis, false, dtype.Of[T]())}
}

// CumProdAs returns the running products of x along axis accumulated in U,
// NumPy's cumprod(x, dtype=U).
func CumProdAs[U dtype.Numeric, T dtype.Elem](x Expr[T], axis int) Expr[U] {
	return Expr[U]{scan(OpCumProd, x.Node(), axis, false, dtype.Of[U]())}
}

// CumMax returns the running maxima of x along axis, the values of
// torch.cummax (np.maximum.accumulate): a NaN is kept from where it
// appears to the end of its line.
func (x Expr[T]) CumMax(axis int) Expr[T] {
	return Expr[T]{scan(OpCumMax, x.Node(), axis, false, dtype.Of[T]())}
}

// CumMin returns the running minima of x along axis, the values of
// torch.cummin (np.minimum.accumulate); NaN propagates as in CumMax.
func (x Expr[T]) CumMin(axis int) Expr[T] {
	return Expr[T]{scan(OpCumMin, x.Node(), axis, false, dtype.Of[T]())}
}

// LogCumSumExp returns log(cumsum(exp(x))) along axis computed without
// overflow, as torch.logcumsumexp does: each step is torch's
// log-add-exp, max + log1p(exp(min - max)), which keeps -inf, +inf and NaN
// as torch keeps them.
func LogCumSumExp[T dtype.Float](x Expr[T], axis int) Expr[T] {
	return Expr[T]{scan(OpLogCumSumExp, x.Node(), axis, false, dtype.Of[T]())}
}

// NanCumSum returns the running sums of x along axis with NaN counted as
// zero (np.nancumsum); a line that starts with NaNs starts with zeros. An
// integer x has no NaN: NanCumSum is CumSum.
func NanCumSum[T dtype.Numeric](x Expr[T], axis int) Expr[T] {
	op := OpNanCumSum
	if !dtype.Of[T]().IsFloat() && !dtype.Of[T]().IsComplex() {
		op = OpCumSum
	}
	return Expr[T]{scan(op, x.Node(), axis, false, dtype.Of[T]())}
}

// NanCumProd returns the running products of x along axis with NaN counted
// as one (np.nancumprod). An integer x has no NaN: NanCumProd is CumProd.
func NanCumProd[T dtype.Numeric](x Expr[T], axis int) Expr[T] {
	op := OpNanCumProd
	if !dtype.Of[T]().IsFloat() && !dtype.Of[T]().IsComplex() {
		op = OpCumProd
	}
	return Expr[T]{scan(op, x.Node(), axis, false, dtype.Of[T]())}
}
