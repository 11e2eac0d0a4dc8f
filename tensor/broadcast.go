package tensor

import "fmt"

// BroadcastShapes returns the shape that the given shapes broadcast to under
// NumPy's rules: align trailing axes, pad the shorter shapes with 1 on the
// left, and per axis take the extent that is not 1. Extents must be equal or
// 1; a 0 matches only 0 or 1. The error for two shapes is a *BroadcastError
// naming the right-most mismatching axis, as PyTorch does; with more shapes it
// names the first pair (in argument order) that fails. A result whose element
// count overflows int (see Shape.Numel), such as [1<<40] with [1<<40, 1], is
// a *ShapeError naming the result, as is a negative or overflowing operand.
func BroadcastShapes(shapes ...Shape) (Shape, error) {
	rank := 0
	for _, s := range shapes {
		if _, err := s.Numel(); err != nil {
			return nil, err
		}
		rank = max(rank, len(s))
	}
	out := make(Shape, rank)
	for i := range out {
		out[i] = 1
	}
	for k, s := range shapes {
		for i := len(s) - 1; i >= 0; i-- {
			o := rank - len(s) + i
			switch d := s[i]; {
			case d == out[o] || d == 1:
			case out[o] == 1:
				out[o] = d
			default:
				return nil, broadcastError(shapes[:k], s)
			}
		}
	}
	if _, err := out.Numel(); err != nil {
		return nil, err
	}
	return out, nil
}

// broadcastError explains why s does not broadcast with prev: it finds the
// first shape in prev that s conflicts with and reports their right-most
// mismatch.
func broadcastError(prev []Shape, s Shape) error {
	for _, p := range prev {
		if dim, ok := rightmostMismatch(p, s); ok {
			rank := max(len(p), len(s))
			return &BroadcastError{A: p.Clone(), B: s.Clone(), Dim: dim,
				SizeA: extentAt(p, rank, dim), SizeB: extentAt(s, rank, dim)}
		}
	}
	// The conflict is with a combination of earlier shapes: report it against
	// their broadcast.
	acc, _ := BroadcastShapes(prev...)
	dim, _ := rightmostMismatch(acc, s)
	rank := max(len(acc), len(s))
	return &BroadcastError{A: acc, B: s.Clone(), Dim: dim, SizeA: extentAt(acc, rank, dim), SizeB: extentAt(s, rank, dim)}
}

// extentAt returns s's extent at axis dim of a rank-rank right-aligned layout.
func extentAt(s Shape, rank, dim int) int {
	i := dim - (rank - len(s))
	if i < 0 {
		return 1
	}
	return s[i]
}

// rightmostMismatch returns the right-most axis (in broadcast coordinates)
// where a and b are incompatible.
func rightmostMismatch(a, b Shape) (int, bool) {
	rank := max(len(a), len(b))
	for d := rank - 1; d >= 0; d-- {
		x, y := extentAt(a, rank, d), extentAt(b, rank, d)
		if x != y && x != 1 && y != 1 {
			return d, true
		}
	}
	return 0, false
}

// Broadcastable reports whether a and b broadcast together.
func Broadcastable(a, b Shape) bool {
	_, err := BroadcastShapes(a, b)
	return err == nil
}

// BroadcastStrides returns the strides that make a tensor of shape `shape`
// and strides `strides` read as a tensor of shape target: 0 on the axes it is
// broadcast along (and on the padded leading axes). It returns an
// *ExpandError when shape does not expand to target.
func BroadcastStrides(shape Shape, strides []int, target Shape) ([]int, error) {
	if len(shape) > len(target) {
		return nil, &ShapeError{Shape: shape.Clone(), Axis: -1,
			Reason: "has more dimensions than the target shape " + target.String()}
	}
	if len(strides) != len(shape) {
		return nil, &ShapeError{Shape: shape.Clone(), Axis: -1,
			Reason: fmt.Sprintf("%d strides for %d dimensions", len(strides), len(shape))}
	}
	out := make([]int, len(target))
	pad := len(target) - len(shape)
	for i := len(shape) - 1; i >= 0; i-- {
		switch {
		case shape[i] == target[pad+i]:
			out[pad+i] = strides[i]
		case shape[i] == 1:
			out[pad+i] = 0
		default:
			return nil, &ExpandError{Target: target.Clone(), Tensor: shape.Clone(), Dim: pad + i,
				Expanded: target[pad+i], Existing: shape[i]}
		}
	}
	return out, nil
}
