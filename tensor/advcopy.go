package tensor

import (
	"fmt"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
)

// advancedIdx is Idx with index tensors (see At and AdvancedIndexMap): a
// new row-major tensor, as NumPy's advanced indexing copies. Every index
// is read and checked before the result is allocated.
func (t *Tensor[T]) advancedIdx(items []IndexItem) (*Tensor[T], error) {
	plan, err := AdvancedIndexMap(t.shape, items...)
	if err != nil {
		return nil, err
	}
	op := "Idx" + formatIndex(items)
	v := t.ViewOf(plan.Basic)
	// One index per indexed axis of v: its values, shape and v's axis.
	var idx []indexArray
	for k, it := range plan.Items {
		switch {
		case it.Array == nil:
			idx = append(idx, indexArray{vals: []int64{int64(it.Int)}, shape: Shape{}, axis: it.Axis, dim: it.Dim})
		case it.Mask:
			mask, err := maskValues(it.Array)
			if err != nil {
				return nil, &ViewError{Op: op, Shape: t.shape.Clone(), Dim: -1, Err: err}
			}
			idx = append(idx, nonzeroArrays(mask, it)...)
		default:
			vals, err := integerValues(it.Array)
			if err != nil {
				return nil, &ViewError{Op: op, Shape: t.shape.Clone(), Dim: -1, Reason: fmt.Sprintf("item %d: %v", k, err), Err: err}
			}
			idx = append(idx, indexArray{vals: vals, shape: it.Array.Shape().Clone(), axis: it.Axis, dim: it.Dim})
		}
	}
	shapes := make([]Shape, len(idx))
	for k, a := range idx {
		shapes[k] = a.shape
	}
	b, err := BroadcastIndex(op, t.shape, shapes)
	if err != nil {
		return nil, err
	}
	// NumPy checks the values once broadcast: none when b is empty.
	for _, a := range idx {
		if slices.Contains(b, 0) {
			break
		}
		n := v.shape[a.axis]
		for i, j := range a.vals {
			if j < 0 {
				j += int64(n)
			}
			if j < 0 || j >= int64(n) {
				return nil, &ViewError{Op: op, Shape: t.shape.Clone(), Dim: a.dim, Err: &IndexError{Index: int(a.vals[i]), Axis: a.dim, Size: n}}
			}
			a.vals[i] = j
		}
	}
	rest := plan.Rest()
	pos := plan.Pos()
	var shape Shape
	var preSizes, preSt, postSizes, postSt []int
	for _, j := range rest {
		if j < pos {
			preSizes, preSt = append(preSizes, v.shape[j]), append(preSt, v.strides[j])
		} else {
			postSizes, postSt = append(postSizes, v.shape[j]), append(postSt, v.strides[j])
		}
	}
	shape = append(append(append(shape, preSizes...), b...), postSizes...)
	out, err := New[T](shape...)
	if err != nil {
		return nil, err
	}
	if len(out.data) == 0 {
		return out, nil
	}
	// The storage offset (from v's) of every position of b.
	nb, _ := b.Numel()
	base := make([]int, nb)
	for _, a := range idx {
		st, _ := BroadcastStrides(a.shape, rowMajorStrides(a.shape), b)
		k := 0
		eachRow(b, st, 0, func(p int) {
			base[k] += int(a.vals[p]) * v.strides[a.axis]
			k++
		})
	}
	var post []int
	eachRow(postSizes, postSt, 0, func(q int) { post = append(post, q) })
	k := 0
	eachRow(preSizes, preSt, v.offset, func(p int) {
		for _, o := range base {
			for _, q := range post {
				out.data[k] = v.data[p+o+q]
				k++
			}
		}
	})
	return out, nil
}

// indexArray is one index of an advanced index: the values (counted from
// the start once checked), their shape, and the axis of the basic view
// (and of the operand, for errors) they index.
type indexArray struct {
	vals      []int64
	shape     Shape
	axis, dim int
}

// nonzeroArrays turns a mask into the coordinates of its true elements,
// one index per axis it indexes (np.nonzero); a 0-d mask indexes the new
// axis it stands on with [0] (true) or [] (false).
func nonzeroArrays(mask []bool, it AdvancedItem) []indexArray {
	ms := it.Array.Shape()
	r := len(ms)
	if r == 0 {
		vals := []int64{}
		if mask[0] {
			vals = []int64{0}
		}
		return []indexArray{{vals: vals, shape: Shape{len(vals)}, axis: it.Axis, dim: -1}}
	}
	count := 0
	for _, m := range mask {
		if m {
			count++
		}
	}
	out := make([]indexArray, r)
	for d := range out {
		out[d] = indexArray{vals: make([]int64, 0, count), shape: Shape{count}, axis: it.Axis + d, dim: it.Dim + d}
	}
	coord := make([]int64, r)
	for _, m := range mask {
		if m {
			for d := range out {
				out[d].vals = append(out[d].vals, coord[d])
			}
		}
		for d := r - 1; d >= 0; d-- {
			coord[d]++
			if coord[d] < int64(ms[d]) {
				break
			}
			coord[d] = 0
		}
	}
	return out
}

// maskValues reads a bool index tensor in row-major order.
func maskValues(x Indexer) ([]bool, error) {
	if m, ok := x.(*Tensor[bool]); ok {
		return m.Values(), nil
	}
	return nil, &ArgError{Op: "Idx", Reason: fmt.Sprintf("a tensor's Idx takes index tensors, not %T (expr's Idx takes expressions)", x)}
}

// integerValues reads an integer index tensor in row-major order as
// int64; an unsigned value past int64's range is an *ArgError.
func integerValues(x Indexer) ([]int64, error) {
	switch a := x.(type) {
	case *Tensor[int]:
		return widenIndex(a), nil
	case *Tensor[int8]:
		return widenIndex(a), nil
	case *Tensor[int16]:
		return widenIndex(a), nil
	case *Tensor[int32]:
		return widenIndex(a), nil
	case *Tensor[int64]:
		return a.Values(), nil
	case *Tensor[uint]:
		return widenUnsigned(a)
	case *Tensor[uint8]:
		return widenIndex(a), nil
	case *Tensor[uint16]:
		return widenIndex(a), nil
	case *Tensor[uint32]:
		return widenIndex(a), nil
	case *Tensor[uint64]:
		return widenUnsigned(a)
	}
	return nil, &ArgError{Op: "Idx", Reason: fmt.Sprintf("a tensor's Idx takes index tensors, not %T (expr's Idx takes expressions)", x)}
}

func widenIndex[U dtype.Integer](a *Tensor[U]) []int64 {
	vs := a.Values()
	out := make([]int64, len(vs))
	for i, v := range vs {
		out[i] = int64(v)
	}
	return out
}

func widenUnsigned[U uint | uint64](a *Tensor[U]) ([]int64, error) {
	vs := a.Values()
	out := make([]int64, len(vs))
	for i, v := range vs {
		if uint64(v) > 1<<63-1 {
			return nil, &ArgError{Op: "Idx", Reason: fmt.Sprintf("index %d does not fit int64", uint64(v))}
		}
		out[i] = int64(v)
	}
	return out, nil
}
