package tensor

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
)

// Backing is what holds the storage of a tensor that does not live on the
// Go heap: a memory-mapped file (interop/npy's OpenMapped and
// CreateMapped). A tensor made with FromBacking carries its backing, and so
// does every view of it (Permute, Slice, Reshape, AsStrided the method, …),
// so that code handed the tensor can learn how its memory behaves: the
// executor releases the pages of a mapped file it has finished with (see
// exec.RangeReleaser), and refuses to write into read-only storage.
//
// Copies (Clone, Values, Contiguous of a strided view) are ordinary
// tensors; so is a tensor built with the function AsStrided or FromSlice
// over Data(), which knows nothing of where the slice came from.
type Backing interface {
	// ReadOnly reports whether the storage must not be written: a file
	// mapped for reading only, where a write would fault.
	ReadOnly() bool
}

// ReadOnlyError reports a write into read-only storage (a file mapped for
// reading only): Set returns it, and the executor refuses such a tensor as
// a destination with it.
type ReadOnlyError struct {
	Op    string // the function that would have written, e.g. "Set" or "exec.EvalTo"
	Shape Shape  // the tensor's shape
}

// Error describes the failure.
func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("%s: the tensor of shape %v is read-only (a file mapped for reading; map it writable to write it)", e.Op, e.Shape)
}

// FromBacking wraps data, which b holds, as a row-major tensor of the given
// shape without copying, as FromSlice does; the tensor and its views
// report b from Backing. A nil b is FromSlice.
func FromBacking[T dtype.Elem](data []T, b Backing, shape ...int) (*Tensor[T], error) {
	t, err := FromSlice(data, shape...)
	if err != nil {
		return nil, err
	}
	t.backing = b
	return t, nil
}

// Backing returns what holds t's storage when it is not Go memory (see
// FromBacking), or nil for an ordinary tensor.
func (t *Tensor[T]) Backing() Backing { return t.backing }

// readOnly reports whether t's storage must not be written.
func (t *Tensor[T]) readOnly() bool { return t.backing != nil && t.backing.ReadOnly() }

// AsStrided returns a view of t's storage with the given shape, strides and
// offset (into Data()), as the function AsStrided does over Data(), and
// keeping t's Backing: torch.Tensor.as_strided.
func (t *Tensor[T]) AsStrided(shape Shape, strides []int, offset int) (*Tensor[T], error) {
	v, err := AsStrided(t.data, shape, strides, offset)
	if err != nil {
		return nil, err
	}
	v.backing = t.backing
	return v, nil
}
