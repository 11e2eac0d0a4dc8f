package tensor

// CheckBroadcastShape reports whether a and b broadcast together, as CANN's
// op::CheckBroadcastShape does: right-align the shapes, and per axis the
// extents must be equal or one of them 1 (so 0 matches only 0 or 1). It is
// symmetric, allocates nothing, and never panics; a shape with a negative
// extent is not a shape and gives false.
func CheckBroadcastShape(a, b Shape) bool {
	if !nonNegative(a) || !nonNegative(b) {
		return false
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	pad := len(a) - len(b)
	for i, y := range b {
		x := a[pad+i]
		if x != y && x != 1 && y != 1 {
			return false
		}
	}
	return true
}

func nonNegative(s Shape) bool {
	for _, d := range s {
		if d < 0 {
			return false
		}
	}
	return true
}

// BroadcastInferShape returns the shape a and b broadcast to, as CANN's
// op::BroadcastInferShape does. When they do not broadcast the error is a
// *BroadcastConditionError reading "The tensor whose shape is [2, 2] and the
// tensor whose shape is [2, 5] do not meet the broadcast condition", which
// wraps the *BroadcastError (or, for a negative extent, *ShapeError) that
// BroadcastShapes reports.
func BroadcastInferShape(a, b Shape) (Shape, error) {
	out, err := BroadcastShapes(a, b)
	if err != nil {
		return nil, &BroadcastConditionError{A: a.Clone(), B: b.Clone(), Err: err}
	}
	return out, nil
}

// axisState labels one axis of a two-operand broadcast for the merge rule.
type axisState uint8

const (
	stateSkip axisState = iota // both extents are 1
	stateSame                  // a == b
	stateXOne                  // a == 1 != b: a is stretched
	stateYOne                  // b == 1 != a: b is stretched
)

// MergedBroadcastShape returns the shape of the broadcast of a and b after
// merging runs of axes that broadcast the same way: CANN's rule for the
// restricted dtypes (dtype.DType.Restricted), whose merged rank must be below
// 6. Identical shapes merge into one axis of Numel elements. Otherwise the
// shapes are right-aligned and padded with 1, each axis is labelled SAME
// (a == b), X_ONE (a == 1 != b) or Y_ONE (b == 1 != a), axes where both are 1
// are skipped (they neither add an axis nor break a run), consecutive axes
// with the same label merge with their extents multiplied, and an empty
// result is [1]. Shapes that do not broadcast give BroadcastShapes' error.
//
// For example (5,1,5,5,1,1) and (5,5,5,5,5,5) label SAME X_ONE SAME SAME
// X_ONE X_ONE and merge to [5, 5, 25, 25] (rank 4).
func MergedBroadcastShape(a, b Shape) (Shape, error) {
	out, err := BroadcastShapes(a, b)
	if err != nil {
		return nil, err
	}
	if _, err := out.Numel(); err != nil {
		return nil, err
	}
	if a.Equal(b) {
		n, _ := a.Numel()
		return Shape{n}, nil
	}
	rank := len(out)
	merged := Shape{}
	last := stateSkip
	for d := range rank {
		x, y := extentAt(a, rank, d), extentAt(b, rank, d)
		var s axisState
		switch {
		case x == 1 && y == 1:
			continue
		case x == y:
			s = stateSame
		case x == 1:
			s = stateXOne
		default:
			s = stateYOne
		}
		if s == last {
			merged[len(merged)-1] *= out[d]
		} else {
			merged = append(merged, out[d])
			last = s
		}
	}
	if len(merged) == 0 {
		return Shape{1}, nil
	}
	return merged, nil
}
