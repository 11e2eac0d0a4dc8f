package expr

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Tril, Triu, Eye and Trace select by an index predicate: a bool mask of
// the two matrix axes (a constant leaf, extents 1 elsewhere) that a Where
// broadcasts over the batch, fused with x's producer and consumers.

// Tril keeps the elements on and below the k-th diagonal of the last two
// axes (j - i <= k) and zeroes the rest; leading axes are batch axes
// (NumPy's tril).
func (x Expr[T]) Tril(k int) Expr[T] {
	return x.triangle("tril", func(i, j int) bool { return j-i <= k })
}

// Triu keeps the elements on and above the k-th diagonal of the last two
// axes (j - i >= k) and zeroes the rest (NumPy's triu).
func (x Expr[T]) Triu(k int) Expr[T] {
	return x.triangle("triu", func(i, j int) bool { return j-i >= k })
}

func (x Expr[T]) triangle(op string, keep func(i, j int) bool) Expr[T] {
	a := x.Node()
	if a.err != nil {
		return x
	}
	r := len(a.shape)
	if r < 2 {
		return Expr[T]{errNode(OpWhere, &ShapeOpError{Op: op, Reason: fmt.Sprintf("needs at least 2 dimensions, shape is %v", a.shape)})}
	}
	mask := indexMask(r, r-2, r-1, a.shape[r-2], a.shape[r-1], keep)
	var zero T
	return Where(Of(mask), x, Scalar(zero))
}

// indexMask returns a bool tensor of rank r, extent n along axis a1, m
// along a2 (a1 != a2) and 1 elsewhere, true where keep(i, j) holds for i
// along a1 and j along a2.
func indexMask(r, a1, a2, n, m int, keep func(i, j int) bool) *tensor.Tensor[bool] {
	shape := make([]int, r)
	for k := range shape {
		shape[k] = 1
	}
	shape[a1], shape[a2] = n, m
	s1, s2 := m, 1 // row-major strides of the two axes: the later one is unit
	if a1 > a2 {
		s1, s2 = 1, n
	}
	data := make([]bool, n*m)
	for i := range n {
		for j := range m {
			data[i*s1+j*s2] = keep(i, j)
		}
	}
	t, _ := tensor.FromSlice(data, shape...)
	return t
}

// Eye returns the n×m matrix with ones on the k-th diagonal (j - i == k;
// k > 0 above the main one) and zeros elsewhere, as NumPy's eye(n, m, k)
// does; pass m = n for a square one.
func Eye[T dtype.Elem](n, m, k int) Expr[T] {
	if n < 0 || m < 0 {
		return Expr[T]{errNode(OpCast, &ShapeOpError{Op: "eye", Reason: fmt.Sprintf("negative dimensions %d×%d are not allowed", n, m)})}
	}
	if _, err := (tensor.Shape{n, m}).Numel(); err != nil {
		return Expr[T]{errNode(OpCast, err)}
	}
	return Cast[T](Of(indexMask(2, 0, 1, n, m, func(i, j int) bool { return j-i == k })))
}

// Trace returns the sum of the offset-th diagonal of axes axis1 and axis2
// (j - i == offset for i along axis1, j along axis2), over the other axes
// (NumPy's trace). It sums in T, as Sum does: for NumPy's int64
// accumulation of small integers cast x first. It reads the whole of
// those axes through an index mask, one fused pass with no temporary.
func (x Expr[T]) Trace(offset, axis1, axis2 int) Expr[T] {
	const op = "trace"
	a := x.Node()
	if a.err != nil {
		return x
	}
	r := len(a.shape)
	if r < 2 {
		return Expr[T]{errNode(OpSum, &ShapeOpError{Op: op, Reason: fmt.Sprintf("needs at least 2 dimensions, shape is %v", a.shape)})}
	}
	p1, err := tensor.Axis(axis1, r)
	if err != nil {
		return Expr[T]{errNode(OpSum, err)}
	}
	p2, err := tensor.Axis(axis2, r)
	if err != nil {
		return Expr[T]{errNode(OpSum, err)}
	}
	if p1 == p2 {
		return Expr[T]{errNode(OpSum, &ShapeOpError{Op: op, Reason: fmt.Sprintf("axis1 and axis2 are both dimension %d of shape %v", p1, a.shape)})}
	}
	mask := indexMask(r, p1, p2, a.shape[p1], a.shape[p2], func(i, j int) bool { return j-i == offset })
	var zero T
	return Where(Of(mask), x, Scalar(zero)).Sum(p1, p2)
}
