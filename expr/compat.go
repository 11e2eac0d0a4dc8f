package expr

import (
	"github.com/tensorplay/tensorplay/compat"
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// broadcastOperands returns the result shape of a binary op, the second
// operand to compute it from and the warning the op gives if it is built,
// applying the compat rules: the legacy 1-D fallback and broadcast warning,
// and the merged-rank limit of the restricted dtypes. The caller warns only
// once every check has passed (warnBuilt), so a failed op warns of nothing.
func broadcastOperands(a, b *Node) (tensor.Shape, *Node, compat.Kind, error) {
	switch {
	case a.shape.Equal(b.shape):
		return a.shape, b, "", nil // identical shapes: nothing to check or warn
	case len(b.shape) == 0 && !compat.BroadcastWarning():
		return a.shape, b, "", nil // a scalar operand
	}
	shape, err := broadcastShape(a.shape, b.shape)
	na, _ := a.shape.Numel()
	nb, _ := b.shape.Numel()
	if err != nil {
		if !compat.LegacyPointwise() || na != nb {
			return nil, nil, "", err
		}
		// View both as 1-D: b read in row-major order as a's shape.
		flat := reshape(b, a.shape)
		if flat.err != nil {
			return nil, nil, "", flat.err
		}
		return a.shape, flat, compat.DeprecatedPointwise, nil
	}
	if err := checkRestrictedRank(a.dt, a.shape, b.shape); err != nil {
		return nil, nil, "", err
	}
	if compat.BroadcastWarning() && na == nb {
		return shape, b, compat.BackcompatBroadcast, nil
	}
	return shape, b, "", nil
}

// broadcastShape is tensor.BroadcastShapes of two shapes, returning a or
// b itself, not a copy, when the other broadcasts to it (shapes are never
// modified once made): [n, c] with [n, 1] or [c] allocates nothing.
func broadcastShape(a, b tensor.Shape) (tensor.Shape, error) {
	switch {
	case covers(a, b):
		return a, nil
	case covers(b, a):
		return b, nil
	}
	return tensor.BroadcastShapes(a, b)
}

// covers reports whether small broadcasts to big: no more axes, each of
// its extents 1 or big's (big's extents are valid, as every node's are).
func covers(big, small tensor.Shape) bool {
	if len(small) > len(big) {
		return false
	}
	off := len(big) - len(small)
	for i, d := range small {
		if d != 1 && d != big[off+i] {
			return false
		}
	}
	return true
}

// warnBuilt emits the warning of kind k for an op that has been built.
func warnBuilt(k compat.Kind) {
	switch k {
	case compat.BackcompatBroadcast:
		compat.Warn(k, compat.BackcompatBroadcastText)
	case compat.DeprecatedPointwise:
		compat.Warn(k, compat.DeprecatedPointwiseText)
	}
}

// checkRestrictedRank applies the CANN rule: for a restricted dtype, the
// broadcast of the operands' shapes (two for a binary op; Where's condition
// and both values) must merge to fewer than MaxRestrictedRank axes.
func checkRestrictedRank(dt dtype.DType, shapes ...tensor.Shape) error {
	if !compat.RestrictedRank() || !dt.Restricted() {
		return nil
	}
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	if rank < MaxRestrictedRank {
		return nil // the merged rank is at most the largest rank
	}
	merged, err := mergedBroadcastShape(shapes...)
	if err != nil {
		return err
	}
	if len(merged) >= MaxRestrictedRank {
		e := &RestrictedRankError{DType: dt, A: shapes[0].Clone(), B: shapes[1].Clone(), Merged: merged}
		if len(shapes) == 3 { // Where(cond, a, b)
			e.Cond, e.A, e.B = shapes[0].Clone(), shapes[1].Clone(), shapes[2].Clone()
		}
		return e
	}
	return nil
}

// mergedBroadcastShape is tensor.MergedBroadcastShape for any number of
// operands: identical shapes are one axis; otherwise, right-aligned and
// padded with 1, each axis where the result is not 1 is labelled by the set
// of operands that are stretched there (extent 1), and runs of equal labels
// merge, their extents multiplied. For two operands the labels are
// MergedBroadcastShape's none / a / b, and so is the result.
func mergedBroadcastShape(shapes ...tensor.Shape) (tensor.Shape, error) {
	out, err := tensor.BroadcastShapes(shapes...)
	if err != nil {
		return nil, err
	}
	n, err := out.Numel()
	if err != nil {
		return nil, err
	}
	same := true
	for _, s := range shapes[1:] {
		same = same && s.Equal(shapes[0])
	}
	if same {
		return tensor.Shape{n}, nil
	}
	rank := len(out)
	merged := tensor.Shape{}
	last := -1
	for d := range rank {
		if out[d] == 1 {
			continue // every operand is 1: no axis, and no break in a run
		}
		label := 0
		for k, s := range shapes {
			if i := d - (rank - len(s)); i < 0 || s[i] == 1 {
				label |= 1 << k
			}
		}
		if label == last {
			merged[len(merged)-1] *= out[d]
		} else {
			merged = append(merged, out[d])
			last = label
		}
	}
	if len(merged) == 0 {
		return tensor.Shape{1}, nil
	}
	return merged, nil
}

// MaxRestrictedRank is the merged broadcast rank that restricted dtypes must
// stay below.
const MaxRestrictedRank = 6
