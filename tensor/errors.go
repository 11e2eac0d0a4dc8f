package tensor

import (
	"fmt"
	"strconv"
)

// BroadcastError reports two shapes that do not broadcast. Dim is the
// offending axis counted in the broadcast result (right-aligned), the
// right-most one when several mismatch, as PyTorch reports it; SizeA and
// SizeB are the two extents there.
type BroadcastError struct {
	A, B         Shape
	Dim          int
	SizeA, SizeB int
}

// Error returns PyTorch's text: "The size of tensor a (2) must match the size
// of tensor b (3) at non-singleton dimension 1".
func (e *BroadcastError) Error() string {
	return fmt.Sprintf("The size of tensor a (%d) must match the size of tensor b (%d) at non-singleton dimension %d",
		e.SizeA, e.SizeB, e.Dim)
}

// ShapeError reports an invalid shape: a negative extent, an element count
// that overflows int, or a shape that does not fit the data it describes.
type ShapeError struct {
	Shape  Shape
	Axis   int // the offending axis, or -1 when the shape as a whole is wrong
	Reason string
}

func (e *ShapeError) Error() string {
	if e.Axis >= 0 {
		return fmt.Sprintf("invalid shape %v at dimension %d: %s", e.Shape, e.Axis, e.Reason)
	}
	return fmt.Sprintf("invalid shape %v: %s", e.Shape, e.Reason)
}

// AxisError reports an axis outside [-rank, rank).
type AxisError struct {
	Axis, Rank int
}

func (e *AxisError) Error() string {
	return fmt.Sprintf("Dimension out of range (expected to be in range of [%d, %d], but got %d)",
		-e.Rank, e.Rank-1, e.Axis)
}

// IndexError reports an index outside an axis.
type IndexError struct {
	Index, Axis, Size int
}

func (e *IndexError) Error() string {
	return "index " + strconv.Itoa(e.Index) + " is out of bounds for dimension " + strconv.Itoa(e.Axis) +
		" with size " + strconv.Itoa(e.Size)
}

// ExpandError reports an expand (broadcast_to, or an in-place destination)
// that would have to change a non-1 extent. Its text is PyTorch's:
// "The expanded size of the tensor (1) must match the existing size (7) at
// non-singleton dimension 2.  Target sizes: [1, 3, 1].  Tensor sizes: [3, 1, 7]".
type ExpandError struct {
	Target, Tensor Shape
	Dim            int // axis of Target
	Expanded       int // Target[Dim]
	Existing       int // the tensor's extent there
}

func (e *ExpandError) Error() string {
	return fmt.Sprintf("The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %v.  Tensor sizes: %v",
		e.Expanded, e.Existing, e.Dim, e.Target, e.Tensor)
}
