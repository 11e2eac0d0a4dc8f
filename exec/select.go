package exec

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// The functions of this file return tensors whose shapes depend on the
// values of their inputs (how many elements are nonzero, how many mask
// elements are true), so, like Unique, they evaluate their inputs and are
// not lazy. An element is nonzero when it differs from zero: NaN is
// nonzero, -0.0 is zero, true is nonzero.

// Nonzero returns the positions of x's nonzero elements as one int64 index
// tensor per axis, in row-major order (np.nonzero). A 0-d x is treated as
// shape [1], as NumPy 1.24 does.
func Nonzero[T dtype.Elem](x expr.Expr[T], opts ...SortOption) ([]*tensor.Tensor[int64], error) {
	pos, count, rank, err := argWhere(x, sortOptions(opts))
	if err != nil {
		return nil, err
	}
	out := make([]*tensor.Tensor[int64], max(rank, 1)) // 0-d: one axis, index 0
	for d := range out {
		if out[d], err = tensor.New[int64](count); err != nil {
			return nil, err
		}
		for i := range count * min(rank, 1) {
			out[d].Data()[i] = pos[i*rank+d]
		}
	}
	return out, nil
}

// ArgWhere returns the positions of x's nonzero elements as an int64
// tensor of shape [count, rank], in row-major order (np.argwhere). A 0-d x
// gives shape [1, 0] when it is nonzero and [0, 0] when it is zero.
func ArgWhere[T dtype.Elem](x expr.Expr[T], opts ...SortOption) (*tensor.Tensor[int64], error) {
	pos, count, rank, err := argWhere(x, sortOptions(opts))
	if err != nil {
		return nil, err
	}
	out, err := tensor.New[int64](count, rank)
	if err != nil {
		return nil, err
	}
	copy(out.Data(), pos)
	return out, nil
}

// argWhere evaluates x and returns how many of its elements are nonzero
// and their multi-indices, rank numbers each, in row-major order.
func argWhere[T dtype.Elem](x expr.Expr[T], c sortConfig) (pos []int64, count, rank int, err error) {
	if err := c.x.usable(); err != nil {
		return nil, 0, 0, err
	}
	if err := x.Err(); err != nil {
		return nil, 0, 0, err
	}
	in, err := EvalWith(c.x, x)
	if err != nil {
		return nil, 0, 0, err
	}
	shape := in.Shape()
	rank = len(shape)
	var zero T
	idx := make([]int, rank)
	for _, v := range in.Values() {
		if v != zero {
			count++
			for _, i := range idx {
				pos = append(pos, int64(i))
			}
		}
		for d := rank - 1; d >= 0; d-- { // the next multi-index, row-major
			if idx[d]++; idx[d] < shape[d] {
				break
			}
			idx[d] = 0
		}
	}
	return pos, count, rank, nil
}

// MaskSelect returns NumPy's x[mask]: mask's shape must be the leading part
// of x's, and the result holds, for every true element of mask in row-major
// order, the sub-tensor of x it selects, stacked along a new first axis
// (shape [count, x.shape[mask.rank:]...]). A 0-d mask adds a leading axis
// of size 1 (true) or 0 (false). The mask does not broadcast: a mask whose
// shape differs from x's leading shape is a *tensor.ShapeError naming the
// dimension, as NumPy's IndexError does.
func MaskSelect[T dtype.Elem](x expr.Expr[T], mask expr.Expr[bool], opts ...SortOption) (*tensor.Tensor[T], error) {
	c := sortOptions(opts)
	if err := c.x.usable(); err != nil {
		return nil, err
	}
	if err := x.Err(); err != nil {
		return nil, err
	}
	if err := mask.Err(); err != nil {
		return nil, err
	}
	xs, ms := x.Shape(), mask.Shape()
	if len(ms) > len(xs) {
		return nil, &tensor.ShapeError{Shape: ms, Axis: -1, Reason: fmt.Sprintf("MaskSelect: a mask of rank %d for a tensor of shape %v: too many indices", len(ms), xs)}
	}
	for d, s := range ms {
		if s != xs[d] {
			return nil, &tensor.ShapeError{Shape: ms, Axis: d, Reason: fmt.Sprintf("MaskSelect: boolean index did not match indexed array along dimension %d; dimension is %d but corresponding boolean dimension is %d (tensor %v, mask %v)", d, xs[d], s, xs, ms)}
		}
	}
	in, err := EvalWith(c.x, x)
	if err != nil {
		return nil, err
	}
	m, err := EvalWith(c.x, mask)
	if err != nil {
		return nil, err
	}
	inner := 1 // elements each mask element selects
	for _, s := range xs[len(ms):] {
		inner *= s
	}
	flags := m.Values()
	count := 0
	for _, f := range flags {
		if f {
			count++
		}
	}
	out, err := tensor.New[T](append(tensor.Shape{count}, xs[len(ms):]...)...)
	if err != nil {
		return nil, err
	}
	src, dst := in.Values(), out.Data()
	for i, f := range flags {
		if f {
			dst = dst[copy(dst, src[i*inner:(i+1)*inner]):]
		}
	}
	return out, nil
}

// MaskedSelect is torch.masked_select: x and mask broadcast together, and
// the elements of the broadcast x where the broadcast mask is true come
// back in row-major order as a 1-D tensor.
func MaskedSelect[T dtype.Elem](x expr.Expr[T], mask expr.Expr[bool], opts ...SortOption) (*tensor.Tensor[T], error) {
	shape, err := tensor.BroadcastShapes(x.Shape(), mask.Shape())
	if err := firstErr(x.Err(), mask.Err(), err); err != nil {
		return nil, err
	}
	return MaskSelect(x.Expand(shape...), mask.Expand(shape...), opts...)
}

// firstErr returns the first non-nil error.
func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
