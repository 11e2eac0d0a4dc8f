package expr

import (
	"github.com/tensorplay/tensorplay/compat"
	"github.com/tensorplay/tensorplay/tensor"
)

// broadcastOperands returns the result shape of a binary op and the second
// operand to compute it from, applying the compat rules: the legacy 1-D
// fallback and broadcast warning, and the merged-rank limit of the
// restricted dtypes.
func broadcastOperands(op Op, a, b *Node) (tensor.Shape, *Node, error) {
	switch {
	case a.shape.Equal(b.shape):
		return a.shape, b, nil // identical shapes: nothing to check or warn
	case len(b.shape) == 0 && !compat.BroadcastWarning():
		return a.shape, b, nil // a scalar operand
	}
	shape, err := tensor.BroadcastShapes(a.shape, b.shape)
	na, _ := a.shape.Numel()
	nb, _ := b.shape.Numel()
	if err != nil {
		if !compat.LegacyPointwise() || na != nb {
			return nil, nil, err
		}
		// View both as 1-D: b read in row-major order as a's shape.
		compat.Warn(compat.DeprecatedPointwise, compat.DeprecatedPointwiseText)
		return a.shape, reshape(b, a.shape), nil
	}
	if compat.BroadcastWarning() && na == nb && !a.shape.Equal(b.shape) {
		compat.Warn(compat.BackcompatBroadcast, compat.BackcompatBroadcastText)
	}
	if err := checkRestrictedRank(a, b); err != nil {
		return nil, nil, err
	}
	return shape, b, nil
}

// checkRestrictedRank applies the CANN rule: for a restricted dtype, the
// broadcast of a and b must merge to fewer than MaxRestrictedRank axes.
func checkRestrictedRank(a, b *Node) error {
	// The merged rank is at most the larger rank.
	if !compat.RestrictedRank() || !a.dt.Restricted() || max(len(a.shape), len(b.shape)) < MaxRestrictedRank {
		return nil
	}
	merged, err := tensor.MergedBroadcastShape(a.shape, b.shape)
	if err != nil {
		return err
	}
	if len(merged) >= MaxRestrictedRank {
		return &RestrictedRankError{DType: a.dt, A: a.shape.Clone(), B: b.shape.Clone(), Merged: merged}
	}
	return nil
}

// MaxRestrictedRank is the merged broadcast rank that restricted dtypes must
// stay below.
const MaxRestrictedRank = 6
