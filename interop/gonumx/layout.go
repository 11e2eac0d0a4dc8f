package gonumx

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// general is a BLAS general-matrix layout on a tensor's storage: element
// (i, j) is data[i*stride + j].
type general[T any] struct {
	rows, cols, stride int
	data               []T
}

// checkMatrix returns t's two extents, or an error when t is not a 2-D
// tensor that gonum can hold (gonum has no zero-length dimensions); fn
// names the caller in a nil t's *tensor.ArgError.
func checkMatrix[T dtype.Elem](fn string, t *tensor.Tensor[T]) (int, int, error) {
	if t == nil {
		return 0, 0, &tensor.ArgError{Op: fn, Reason: "t is nil"}
	}
	s := t.Shape()
	if len(s) != 2 {
		return 0, 0, &tensor.ShapeError{Shape: s.Clone(), Axis: -1, Reason: "gonum matrices need a 2-D tensor"}
	}
	if s[0] == 0 || s[1] == 0 {
		return 0, 0, &tensor.ShapeError{Shape: s.Clone(), Axis: -1, Reason: "gonum matrices have no zero-length dimension"}
	}
	return s[0], s[1], nil
}

// checkVector returns t's length, or an error when t is not a non-empty 1-D
// tensor.
func checkVector[T dtype.Elem](fn string, t *tensor.Tensor[T]) (int, error) {
	if t == nil {
		return 0, &tensor.ArgError{Op: fn, Reason: "t is nil"}
	}
	s := t.Shape()
	if len(s) != 1 {
		return 0, &tensor.ShapeError{Shape: s.Clone(), Axis: -1, Reason: "gonum vectors need a 1-D tensor"}
	}
	if s[0] == 0 {
		return 0, &tensor.ShapeError{Shape: s.Clone(), Axis: -1, Reason: "gonum vectors have no zero length"}
	}
	return s[0], nil
}

// rowMajorView returns the general-matrix layout of a 2-D tensor of r×c
// that is row-major with unit column stride and rows that do not overlap,
// sharing its storage; ok is false for any other layout. The data slice is
// capped at the view's last element, so a gonum receiver that is reused for
// a larger result allocates instead of writing past the view.
func rowMajorView[T dtype.Elem](t *tensor.Tensor[T], r, c int) (g general[T], ok bool) {
	st := t.Strides()
	rowStride, colStride := st[0], st[1]
	if r == 1 {
		rowStride = c // any stride will do for one row; BLAS wants >= cols
	}
	if c == 1 {
		colStride = 1
	}
	if colStride != 1 || rowStride < c {
		return g, false
	}
	off, n := t.Offset(), (r-1)*rowStride+c
	return general[T]{rows: r, cols: c, stride: rowStride, data: t.Data()[off : off+n : off+n]}, true
}

// columnMajorView is rowMajorView for the transpose of t: the layout of a
// column-major t (unit row stride), as a c×r row-major matrix.
func columnMajorView[T dtype.Elem](t *tensor.Tensor[T], r, c int) (general[T], bool) {
	st := t.Strides()
	tt, err := tensor.AsStrided(t.Data(), tensor.Shape{c, r}, []int{st[1], st[0]}, t.Offset())
	if err != nil {
		return general[T]{}, false
	}
	return rowMajorView(tt, c, r)
}

// rowMajorCopy returns t's elements as a new dense row-major matrix.
func rowMajorCopy[T dtype.Elem](t *tensor.Tensor[T], r, c int) general[T] {
	return general[T]{rows: r, cols: c, stride: c, data: t.Values()}
}

// vectorView returns the increment and data of a 1-D tensor of length n
// with a positive stride, sharing its storage; ok is false for a stride of
// 0 (a broadcast), which BLAS vectors cannot have.
func vectorView[T dtype.Elem](t *tensor.Tensor[T], n int) (inc int, data []T, ok bool) {
	inc = t.Strides()[0]
	if n == 1 {
		inc = 1
	}
	if inc < 1 {
		return 0, nil, false
	}
	off, end := t.Offset(), t.Offset()+(n-1)*inc+1
	return inc, t.Data()[off:end:end], true
}

// fromGeneral views a row-major general matrix as a tensor. As in BLAS, the
// stride must be at least cols unless there is at most one row.
func fromGeneral[T dtype.Elem](rows, cols, stride int, data []T) (*tensor.Tensor[T], error) {
	if rows <= 1 {
		stride = max(stride, cols) // a single row's stride is never used
	}
	if stride < cols {
		return nil, &tensor.ShapeError{Shape: tensor.Shape{rows, cols}, Axis: 0,
			Reason: fmt.Sprintf("row stride %d is less than the %d columns", stride, cols)}
	}
	return tensor.AsStrided(data, tensor.Shape{rows, cols}, []int{stride, 1}, 0)
}

// fromVector views a BLAS vector as a 1-D tensor; inc must be positive.
func fromVector[T dtype.Elem](n, inc int, data []T) (*tensor.Tensor[T], error) {
	if n > 0 && inc < 1 {
		return nil, &tensor.ShapeError{Shape: tensor.Shape{n}, Axis: 0,
			Reason: fmt.Sprintf("increment %d is not positive", inc)}
	}
	return tensor.AsStrided(data, tensor.Shape{n}, []int{max(inc, 1)}, 0)
}
