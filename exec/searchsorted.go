package exec

import (
	"fmt"
	"sort"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/axisrows"
	"github.com/tensorplay/tensorplay/tensor"
)

// SearchSorted returns, for each element v of values, the int64 index at
// which v would be inserted into sorted to keep it sorted: the first such
// index (sorted[i-1] < v <= sorted[i]), or with Right the last
// (sorted[i-1] <= v < sorted[i]), as np.searchsorted does.
//
// A 1-D sorted serves values of any shape; the result has values' shape.
// Otherwise sorted is a batch of sequences along its last axis and values
// a batch of the same leading shape (torch.searchsorted): sorted [..., M]
// and values [..., N] give [..., N]. Sequences must be sorted in the order
// of Sort (NaN last); that is not checked.
func SearchSorted[T Sortable](sorted, values expr.Expr[T], opts ...SortOption) (*tensor.Tensor[int64], error) {
	c := sortOptions(opts)
	if err := c.x.usable(); err != nil {
		return nil, err
	}
	for _, e := range []expr.Expr[T]{sorted, values} {
		if err := e.Err(); err != nil {
			return nil, err
		}
	}
	ss, vs := sorted.Shape(), values.Shape()
	if err := searchShapes(ss, vs); err != nil {
		return nil, err
	}
	seqs, err := EvalWith(c.x, sorted)
	if err != nil {
		return nil, err
	}
	vals, err := EvalWith(c.x, values)
	if err != nil {
		return nil, err
	}
	out, err := tensor.New[int64](vs...)
	if err != nil {
		return nil, err
	}
	m := ss[len(ss)-1]
	n := 1 // values per row: one per row for a 1-D sequence
	if len(ss) > 1 {
		n = vs[len(vs)-1]
	}
	a, v, res := seqs.Values(), vals.Values(), out.Data()
	order := orderOf[T](false)
	fits := func(x, at T) bool { return order(at, x) >= 0 } // at is not before x
	if c.right {
		fits = func(x, at T) bool { return order(at, x) > 0 }
	}
	batch := axisrows.Rows{Outer: len(res) / max(n, 1), N: n, Inner: 1}
	err = c.x.forRows(batch, rowsFunc(func(lo, hi int) {
		for b := lo; b < hi; b++ {
			seq := a
			if len(ss) > 1 {
				seq = a[b*m : (b+1)*m]
			}
			for j := b * n; j < (b+1)*n; j++ {
				x := v[j]
				res[j] = int64(sort.Search(m, func(i int) bool { return fits(x, seq[i]) }))
			}
		}
	}))
	if err != nil {
		return nil, err
	}
	return out, nil
}

// searchShapes checks that sorted is 1-D, or a batch whose leading shape
// values shares.
func searchShapes(ss, vs tensor.Shape) error {
	switch {
	case len(ss) == 0:
		return &tensor.ShapeError{Shape: ss, Axis: -1, Reason: "SearchSorted: the sorted sequence must have at least one dimension"}
	case len(ss) == 1:
		return nil
	case len(vs) != len(ss):
		return &tensor.ShapeError{Shape: vs, Axis: -1, Reason: fmt.Sprintf("SearchSorted: values of rank %d for sorted sequences of shape %v: a batch of sequences needs values of the same rank", len(vs), ss)}
	}
	for d := range len(ss) - 1 {
		if ss[d] != vs[d] {
			return &tensor.ShapeError{Shape: vs, Axis: d, Reason: fmt.Sprintf("SearchSorted: values have size %d at dimension %d where the sorted sequences (shape %v) have %d", vs[d], d, ss, ss[d])}
		}
	}
	return nil
}
