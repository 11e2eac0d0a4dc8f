package tensor

import (
	"math/bits"
	"strconv"
	"strings"
)

// Shape is the extent of each axis, outermost first. A nil or empty Shape is
// the shape of a 0-d (scalar) tensor, which holds one element.
type Shape []int

// Rank returns the number of axes.
func (s Shape) Rank() int { return len(s) }

// Numel returns the number of elements, or a *ShapeError when an extent is
// negative or the count overflows int. A shape with an extent of 0 counts 0
// elements whatever its other extents (so [0, 1<<62, 1<<62] is an empty
// shape); otherwise the product of the extents must fit int.
func (s Shape) Numel() (int, error) {
	n, axis, neg := shapeCount(s)
	switch {
	case neg:
		return 0, &ShapeError{Shape: s.Clone(), Axis: axis, Reason: "negative extent " + strconv.Itoa(s[axis])}
	case axis >= 0:
		return 0, &ShapeError{Shape: s.Clone(), Axis: axis, Reason: "number of elements overflows int"}
	}
	return n, nil
}

// shapeCount counts the elements of s by Numel's rule without allocating:
// axis is -1 when the count is valid, else the first negative extent (neg)
// or the axis at which the product passes maxInt.
func shapeCount(s Shape) (n, axis int, neg bool) {
	zero := false
	for i, d := range s {
		if d < 0 {
			return 0, i, true
		}
		zero = zero || d == 0
	}
	if zero {
		return 0, -1, false
	}
	n = 1
	for i, d := range s {
		var ok bool
		if n, ok = mulInt(n, d); !ok {
			return 0, i, false
		}
	}
	return n, -1, false
}

// mulInt returns a*b for non-negative a and b, and whether it fits int.
func mulInt(a, b int) (int, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > uint64(maxInt) {
		return 0, false
	}
	return int(lo), true
}

const maxInt = int(^uint(0) >> 1)

// minInt is the most negative int, whose negation does not fit.
const minInt = -maxInt - 1

// Equal reports whether s and t have the same rank and extents.
func (s Shape) Equal(t Shape) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// Clone returns a copy of s that shares no memory with it.
func (s Shape) Clone() Shape {
	if s == nil {
		return Shape{}
	}
	return append(Shape{}, s...)
}

// String prints the shape as the reference error texts do: "[2, 3]", "[]".
func (s Shape) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(d))
	}
	b.WriteByte(']')
	return b.String()
}

// Axis resolves a possibly negative axis (Python style, -1 is the last) for
// a tensor of rank r, or returns an *AxisError.
func Axis(axis, rank int) (int, error) {
	a := axis
	if a < 0 {
		a += rank
	}
	if a < 0 || a >= rank {
		return 0, &AxisError{Axis: axis, Rank: rank}
	}
	return a, nil
}

// rowMajorStrides returns the C-order strides of shape, in elements: an
// axis's stride is the product of the extents inside it, with 0 and 1
// counted as 1 as NumPy does. That product passes maxInt only in a shape
// with an extent of 0 (Numel counts it as 0; see Shape.Numel), whose strides
// address nothing: there the strides stop growing at maxInt, so that they
// stay non-negative.
func rowMajorStrides(shape Shape) []int {
	st := make([]int, len(shape))
	rowMajorInto(st, shape)
	return st
}

// rowMajorInto writes rowMajorStrides(shape) into st (of shape's length).
func rowMajorInto(st []int, shape Shape) {
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = acc
		if shape[i] > 1 {
			var ok bool
			if acc, ok = mulInt(acc, shape[i]); !ok {
				acc = maxInt
			}
		}
	}
}

// RowMajorStrides returns the C-order (row-major) strides of shape in
// elements. Size-1 and size-0 axes get the stride the next axis out would
// use; the strides are never negative, and in a zero-size shape whose
// nonzero extents multiply past math.MaxInt they stop at math.MaxInt.
// shape's extents must not be negative.
func RowMajorStrides(shape Shape) []int { return rowMajorStrides(shape) }
