package exec

import (
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Assembled values (concatenate, stack, roll, pad, repeat: expr.Assemble).
//
// An assemble node gets one tensor, a new one or its root's destination,
// and each of its pieces fills a box of it, at the node's level:
//
//   - a whole operand is a member of a fused region that writes the
//     piece's view of the tensor, so an elementwise operand is computed
//     straight into its box and never has a tensor of its own (the
//     pieces of one shape share one region, one pass);
//   - a box of an operand (a roll's halves, a pad's borders, an element
//     repeated) is copied from a view of the operand's tensor by a region
//     of its own, and such an operand is materialized first.
//
// A further elementwise op on the assembled value reads its tensor as any
// operand: the value is materialized once, in one buffer, and never read
// piecewise.

// boxedOperands returns the canonical operand positions (of args) of n
// that a piece of n reads a box of, when n is an assemble node.
func (pl *planner) boxedOperands(n *expr.Node, args []int32) []int32 {
	if n.Op() != expr.OpAssemble {
		return nil
	}
	var out []int32
	for _, p := range n.Pieces() {
		if !p.Whole() {
			out = append(out, args[p.Arg])
		}
	}
	return out
}

// assembleValue makes the value of an assemble node: its tensor (root
// destination dst when d is not nil), with a step per piece writing its box.
func (pl *planner) assembleValue(n *expr.Node, dst int, d tensor.Any) int {
	var out int
	if d != nil {
		out = pl.dstValue(n, dst, d)
	} else {
		out = pl.tempValue(n, n.Shape())
	}
	args := pl.args(n)
	level := pl.level[n]
	for _, p := range n.Pieces() {
		ov := pl.p.values[out]
		box := value{kind: valView, node: n, dt: n.DType(), shape: tensor.Shape(p.Size).Clone(),
			strides: append([]int(nil), ov.strides...), offset: ov.offset, src: out, storage: ov.storage}
		for k, at := range p.At {
			box.offset += at * ov.strides[k]
		}
		a := args[p.Arg]
		if p.Whole() {
			if as := a.Shape(); len(as) > 0 && !as.Equal(box.shape) {
				// A piece of a stack: the box seen as the operand's shape.
				box.strides, _ = reshapeStrides(box.shape, box.strides, as)
				box.shape = as.Clone()
			}
			id := pl.addValue(box)
			pl.addStep(level, &viewStep{v: id, op: n.Op(), val: pl.p.values[id]})
			_, has := pl.valueOf[a]
			pl.addMember(level, member{node: a, value: id, shape: box.shape, copy: has && a.Op().Elementwise()})
			continue
		}
		from := pl.valueOf[a]
		sv := pl.p.values[from]
		src := value{kind: valView, node: a, dt: a.DType(), shape: box.shape.Clone(), strides: make([]int, len(p.Size)),
			offset: sv.offset, src: from, storage: sv.storage}
		for k, f := range p.From {
			src.offset += f * sv.strides[k]
			if p.Spread == nil || !p.Spread[k] {
				src.strides[k] = sv.strides[k]
			}
		}
		sid := pl.addValue(src)
		pl.addStep(level, &viewStep{v: sid, op: n.Op(), val: pl.p.values[sid]})
		bid := pl.addValue(box)
		pl.addStep(level, &viewStep{v: bid, op: n.Op(), val: pl.p.values[bid]})
		pl.addStep(level, pl.copyRegion(sid, bid))
	}
	return out
}

// ownView reports whether value v is a view that can be handed out as a
// result in place of a copy: all of a temporary's storage, row-major from
// its start (a reshape of a tile's or a flattened roll's tensor), that no
// other root's value shares.
func (pl *planner) ownView(v int, roots []*expr.Node) bool {
	val := &pl.p.values[v]
	st := &pl.p.values[val.storage]
	if val.kind != valView || st.kind != valTemp || val.offset != 0 {
		return false
	}
	n, _ := val.shape.Numel()
	if m, _ := st.shape.Numel(); m != n {
		return false
	}
	want := tensor.RowMajorStrides(val.shape)
	for i, d := range val.shape {
		if d > 1 && val.strides[i] != want[i] {
			return false
		}
	}
	sharing := 0
	for _, r := range roots {
		if u, ok := pl.valueOf[r]; ok && pl.p.values[u].storage == val.storage {
			sharing++
		}
	}
	for _, r := range pl.p.results {
		if pl.p.values[r].storage == val.storage {
			return false
		}
	}
	return sharing == 1
}
