package exec

import (
	"fmt"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/axisrows"
	"github.com/tensorplay/tensorplay/internal/stash"
	"github.com/tensorplay/tensorplay/tensor"
)

// Sortable is an element type with an order: the integer and floating-point
// types, and bool (false before true). Complex numbers have none.
type Sortable interface {
	dtype.Real | bool
}

// The order of the sorting functions (Sort, ArgSort, TopK, KthValue,
// SearchSorted, Unique) is NumPy's: ascending, NaN after every other value
// (so a sorted float sequence ends with its NaNs), -0.0 equal to 0.0.
// Descending is the reverse order, NaN first (PyTorch's rule; NumPy has no
// descending sort). Every sort is stable: equal elements keep their input
// order, in either direction.
//
// They evaluate their input, so unlike expressions they are not lazy: their
// results are new tensors, and shapes that depend on the values (Unique's)
// are known only then. Rows are sorted in parallel on the executor's
// workers; the results do not depend on their number.

// A SortOption changes how a sorting function works.
type SortOption func(*sortConfig)

type sortConfig struct {
	x          *Executor
	descending bool // Sort, ArgSort
	smallest   bool // TopK
	right      bool // SearchSorted
	keepDims   bool // KthValue
	axis       *int // Unique
	qaxis      *int // Median and the quantiles (quantile.go)
	method     QuantileMethod
}

// Descending sorts from the largest to the smallest element, NaN first
// (torch.sort(descending=True)); equal elements keep their input order.
func Descending() SortOption { return func(c *sortConfig) { c.descending = true } }

// Smallest makes TopK return the k smallest elements, smallest first
// (torch.topk(largest=False)).
func Smallest() SortOption { return func(c *sortConfig) { c.smallest = true } }

// Right makes SearchSorted return the last place each value fits rather
// than the first (NumPy's side="right").
func Right() SortOption { return func(c *sortConfig) { c.right = true } }

// KeepDims makes KthValue keep the reduced axis with size 1.
func KeepDims() SortOption { return func(c *sortConfig) { c.keepDims = true } }

// UniqueAxis makes Unique return the distinct slices along axis, in
// lexicographic order, rather than the distinct elements of the flattened
// input (NumPy's np.unique(x, axis=axis)).
func UniqueAxis(axis int) SortOption { return func(c *sortConfig) { c.axis = &axis } }

// Using evaluates the input and sorts on executor x instead of Default.
func Using(x *Executor) SortOption { return func(c *sortConfig) { c.x = x } }

func sortOptions(opts []SortOption) sortConfig {
	c := sortConfig{x: Default}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// Sort returns x sorted along axis (negative axes count from the end), as
// np.sort(x, axis, kind="stable") and torch.sort(x, axis, stable=True) do;
// Descending reverses the order. To sort the flattened input (NumPy's
// axis=None), sort x.Reshape(-1) along axis 0.
func Sort[T Sortable](x expr.Expr[T], axis int, opts ...SortOption) (*tensor.Tensor[T], error) {
	vals, _, err := sortAlong(x, axis, sortOptions(opts), true, false)
	return vals, err
}

// ArgSort returns the int64 indices that sort x along axis (np.argsort with
// kind="stable"); Descending reverses the order.
func ArgSort[T Sortable](x expr.Expr[T], axis int, opts ...SortOption) (*tensor.Tensor[int64], error) {
	_, idx, err := sortAlong(x, axis, sortOptions(opts), false, true)
	return idx, err
}

// sortAlong evaluates x and sorts it along axis, returning the sorted
// values, their indices, or both.
func sortAlong[T Sortable](x expr.Expr[T], axis int, c sortConfig, wantVals, wantIdx bool) (vals *tensor.Tensor[T], idx *tensor.Tensor[int64], err error) {
	in, rows, err := evalRows(c.x, x, axis)
	if err != nil {
		return nil, nil, err
	}
	shape := in.Shape()
	if wantVals {
		if vals, err = tensor.New[T](shape...); err != nil {
			return nil, nil, err
		}
	}
	if wantIdx {
		if idx, err = tensor.New[int64](shape...); err != nil {
			return nil, nil, err
		}
	}
	src := in.Values()
	order := orderOf[T](c.descending)
	err = c.x.forRows(rows, rowsFunc(func(lo, hi int) {
		buf := make([]keyed[T], rows.N)
		for r := lo; r < hi; r++ {
			start := rows.Start(r)
			sortRow(buf, src, start, rows.Inner, order)
			for j, k := range buf {
				at := start + j*rows.Inner
				if vals != nil {
					vals.Data()[at] = k.v
				}
				if idx != nil {
					idx.Data()[at] = int64(k.i)
				}
			}
		}
	}))
	if err != nil {
		return nil, nil, err
	}
	return vals, idx, nil
}

// keyed is an element and its position along the sorted axis.
type keyed[T any] struct {
	v T
	i int
}

// sortRow loads the row of src that starts at start, with elements step
// apart, into buf (one element per place) and sorts it stably: ties are
// broken by position, which makes the unstable pattern-defeating quicksort
// of slices.SortFunc give the stable order.
func sortRow[T any](buf []keyed[T], src []T, start, step int, order func(a, b T) int) {
	for j := range buf {
		buf[j] = keyed[T]{src[start+j*step], j}
	}
	slices.SortFunc(buf, func(a, b keyed[T]) int {
		if c := order(a.v, b.v); c != 0 {
			return c
		}
		return a.i - b.i
	})
}

// evalRows evaluates e on x and sees it as rows along axis.
func evalRows[T Sortable](x *Executor, e expr.Expr[T], axis int) (*tensor.Tensor[T], axisrows.Rows, error) {
	if err := x.usable(); err != nil {
		return nil, axisrows.Rows{}, err
	}
	if err := e.Err(); err != nil {
		return nil, axisrows.Rows{}, err
	}
	ax, err := tensor.Axis(axis, len(e.Shape()))
	if err != nil {
		return nil, axisrows.Rows{}, err
	}
	in, err := EvalWith(x, e)
	if err != nil {
		return nil, axisrows.Rows{}, err
	}
	return in, axisrows.Along(in.Shape(), ax), nil
}

// rowTasks runs f over ranges of rows as the tasks of one pool job.
type rowTasks struct {
	rows, perTask int
	r             rowRanges
}

func (t *rowTasks) RunTask(i int) {
	lo := i * t.perTask
	t.r.runRows(lo, min(lo+t.perTask, t.rows))
}

// rowRanges is the work of forRows: runRows(lo, hi) does rows [lo, hi).
type rowRanges interface {
	runRows(lo, hi int)
}

// rowsFunc is the rowRanges whose runRows is f. A closure handed to the
// pool is allocated by every call: steps that a plan runs again and again
// (softmax) pass pooled structs instead.
type rowsFunc func(lo, hi int)

func (f rowsFunc) runRows(lo, hi int) { f(lo, hi) }

// rowTaskPool keeps forRows' rowTasks between calls.
var rowTaskPool stash.Stash[rowTasks]

// forRows calls r.runRows over every row of rs, in ranges split across
// x's workers when the work is large enough. A panic in r is returned as
// an error.
func (x *Executor) forRows(rs axisrows.Rows, r rowRanges) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = recoveredError(r)
		}
	}()
	rows := rs.Count()
	if rows == 0 {
		return nil
	}
	tasks := 1
	if x.workers > 1 && rows*max(rs.N, 1) >= x.grain {
		tasks = min(rows, x.workers*tasksPerWorker)
	}
	perTask := (rows + tasks - 1) / tasks
	tasks = (rows + perTask - 1) / perTask
	if tasks == 1 {
		r.runRows(0, rows)
		return nil
	}
	t := rowTaskPool.Get()
	if t == nil {
		t = new(rowTasks)
	}
	*t = rowTasks{rows: rows, perTask: perTask, r: r}
	x.pool().parallel(tasks, t)
	*t = rowTasks{}
	rowTaskPool.Put(t)
	return nil
}

// orderOf is the comparison of the sorting functions for T: NumPy's
// ascending order with NaN last, or its reverse.
func orderOf[T Sortable](descending bool) func(a, b T) int {
	asc := ascending[T]()
	if descending {
		return func(a, b T) int { return asc(b, a) }
	}
	return asc
}

// ascending returns the ascending comparison for T.
func ascending[T Sortable]() func(a, b T) int {
	var f any
	switch any(*new(T)).(type) {
	case bool:
		f = compareBool
	case int8:
		f = compareReal[int8]
	case int16:
		f = compareReal[int16]
	case int32:
		f = compareReal[int32]
	case int64:
		f = compareReal[int64]
	case int:
		f = compareReal[int]
	case uint8:
		f = compareReal[uint8]
	case uint16:
		f = compareReal[uint16]
	case uint32:
		f = compareReal[uint32]
	case uint64:
		f = compareReal[uint64]
	case uint:
		f = compareReal[uint]
	case float32:
		f = compareReal[float32]
	case float64:
		f = compareReal[float64]
	default:
		panic(fmt.Sprintf("exec: no order for %T", *new(T)))
	}
	return f.(func(a, b T) int)
}

// compareReal orders a and b ascending with NaN after everything else and
// all NaNs equal; -0.0 equals 0.0.
func compareReal[T dtype.Real](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	}
	switch an, bn := a != a, b != b; {
	case an && bn:
		return 0
	case an:
		return 1
	}
	return -1
}

func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case b:
		return -1
	}
	return 1
}
