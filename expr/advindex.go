package expr

import (
	"fmt"
	"slices"

	"github.com/tensorplay/tensorplay/tensor"
)

// NumPy's advanced indexing on expressions: Idx with index tensors
// (tensor.At). The plan is tensor.AdvancedIndexMap's, shared with
// Tensor.Idx; the value is one gather (OpGather) of the basic view, so a
// consumer reads the picked elements through the index in its own kernel
// (the indexed access kind) and nothing is copied:
//
//   - one index tensor: a take along its axis of the basic view;
//   - several (integers count as index tensors next to one): the indexed
//     axes are made adjacent (a permute to the front where NumPy moves
//     their broadcast axes there), merged into one by a reshape, and
//     gathered at the flat index Σ i_k·(n_{k+1}·…·n_m). Each i_k is first
//     taken from arange(n_k) (along the operand's axis k, see
//     checkedIndex), which counts a negative index from the end and
//     refuses one outside the axis before anything is written, naming
//     that axis, so an index past its own axis never lands on a valid
//     flat position.
//
// The reshape is a view where the merged axes' strides allow it (the
// adjacent axes of a contiguous tensor); elsewhere the executor copies
// the operand first, as it does for any reshape of a non-contiguous
// value. Boolean masks give a shape that depends on their values, so an
// expression refuses them (Tensor.Idx and exec.MaskSelect evaluate).

// advancedIdx is a.Idx(items...) with at least one At item.
func advancedIdx(a *Node, items []tensor.IndexItem) *Node {
	plan, err := tensor.AdvancedIndexMap(a.shape, items...)
	if err != nil {
		return errNode(OpGather, err)
	}
	viewErr := func(reason string, err error) *Node {
		return errNode(OpGather, &tensor.ViewError{Op: "Idx", Shape: a.shape.Clone(), Dim: -1, Reason: reason, Err: err})
	}
	v := viewNode(a, plan.Basic, nil)
	idx := make([]*Node, len(plan.Items))
	shapes := make([]tensor.Shape, len(plan.Items))
	for k, it := range plan.Items {
		switch {
		case it.Mask:
			return viewErr("", &tensor.ArgError{Op: "expr.Idx", Reason: "a boolean mask gives a shape that depends on its values: Tensor.Idx and exec.MaskSelect evaluate it"})
		case it.Array == nil:
			idx[k] = Scalar(int64(it.Int)).Node()
		default:
			n, err := indexerNode(it.Array)
			if err != nil {
				return viewErr("", err)
			}
			idx[k] = indexNode("Idx", n, false, true)
			if idx[k].err != nil {
				return idx[k]
			}
		}
		shapes[k] = idx[k].shape
	}
	b, err := tensor.BroadcastIndex("Idx", a.shape, shapes)
	if err != nil {
		return errNode(OpGather, err)
	}
	// NumPy checks the index tensors' values once broadcast: none when
	// the broadcast shape is empty (integers were checked by the plan).
	check := !slices.Contains(b, 0)
	if len(idx) == 1 {
		it := plan.Items[0]
		if it.Dim == it.Axis || !check {
			return take("Idx", v, idx[0], it.Axis, true)
		}
		// A new axis before it: the error names the operand's axis.
		return take("Idx", v, checkedIndex(idx[0], v.shape[it.Axis], it.Dim), it.Axis, false)
	}
	// Several: permute (when separated), merge, gather at the flat index.
	var perm []int
	for _, it := range plan.Items {
		perm = append(perm, it.Axis)
	}
	q := plan.Pos()
	if plan.Front {
		perm = append(perm, plan.Rest()...)
		v = permute(v, perm)
		for k := range plan.Items {
			plan.Items[k].Axis = k
		}
	}
	merged := make([]int, 0, len(v.shape))
	merged = append(merged, v.shape[:q]...)
	n := 1
	for _, it := range plan.Items {
		n *= v.shape[it.Axis]
	}
	merged = append(merged, n)
	merged = append(merged, v.shape[q+len(plan.Items):]...)
	var flat *Node
	scale := int64(1)
	for k := len(idx) - 1; k >= 0; k-- {
		size := v.shape[plan.Items[k].Axis]
		c := idx[k]
		if it := plan.Items[k]; it.Array != nil && check {
			c = checkedIndex(c, size, it.Dim)
		}
		if scale != 1 {
			c = binary(OpMul, c, Scalar(scale).Node())
		}
		if flat == nil {
			flat = c
		} else {
			flat = binary(OpAdd, c, flat)
		}
		scale *= int64(size)
	}
	return take("Idx", reshape(v, merged), flat, q, false)
}

// checkedIndex is the index c into an axis of extent n counted from the
// start, refused (when the graph runs) outside the axis: the take of c
// along axis dim of arange(n) shaped [1, …, 1, n] (dim ones), then
// reshaped back to c's shape, so that its *tensor.IndexError names the
// operand's axis dim and its extent, as Tensor.Idx's does.
func checkedIndex(c *Node, n, dim int) *Node {
	shape := make([]int, dim+1)
	for d := range shape {
		shape[d] = 1
	}
	shape[dim] = n
	r, err := tensor.Arange[int64](0, int64(n), 1)
	if err == nil {
		r, err = r.Reshape(shape...)
	}
	if err != nil {
		return errNode(OpGather, err)
	}
	t := take("Idx", Of(r).Node(), c, dim, true)
	if dim == 0 || t.err != nil {
		return t
	}
	return reshapeDims(t, c.Dims())
}

// indexerNode is the node of an At item's index: an expression, or a
// tensor of an integer type or bool made a leaf.
func indexerNode(x tensor.Indexer) (*Node, error) {
	switch v := x.(type) {
	case Any:
		return nodeOf(v), nil
	case *tensor.Tensor[int64]:
		return Of(v).Node(), nil
	case *tensor.Tensor[int32]:
		return Of(v).Node(), nil
	case *tensor.Tensor[int16]:
		return Of(v).Node(), nil
	case *tensor.Tensor[int8]:
		return Of(v).Node(), nil
	case *tensor.Tensor[int]:
		return Of(v).Node(), nil
	case *tensor.Tensor[uint64]:
		return Of(v).Node(), nil
	case *tensor.Tensor[uint32]:
		return Of(v).Node(), nil
	case *tensor.Tensor[uint16]:
		return Of(v).Node(), nil
	case *tensor.Tensor[uint8]:
		return Of(v).Node(), nil
	case *tensor.Tensor[uint]:
		return Of(v).Node(), nil
	}
	return nil, &tensor.ArgError{Op: "expr.Idx", Reason: fmt.Sprintf("an index must be an expression or a tensor of an integer type, not %T (%s)", x, x.DType())}
}
