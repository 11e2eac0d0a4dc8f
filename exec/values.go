package exec

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

func (pl *planner) addValue(v value) int {
	id := len(pl.p.values)
	if v.kind != valView {
		v.storage = id
	}
	pl.p.values = append(pl.p.values, v)
	if v.kind == valTemp {
		pl.p.temps = append(pl.p.temps, id)
	}
	return id
}

// leafValue makes the value of a leaf (tensor, scalar or bound placeholder).
func (pl *planner) leafValue(n *expr.Node, t tensor.Any) int {
	return pl.addValue(value{kind: valFixed, node: n, dt: t.DType(), shape: t.Shape(), strides: t.Strides(),
		offset: t.Offset(), fixed: t, leaf: pl.w.leafOrdinal(n), dst: -1})
}

// dstValue makes the value of destination i.
func (pl *planner) dstValue(n *expr.Node, i int, t tensor.Any) int {
	return pl.addValue(value{kind: valFixed, node: n, dt: t.DType(), shape: t.Shape(), strides: t.Strides(),
		offset: t.Offset(), fixed: t, dst: i})
}

func (pl *planner) tempValue(n *expr.Node, shape tensor.Shape) int {
	return pl.addValue(value{kind: valTemp, node: n, dt: n.DType(), shape: shape, strides: tensor.RowMajorStrides(shape)})
}

// addMember makes node's value (computed, or copied from its tensor) be
// written to value v by a fused region at the given level.
func (pl *planner) addMember(level int, m member) {
	k := groupKey{level, m.shape.String()}
	if _, ok := pl.members[k]; !ok {
		pl.groups = append(pl.groups, k)
	}
	pl.members[k] = append(pl.members[k], m)
}

// assignValues gives each leaf, materialized node, view, reduction and
// matmul its tensor, and each root its result tensor.
func (pl *planner) assignValues(roots []*expr.Node, dsts []tensor.Any) error {
	rootDst := map[*expr.Node]int{}
	mayFail := pl.mayFail()
	for i, r := range roots {
		if dsts == nil || dsts[i] == nil || !r.Shape().Equal(dsts[i].Shape()) || mayFail {
			continue
		}
		if _, ok := rootDst[r]; ok {
			continue
		}
		// A fused kernel writes any layout, staging what overlaps; a
		// reduction or matmul writes a row-major tensor from offset 0 and
		// must not overwrite its own inputs.
		// With several roots, another step may still read what a
		// destination holds: such a destination is written last, by a copy.
		c := r.Op().Class()
		shared := pl.sharesWithLeaf(dsts[i])
		direct := r.Op().Elementwise() && (len(roots) == 1 || !shared) ||
			r.Op() == expr.OpAssemble && len(roots) == 1 && !shared ||
			(c == expr.ClassReduce || c == expr.ClassMatMul || c == expr.ClassWindow || c == expr.ClassScan) && rowMajorAtZero(dsts[i]) && !shared
		if direct {
			rootDst[r] = i
		}
	}
	gatherCopies := pl.gatherCopies()
	viewOf, rootValue := pl.permutedDsts(roots, dsts, mayFail)
	for _, n := range pl.order {
		switch c := n.Op().Class(); {
		case n.Op() == expr.OpGather:
			pl.valueOf[n] = pl.gatherValue(n, gatherCopies[n])
		case c == expr.ClassIndex:
			pl.valueOf[n] = pl.scatterValue(n)
		case n.Op() == expr.OpTensor || n.Op() == expr.OpScalar:
			pl.valueOf[n] = pl.leafValue(n, n.Tensor())
		case n.Op() == expr.OpPlaceholder:
			t, ok := pl.binds[n]
			switch {
			case !ok:
				return &BindError{Name: n.Name(), Reason: "no tensor bound"}
			case t.DType() != n.DType():
				return &BindError{Name: n.Name(), Reason: fmt.Sprintf("bound to a %s tensor, declared %s", t.DType(), n.DType())}
			case !t.Shape().Equal(n.Shape()):
				return &BindError{Name: n.Name(), Reason: fmt.Sprintf("bound to a tensor of shape %v, declared %v", t.Shape(), n.Shape())}
			}
			pl.valueOf[n] = pl.leafValue(n, t)
		case n.Op().Elementwise():
			if !pl.mat[n] {
				continue
			}
			var v int
			if ev, ok := viewOf[n]; ok {
				v = ev
			} else if i, ok := rootDst[n]; ok {
				v = pl.dstValue(n, i, dsts[i])
			} else {
				v = pl.tempValue(n, n.Shape())
			}
			pl.valueOf[n] = v
			pl.addMember(pl.level[n], member{node: n, value: v, shape: n.Shape()})
		case n.Op() == expr.OpEmbed || n.Op() == expr.OpViewEmbed:
			pl.valueOf[n] = pl.embedValue(n)
		case n.Op() == expr.OpAssemble:
			var d tensor.Any
			i, ok := rootDst[n]
			if ok {
				d = dsts[i]
			}
			pl.valueOf[n] = pl.assembleValue(n, i, d)
		case c == expr.ClassShape:
			if dv, ok := rootValue[n]; ok {
				pl.valueOf[n] = dv
				continue
			}
			pl.valueOf[n] = pl.viewValue(n)
		default: // reductions and matmul
			if i, ok := rootDst[n]; ok {
				pl.valueOf[n] = pl.dstValue(n, i, dsts[i])
			} else {
				pl.valueOf[n] = pl.tempValue(n, n.Shape())
			}
		}
	}
	for i, r := range roots {
		v := pl.valueOf[r]
		var d tensor.Any
		if dsts != nil {
			d = dsts[i]
		}
		switch {
		case d != nil && pl.p.values[v].fixed == d:
			// Written by its region.
		case d != nil:
			// With several roots, after every step that may read d; in a
			// graph that may fail, after every step that may fail (a final
			// copy has a region of its own, see mergeGroups).
			final := len(roots) > 1 || mayFail
			level := pl.level[r] + 1
			if final {
				level = pl.lastLevel()
			}
			v = pl.dstValue(r, i, d)
			// A graph that may fail copies its roots' tensors, so that
			// the final pass cannot fail half-way; any other final pass
			// computes its roots again, from the old values, and the
			// tensors they had are dropped with the steps that filled
			// them (see dropDeadSteps).
			pl.addMember(level, member{node: r, value: v, shape: d.Shape(), final: final, copy: mayFail})
		case !r.Op().Elementwise() && pl.p.values[v].kind != valTemp && !pl.ownView(v, roots), pl.isResult(v):
			// A leaf or view must not be handed out as a new tensor, nor
			// one tensor as two results: copy.
			v = pl.tempValue(r, r.Shape())
			pl.addMember(pl.level[r]+1, member{node: r, value: v, shape: r.Shape()})
		}
		pl.p.results = append(pl.p.results, v)
	}
	return nil
}

// mayFail reports whether a kernel of the graph can refuse its operands
// once it runs: an integer pow whose exponent, a tensor or computed, may
// hold a negative value (see signedPow; expr refuses a negative scalar
// exponent when the graph is built). The roots of such a graph are
// computed into tensors of their own and copied into their destinations
// after every kernel has run, so that a failed evaluation writes nothing.
func (pl *planner) mayFail() bool {
	for _, n := range pl.order {
		if n.Op() == expr.OpPow && n.DType().Kind() == dtype.KindSigned && pl.args(n)[1].Op() != expr.OpScalar ||
			n.Op() == expr.OpExternal || indexMayFail(n) {
			return true
		}
	}
	return false
}

// lastLevel is a level after every step of the plan.
func (pl *planner) lastLevel() int {
	top := 0
	for _, l := range pl.level {
		top = max(top, l)
	}
	return top + 2
}

// rowMajorAtZero reports whether t is dense row-major from storage offset 0,
// the layout reductions and matmuls write.
func rowMajorAtZero(t tensor.Any) bool {
	if t.Offset() != 0 {
		return false
	}
	want := tensor.RowMajorStrides(t.Shape())
	for i, d := range t.Shape() {
		if d > 1 && t.Strides()[i] != want[i] {
			return false
		}
	}
	return true
}

// sharesWithLeaf reports whether t may share memory with a leaf of the graph.
func (pl *planner) sharesWithLeaf(t tensor.Any) bool {
	for _, l := range pl.w.leaves {
		if l != nil && t.SameStorage(l) {
			return true
		}
	}
	return false
}

func (pl *planner) isResult(v int) bool {
	for _, r := range pl.p.results {
		if r == v {
			return true
		}
	}
	return false
}

// viewValue makes the value of a shape op: a view of its operand's storage,
// or, for a reshape the layout does not allow, a view of a contiguous copy.
func (pl *planner) viewValue(n *expr.Node) int {
	arg := pl.args(n)[0]
	src := pl.valueOf[arg]
	sv := pl.p.values[src]
	v := value{kind: valView, node: n, dt: n.DType(), shape: n.Shape(), offset: sv.offset, src: src, storage: sv.storage}
	switch n.Op() {
	case expr.OpStopGradient:
		v.strides = sv.strides
	case expr.OpPermute:
		v.strides = make([]int, len(n.Axes()))
		for i, p := range n.Axes() {
			v.strides[i] = sv.strides[p]
		}
	case expr.OpExpand:
		v.strides, _ = tensor.BroadcastStrides(sv.shape, sv.strides, n.Shape())
	case expr.OpView:
		v.strides, v.offset = n.ViewMap().Apply(sv.strides, sv.offset)
	case expr.OpSlice:
		axis, start, _, step := n.SliceArgs()
		v.strides = append([]int(nil), sv.strides...)
		if n.Shape()[axis] > 0 {
			v.offset += start * sv.strides[axis]
		}
		v.strides[axis] *= step
	case expr.OpReshape:
		st, ok := reshapeStrides(sv.shape, sv.strides, n.Shape())
		if !ok {
			// Copy the operand to a contiguous tensor, then view that.
			tmp := pl.tempValue(arg, sv.shape)
			pl.addMember(pl.level[arg]+1, member{node: arg, value: tmp, shape: sv.shape})
			pl.level[n] = max(pl.level[n], pl.level[arg]+2)
			v.src, v.storage, v.offset = tmp, tmp, 0
			st, _ = reshapeStrides(sv.shape, tensor.RowMajorStrides(sv.shape), n.Shape())
		}
		v.strides = st
	}
	id := pl.addValue(v)
	pl.addStep(pl.level[n], &viewStep{v: id, op: n.Op(), val: pl.p.values[id]})
	return id
}

// embedValue makes the value of an embed: a new tensor of zeros, with the
// operand copied into the view of it that a slice (an embed) or a view map
// (a view embed) would read.
func (pl *planner) embedValue(n *expr.Node) int {
	arg := pl.args(n)[0]
	tmp := pl.tempValue(n, n.Shape())
	t := pl.p.values[tmp]
	v := value{kind: valView, node: n, dt: n.DType(), shape: arg.Shape(), src: tmp, storage: tmp}
	if n.Op() == expr.OpViewEmbed {
		v.strides, v.offset = n.ViewMap().Apply(t.strides, 0)
	} else {
		axis, start, _, step := n.SliceArgs()
		v.strides = append([]int(nil), t.strides...)
		if arg.Shape()[axis] > 0 {
			v.offset = start * t.strides[axis]
		}
		v.strides[axis] *= step
	}
	view := pl.addValue(v)
	pl.addStep(pl.level[n], &viewStep{v: view, op: n.Op(), val: pl.p.values[view]})
	pl.addMember(pl.level[n], member{node: arg, value: view, shape: arg.Shape()})
	return tmp
}

// reshapeStrides returns strides that view a tensor of shape `shape` and
// strides `strides` as newShape in row-major order, or false when no view
// can (NumPy's attempt_nocopy_reshape).
func reshapeStrides(shape tensor.Shape, strides []int, newShape tensor.Shape) ([]int, bool) {
	var os, ost []int // the operand without its size-1 axes
	for i, d := range shape {
		if d == 0 {
			return tensor.RowMajorStrides(newShape), true
		}
		if d != 1 {
			os = append(os, d)
			ost = append(ost, strides[i])
		}
	}
	out := make([]int, len(newShape))
	oi, ni := 0, 0
	for ni < len(newShape) && oi < len(os) {
		// Grow an old and a new group of axes until their extents match.
		oj, nj := oi+1, ni+1
		op, np := os[oi], newShape[ni]
		for op != np {
			if np < op {
				np *= newShape[nj]
				nj++
			} else {
				op *= os[oj]
				oj++
			}
		}
		// The old group must be contiguous within itself.
		for k := oi; k < oj-1; k++ {
			if ost[k] != os[k+1]*ost[k+1] {
				return nil, false
			}
		}
		out[nj-1] = ost[oj-1]
		for k := nj - 1; k > ni; k-- {
			out[k-1] = out[k] * newShape[k]
		}
		oi, ni = oj, nj
	}
	// Trailing size-1 axes of the new shape.
	for k := ni; k < len(newShape); k++ {
		out[k] = 1
	}
	return out, true
}
