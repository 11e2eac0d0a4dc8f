package tensor

import "fmt"

// Permute returns a view whose axis i is t's axis axes[i] (negative axes
// count from the end). axes must name every axis exactly once.
func (t *Tensor[T]) Permute(axes ...int) (*Tensor[T], error) {
	t = t.orEmpty()
	if len(axes) != len(t.shape) {
		return nil, &ArgError{Op: "Permute", Reason: fmt.Sprintf("%d axes %v for a tensor of rank %d (shape %v)", len(axes), axes, len(t.shape), t.shape)}
	}
	shape, strides := newDims(len(axes))
	var few [8]bool
	seen := few[:0]
	if len(axes) > len(few) {
		seen = make([]bool, len(axes))
	}
	seen = seen[:len(axes)]
	for i, a := range axes {
		ax, err := Axis(a, len(t.shape))
		if err != nil {
			return nil, err
		}
		if seen[ax] {
			return nil, &ArgError{Op: "Permute", Reason: fmt.Sprintf("repeated axis %d in %v", ax, axes)}
		}
		seen[ax] = true
		shape[i], strides[i] = t.shape[ax], t.strides[ax]
	}
	return t.view(t.offset, shape, strides), nil
}

// Transpose returns a view with axes a and b swapped (negative axes count
// from the end), as torch.transpose does.
func (t *Tensor[T]) Transpose(a, b int) (*Tensor[T], error) {
	t = t.orEmpty()
	x, err := Axis(a, len(t.shape))
	if err != nil {
		return nil, err
	}
	y, err := Axis(b, len(t.shape))
	if err != nil {
		return nil, err
	}
	shape, strides := newDims(len(t.shape))
	copy(shape, t.shape)
	copy(strides, t.strides)
	shape[x], shape[y] = shape[y], shape[x]
	strides[x], strides[y] = strides[y], strides[x]
	return t.view(t.offset, shape, strides), nil
}

// T returns the transpose of a matrix as a view. Tensors of rank 0 and 1 are
// returned as views unchanged, as NumPy's .T does; rank 3 and above is an
// *ArgError (say which axes to swap with Transpose or Permute).
func (t *Tensor[T]) T() (*Tensor[T], error) {
	t = t.orEmpty()
	switch len(t.shape) {
	case 0, 1:
		shape, strides := newDims(len(t.shape))
		copy(shape, t.shape)
		copy(strides, t.strides)
		return t.view(t.offset, shape, strides), nil
	case 2:
		return t.Transpose(0, 1)
	}
	return nil, &ArgError{Op: "T", Reason: fmt.Sprintf("tensor of rank %d (shape %v) is not a matrix; use Transpose or Permute", len(t.shape), t.shape)}
}

// Squeeze returns a view without the given axes, each of which must have
// extent 1 (NumPy's rule; naming an axis of another extent is an *ArgError).
// With no axes it drops every axis of extent 1.
func (t *Tensor[T]) Squeeze(axes ...int) (*Tensor[T], error) {
	t = t.orEmpty()
	var few [8]bool
	drop := few[:0]
	if len(t.shape) > len(few) {
		drop = make([]bool, len(t.shape))
	}
	drop = drop[:len(t.shape)]
	if len(axes) == 0 {
		for i, d := range t.shape {
			drop[i] = d == 1
		}
	}
	for _, a := range axes {
		ax, err := Axis(a, len(t.shape))
		if err != nil {
			return nil, err
		}
		if drop[ax] {
			return nil, &ArgError{Op: "Squeeze", Reason: fmt.Sprintf("repeated axis %d in %v", ax, axes)}
		}
		if t.shape[ax] != 1 {
			return nil, &ArgError{Op: "Squeeze", Reason: fmt.Sprintf("cannot squeeze axis %d of shape %v: extent %d is not 1", ax, t.shape, t.shape[ax])}
		}
		drop[ax] = true
	}
	kept := 0
	for _, d := range drop {
		if !d {
			kept++
		}
	}
	shape, strides := newDims(kept)
	k := 0
	for i, d := range t.shape {
		if !drop[i] {
			shape[k], strides[k] = d, t.strides[i]
			k++
		}
	}
	return t.view(t.offset, shape, strides), nil
}

// Unsqueeze returns a view with a new axis of extent 1 inserted at position
// axis, which may range over [-rank-1, rank] (-1 appends).
func (t *Tensor[T]) Unsqueeze(axis int) (*Tensor[T], error) {
	t = t.orEmpty()
	ax, err := Axis(axis, len(t.shape)+1)
	if err != nil {
		return nil, err
	}
	// The new axis has extent 1, so its stride is never used; it is the one
	// a row-major layout would give it, or maxInt where that overflows (a
	// zero-size tensor's, see RowMajorStrides).
	st := 1
	if ax < len(t.shape) {
		var ok bool
		if st, ok = mulInt(t.shape[ax], t.strides[ax]); !ok {
			st = maxInt
		}
	}
	shape, strides := newDims(len(t.shape) + 1)
	copy(shape, t.shape[:ax])
	copy(shape[ax+1:], t.shape[ax:])
	shape[ax] = 1
	copy(strides, t.strides[:ax])
	copy(strides[ax+1:], t.strides[ax:])
	strides[ax] = st
	return t.view(t.offset, shape, strides), nil
}
