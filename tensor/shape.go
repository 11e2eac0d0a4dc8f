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
// negative or the product overflows int.
func (s Shape) Numel() (int, error) {
	n := 1
	for i, d := range s {
		if d < 0 {
			return 0, &ShapeError{Shape: s.Clone(), Axis: i, Reason: "negative extent " + strconv.Itoa(d)}
		}
		hi, lo := bits.Mul64(uint64(n), uint64(d))
		if hi != 0 || lo > uint64(maxInt) {
			return 0, &ShapeError{Shape: s.Clone(), Axis: i, Reason: "number of elements overflows int"}
		}
		n = int(lo)
	}
	return n, nil
}

const maxInt = int(^uint(0) >> 1)

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

// rowMajorStrides returns the C-order strides of shape, in elements.
func rowMajorStrides(shape Shape) []int {
	st := make([]int, len(shape))
	acc := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = acc
		if shape[i] > 1 {
			acc *= shape[i]
		}
	}
	return st
}

// RowMajorStrides returns the C-order (row-major) strides of shape in
// elements. Size-1 axes get the stride the next axis out would use.
func RowMajorStrides(shape Shape) []int { return rowMajorStrides(shape) }
