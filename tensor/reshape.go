package tensor

import "fmt"

// Reshape returns a tensor with t's elements in row-major order and the given
// shape, one extent of which may be -1 (inferred from the others). The result
// is a view sharing t's storage whenever t's strides allow it (always for a
// contiguous t), and otherwise a row-major copy, as torch.reshape does; use
// ReshapeView to insist on a view. A shape that does not fit t's element
// count is a *ReshapeError.
func (t *Tensor[T]) Reshape(shape ...int) (*Tensor[T], error) {
	t = t.orEmpty()
	target, err := t.resolveShape(shape)
	if err != nil {
		return nil, err
	}
	if st, ok := viewStrides(t.shape, t.strides, target); ok {
		return t.view(t.offset, target, st), nil
	}
	if err := checkAlloc[T](target, t.Numel()); err != nil {
		return nil, err
	}
	c := t.Clone()
	return c.view(0, target, rowMajorStrides(target)), nil
}

// ReshapeView is Reshape that never copies: when t's strides cannot express
// the new shape (e.g. a transposed matrix flattened) it returns a
// *ReshapeError with NotView set, as torch.Tensor.view does.
func (t *Tensor[T]) ReshapeView(shape ...int) (*Tensor[T], error) {
	t = t.orEmpty()
	target, err := t.resolveShape(shape)
	if err != nil {
		return nil, err
	}
	st, ok := viewStrides(t.shape, t.strides, target)
	if !ok {
		return nil, &ReshapeError{Shape: t.shape.Clone(), Target: target, NotView: true}
	}
	return t.view(t.offset, target, st), nil
}

// Flatten returns t as a 1-D tensor of Numel elements (a 0-d tensor gives
// shape [1]): a view when the strides allow, otherwise a copy, like Reshape.
func (t *Tensor[T]) Flatten() (*Tensor[T], error) { return t.Reshape(-1) }

// resolveShape checks a requested shape against t's element count and fills
// in its -1.
func (t *Tensor[T]) resolveShape(shape []int) (Shape, error) {
	target := Shape(shape).Clone()
	// known is the product of the given extents, counted by Shape.Numel's
	// rule: 0 when one is 0, whatever the others multiply to.
	infer, known, zero, over := -1, 1, false, -1
	for i, d := range target {
		switch {
		case d == -1 && infer >= 0:
			return nil, &ReshapeError{Shape: t.shape.Clone(), Target: target, Reason: "only one dimension can be inferred"}
		case d == -1:
			infer = i
		case d < 0:
			return nil, &ReshapeError{Shape: t.shape.Clone(), Target: target, Reason: fmt.Sprintf("invalid shape dimension %d", d)}
		case d == 0:
			zero = true
		case over < 0:
			var ok bool
			if known, ok = mulInt(known, d); !ok {
				over = i
			}
		}
	}
	switch {
	case zero:
		known = 0
	case over >= 0:
		return nil, &ShapeError{Shape: target, Axis: over, Reason: "number of elements overflows int"}
	}
	n := t.Numel()
	if infer >= 0 {
		if known == 0 {
			if n == 0 {
				return nil, &ReshapeError{Shape: t.shape.Clone(), Target: target,
					Reason: "cannot reshape a tensor of 0 elements with -1: the unspecified extent can be any value and is ambiguous"}
			}
			return nil, &ReshapeError{Shape: t.shape.Clone(), Target: target}
		}
		if n%known != 0 {
			return nil, &ReshapeError{Shape: t.shape.Clone(), Target: target}
		}
		target[infer] = n / known
		return target, nil
	}
	if known != n {
		return nil, &ReshapeError{Shape: t.shape.Clone(), Target: target}
	}
	return target, nil
}

// viewStrides returns strides under which storage laid out by (shape,
// strides) reads as newShape in row-major order, if there are any. It is
// PyTorch's computeStride: the old axes are cut into chunks that are
// contiguous with each other, and each chunk must be an exact product of
// consecutive new extents.
func viewStrides(shape Shape, strides []int, newShape Shape) ([]int, bool) {
	out := make([]int, len(newShape))
	if len(shape) == 0 {
		for i := range out {
			out[i] = 1
		}
		return out, true
	}
	if n, _, _ := shapeCount(shape); n == 0 {
		if shape.Equal(newShape) {
			return append(out[:0], strides...), true
		}
		return rowMajorStrides(newShape), true
	}
	viewD := len(newShape) - 1
	chunkBase := strides[len(strides)-1]
	tensorNumel, viewNumel := 1, 1
	for d := len(shape) - 1; d >= 0; d-- {
		tensorNumel *= shape[d]
		if d == 0 || (shape[d-1] != 1 && strides[d-1] != tensorNumel*chunkBase) {
			for viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1) {
				out[viewD] = viewNumel * chunkBase
				viewNumel *= newShape[viewD]
				viewD--
			}
			if viewNumel != tensorNumel {
				return nil, false
			}
			if d > 0 {
				chunkBase = strides[d-1]
				tensorNumel, viewNumel = 1, 1
			}
		}
	}
	if viewD != -1 {
		return nil, false
	}
	return out, true
}
