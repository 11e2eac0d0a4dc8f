package exec

import (
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// permutedDsts finds the roots written into a destination that are a
// permute of an elementwise node read by nothing else (NumPy's
// normalize-then-transpose, x.transpose(0, 2, 3, 1) of an NCHW batch into
// NHWC): such a node is computed straight into the destination, through
// the view of it that undoes the permute, instead of into a tensor of its
// own that a second pass then copies, transposed. It returns the view's
// value for each such node and the destination's value for each such root,
// and adds the views' steps. A destination that shares storage with a leaf
// keeps the copy, which stages what overlaps.
func (pl *planner) permutedDsts(roots []*expr.Node, dsts []tensor.Any, mayFail bool) (viewOf, rootValue map[*expr.Node]int) {
	if dsts == nil || mayFail {
		return nil, nil
	}
	var uses []int32
	for i, r := range roots {
		d := dsts[i]
		if _, done := rootValue[r]; done || d == nil || r.Op() != expr.OpPermute || !r.Shape().Equal(d.Shape()) {
			continue // a root given twice keeps its first destination
		}
		e := pl.args(r)[0]
		if !e.Op().Elementwise() || !pl.mat[e] || pl.sharesWithLeaf(d) {
			continue
		}
		if uses == nil {
			uses = pl.useCounts(roots)
		}
		if uses[pl.pos(e)] != 1 {
			continue
		}
		if viewOf == nil {
			viewOf, rootValue = map[*expr.Node]int{}, map[*expr.Node]int{}
		}
		dv := pl.dstValue(r, i, d)
		strides := make([]int, len(r.Axes()))
		for k, a := range r.Axes() {
			strides[a] = d.Strides()[k]
		}
		ev := pl.addValue(value{kind: valView, node: e, dt: e.DType(), shape: e.Shape(), strides: strides,
			offset: d.Offset(), src: dv, storage: dv})
		pl.addStep(0, &viewStep{v: ev, op: expr.OpPermute, val: pl.p.values[ev]})
		viewOf[e], rootValue[r] = ev, dv
	}
	return viewOf, rootValue
}

// useCounts is, for each canonical position, the number of canonical
// nodes that read it plus the number of times it is a root.
func (pl *planner) useCounts(roots []*expr.Node) []int32 {
	uses := make([]int32, len(pl.w.nodes))
	for i := range pl.w.nodes {
		if pl.canon[i] != int32(i) {
			continue
		}
		for _, a := range pl.cargsAt(i) {
			uses[a]++
		}
	}
	for _, r := range roots {
		uses[pl.pos(r)]++
	}
	return uses
}
