package tensor

import (
	"errors"
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
)

// NumPy's advanced indexing: index tensors as items of Idx (At). This
// file holds the plan that Tensor.Idx and expr's Idx share; the copy that
// Tensor.Idx makes from it is in advcopy.go.

// Indexer is an index tensor, the argument of At: a *Tensor of an integer
// type or of bool, or an expression of one (expr's Idx takes both; a
// tensor's Idx takes tensors).
type Indexer interface {
	DType() dtype.DType
	Shape() Shape
}

// itemArray is an At item.
const itemArray itemKind = 4

// At is an index tensor as an item of Idx: NumPy's advanced indexing.
// An integer tensor picks positions along its axis (negative ones count
// from the end); a bool tensor (a mask) of rank k indexes the next k axes
// at its true elements, in row-major order (np.nonzero). With NumPy's
// rules, the index tensors (and the integers of an index that has one)
// broadcast together, and their broadcast axes replace the indexed axes
// where the advanced items are adjacent in the index, and go first where
// a slice, a new axis or an ellipsis separates them: for x of shape
// [2, 3, 4] and i of shape [5],
//
//	x.Idx(tensor.All, tensor.At(i))          // [2, 5, 4]
//	x.Idx(tensor.At(i), tensor.All, tensor.At(i)) // [5, 3]
func At(idx Indexer) IndexItem { return IndexItem{kind: itemArray, arr: idx} }

// Array returns the index tensor of an At item, nil for any other item.
func (s IndexItem) Array() Indexer {
	if s.kind != itemArray {
		return nil
	}
	return s.arr
}

// HasArrays reports whether an index has an At item, which makes it an
// advanced index (see AdvancedIndexMap).
func HasArrays(items []IndexItem) bool {
	for _, it := range items {
		if it.kind == itemArray {
			return true
		}
	}
	return false
}

// AdvancedIndex is the plan of an index with index tensors: the basic
// view that its other items give, with every advanced item standing for
// full slices of the axes it indexes, and the advanced items, which index
// axes of that view.
type AdvancedIndex struct {
	// Basic is the map of the basic view: an integer array or an integer
	// is a full slice of its axis, a mask of rank k k full slices, a 0-d
	// mask a new axis.
	Basic ViewMap
	// Items are the advanced items in the index's order.
	Items []AdvancedItem
	// Front is set where the advanced items are not adjacent in the
	// index: the broadcast axes go first in the result.
	Front bool
}

// AdvancedItem is one advanced item of an AdvancedIndex.
type AdvancedItem struct {
	// Axis is the (first) axis of the basic view that the item indexes.
	Axis int
	// Dim is the operand's axis (for errors; -1 for a 0-d mask).
	Dim int
	// Array is the index tensor; nil for an integer.
	Array Indexer
	// Int is an integer item's index, counted from the start, checked.
	Int int
	// Mask is set for a bool Array; it indexes Array's rank of axes (a
	// 0-d mask the new axis Axis, of extent 1).
	Mask bool
}

// Rank is the number of basic-view axes the item indexes.
func (it AdvancedItem) Rank() int {
	if it.Mask {
		if r := len(it.Array.Shape()); r > 0 {
			return r
		}
	}
	return 1
}

// Pos is the axis of the result where the broadcast index axes start: 0
// when Front, else the first advanced item's axis.
func (a AdvancedIndex) Pos() int {
	if a.Front || len(a.Items) == 0 {
		return 0
	}
	return a.Items[0].Axis
}

// Rest returns the axes of the basic view that no advanced item indexes,
// in order.
func (a AdvancedIndex) Rest() []int {
	used := make([]bool, len(a.Basic.Shape))
	for _, it := range a.Items {
		for k := 0; k < it.Rank(); k++ {
			used[it.Axis+k] = true
		}
	}
	var rest []int
	for j, u := range used {
		if !u {
			rest = append(rest, j)
		}
	}
	return rest
}

// AdvancedIndexMap plans the index items (with at least one At) on a
// tensor of the given shape, as NumPy does: integers, when an index
// tensor is present, are advanced items too. Index tensors of another
// dtype than integers and bool, a mask whose shape is not the extents of
// the axes it indexes and an integer outside its axis are *ViewError
// values (wrapping an *ArgError, *ShapeError or *IndexError), as are the
// errors of basic indexing (see IndexMap). Index values are checked where
// the index is applied, before anything is written.
func AdvancedIndexMap(shape Shape, items ...IndexItem) (AdvancedIndex, error) {
	op := "Idx" + formatIndex(items)
	fail := func(dim int, reason string, err error) (AdvancedIndex, error) {
		return AdvancedIndex{}, &ViewError{Op: op, Shape: shape.Clone(), Dim: dim, Reason: reason, Err: err}
	}
	basic := make([]IndexItem, 0, len(items))
	used := 0
	for k, it := range items {
		switch it.kind {
		case itemInt, itemSlice:
			used++
		case itemArray:
			if it.arr == nil {
				return fail(-1, fmt.Sprintf("item %d: At of a nil index", k), nil)
			}
			dt := it.arr.DType()
			switch {
			case dt == dtype.Bool:
				used += len(it.arr.Shape())
			case dt.IsInteger():
				used++
			default:
				return fail(-1, "", &ArgError{Op: "Idx", Reason: fmt.Sprintf("item %d: an index tensor must be of an integer type or bool, not %s", k, dt)})
			}
		}
	}
	if used > len(shape) {
		return fail(-1, fmt.Sprintf("too many indices: %d for %d dimensions", used, len(shape)), nil)
	}
	var adv AdvancedIndex
	last := -1        // the last advanced item's position in items
	axis, dim := 0, 0 // the basic view's and the operand's next axes
	for k, it := range items {
		switch it.kind {
		case itemSlice:
			basic = append(basic, it)
			axis, dim = axis+1, dim+1
			continue
		case itemNewAxis:
			basic = append(basic, it)
			axis++
			continue
		case itemEllipsis:
			basic = append(basic, it)
			if n := len(shape) - used; n > 0 {
				axis, dim = axis+n, dim+n
			}
			continue
		case itemBadStep:
			basic = append(basic, it)
			continue
		}
		if last >= 0 && last != k-1 {
			adv.Front = true
		}
		last = k
		a := AdvancedItem{Axis: axis, Dim: dim}
		switch {
		case it.kind == itemInt:
			n, j := shape[dim], it.i
			if j < 0 {
				j += n
			}
			if j < 0 || j >= n {
				return fail(dim, "", &IndexError{Index: it.i, Axis: dim, Size: n})
			}
			a.Int = j
			basic = append(basic, All)
			axis, dim = axis+1, dim+1
		case it.arr.DType() == dtype.Bool:
			a.Array, a.Mask = it.arr, true
			ms := it.arr.Shape()
			if len(ms) == 0 {
				a.Dim = -1
				basic = append(basic, NewAxis)
				axis++
				break
			}
			for d, e := range ms {
				if shape[dim+d] != e {
					return fail(dim+d, "", &ShapeError{Shape: ms.Clone(), Axis: d, Reason: fmt.Sprintf(
						"boolean index did not match indexed array along dimension %d; dimension is %d but corresponding boolean dimension is %d", dim+d, shape[dim+d], e)})
				}
				basic = append(basic, All)
			}
			axis, dim = axis+len(ms), dim+len(ms)
		default:
			a.Array = it.arr
			basic = append(basic, All)
			axis, dim = axis+1, dim+1
		}
		adv.Items = append(adv.Items, a)
	}
	m, err := IndexMap(shape, basic...)
	if err != nil {
		var ve *ViewError
		if errors.As(err, &ve) {
			return fail(ve.Dim, ve.Reason, ve.Err)
		}
		return AdvancedIndex{}, err
	}
	adv.Basic = m
	return adv, nil
}

// BroadcastIndex broadcasts the shapes of an advanced index's index
// tensors (an integer's is [], a mask of rank k gives k of shape
// [count]) for an operand whose basic view has the given shape; shapes
// that do not broadcast are a *ViewError with NumPy's text, wrapping the
// *BroadcastError.
func BroadcastIndex(op string, view Shape, shapes []Shape) (Shape, error) {
	b, err := BroadcastShapes(shapes...)
	if err == nil {
		return b, nil
	}
	var be *BroadcastError
	if errors.As(err, &be) {
		text := "shape mismatch: indexing arrays could not be broadcast together with shapes"
		for _, s := range shapes {
			text += " " + fmt.Sprint(s)
		}
		return nil, &ViewError{Op: op, Shape: view.Clone(), Dim: -1, Reason: text, Err: err}
	}
	return nil, err
}
