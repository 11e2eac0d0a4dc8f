package tensor

import (
	"fmt"
	"math"
	"strconv"

	"github.com/tensorplay/tensorplay/dtype"
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

// Error names the shape, the axis and the reason.
func (e *ShapeError) Error() string {
	if e.Axis >= 0 {
		return fmt.Sprintf("invalid shape %v at dimension %d: %s", e.Shape, e.Axis, e.Reason)
	}
	return fmt.Sprintf("invalid shape %v: %s", e.Shape, e.Reason)
}

// AxisError reports an axis outside [-rank, rank), or any axis of a 0-d
// tensor, which has none.
type AxisError struct {
	Axis, Rank int
}

// Error is PyTorch's text: "Dimension out of range (expected to be in range
// of [-2, 1], but got 2)", and for a 0-d tensor "Dimension specified as 0
// but tensor has no dimensions".
func (e *AxisError) Error() string {
	if e.Rank == 0 {
		return fmt.Sprintf("Dimension specified as %d but tensor has no dimensions", e.Axis)
	}
	return fmt.Sprintf("Dimension out of range (expected to be in range of [%d, %d], but got %d)",
		-e.Rank, e.Rank-1, e.Axis)
}

// IndexError reports an index outside an axis.
type IndexError struct {
	Index, Axis, Size int
}

// Error is PyTorch's text: "index 5 is out of bounds for dimension 0 with size 3".
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

// Error is PyTorch's text, naming the target and the tensor's sizes.
func (e *ExpandError) Error() string {
	return fmt.Sprintf("The expanded size of the tensor (%d) must match the existing size (%d) at non-singleton dimension %d.  Target sizes: %v.  Tensor sizes: %v",
		e.Expanded, e.Existing, e.Dim, e.Target, e.Tensor)
}

// ArgError reports an argument that is invalid for a reason other than a
// shape, an axis or an index: a zero step, a ragged nested slice, a repeated
// axis, a tensor with the wrong number of elements for Item.
type ArgError struct {
	Op     string // the function or method, e.g. "Arange" or "Permute"
	Reason string
}

// Error returns "Op: Reason".
func (e *ArgError) Error() string { return e.Op + ": " + e.Reason }

// ReshapeError reports a Reshape or ReshapeView to a shape that does not fit
// the tensor. Target is the shape as requested (it may hold one -1). NotView
// is set when the sizes fit but ReshapeView cannot express the result as a
// view of the tensor's storage.
type ReshapeError struct {
	Shape   Shape // the tensor's shape
	Target  Shape
	NotView bool
	Reason  string // set for malformed targets (two -1s, other negatives)
}

// Error words the failure as PyTorch does: "shape '[2, 5]' is invalid for
// input of size 12", or for ReshapeView "view size is not compatible with
// input tensor's size and stride ...".
func (e *ReshapeError) Error() string {
	switch {
	case e.Reason != "":
		return "shape '" + e.Target.String() + "' is invalid for input of shape " + e.Shape.String() + ": " + e.Reason
	case e.NotView:
		return "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces): cannot view shape " +
			e.Shape.String() + " as " + e.Target.String() + "; use Reshape, which copies"
	}
	n, _ := e.Shape.Numel()
	return "shape '" + e.Target.String() + "' is invalid for input of size " + strconv.Itoa(n)
}

// InternalOverlapError reports a write into a tensor in which several
// elements share one memory location (an axis of stride 0 and extent > 1,
// as Expand makes). The text is PyTorch's.
type InternalOverlapError struct {
	Shape   Shape
	Strides []int
}

// Error is PyTorch's text.
func (e *InternalOverlapError) Error() string {
	return "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."
}

// BroadcastConditionError is the error of BroadcastInferShape, worded as
// CANN's op::BroadcastInferShape logs it: "The tensor whose shape is [2, 2]
// and the tensor whose shape is [2, 5] do not meet the broadcast condition".
// Err is the underlying *BroadcastError (or *ShapeError for a negative
// extent), reachable with errors.As.
type BroadcastConditionError struct {
	A, B Shape
	Err  error
}

// Error is CANN's text, naming both shapes.
func (e *BroadcastConditionError) Error() string {
	return "The tensor whose shape is " + e.A.String() + " and the tensor whose shape is " + e.B.String() +
		" do not meet the broadcast condition"
}

// Unwrap returns the underlying broadcast or shape error.
func (e *BroadcastConditionError) Unwrap() error { return e.Err }

// AllocError reports a request for more storage than the memory limit
// allows (see MemoryLimit and SetMemoryLimit): Bytes were asked for to
// hold a tensor of the given Shape and DType, and Limit is the limit then
// in force. Bytes is math.MaxInt64 when the request does not fit int64.
type AllocError struct {
	Bytes int64
	Limit int64
	Shape Shape
	DType dtype.DType
}

// Error names the tensor, the bytes requested and the limit: "tensor:
// allocating [100000000000] float64 needs 800000000000 bytes, more than the
// memory limit of 25769803776 bytes (tensor.SetMemoryLimit)".
func (e *AllocError) Error() string {
	needs := "needs " + strconv.FormatInt(e.Bytes, 10)
	if e.Bytes == math.MaxInt64 {
		needs = "needs more than " + strconv.FormatInt(e.Bytes, 10)
	}
	return "tensor: allocating " + e.Shape.String() + " " + e.DType.String() + " " + needs +
		" bytes, more than the memory limit of " + strconv.FormatInt(e.Limit, 10) + " bytes (tensor.SetMemoryLimit)"
}
