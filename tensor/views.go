package tensor

import "fmt"

// NumPy's view functions on tensors. Each returns a view sharing t's
// storage (nothing is copied) and an error, which is a *ViewError (or,
// for MoveAxis, SwapAxes and BroadcastTo, the error of the view they are
// built on) naming t's shape and the dimension at fault. A chain of views
// is one call: Idx takes NumPy's whole subscript at once, so
// u[1:-1, ::-1] is u.Idx(S(1, -1), Step(-1)), with one error to check.

// ViewOf returns the view of t that m describes (see ViewMap); m must
// have been made for t's shape (FlipMap, IndexMap, DiagonalMap).
func (t *Tensor[T]) ViewOf(m ViewMap) *Tensor[T] {
	t = t.orEmpty()
	shape, st := newDims(len(m.Shape))
	copy(shape, m.Shape)
	off := m.applyInto(st, t.strides, t.offset)
	if n, _, _ := shapeCount(m.Shape); n == 0 {
		off = emptyOffset(off, len(t.data))
	}
	return t.view(off, shape, st)
}

// Flip returns t with the order of elements along the given axes reversed
// (every axis when none are given), as NumPy's flip does: a view with
// negative strides. A bad or repeated axis is a *ViewError.
func (t *Tensor[T]) Flip(axes ...int) (*Tensor[T], error) {
	t = t.orEmpty()
	m, err := FlipMap(t.shape, axes...)
	if err != nil {
		return nil, err
	}
	return t.ViewOf(m), nil
}

// Idx returns the view of t that NumPy's basic index t[items...] gives:
// integers (I, negative from the end) drop their axis, slices (S, From,
// To, All, Step; any step but 0) keep it, NewAxis inserts one of extent
// 1, Ellipsis stands for the axes the others leave, and missing trailing
// items are full slices. Errors are *ViewError values (see IndexMap).
//
// With index tensors (At: NumPy's advanced indexing, see AdvancedIndexMap)
// the result is a new row-major tensor, as NumPy copies: every index is
// read and checked (an index outside its axis is a *ViewError wrapping an
// *IndexError) before it is allocated.
func (t *Tensor[T]) Idx(items ...IndexItem) (*Tensor[T], error) {
	t = t.orEmpty()
	if v, ok := t.basicIdx(items); ok {
		return v, nil
	}
	if HasArrays(items) {
		return t.advancedIdx(items)
	}
	m, err := IndexMap(t.shape, items...)
	if err != nil {
		return nil, err
	}
	return t.ViewOf(m), nil
}

// basicIdx is Idx of integers and slices only, the most common subscript,
// computed without a ViewMap: the view ViewOf(IndexMap(...)) gives (an
// axis of extent 1 strides 0, as there), in one allocation besides the
// tensor. ok is false for any other item and for bad items, whose error
// IndexMap reports.
func (t *Tensor[T]) basicIdx(items []IndexItem) (*Tensor[T], bool) {
	r := len(t.shape)
	if len(items) > r {
		return nil, false
	}
	rank := r
	for _, it := range items {
		switch it.kind {
		case itemInt:
			rank--
		case itemSlice:
		default:
			return nil, false
		}
	}
	shape, st := newDims(rank)
	off, k := t.offset, 0
	for p := range r {
		n, step, begin := t.shape[p], 1, 0
		if p < len(items) {
			it := items[p]
			if it.kind == itemInt {
				j := it.i
				if j < 0 {
					j += n
				}
				if j < 0 || j >= n {
					return nil, false
				}
				off += j * t.strides[p]
				continue
			}
			start, stop, s := it.bounds()
			b, _, length, err := SliceRange(n, start, stop, s)
			if err != nil {
				return nil, false
			}
			n, step, begin = length, s, b
		}
		shape[k] = n
		if n > 1 {
			st[k] = step * t.strides[p]
		}
		if n > 0 {
			off += begin * t.strides[p]
		}
		k++
	}
	if c, _, _ := shapeCount(shape); c == 0 {
		rowMajorInto(st, shape)
		off = emptyOffset(t.offset, len(t.data))
	}
	return t.view(off, shape, st), true
}

// Diagonal returns the diagonal of the plane of axis1 and axis2 with the
// given offset (above the main diagonal for offset > 0, below for < 0) as
// NumPy's diagonal does: those two axes are removed and the diagonal is
// the last axis; an offset past the plane gives an empty diagonal. It is
// a view (stride the sum of the two axes' strides), which NumPy's is
// only read-only. Equal or bad axes are a *ViewError.
func (t *Tensor[T]) Diagonal(offset, axis1, axis2 int) (*Tensor[T], error) {
	t = t.orEmpty()
	m, err := DiagonalMap(t.shape, offset, axis1, axis2)
	if err != nil {
		return nil, err
	}
	return t.ViewOf(m), nil
}

// SwapAxes returns t with axes a and b exchanged (NumPy's swapaxes; the
// same view as Transpose).
func (t *Tensor[T]) SwapAxes(a, b int) (*Tensor[T], error) {
	t = t.orEmpty()
	if _, err := viewAxis("SwapAxes", t.shape, a); err != nil {
		return nil, err
	}
	if _, err := viewAxis("SwapAxes", t.shape, b); err != nil {
		return nil, err
	}
	return t.Transpose(a, b)
}

// MoveAxis returns t with each axis source[k] moved to position
// destination[k] and the other axes in their order, as NumPy's moveaxis
// does (negative axes count from the end). The two lists must have one
// length and no repeated axes; otherwise it is a *ViewError.
func (t *Tensor[T]) MoveAxis(source, destination []int) (*Tensor[T], error) {
	t = t.orEmpty()
	perm, err := MoveAxisPerm(t.shape, source, destination)
	if err != nil {
		return nil, err
	}
	return t.Permute(perm...)
}

// MoveAxisPerm returns the permutation (as Permute takes it) that moves
// axes source to destination in a tensor of the given shape, NumPy's
// moveaxis rule; expr's MoveAxis shares it.
func MoveAxisPerm(shape Shape, source, destination []int) ([]int, error) {
	r := len(shape)
	if len(source) != len(destination) {
		return nil, &ViewError{Op: "MoveAxis", Shape: shape.Clone(), Dim: -1,
			Reason: fmt.Sprintf("source %v and destination %v must have the same number of elements", source, destination)}
	}
	resolve := func(axes []int, what string) ([]int, error) {
		out := make([]int, len(axes))
		seen := make([]bool, r)
		for k, a := range axes {
			ax, err := viewAxis("MoveAxis", shape, a)
			if err != nil {
				return nil, err
			}
			if seen[ax] {
				return nil, &ViewError{Op: "MoveAxis", Shape: shape.Clone(), Dim: ax, Reason: fmt.Sprintf("repeated axis in %s %v", what, axes)}
			}
			seen[ax], out[k] = true, ax
		}
		return out, nil
	}
	src, err := resolve(source, "source")
	if err != nil {
		return nil, err
	}
	dst, err := resolve(destination, "destination")
	if err != nil {
		return nil, err
	}
	perm := make([]int, r)
	placed := make([]bool, r)
	moved := make([]bool, r)
	for k := range src {
		perm[dst[k]], placed[dst[k]], moved[src[k]] = src[k], true, true
	}
	next := 0
	for i := range perm {
		if placed[i] {
			continue
		}
		for moved[next] {
			next++
		}
		perm[i] = next
		next++
	}
	return perm, nil
}

// SplitBounds returns where the pieces of an axis of extent n begin and
// end for NumPy's split and array_split: with sections > 0 (indices nil),
// sections pieces, the first n % sections one element longer (split
// wants n % sections == 0, array_split does not); with indices, the
// pieces [:i0], [i0:i1], …, [ik:], each a Python slice of the axis
// (negative indices count from the end, bounds clamp), so a piece may be
// empty or, after a larger index, overlap an earlier one. even says split's rule applies. Errors are *ViewError values;
// expr's Split shares this.
func SplitBounds(op string, shape Shape, axis, sections int, indices []int, even bool) (ax int, bounds [][2]int, err error) {
	ax, err = viewAxis(op, shape, axis)
	if err != nil {
		return 0, nil, err
	}
	n := shape[ax]
	if indices != nil {
		// Piece k is the slice div[k]:div[k+1] of div = [0, indices..., n],
		// by Python's rules: [3, 1] on 5 gives [0:3], [3:1] (empty), [1:5].
		div := append(append([]int{0}, indices...), n)
		for k := range len(div) - 1 {
			begin := clampIndex(div[k], n)
			bounds = append(bounds, [2]int{begin, max(clampIndex(div[k+1], n), begin)})
		}
		return ax, bounds, nil
	}
	if sections <= 0 {
		return 0, nil, &ViewError{Op: op, Shape: shape.Clone(), Dim: ax, Reason: fmt.Sprintf("number of sections must be larger than 0, got %d", sections)}
	}
	if even && n%sections != 0 {
		return 0, nil, &ViewError{Op: op, Shape: shape.Clone(), Dim: ax, Reason: fmt.Sprintf("extent %d does not divide into %d equal sections", n, sections)}
	}
	each, extra := n/sections, n%sections
	start := 0
	for k := range sections {
		l := each
		if k < extra {
			l++
		}
		bounds = append(bounds, [2]int{start, start + l})
		start += l
	}
	return ax, bounds, nil
}

// Split returns NumPy's split(t, sections, axis) as views: sections equal
// pieces along axis (a *ViewError when the extent does not divide).
// SplitAt takes the indices form.
func (t *Tensor[T]) Split(sections, axis int) ([]*Tensor[T], error) {
	return t.splitBy("Split", axis, sections, nil, true)
}

// ArraySplit returns NumPy's array_split(t, sections, axis) as views:
// sections pieces, the first extent % sections of them one element
// longer; sections may pass the extent (trailing pieces are empty).
func (t *Tensor[T]) ArraySplit(sections, axis int) ([]*Tensor[T], error) {
	return t.splitBy("ArraySplit", axis, sections, nil, false)
}

// SplitAt returns NumPy's split(t, indices, axis) as views: the pieces
// [:i0], [i0:i1], …, [ik:] along axis, each a Python slice (a piece may
// be empty). (array_split with indices is the same.)
func (t *Tensor[T]) SplitAt(indices []int, axis int) ([]*Tensor[T], error) {
	if indices == nil {
		indices = []int{}
	}
	return t.splitBy("SplitAt", axis, 0, indices, false)
}

func (t *Tensor[T]) splitBy(op string, axis, sections int, indices []int, even bool) ([]*Tensor[T], error) {
	t = t.orEmpty()
	ax, bounds, err := SplitBounds(op, t.shape, axis, sections, indices, even)
	if err != nil {
		return nil, err
	}
	out := make([]*Tensor[T], len(bounds))
	for k, b := range bounds {
		out[k], err = t.Slice(ax, b[0], b[1], 1)
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
