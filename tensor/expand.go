package tensor

import "fmt"

// Expand returns a view of t broadcast to sizes, as torch.Tensor.expand does:
// new leading axes may be added, -1 keeps an existing extent, and only axes
// of extent 1 grow (their stride becomes 0, so no data is copied). Growing
// any other axis is an *ExpandError in PyTorch's words; fewer sizes than t
// has axes, or -1 on a new leading axis, is an *ArgError.
//
// Several elements of an expanded view share one memory location: reading
// it is fine, writing into it (Set, in-place operations) is an error.
func (t *Tensor[T]) Expand(sizes ...int) (*Tensor[T], error) {
	t = t.orEmpty()
	if len(sizes) < len(t.shape) {
		return nil, &ArgError{Op: "Expand", Reason: fmt.Sprintf("the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)", len(sizes), len(t.shape))}
	}
	pad := len(sizes) - len(t.shape)
	target := make(Shape, len(sizes))
	for i, s := range sizes {
		if s == -1 {
			if i < pad {
				return nil, &ArgError{Op: "Expand", Reason: fmt.Sprintf("the expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension %d", i)}
			}
			s = t.shape[i-pad]
		}
		target[i] = s
	}
	return t.BroadcastTo(target...)
}

// BroadcastTo returns a view of t broadcast to shape by NumPy's rules (no
// -1): t's shape is right-aligned with shape, and each of t's axes must equal
// the target extent or be 1. It is an *ExpandError otherwise, and a
// *ShapeError for a negative or overflowing shape.
func (t *Tensor[T]) BroadcastTo(shape ...int) (*Tensor[T], error) {
	t = t.orEmpty()
	target := Shape(shape).Clone()
	if _, err := target.Numel(); err != nil {
		return nil, err
	}
	if len(target) < len(t.shape) {
		return nil, &ArgError{Op: "BroadcastTo", Reason: fmt.Sprintf("cannot broadcast shape %v to %v, which has fewer dimensions", t.shape, target)}
	}
	strides, err := BroadcastStrides(t.shape, t.strides, target)
	if err != nil {
		return nil, err
	}
	off := t.offset
	if t.Numel() == 0 {
		off = emptyOffset(off, len(t.data))
	}
	return t.view(off, target, strides), nil
}
