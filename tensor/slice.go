package tensor

import "fmt"

// Slice returns the view t[..., start:stop:step, ...] along axis, with
// Python's slicing rules: negative start and stop count from the end, and
// both are clamped to the axis, so out-of-range bounds give a shorter or
// empty slice rather than an error (pass math.MaxInt as stop for "to the
// end). A negative step walks the axis backwards, as NumPy's a[::-1] and
// a[5:1:-2] do: the view has a negative stride and shares t's storage
// (pass math.MaxInt as start and math.MinInt as stop for the whole axis
// reversed, or use Flip). A step of 0 is an *ArgError, a bad axis an
// *AxisError.
func (t *Tensor[T]) Slice(axis, start, stop, step int) (*Tensor[T], error) {
	t = t.orEmpty()
	ax, err := Axis(axis, len(t.shape))
	if err != nil {
		return nil, err
	}
	begin, _, length, err := SliceRange(t.shape[ax], start, stop, step)
	if err != nil {
		return nil, err
	}
	shape, strides := newDims(len(t.shape))
	copy(shape, t.shape)
	copy(strides, t.strides)
	shape[ax] = length
	if st, ok := mulSigned(t.strides[ax], step); ok && length > 1 && t.Numel() > 0 {
		strides[ax] = st
	}
	// Otherwise the slice has at most one element, whose stride is never
	// used, or is empty (an empty t's strides may be huge, see
	// RowMajorStrides): it keeps t's stride, which cannot overflow.
	// An empty t reads nothing, and its strides may be huge (see
	// RowMajorStrides): its slices keep its offset rather than compute one.
	off := emptyOffset(t.offset, len(t.data))
	if t.Numel() > 0 {
		off = t.offset + begin*t.strides[ax]
		if length == 0 {
			off = emptyOffset(off, len(t.data))
		}
	}
	return t.view(off, shape, strides), nil
}

// SliceRange resolves the Python slice start:stop:step on an axis of the
// given extent, as Python's slice.indices does: negative bounds count from
// the end; for a positive step both clamp to [0, extent], for a negative
// step to [-1, extent-1]. It returns the first index, the clamped stop
// (never past begin in the step's direction) and the number of elements,
// computed without overflow for any int arguments. A step of 0 is an
// *ArgError, a negative extent a *ShapeError. Tensor.Slice, Idx and expr's
// Slice share it.
func SliceRange(extent, start, stop, step int) (begin, end, length int, err error) {
	if extent < 0 {
		return 0, 0, 0, &ShapeError{Shape: Shape{extent}, Axis: 0, Reason: "negative extent " + fmt.Sprint(extent)}
	}
	switch {
	case step == 0:
		return 0, 0, 0, &ArgError{Op: "Slice", Reason: "slice step cannot be zero"}
	case step > 0:
		begin, end = clampIndex(start, extent), clampIndex(stop, extent)
		end = max(end, begin)
		if end > begin {
			length = (end-begin-1)/step + 1
		}
	default:
		begin, end = clampDown(start, extent), clampDown(stop, extent)
		end = min(end, begin)
		if begin > end {
			// (begin-end-1)/|step| + 1, without negating step (math.MinInt).
			length = -((begin - end - 1) / step) + 1
		}
	}
	return begin, end, length, nil
}

// clampIndex resolves a Python slice bound on an axis of extent n, for a
// positive step.
func clampIndex(i, n int) int {
	if i < 0 {
		i += n
		if i < 0 {
			return 0
		}
	}
	return min(i, n)
}

// clampDown resolves a Python slice bound on an axis of extent n, for a
// negative step: -1 stands for "before the first element".
func clampDown(i, n int) int {
	if i < 0 {
		i += n
		if i < 0 {
			return -1
		}
	}
	return min(i, n-1)
}

// Index returns the view t[..., i, ...] along axis, which drops that axis. A
// negative i counts from the end; an index outside the axis is an
// *IndexError, a bad axis an *AxisError.
func (t *Tensor[T]) Index(axis, i int) (*Tensor[T], error) {
	t = t.orEmpty()
	ax, err := Axis(axis, len(t.shape))
	if err != nil {
		return nil, err
	}
	n := t.shape[ax]
	j := i
	if j < 0 {
		j += n
	}
	if j < 0 || j >= n {
		return nil, &IndexError{Index: i, Axis: ax, Size: n}
	}
	shape, strides := newDims(len(t.shape) - 1)
	copy(shape, t.shape[:ax])
	copy(shape[ax:], t.shape[ax+1:])
	copy(strides, t.strides[:ax])
	copy(strides[ax:], t.strides[ax+1:])
	// As in Slice, an empty t's views keep its offset.
	off := emptyOffset(t.offset, len(t.data))
	if t.Numel() > 0 {
		off = t.offset + j*t.strides[ax]
	}
	return t.view(off, shape, strides), nil
}

// emptyOffset keeps the offset of an empty view inside [0, n], so that
// Data()[Offset():] stays valid although the view reads nothing.
func emptyOffset(off, n int) int { return min(max(off, 0), n) }

// mulSigned returns a*b and whether it fits int, for ints of any sign.
func mulSigned(a, b int) (int, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	if c/b != a || (a == -1 && b == minInt) || (b == -1 && a == minInt) {
		return 0, false
	}
	return c, true
}
