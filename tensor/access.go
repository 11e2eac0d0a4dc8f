package tensor

import "fmt"

// At returns the element at idx, one index per axis; negative indices count
// from the end. A wrong number of indices is an *ArgError, an index outside
// its axis an *IndexError.
func (t *Tensor[T]) At(idx ...int) (T, error) {
	t = t.orEmpty()
	off, err := t.elemOffset("At", idx)
	if err != nil {
		var z T
		return z, err
	}
	return t.data[off], nil
}

// Set stores v at idx, one index per axis; negative indices count from the
// end. The write lands in the storage shared with every view of it. Writing
// into a tensor whose elements share memory (an expanded view, see
// HasInternalOverlap) is an *InternalOverlapError, since it would change
// many elements at once; writing into read-only storage (see Backing) is a
// *ReadOnlyError.
func (t *Tensor[T]) Set(v T, idx ...int) error {
	t = t.orEmpty()
	off, err := t.elemOffset("Set", idx)
	if err != nil {
		return err
	}
	if t.HasInternalOverlap() {
		return &InternalOverlapError{Shape: t.shape.Clone(), Strides: append([]int{}, t.strides...)}
	}
	if t.readOnly() {
		return &ReadOnlyError{Op: "Set", Shape: t.shape.Clone()}
	}
	t.data[off] = v
	return nil
}

// Item returns the only element of a one-element tensor of any rank, as
// torch.Tensor.item does; other tensors give an *ArgError.
func (t *Tensor[T]) Item() (T, error) {
	t = t.orEmpty()
	var z T
	if n := t.Numel(); n != 1 {
		return z, &ArgError{Op: "Item", Reason: fmt.Sprintf("a tensor with %d elements (shape %v) cannot be converted to a scalar", n, t.shape)}
	}
	if t.offset >= len(t.data) {
		return z, &ArgError{Op: "Item", Reason: "tensor has no storage"}
	}
	return t.data[t.offset], nil
}

// HasInternalOverlap reports whether two elements of t certainly share one
// memory location: an axis of stride 0 and extent > 1, as Expand makes.
// Like PyTorch, it does not search for subtler overlaps of hand-made
// AsStrided layouts.
func (t *Tensor[T]) HasInternalOverlap() bool {
	t = t.orEmpty()
	for i, st := range t.strides {
		if st == 0 && t.shape[i] > 1 {
			return true
		}
	}
	return false
}

// elemOffset resolves a full index to a storage position.
func (t *Tensor[T]) elemOffset(op string, idx []int) (int, error) {
	if len(idx) != len(t.shape) {
		return 0, &ArgError{Op: op, Reason: fmt.Sprintf("%d indices for a tensor of rank %d (shape %v)", len(idx), len(t.shape), t.shape)}
	}
	off := t.offset
	for a, i := range idx {
		n := t.shape[a]
		j := i
		if j < 0 {
			j += n
		}
		if j < 0 || j >= n {
			return 0, &IndexError{Index: i, Axis: a, Size: n}
		}
		off += j * t.strides[a]
	}
	if off >= len(t.data) {
		return 0, &ArgError{Op: op, Reason: "tensor has no storage"}
	}
	return off, nil
}
