package tensor

import "fmt"

// Slice returns the view t[..., start:stop:step, ...] along axis, with
// Python's slicing rules: negative start and stop count from the end, and
// both are clamped to the axis, so out-of-range bounds give a shorter or
// empty slice rather than an error (pass math.MaxInt as stop for "to the
// end"). step must be positive (negative strides are not representable); a
// step <= 0 is an *ArgError, a bad axis an *AxisError.
func (t *Tensor[T]) Slice(axis, start, stop, step int) (*Tensor[T], error) {
	ax, err := Axis(axis, len(t.shape))
	if err != nil {
		return nil, err
	}
	if step <= 0 {
		return nil, &ArgError{Op: "Slice", Reason: fmt.Sprintf("slice step must be positive, got %d", step)}
	}
	n := t.shape[ax]
	begin, end := clampIndex(start, n), clampIndex(stop, n)
	length := 0
	if end > begin {
		length = (end-begin-1)/step + 1
	}
	shape := t.shape.Clone()
	strides := append([]int{}, t.strides...)
	shape[ax] = length
	strides[ax] = t.strides[ax] * step
	if st := t.strides[ax]; st > 0 && step > maxInt/st {
		// Only a slice of at most one element can get here (a longer one
		// would reach past its storage), and its stride is never used.
		strides[ax] = st
	}
	off := t.offset + begin*t.strides[ax]
	if length == 0 || t.Numel() == 0 {
		off = emptyOffset(off, len(t.data))
	}
	return t.view(off, shape, strides), nil
}

// clampIndex resolves a Python slice bound on an axis of extent n.
func clampIndex(i, n int) int {
	if i < 0 {
		i += n
		if i < 0 {
			return 0
		}
	}
	return min(i, n)
}

// Index returns the view t[..., i, ...] along axis, which drops that axis. A
// negative i counts from the end; an index outside the axis is an
// *IndexError, a bad axis an *AxisError.
func (t *Tensor[T]) Index(axis, i int) (*Tensor[T], error) {
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
	shape := append(t.shape[:ax:ax].Clone(), t.shape[ax+1:]...)
	strides := append(append([]int{}, t.strides[:ax]...), t.strides[ax+1:]...)
	off := t.offset + j*t.strides[ax]
	if t.Numel() == 0 {
		off = emptyOffset(off, len(t.data))
	}
	return t.view(off, shape, strides), nil
}

// emptyOffset keeps the offset of an empty view inside [0, n], so that
// Data()[Offset():] stays valid although the view reads nothing.
func emptyOffset(off, n int) int { return min(max(off, 0), n) }
