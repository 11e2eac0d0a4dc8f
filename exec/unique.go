package exec

import (
	"slices"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Uniques is what Unique returns: the distinct values in sorted order, the
// index in Values of each input element (or slice), and how often each
// value occurs.
type Uniques[T Sortable] struct {
	Values  *tensor.Tensor[T]     // 1-D, or the distinct slices along the axis
	Inverse *tensor.Tensor[int64] // one per element of the flattened input, or per slice
	Counts  *tensor.Tensor[int64] // one per value
}

// Unique returns the sorted distinct elements of the flattened x with the
// inverse and the counts, as np.unique(x, return_inverse=True,
// return_counts=True) does in NumPy 1.24: all NaNs are one value, after
// the others; -0.0 and 0.0 are one, and the first in input order is kept.
// With UniqueAxis(axis) it returns the distinct slices along axis in
// lexicographic order instead, Inverse then having one entry per slice.
//
// Its result's shape depends on x's values, so Unique evaluates x.
func Unique[T Sortable](x expr.Expr[T], opts ...SortOption) (*Uniques[T], error) {
	c := sortOptions(opts)
	if err := c.x.usable(); err != nil {
		return nil, err
	}
	if err := x.Err(); err != nil {
		return nil, err
	}
	ax := -1
	if c.axis != nil {
		var err error
		if ax, err = tensor.Axis(*c.axis, len(x.Shape())); err != nil {
			return nil, err
		}
	}
	in, err := EvalWith(c.x, x)
	if err != nil {
		return nil, err
	}
	shape := in.Shape()
	if ax < 0 { // the flattened input: slices of one element
		shape, ax = tensor.Shape{in.Numel()}, 0
	}
	// Slice i along ax, as a row-major [n, width] matrix after moving ax first.
	moved, err := in.Reshape(shape...)
	if err != nil {
		return nil, err
	}
	perm := append([]int{ax}, slices.Delete(seq(len(shape)), ax, ax+1)...)
	if moved, err = moved.Permute(perm...); err != nil {
		return nil, err
	}
	n := shape[ax]
	rows := moved.Values()
	width := 0
	if n > 0 {
		width = len(rows) / n
	}
	slice := func(i int) []T { return rows[i*width : (i+1)*width] }
	order := orderOf[T](false)
	compare := func(i, j int) int {
		a, b := slice(i), slice(j)
		for k := range a {
			if c := order(a[k], b[k]); c != 0 {
				return c
			}
		}
		return 0
	}
	sorted := seq(n)
	slices.SortFunc(sorted, func(i, j int) int {
		if c := compare(i, j); c != 0 {
			return c
		}
		return i - j
	})
	inverse, err := tensor.New[int64](n)
	if err != nil {
		return nil, err
	}
	var firsts []int // the first slice, in input order, of each value
	var counts []int64
	for k, i := range sorted {
		if k == 0 || compare(sorted[k-1], i) != 0 {
			firsts = append(firsts, i)
			counts = append(counts, 0)
		}
		counts[len(counts)-1]++
		inverse.Data()[i] = int64(len(firsts) - 1)
	}
	u := &Uniques[T]{Inverse: inverse}
	if u.Counts, err = tensor.FromSlice(counts, len(counts)); err != nil {
		return nil, err
	}
	outShape := moved.Shape().Clone()
	outShape[0] = len(firsts)
	vals, err := tensor.New[T](outShape...)
	if err != nil {
		return nil, err
	}
	for k, i := range firsts {
		copy(vals.Data()[k*width:], slice(i))
	}
	inv := make([]int, len(perm)) // move the axis back
	for d, p := range perm {
		inv[p] = d
	}
	if u.Values, err = vals.Permute(inv...); err != nil {
		return nil, err
	}
	if c.axis != nil {
		u.Values = u.Values.Contiguous()
	}
	return u, nil
}

// seq returns 0, 1, ..., n-1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
