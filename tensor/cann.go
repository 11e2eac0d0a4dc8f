package tensor

// CheckBroadcastShape reports whether a and b broadcast together, as CANN's
// op::CheckBroadcastShape does: right-align the shapes, and per axis the
// extents must be equal or one of them 1 (so 0 matches only 0 or 1). It is
// symmetric, allocates nothing, and never panics. It is true exactly when
// BroadcastShapes(a, b) succeeds: a shape with a negative extent is not a
// shape and gives false, and so does an operand or result whose element
// count overflows int.
func CheckBroadcastShape(a, b Shape) bool {
	if !countable(a) || !countable(b) || !meetsRule(a, b) {
		return false
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	// The result's extents are a's, except where a has 1 and b does not.
	pad := len(a) - len(b)
	n, zero, over := 1, false, false
	for i, x := range a {
		if i >= pad && x == 1 {
			x = b[i-pad]
		}
		if x == 0 {
			zero = true
		} else if !over {
			var ok bool
			n, ok = mulInt(n, x)
			over = !ok
		}
	}
	return zero || !over
}

// countable reports whether Shape.Numel accepts s.
func countable(s Shape) bool {
	_, bad, _ := shapeCount(s)
	return bad < 0
}

// meetsRule reports whether a and b, right-aligned, have per axis equal
// extents or a 1.
func meetsRule(a, b Shape) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	pad := len(a) - len(b)
	for i, y := range b {
		if x := a[pad+i]; x != y && x != 1 && y != 1 {
			return false
		}
	}
	return true
}

// BroadcastInferShape returns the shape a and b broadcast to, as CANN's
// op::BroadcastInferShape does. When they do not broadcast the error is a
// *BroadcastConditionError reading "The tensor whose shape is [2, 2] and the
// tensor whose shape is [2, 5] do not meet the broadcast condition", which
// wraps the *BroadcastError (or, for an operand that is not a valid shape,
// the *ShapeError) that BroadcastShapes reports. Shapes that meet the
// condition but whose result's element count overflows int give
// BroadcastShapes' *ShapeError unwrapped, since the condition holds.
func BroadcastInferShape(a, b Shape) (Shape, error) {
	out, err := BroadcastShapes(a, b)
	if err != nil && !(countable(a) && countable(b) && meetsRule(a, b)) {
		return nil, &BroadcastConditionError{A: a.Clone(), B: b.Clone(), Err: err}
	}
	return out, err
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
// result is [1]. Shapes that do not broadcast give BroadcastShapes' error,
// and so does a result whose element count overflows int; a merged extent
// that overflows int (possible only beside an extent of 0) is a *ShapeError.
//
// For example (5,1,5,5,1,1) and (5,5,5,5,5,5) label SAME X_ONE SAME SAME
// X_ONE X_ONE and merge to [5, 5, 25, 25] (rank 4).
func MergedBroadcastShape(a, b Shape) (Shape, error) {
	out, err := BroadcastShapes(a, b)
	if err != nil {
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
			m, ok := mulInt(merged[len(merged)-1], out[d])
			if !ok {
				// Only a result with an extent of 0 gets here: its other
				// extents may multiply past maxInt.
				return nil, &ShapeError{Shape: out, Axis: d, Reason: "merged extent overflows int"}
			}
			merged[len(merged)-1] = m
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
