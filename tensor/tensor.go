package tensor

import (
	"fmt"
	"reflect"

	"github.com/tensorplay/tensorplay/dtype"
)

// Tensor is an n-dimensional strided view of a slice of T. Several tensors
// may share one storage slice (views); writes through one are seen by all.
//
// Element (i0, i1, …) lives at Data()[Offset() + i0*Strides()[0] + i1*Strides()[1] + …].
// Strides are in elements; 0 repeats one element along an axis (a broadcast
// axis, from Expand) and a negative stride walks the storage backwards (a
// reversed axis, from Flip or a slice with a negative step).
type Tensor[T dtype.Elem] struct {
	data    []T
	offset  int
	shape   Shape
	strides []int
	backing Backing // nil but for storage outside the Go heap (see FromBacking)
}

// Any is the dtype-erased view of a *Tensor[T] that graphs and executors use
// to hold tensors of several element types side by side.
type Any interface {
	DType() dtype.DType
	Shape() Shape
	Strides() []int
	Offset() int
	Numel() int
	// StorageLen is the length of the backing slice, for overlap checks.
	StorageLen() int
	// SameStorage reports whether o's storage may overlap this one's.
	SameStorage(o Any) bool
	// SameBase reports whether o's storage slice starts at the same
	// element, so that equal offsets and strides address equal elements.
	SameBase(o Any) bool
	// MayOverlap reports whether the memory spans of the two tensors'
	// elements intersect.
	MayOverlap(o Any) bool
	// IsZero reports whether this is the zero Tensor, Tensor[T]{}, which
	// reads as an empty 1-D tensor.
	IsZero() bool
	anyTensor()
}

func (t *Tensor[T]) anyTensor() {}

// IsZero reports whether t is the zero Tensor, Tensor[T]{}: a tensor no
// constructor returns, which every method treats as the empty 1-D tensor
// FromSlice[T](nil, 0) (shape [0], strides [1], no storage). Packages that
// take tensors from callers can use it to refuse one that was never made.
// A nil *Tensor is not zero (IsZero returns false); its other methods
// panic, as for any nil pointer.
func (t *Tensor[T]) IsZero() bool { return t != nil && len(t.shape) == 0 && len(t.data) == 0 }

// orEmpty returns t, or for the zero Tensor the empty 1-D tensor it stands
// for. Every exported method that reads t's layout starts with it. (No
// constructor or view makes a 0-d tensor without storage: a 0-d tensor
// has one element.)
func (t *Tensor[T]) orEmpty() *Tensor[T] {
	if len(t.shape) == 0 && len(t.data) == 0 {
		return &Tensor[T]{shape: Shape{0}, strides: []int{1}}
	}
	return t
}

// FromSlice wraps data as a row-major tensor of the given shape without
// copying. len(data) must equal the number of elements.
func FromSlice[T dtype.Elem](data []T, shape ...int) (*Tensor[T], error) {
	s := Shape(shape).Clone()
	n, err := s.Numel()
	if err != nil {
		return nil, err
	}
	if len(data) != n {
		return nil, &ShapeError{Shape: s, Axis: -1, Reason: fmt.Sprintf("needs %d elements, data has %d", n, len(data))}
	}
	return &Tensor[T]{data: data, shape: s, strides: rowMajorStrides(s)}, nil
}

// New returns a zero-filled row-major tensor of the given shape.
func New[T dtype.Elem](shape ...int) (*Tensor[T], error) {
	s := Shape(shape).Clone()
	n, err := s.Numel()
	if err != nil {
		return nil, err
	}
	if err := checkAlloc[T](s, n); err != nil {
		return nil, err
	}
	return &Tensor[T]{data: alloc[T](n), shape: s, strides: rowMajorStrides(s)}, nil
}

// Zeros is New: a zero-filled row-major tensor.
func Zeros[T dtype.Elem](shape ...int) (*Tensor[T], error) { return New[T](shape...) }

// AsStrided returns a view of data with the given shape, strides and offset,
// as torch.as_strided does (and NumPy's as_strided, whose strides may be
// negative). Every element the view can reach must lie inside data.
func AsStrided[T dtype.Elem](data []T, shape Shape, strides []int, offset int) (*Tensor[T], error) {
	n, err := shape.Numel()
	if err != nil {
		return nil, err
	}
	if len(strides) != len(shape) {
		return nil, &ShapeError{Shape: shape.Clone(), Axis: -1, Reason: fmt.Sprintf("%d strides for %d dimensions", len(strides), len(shape))}
	}
	given := shape
	shape, own := newDims(len(given))
	copy(shape, given)
	copy(own, strides)
	if offset < 0 {
		return nil, &ShapeError{Shape: shape, Axis: -1, Reason: fmt.Sprintf("negative offset %d", offset)}
	}
	if offset > len(data) || (n > 0 && offset >= len(data)) {
		return nil, &ShapeError{Shape: shape, Axis: -1, Reason: fmt.Sprintf("offset %d is outside storage of length %d", offset, len(data))}
	}
	// up and down are how far past and before offset the view may still
	// reach; checking each axis against them by division keeps huge
	// strides from overflowing.
	up, down := len(data)-1-offset, offset
	for i, st := range strides {
		if n == 0 || st == 0 || shape[i] == 1 {
			continue
		}
		room := &up
		if st < 0 {
			room = &down
			if st == minInt {
				return nil, &ShapeError{Shape: shape, Axis: i, Reason: fmt.Sprintf("stride %d does not fit int when negated", st)}
			}
			st = -st
		}
		if shape[i]-1 > *room/st {
			return nil, &ShapeError{Shape: shape, Axis: i, Reason: fmt.Sprintf("strides %v at offset %d reach outside storage of length %d", strides, offset, len(data))}
		}
		*room -= (shape[i] - 1) * st
	}
	return &Tensor[T]{data: data, offset: offset, shape: shape, strides: own}, nil
}

// newDims returns a shape and strides of rank r in one allocation (none
// for r = 0), for a new tensor to own.
func newDims(r int) (Shape, []int) {
	if r == 0 {
		return Shape{}, []int{}
	}
	d := make([]int, 2*r)
	return Shape(d[:r:r]), d[r : 2*r : 2*r]
}

// view builds a tensor on t's storage that owns shape and strides; callers
// guarantee the layout is in bounds.
func (t *Tensor[T]) view(offset int, shape Shape, strides []int) *Tensor[T] {
	return &Tensor[T]{data: t.data, offset: offset, shape: shape, strides: strides, backing: t.backing}
}

// DType returns the element type's dtype.
func (t *Tensor[T]) DType() dtype.DType { return dtype.Of[T]() }

// Shape returns the extents. The result must not be modified.
func (t *Tensor[T]) Shape() Shape {
	t = t.orEmpty()
	return t.shape
}

// Strides returns the strides in elements. The result must not be modified.
func (t *Tensor[T]) Strides() []int {
	t = t.orEmpty()
	return t.strides
}

// Offset returns the storage index of the first element.
func (t *Tensor[T]) Offset() int { return t.offset }

// Data returns the backing storage, shared with every view of it. Index it
// with Offset and Strides; it is not, in general, the tensor's elements in order.
func (t *Tensor[T]) Data() []T { return t.data }

// StorageLen returns len(Data()).
func (t *Tensor[T]) StorageLen() int { return len(t.data) }

// SameStorage reports whether the storage slices of t and o may share
// memory: whether their address ranges intersect, as NumPy's
// may_share_memory decides. Slices of one array taken with different
// bounds or capacities count as sharing when they overlap. (The addresses
// come from reflect, read once per call, never per element.)
func (t *Tensor[T]) SameStorage(o Any) bool {
	u, ok := o.(*Tensor[T])
	if !ok || len(u.data) == 0 || len(t.data) == 0 {
		return false
	}
	size := reflect.TypeFor[T]().Size()
	// ValueOf a pointer boxes without allocating; Elem is the slice.
	a0 := reflect.ValueOf(&t.data).Elem().Pointer()
	b0 := reflect.ValueOf(&u.data).Elem().Pointer()
	a1 := a0 + uintptr(len(t.data))*size
	b1 := b0 + uintptr(len(u.data))*size
	return a0 < b1 && b0 < a1
}

// MayOverlap reports whether the memory spans of t's and o's elements (from
// the lowest element's address to the highest's) intersect: NumPy's
// may_share_memory, which decides by these bounds. Two views of one array
// that take alternate elements count as overlapping; two that take its
// halves do not. Empty tensors overlap nothing.
func (t *Tensor[T]) MayOverlap(o Any) bool {
	t = t.orEmpty()
	u, ok := o.(*Tensor[T])
	if !ok || t.Numel() == 0 || u.Numel() == 0 {
		return false
	}
	a0, a1 := t.span()
	b0, b1 := u.span()
	return a0 < b1 && b0 < a1
}

// span returns the addresses of t's lowest element and one past its highest.
func (t *Tensor[T]) span() (lo, hi uintptr) {
	first, last := t.offset, t.offset
	for i, d := range t.shape {
		if ext := (d - 1) * t.strides[i]; ext < 0 {
			first += ext
		} else {
			last += ext
		}
	}
	size := reflect.TypeFor[T]().Size()
	base := reflect.ValueOf(&t.data).Elem().Pointer()
	return base + uintptr(first)*size, base + uintptr(last+1)*size
}

// SameBase reports whether o's storage slice starts where t's does: then
// the two address the same element for the same offset.
func (t *Tensor[T]) SameBase(o Any) bool {
	u, ok := o.(*Tensor[T])
	return ok && len(u.data) > 0 && len(t.data) > 0 && &u.data[0] == &t.data[0]
}

// Rank returns the number of axes.
func (t *Tensor[T]) Rank() int {
	t = t.orEmpty()
	return len(t.shape)
}

// Numel returns the number of elements.
func (t *Tensor[T]) Numel() int {
	t = t.orEmpty()
	n, _, _ := shapeCount(t.shape)
	return n
}

// Dim returns the extent of axis i (negative counts from the end), or an
// *AxisError.
func (t *Tensor[T]) Dim(i int) (int, error) {
	t = t.orEmpty()
	a, err := Axis(i, len(t.shape))
	if err != nil {
		return 0, err
	}
	return t.shape[a], nil
}

// IsContiguous reports whether t is row-major and dense (ignoring the strides
// of size-1 axes), so that its elements are Data()[Offset():Offset()+Numel()].
func (t *Tensor[T]) IsContiguous() bool {
	t = t.orEmpty()
	if t.Numel() == 0 {
		return true
	}
	acc := 1
	for i := len(t.shape) - 1; i >= 0; i-- {
		if t.shape[i] == 1 {
			continue
		}
		if t.strides[i] != acc {
			return false
		}
		acc *= t.shape[i]
	}
	return true
}

// Contiguous returns t itself when it is contiguous, else a row-major copy.
// Like Clone it panics with an *AllocError when the copy is over the memory
// limit.
func (t *Tensor[T]) Contiguous() *Tensor[T] {
	if t.IsContiguous() {
		return t
	}
	return t.Clone()
}

// Clone returns a row-major copy of t that shares no memory with it. Like
// Values it panics with an *AllocError when the copy is over the memory
// limit.
func (t *Tensor[T]) Clone() *Tensor[T] {
	t = t.orEmpty()
	s := t.shape.Clone()
	return &Tensor[T]{data: t.Values(), shape: s, strides: rowMajorStrides(s)}
}

// Values returns a new slice holding t's elements in row-major order.
//
// A copy of a view whose elements share memory (an expanded view) can be
// far larger than its storage. When it would take more than MemoryLimit
// bytes Values panics with an *AllocError, as bytes.Buffer panics with
// ErrTooLarge, rather than let the runtime die of an unrecoverable out of
// memory error; call CheckAlloc(t.DType(), t.Shape()) first where that can
// happen.
func (t *Tensor[T]) Values() []T {
	t = t.orEmpty()
	n := t.Numel()
	if n == 0 {
		return []T{}
	}
	if err := checkAlloc[T](t.shape, n); err != nil {
		panic(err)
	}
	if t.IsContiguous() && n*dtype.Of[T]().Size() < hugePageMin {
		return append(make([]T, 0, n), t.data[t.offset:t.offset+n]...) // not zeroed first
	}
	out := alloc[T](n)
	if t.IsContiguous() {
		copy(out, t.data[t.offset:t.offset+n])
		return out
	}
	copyStrided(out, t.data, t.offset, t.shape, t.strides)
	return out
}
