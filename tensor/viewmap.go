package tensor

import (
	"fmt"
	"strings"
)

// ViewMap is a strided view described independently of any one layout: a
// linear map from a tensor's strides to the view's. Axis j of the view
// has extent Shape[j] and stride Σi Coef[j][i]·strides[i], and its first
// element is the tensor's element at index Base, at storage offset
// offset + Σi Base[i]·strides[i]. Every view that NumPy's basic indexing
// makes is one: a slice of any step (a coefficient of step), Flip (-1 and
// the last index), an integer index (the axis gets no view axis and Base
// holds the index), a new axis (all coefficients 0), Diagonal (1 on both
// axes). Tensor methods apply a ViewMap to their own strides; package expr
// keeps one in its view node, and the executor applies it to the layout
// of whatever value the node reads.
//
// The maps this package makes are normalised so that Apply never
// overflows: an axis of extent 1 has coefficients 0, and an empty view
// reads nothing.
type ViewMap struct {
	Shape Shape   // the view's extents
	Coef  [][]int // Coef[j][i]: the operand's axis-i strides one step along view axis j takes
	Base  []int   // the operand's index of the view's first element
}

// Apply returns the strides and offset of the view of a tensor laid out
// with strides and offset. An empty view gets row-major strides and keeps
// the offset: it addresses nothing.
func (m ViewMap) Apply(strides []int, offset int) ([]int, int) {
	st := make([]int, len(m.Shape))
	return st, m.applyInto(st, strides, offset)
}

// applyInto is Apply writing the strides into st, of the view's rank.
func (m ViewMap) applyInto(st, strides []int, offset int) int {
	if n, _, _ := shapeCount(m.Shape); n == 0 {
		rowMajorInto(st, m.Shape)
		return offset
	}
	for j, c := range m.Coef {
		for i, k := range c {
			st[j] += k * strides[i]
		}
	}
	for i, b := range m.Base {
		offset += b * strides[i]
	}
	return offset
}

// IsFlipOf reports whether m, taken of an operand of the given shape,
// reverses some of its axes and does nothing else (Flip's map): then m is
// its own inverse.
func (m ViewMap) IsFlipOf(shape Shape) bool {
	if len(m.Coef) != len(m.Base) || !m.Shape.Equal(shape) {
		return false
	}
	for j, c := range m.Coef {
		for i, k := range c {
			switch {
			case i != j && k != 0, i == j && k != 1 && k != -1 && m.Shape[j] > 1:
				return false
			case i == j && k == -1 && m.Base[i] != m.Shape[j]-1, i == j && k == 1 && m.Base[i] != 0:
				return false
			}
		}
	}
	return true
}

// String prints the map as its shape, coefficients and base.
func (m ViewMap) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "shape=%v coef=%v base=%v", m.Shape, m.Coef, m.Base)
	return b.String()
}

// identityMap starts a map of an operand of rank r with no view axes.
func identityMap(r int) ViewMap { return ViewMap{Shape: Shape{}, Base: make([]int, r)} }

// addAxis appends a view axis of extent n stepping by the given
// coefficients (nil for a new axis); an axis of extent 1 gets none.
func (m *ViewMap) addAxis(n int, coef map[int]int) {
	c := make([]int, len(m.Base))
	if n > 1 {
		for i, k := range coef {
			c[i] = k
		}
	}
	m.Shape = append(m.Shape, n)
	m.Coef = append(m.Coef, c)
}

// ViewError reports a view that does not fit the shape it is taken of: a
// bad axis, an index outside its axis, a zero step, too many indices. Op
// names the view ("Flip", "Idx", "Diagonal", …), Dim the operand's axis
// the failing argument applies to (-1 when the arguments as a whole are
// wrong). Err, when set, is the underlying *AxisError, *IndexError or
// *ArgError, reachable with errors.As.
type ViewError struct {
	Op     string
	Shape  Shape
	Dim    int
	Reason string
	Err    error
}

// Error names the op, the shape and the dimension: "Idx of shape [3, 4]
// at dimension 1: index 5 is out of bounds for dimension 1 with size 4".
func (e *ViewError) Error() string {
	at := ""
	if e.Dim >= 0 {
		at = fmt.Sprintf(" at dimension %d", e.Dim)
	}
	why := e.Reason
	if why == "" && e.Err != nil {
		why = e.Err.Error()
	}
	return fmt.Sprintf("%s of shape %v%s: %s", e.Op, e.Shape, at, why)
}

// Unwrap returns the underlying error.
func (e *ViewError) Unwrap() error { return e.Err }

// viewAxis resolves axis for the view op of a tensor of the given shape.
func viewAxis(op string, shape Shape, axis int) (int, error) {
	a, err := Axis(axis, len(shape))
	if err != nil {
		return 0, &ViewError{Op: op, Shape: shape.Clone(), Dim: -1, Err: err}
	}
	return a, nil
}

// FlipMap is the map of Flip over axes of a tensor of the given shape
// (every axis when axes is empty). A repeated or bad axis is a *ViewError.
func FlipMap(shape Shape, axes ...int) (ViewMap, error) {
	flip := make([]bool, len(shape))
	if len(axes) == 0 {
		for i := range flip {
			flip[i] = true
		}
	}
	for _, a := range axes {
		ax, err := viewAxis("Flip", shape, a)
		if err != nil {
			return ViewMap{}, err
		}
		if flip[ax] {
			return ViewMap{}, &ViewError{Op: "Flip", Shape: shape.Clone(), Dim: ax, Reason: fmt.Sprintf("repeated axis in %v", axes)}
		}
		flip[ax] = true
	}
	m := identityMap(len(shape))
	for i, n := range shape {
		k := 1
		if flip[i] && n > 0 {
			k, m.Base[i] = -1, n-1
		}
		m.addAxis(n, map[int]int{i: k})
	}
	return m, nil
}

// DiagonalMap is the map of Diagonal: the elements [i, i+offset] of the
// plane of axes axis1 and axis2 (offset < 0 below the main diagonal), as
// a last axis after the others, as NumPy's diagonal has them. An offset
// past the plane's edge gives an empty diagonal; equal or bad axes are a
// *ViewError.
func DiagonalMap(shape Shape, offset, axis1, axis2 int) (ViewMap, error) {
	a1, err := viewAxis("Diagonal", shape, axis1)
	if err != nil {
		return ViewMap{}, err
	}
	a2, err := viewAxis("Diagonal", shape, axis2)
	if err != nil {
		return ViewMap{}, err
	}
	if a1 == a2 {
		return ViewMap{}, &ViewError{Op: "Diagonal", Shape: shape.Clone(), Dim: a2, Reason: fmt.Sprintf("axis1 and axis2 cannot be the same (both %d)", a1)}
	}
	n1, n2 := shape[a1], shape[a2]
	// The diagonal starts at row r0, column c0; both fit int.
	r0, c0 := 0, 0
	length := 0
	switch {
	case offset >= 0 && offset < n2:
		c0 = offset
		length = min(n1, n2-offset)
	case offset < 0 && offset > -n1:
		r0 = -offset
		length = min(n1-r0, n2)
	}
	m := identityMap(len(shape))
	for i, n := range shape {
		if i != a1 && i != a2 {
			m.addAxis(n, map[int]int{i: 1})
		}
	}
	m.addAxis(length, map[int]int{a1: 1, a2: 1})
	if length > 0 {
		m.Base[a1], m.Base[a2] = r0, c0
	}
	return m, nil
}

// Fits reports whether m is a view of a tensor of the given shape: one
// base index and coefficient per axis, and every element the view reads
// inside the shape (an empty view reads none).
func (m ViewMap) Fits(shape Shape) bool {
	if len(m.Base) != len(shape) || len(m.Coef) != len(m.Shape) {
		return false
	}
	if n, _, _ := shapeCount(m.Shape); n == 0 {
		return true
	}
	for i, d := range shape {
		lo, hi := m.Base[i], m.Base[i]
		if lo < 0 || hi >= d {
			return false
		}
		for j, c := range m.Coef {
			if len(c) != len(shape) {
				return false
			}
			ext, ok := mulSigned(c[i], m.Shape[j]-1)
			switch {
			case !ok, ext > 0 && ext >= d-hi, ext < 0 && ext < -lo:
				return false
			case ext > 0:
				hi += ext
			default:
				lo += ext
			}
		}
	}
	return true
}
