package expr

import (
	"fmt"
	"math"
	"slices"

	"github.com/tensorplay/tensorplay/tensor"
)

// Lazy shape ops. Each checks its arguments against x's shape when it is
// built; the executor turns them into zero-copy views wherever the layout
// allows (reshape of a non-contiguous value copies, as NumPy's does).

// Reshape returns x with a new shape of the same number of elements, read
// in row-major order. One extent may be -1: it is inferred.
func (x Expr[T]) Reshape(shape ...int) Expr[T] { return Expr[T]{reshape(x.Node(), shape)} }

func reshape(a *Node, shape []int) *Node {
	n, ok := newNode(OpReshape, a)
	if !ok {
		return n
	}
	if a.sym() != nil {
		return symReshape(a, shape)
	}
	s, err := inferReshape(a.shape, shape)
	if err != nil {
		n.err = err
		return n
	}
	if s.Equal(a.shape) {
		return a
	}
	n.dt = a.dt
	setShape(n, s)
	return n
}

func inferReshape(from tensor.Shape, shape []int) (tensor.Shape, error) {
	total, _ := from.Numel()
	s := tensor.Shape(shape).Clone()
	infer := -1
	known := 1
	for i, d := range s {
		switch {
		case d == -1 && infer < 0:
			infer = i
		case d == -1:
			return nil, &ShapeOpError{Op: "reshape", Reason: fmt.Sprintf("invalid shape %v: only one dimension can be inferred", s)}
		case d < 0:
			return nil, &ShapeOpError{Op: "reshape", Reason: fmt.Sprintf("invalid shape %v: invalid shape dimension %d", s, d)}
		case d != 0 && known > math.MaxInt/d:
			return nil, &tensor.ShapeError{Shape: s, Axis: i, Reason: "number of elements overflows int"}
		default:
			known *= d
		}
	}
	if infer >= 0 {
		if known == 0 || total%known != 0 {
			return nil, &ShapeOpError{Op: "reshape", Reason: fmt.Sprintf("shape %v is invalid for input of size %d", s, total)}
		}
		s[infer] = total / known
	}
	if n, err := s.Numel(); err != nil || n != total {
		return nil, &ShapeOpError{Op: "reshape", Reason: fmt.Sprintf("shape %v is invalid for input of size %d", s, total)}
	}
	return s, nil
}

// Flatten returns x as a 1-D expression.
func (x Expr[T]) Flatten() Expr[T] { return x.Reshape(-1) }

// Permute reorders the axes: axis i of the result is axis axes[i] of x.
// Negative axes count from the end.
func (x Expr[T]) Permute(axes ...int) Expr[T] { return Expr[T]{permute(x.Node(), axes)} }

func permute(a *Node, axes []int) *Node {
	n, ok := newNode(OpPermute, a)
	if !ok {
		return n
	}
	if len(axes) != len(a.shape) {
		n.err = &ShapeOpError{Op: "permute", Reason: fmt.Sprintf("%d axes %v for a tensor of shape %v", len(axes), slices.Clone(axes), a.shape)}
		return n
	}
	buf := make([]int, 2*len(axes)) // the permutation and the shape
	perm := buf[:len(axes):len(axes)]
	seen := make([]bool, len(axes))
	identity := true
	for i, ax := range axes {
		p, err := tensor.Axis(ax, len(a.shape))
		if err != nil {
			n.err = err
			return n
		}
		if seen[p] {
			n.err = &ShapeOpError{Op: "permute", Reason: fmt.Sprintf("axis %d repeated in %v", ax, slices.Clone(axes))}
			return n
		}
		seen[p] = true
		perm[i] = p
		identity = identity && p == i
	}
	if identity {
		return a
	}
	shape := tensor.Shape(buf[len(perm):])
	for i, p := range perm {
		shape[i] = a.shape[p]
	}
	n.dt, n.axes = a.dt, perm
	if src := a.sym(); src != nil {
		d := make(Dims, len(perm))
		for i, p := range perm {
			d[i] = src[p]
		}
		setDims(n, d)
		return n
	}
	setShape(n, shape)
	return n
}

// Transpose swaps axes i and j.
func (x Expr[T]) Transpose(i, j int) Expr[T] {
	a := x.Node()
	if a.err != nil {
		return x
	}
	r := len(a.shape)
	pi, err := tensor.Axis(i, r)
	if err != nil {
		return Expr[T]{errNode(OpPermute, err)}
	}
	pj, err := tensor.Axis(j, r)
	if err != nil {
		return Expr[T]{errNode(OpPermute, err)}
	}
	var small [8]int // permute copies the permutation
	perm := small[:0]
	if r > len(small) {
		perm = make([]int, 0, r)
	}
	for k := range r {
		perm = append(perm, k)
	}
	perm[pi], perm[pj] = pj, pi
	return x.Permute(perm...)
}

// T returns the transpose of a 2-D expression (a 0-d or 1-D one unchanged,
// as NumPy's .T does).
func (x Expr[T]) T() Expr[T] {
	a := x.Node()
	if a.err != nil || len(a.shape) < 2 {
		return x
	}
	if len(a.shape) > 2 {
		return Expr[T]{errNode(OpPermute, &ShapeOpError{Op: "T", Reason: fmt.Sprintf("needs at most 2 dimensions, shape is %v (use Permute)", a.shape)})}
	}
	return x.Permute(1, 0)
}

// Expand broadcasts x to shape (torch.expand, NumPy's broadcast_to): only
// size-1 axes grow, new axes are added on the left, -1 keeps an extent.
func (x Expr[T]) Expand(shape ...int) Expr[T] { return Expr[T]{expand(x.Node(), shape)} }

func expand(a *Node, shape []int) *Node {
	n, ok := newNode(OpExpand, a)
	if !ok {
		return n
	}
	if a.sym() != nil {
		for i, d := range shape {
			if d < -1 {
				n.err = &ShapeOpError{Op: "expand", Reason: fmt.Sprintf("invalid extent %d at dimension %d", d, i)}
				return n
			}
		}
		return symExpand(n, a, DimsOf(shape...))
	}
	s := tensor.Shape(shape).Clone()
	pad := len(s) - len(a.shape)
	if pad < 0 {
		n.err = &ShapeOpError{Op: "expand", Reason: fmt.Sprintf("the number of sizes provided (%d) must be greater or equal to the number of dimensions in the tensor (%d)", len(s), len(a.shape))}
		return n
	}
	for i := range s {
		if s[i] == -1 {
			if i < pad {
				n.err = &ShapeOpError{Op: "expand", Reason: fmt.Sprintf("-1 is not allowed in a leading, non-existing dimension %d", i)}
				return n
			}
			s[i] = a.shape[i-pad]
		}
	}
	if _, err := s.Numel(); err != nil {
		n.err = err // a negative extent, reported before the broadcast rule
		return n
	}
	if _, err := tensor.BroadcastStrides(a.shape, make([]int, len(a.shape)), s); err != nil {
		n.err = err
		return n
	}
	if s.Equal(a.shape) {
		return a
	}
	n.dt = a.dt
	setShape(n, s)
	return n
}

// Squeeze removes the given size-1 axes, or every size-1 axis when none
// are given. Naming an axis whose extent is not 1 is an error.
func (x Expr[T]) Squeeze(axes ...int) Expr[T] {
	a := x.Node()
	if a.err != nil {
		return x
	}
	if a.sym() != nil {
		return Expr[T]{symSqueeze(a, axes)}
	}
	drop := make([]bool, len(a.shape))
	for _, ax := range axes {
		p, err := tensor.Axis(ax, len(a.shape))
		if err != nil {
			return Expr[T]{errNode(OpReshape, err)}
		}
		if a.shape[p] != 1 {
			return Expr[T]{errNode(OpReshape, &ShapeOpError{Op: "squeeze", Reason: fmt.Sprintf("dimension %d of shape %v has extent %d, not 1", ax, a.shape, a.shape[p])})}
		}
		drop[p] = true
	}
	var s []int
	for i, d := range a.shape {
		if (len(axes) == 0 && d == 1) || drop[i] {
			continue
		}
		s = append(s, d)
	}
	return x.Reshape(s...)
}

// Unsqueeze inserts a size-1 axis at position axis (negative counts from the
// end of the result, as torch.unsqueeze does).
func (x Expr[T]) Unsqueeze(axis int) Expr[T] {
	a := x.Node()
	if a.err != nil {
		return x
	}
	if a.sym() != nil {
		return Expr[T]{symUnsqueeze(a, axis)}
	}
	p, err := tensor.Axis(axis, len(a.shape)+1)
	if err != nil {
		return Expr[T]{errNode(OpReshape, err)}
	}
	s := slices.Insert(slices.Clone([]int(a.shape)), p, 1)
	return x.Reshape(s...)
}

// Slice keeps start:stop:step of one axis, with Python's rules: negative
// indices count from the end, out-of-range bounds clamp; a negative step
// walks the axis backwards (a view with a negative stride, see Idx), a
// step of 0 is an error.
func (x Expr[T]) Slice(axis, start, stop, step int) Expr[T] {
	return Expr[T]{slice(x.Node(), axis, start, stop, step)}
}

func slice(a *Node, axis, start, stop, step int) *Node {
	n, ok := newNode(OpSlice, a)
	if !ok {
		return n
	}
	p, err := tensor.Axis(axis, len(a.shape))
	if err != nil {
		n.err = err
		return n
	}
	if step == 0 {
		n.err = &ShapeOpError{Op: "slice", Reason: "slice step cannot be zero"}
		return n
	}
	if step < 0 {
		// A reversed slice is a view with a negative stride (views.go).
		if err := viewOperand(a, "slice"); err != nil {
			return err
		}
		items := make([]tensor.IndexItem, p+1)
		items[p] = tensor.S(start, stop).Step(step)
		m, err := tensor.IndexMap(a.shape, items...)
		return viewNode(a, m, err)
	}
	if a.sym() != nil {
		return symSlice(n, a, p, start, stop, step)
	}
	spec, length, err := sliceOf(p, a.shape[p], start, stop, step)
	if err != nil {
		n.err = err
		return n
	}
	shape := a.shape.Clone()
	shape[p] = length
	n.dt, n.slice = a.dt, spec
	setShape(n, shape)
	return n
}

// sliceOf resolves start:stop:step on axis p of the given extent with
// tensor.SliceRange, the checked computation tensor.Slice shares. A slice
// of at most one element is given step 1 and its tight stop, so that its
// step, which reads nothing, never scales a stride (step*stride could
// overflow for a step as large as math.MaxInt).
func sliceOf(p, extent, start, stop, step int) (sliceSpec, int, error) {
	begin, end, length, err := tensor.SliceRange(extent, start, stop, step)
	if err != nil {
		return sliceSpec{}, 0, err
	}
	if length <= 1 {
		end, step = begin+length, 1
	}
	return sliceSpec{p, begin, end, step}, length, nil
}

// Embed is the adjoint of Slice: a tensor of zeros whose axis has extent
// size, with x placed at start, start+step, … along it (NumPy: z =
// zeros(shape); z[..., start::step, ...] = x). Its gradient is the slice.
func (x Expr[T]) Embed(axis, start, step, size int) Expr[T] {
	return Expr[T]{embed(x.Node(), axis, start, step, size)}
}

func embed(a *Node, axis, start, step, size int) *Node {
	n, ok := newNode(OpEmbed, a)
	if !ok {
		return n
	}
	p, err := tensor.Axis(axis, len(a.shape))
	if err != nil {
		n.err = err
		return n
	}
	k := a.shape[p] // -1 when not known: a symbolic operand
	spec, ok := embedOf(p, k, start, step, size)
	if !ok {
		n.err = &ShapeOpError{Op: "embed", Reason: fmt.Sprintf("%d elements at %d::%d do not fit in extent %d", k, start, step, size)}
		return n
	}
	n.dt, n.slice = a.dt, spec
	if src := a.sym(); src != nil {
		d := slices.Clone(src)
		d[p] = Known(size)
		setDims(n, d)
		return n
	}
	shape := a.shape.Clone()
	shape[p] = size
	setShape(n, shape)
	return n
}

// embedOf checks that k elements at start, start+step, … fit in an axis of
// extent size, without overflow for any int arguments, and returns the
// slice of the result that holds them (normalised as sliceOf's are). A
// negative k (not known yet) is checked when the graph is specialised; its
// slice runs to the end of the axis.
func embedOf(p, k, start, step, size int) (sliceSpec, bool) {
	if step < 1 || start < 0 || size < 0 {
		return sliceSpec{}, false
	}
	switch {
	case k < 0:
		return sliceSpec{p, min(start, size), size, step}, true
	case k == 0:
		start = min(start, size)
		return sliceSpec{p, start, start, 1}, true
	case start >= size || (k-1) > (size-1-start)/step:
		return sliceSpec{}, false // the last element, start+(k-1)*step, is past the end
	case k == 1:
		return sliceSpec{p, start, start + 1, 1}, true
	}
	last := start + (k-1)*step // < size: no overflow
	return sliceSpec{p, start, last + min(step, size-last), step}, true
}
