package tensor

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// IndexItem is one entry of a NumPy-style basic index, as Idx takes them:
// an integer (I), a slice (S, From, To, All, Step), a new axis (NewAxis)
// or an ellipsis (Ellipsis). NumPy's u[1:-1, 1:-1] is
//
//	u.Idx(tensor.S(1, -1), tensor.S(1, -1))
//
// and x[..., None, ::2] is
//
//	x.Idx(tensor.Ellipsis, tensor.NewAxis, tensor.Step(2))
//
// The zero IndexItem is All, the full slice ":".
type IndexItem struct {
	kind              itemKind
	i                 int // itemInt: the index; itemSlice: the step (0 for 1)
	start, stop       int
	hasStart, hasStop bool
	stepSet           bool
	arr               Indexer // itemArray: the index tensor
}

type itemKind uint8

const (
	itemSlice itemKind = iota
	itemInt
	itemNewAxis
	itemEllipsis
)

var (
	// All is the full slice ":" of one axis.
	All = IndexItem{}
	// NewAxis inserts an axis of extent 1 (NumPy's None, np.newaxis).
	NewAxis = IndexItem{kind: itemNewAxis}
	// Ellipsis stands for as many full slices as the other items leave
	// axes (NumPy's ...); at most one per index.
	Ellipsis = IndexItem{kind: itemEllipsis}
)

// I indexes one axis at i, which drops the axis; a negative i counts from
// the end (NumPy's a[i]).
func I(i int) IndexItem { return IndexItem{kind: itemInt, i: i} }

// S is the slice start:stop of one axis, with Python's rules: negative
// bounds count from the end, bounds past the axis clamp. Chain Step for
// start:stop:step.
func S(start, stop int) IndexItem {
	return IndexItem{start: start, stop: stop, hasStart: true, hasStop: true}
}

// From is the slice start: (to the end of the axis in the step's direction).
func From(start int) IndexItem { return IndexItem{start: start, hasStart: true} }

// To is the slice :stop (from the start of the axis in the step's direction).
func To(stop int) IndexItem { return IndexItem{stop: stop, hasStop: true} }

// Step is the slice ::step of a whole axis: Step(2) takes every other
// element, Step(-1) reverses the axis (NumPy's a[::-1]).
func Step(step int) IndexItem { return All.Step(step) }

// Step returns the slice s with the given step, start:stop:step; a
// negative step walks the axis backwards (S(5, 1).Step(-2) is 5:1:-2), and
// a missing bound then means the axis's last element (start) or "past the
// first" (stop). A step of 0 is refused by Idx. Step of an integer, new
// axis or ellipsis makes Idx refuse the item.
func (s IndexItem) Step(step int) IndexItem {
	if s.kind != itemSlice {
		s.kind, s.i = itemBadStep, step
		return s
	}
	s.i, s.stepSet = step, true
	return s
}

// itemBadStep marks Step applied to an item that is not a slice.
const itemBadStep itemKind = 255

// bounds returns the slice's start, stop and step with the defaults of
// its missing parts.
func (s IndexItem) bounds() (start, stop, step int) {
	step = 1
	if s.stepSet {
		step = s.i
	}
	start, stop = 0, math.MaxInt
	if step < 0 {
		start, stop = math.MaxInt, math.MinInt
	}
	if s.hasStart {
		start = s.start
	}
	if s.hasStop {
		stop = s.stop
	}
	return start, stop, step
}

// String prints the item as Python writes it: "1:-1", "::2", "None", "...".
func (s IndexItem) String() string {
	switch s.kind {
	case itemInt:
		return strconv.Itoa(s.i)
	case itemNewAxis:
		return "None"
	case itemEllipsis:
		return "..."
	case itemBadStep:
		return "<Step(" + strconv.Itoa(s.i) + ") of a non-slice>"
	case itemArray:
		if s.arr == nil {
			return "<nil>"
		}
		return "array" + s.arr.Shape().String() + " " + s.arr.DType().String()
	}
	var b strings.Builder
	if s.hasStart {
		b.WriteString(strconv.Itoa(s.start))
	}
	b.WriteByte(':')
	if s.hasStop {
		b.WriteString(strconv.Itoa(s.stop))
	}
	if s.stepSet {
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(s.i))
	}
	return b.String()
}

// formatIndex prints an index as NumPy's subscript: "[1:-1, ..., None]".
func formatIndex(items []IndexItem) string {
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = it.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// IndexMap is the map of the basic index items on a tensor of the given
// shape (see Idx): the one place NumPy's indexing rules are implemented,
// shared by Tensor.Idx and expr's Idx. Each integer and slice consumes an
// axis, a new axis consumes none, an ellipsis the axes the others leave
// (missing trailing items are full slices). Errors are *ViewError values
// naming the shape and the dimension: more indices than axes, two
// ellipses, an integer outside its axis (wrapping the *IndexError), a
// zero step.
func IndexMap(shape Shape, items ...IndexItem) (ViewMap, error) {
	fail := func(dim int, reason string, err error) (ViewMap, error) {
		return ViewMap{}, &ViewError{Op: "Idx" + formatIndex(items), Shape: shape.Clone(), Dim: dim, Reason: reason, Err: err}
	}
	used, ellipsis := 0, -1
	for k, it := range items {
		switch it.kind {
		case itemInt, itemSlice:
			used++
		case itemEllipsis:
			if ellipsis >= 0 {
				return fail(-1, "an index can only have a single ellipsis", nil)
			}
			ellipsis = k
		case itemBadStep:
			return fail(-1, fmt.Sprintf("item %d: Step applies to slices only", k), nil)
		case itemArray:
			return fail(-1, fmt.Sprintf("item %d: an index tensor is an advanced index (AdvancedIndexMap)", k), nil)
		}
	}
	if used > len(shape) {
		return fail(-1, fmt.Sprintf("too many indices: %d for %d dimensions", used, len(shape)), nil)
	}
	m := identityMap(len(shape))
	p := 0 // the operand's next axis
	full := func(count int) {
		for ; count > 0; count-- {
			m.addAxis(shape[p], map[int]int{p: 1})
			p++
		}
	}
	for _, it := range items {
		switch it.kind {
		case itemEllipsis:
			full(len(shape) - used)
		case itemNewAxis:
			m.addAxis(1, nil)
		case itemInt:
			n, j := shape[p], it.i
			if j < 0 {
				j += n
			}
			if j < 0 || j >= n {
				return fail(p, "", &IndexError{Index: it.i, Axis: p, Size: n})
			}
			m.Base[p] = j
			p++
		case itemSlice:
			start, stop, step := it.bounds()
			begin, _, length, err := SliceRange(shape[p], start, stop, step)
			if err != nil {
				return fail(p, "", err)
			}
			m.addAxis(length, map[int]int{p: step})
			if length > 0 {
				m.Base[p] = begin
			}
			p++
		}
	}
	if ellipsis < 0 {
		full(len(shape) - p)
	}
	return m, nil
}
