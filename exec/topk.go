package exec

import (
	"fmt"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/axisrows"
	"github.com/tensorplay/tensorplay/tensor"
)

// TopK returns the k largest elements of x along axis, largest first, and
// their int64 indices, as torch.topk(x, k, axis, sorted=True) does: the
// axis keeps its place with size k. Smallest returns the k smallest,
// smallest first. NaN counts as the largest value; equal elements come in
// input order. k must be between 0 and the axis's size.
func TopK[T Sortable](x expr.Expr[T], k, axis int, opts ...SortOption) (*tensor.Tensor[T], *tensor.Tensor[int64], error) {
	c := sortOptions(opts)
	c.descending = !c.smallest
	return selectAlong(x, k, axis, "TopK", c, func(n int) (int, int) { return 0, k })
}

// KthValue returns the k-th smallest element of x along axis (k counts from
// 1) and its int64 index, as torch.kthvalue(x, k, axis) does: the axis is
// removed, or kept with size 1 with KeepDims. Among equal elements the
// order is their input order; NaN counts as the largest value.
func KthValue[T Sortable](x expr.Expr[T], k, axis int, opts ...SortOption) (*tensor.Tensor[T], *tensor.Tensor[int64], error) {
	c := sortOptions(opts)
	c.descending = false
	vals, idx, err := selectAlong(x, k, axis, "KthValue", c, func(n int) (int, int) { return k - 1, k })
	if err != nil || c.keepDims {
		return vals, idx, err
	}
	ax, _ := tensor.Axis(axis, len(vals.Shape())) // checked by selectAlong
	shape := append(vals.Shape()[:ax:ax], vals.Shape()[ax+1:]...)
	if vals, err = vals.Reshape(shape...); err != nil {
		return nil, nil, err
	}
	if idx, err = idx.Reshape(shape...); err != nil {
		return nil, nil, err
	}
	return vals, idx, nil
}

// selectAlong sorts each row of x along axis in c's order and keeps the
// places [lo, hi) that span gives for the row length, checked against
// op's rules for k.
func selectAlong[T Sortable](x expr.Expr[T], k, axis int, op string, c sortConfig, span func(n int) (lo, hi int)) (*tensor.Tensor[T], *tensor.Tensor[int64], error) {
	in, rows, err := evalRows(c.x, x, axis)
	if err != nil {
		return nil, nil, err
	}
	lo, hi := span(rows.N)
	if lo < 0 || hi > rows.N || lo > hi {
		ax, _ := tensor.Axis(axis, len(in.Shape()))
		return nil, nil, &tensor.ArgError{Op: op, Reason: fmt.Sprintf("k (%d) is out of range for dimension %d with size %d (shape %v)", k, ax, rows.N, in.Shape())}
	}
	ax, _ := tensor.Axis(axis, len(in.Shape()))
	shape := in.Shape().Clone()
	shape[ax] = hi - lo
	vals, err := tensor.New[T](shape...)
	if err != nil {
		return nil, nil, err
	}
	idx, err := tensor.New[int64](shape...)
	if err != nil {
		return nil, nil, err
	}
	out := axisrows.Rows{Outer: rows.Outer, N: hi - lo, Inner: rows.Inner}
	src := in.Values()
	order := orderOf[T](c.descending)
	err = c.x.forRows(rows, rowsFunc(func(first, last int) {
		buf := make([]keyed[T], rows.N)
		for r := first; r < last; r++ {
			sortRow(buf, src, rows.Start(r), rows.Inner, order)
			at := out.Start(r)
			for _, kv := range buf[lo:hi] {
				vals.Data()[at], idx.Data()[at] = kv.v, int64(kv.i)
				at += out.Inner
			}
		}
	}))
	if err != nil {
		return nil, nil, err
	}
	return vals, idx, nil
}
