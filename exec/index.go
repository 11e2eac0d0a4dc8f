package exec

import (
	"fmt"
	"io"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/stash"
	"github.com/tensorplay/tensorplay/tensor"
)

// Reads and writes through an index tensor (expr's OpGather, OpScatter,
// OpScatterAdd; see expr/index.go).
//
// A gather has no tensor of its own. Its value is a view of its operand x
// with stride 0 on the index axes (what x holds at index 0 along the
// axis), and an index: the element at p is the view's element at p plus
// idx[p] times x's stride along the axis. A region (or a reduction's
// producer) reads such a value as an operand of kind accIndexed: its
// index is another input of the region, presented first, and the operand
// is gathered through it (slot.gatherIndexed), so a fused loss reads only
// the gathered elements of x. Anything else that needs the gather's
// values as a tensor (a view of it, a matmul, another gather's index) gets
// them copied into a temporary by a region of its own.
//
// Index values are checked before anything reads them (indexCheck): an
// index that is a leaf (or a reshape, expand or permute of one) before
// every step of the plan; a computed one right after it is computed, and
// such a graph writes its destinations last (see mayFail), so that a
// refused index leaves every destination as it was.
//
// A scatter's value is a new tensor: a region writes its base into it,
// then a step writes (or adds) src's elements at the indexed positions
// (scatterStep).

// indexedValue is the index of a gather's value: the index value (int64,
// of the gather's shape or broadcasting to it), the stride of the indexed
// axis in the operand's storage and its extent.
type indexedValue struct {
	index  int
	stride int
	n      int
}

// indexedRead is how an input slot of a region reads through an index:
// the slot holding the index (-1: the slot is not indexed), the stride of
// the indexed axis and its extent (negative indices count back from it).
type indexedRead struct {
	slot, stride, n int
}

// withIndexes adds the index of every indexed value among inputs as an
// input (once) and returns the inputs and, per input slot, its read.
func (pl *planner) withIndexes(inputs []int) ([]int, []indexedRead) {
	var reads []indexedRead
	for s := 0; s < len(inputs); s++ {
		iv := pl.p.values[inputs[s]].index
		if iv == nil {
			continue
		}
		if reads == nil {
			reads = make([]indexedRead, len(inputs))
			for k := range reads {
				reads[k].slot = -1
			}
		}
		k := -1
		for j, in := range inputs {
			if in == iv.index {
				k = j
			}
		}
		if k < 0 {
			k = len(inputs)
			inputs = append(inputs, iv.index)
		}
		reads[s] = indexedRead{slot: k, stride: iv.stride, n: iv.n}
	}
	for len(reads) > 0 && len(reads) < len(inputs) {
		reads = append(reads, indexedRead{slot: -1})
	}
	return inputs, reads
}

// indexed reports whether input slot s of g reads through an index.
func (g *region) indexed(s int) bool { return s < len(g.reads) && g.reads[s].slot >= 0 }

// operandIndexed reports whether operand op of g's layout (outputs first)
// reads through an index; nout is the number of outputs before the inputs.
func (g *region) operandIndexed(op, nout int) bool { return op >= nout && g.indexed(op-nout) }

// unindex drops the reads of slots that no longer hold an indexed value
// (staged into a plain copy).
func (pl *planner) unindex(inputs []int, reads []indexedRead) {
	for s := range reads {
		if reads[s].slot >= 0 && pl.p.values[inputs[s]].index == nil {
			reads[s].slot = -1
		}
	}
}

// gatherCopies marks the gathers whose values some step other than a
// region or reduction reads as a tensor (a view, a matmul, a gather or
// scatter): they get a temporary (see gatherValue).
func (pl *planner) gatherCopies() map[*expr.Node]bool {
	var need map[*expr.Node]bool
	for i, n := range pl.w.nodes {
		if pl.canon[i] != int32(i) {
			continue
		}
		c := n.Op().Class()
		if c != expr.ClassShape && c != expr.ClassMatMul && c != expr.ClassIndex && c != expr.ClassExternal {
			continue
		}
		for _, a := range pl.cargsAt(i) {
			if an := pl.w.nodes[a]; an.Op() == expr.OpGather {
				if need == nil {
					need = map[*expr.Node]bool{}
				}
				need[an] = true
			}
		}
	}
	return need
}

// gatherValue makes the value of a gather node (see above) with its index
// check, and a temporary holding its values when copy is set.
func (pl *planner) gatherValue(n *expr.Node, copy bool) int {
	args := pl.args(n)
	src, idx := pl.valueOf[args[0]], pl.valueOf[args[1]]
	sv := pl.p.values[src]
	axis, m, neg := n.IndexArgs()
	pl.addIndexCheck(n, args[1], idx, sv.shape[axis], axis, neg)
	strides := make([]int, 0, len(n.Shape()))
	strides = append(strides, sv.strides[:axis]...)
	strides = append(strides, make([]int, m)...)
	strides = append(strides, sv.strides[axis+1:]...)
	v := value{kind: valView, node: n, dt: n.DType(), shape: n.Shape(), strides: strides, offset: sv.offset,
		src: src, storage: sv.storage, index: &indexedValue{index: idx, stride: sv.strides[axis], n: sv.shape[axis]}}
	id := pl.addValue(v)
	pl.addStep(pl.level[n], &viewStep{v: id, op: n.Op(), val: pl.p.values[id]})
	if pl.indexedOf == nil {
		pl.indexedOf = map[*expr.Node]int{}
	}
	pl.indexedOf[n] = id
	if !copy {
		return id
	}
	tmp := pl.tempValue(n, n.Shape())
	pl.addMember(pl.level[n], member{node: n, value: tmp, shape: n.Shape(), copy: true})
	return tmp
}

// scatterValue makes the value of a scatter node: a temporary that a
// region fills with the base (at the node's level) and the scatter step
// then writes through (one level up).
func (pl *planner) scatterValue(n *expr.Node) int {
	args := pl.args(n)
	base, idx, src := args[0], pl.valueOf[args[1]], pl.valueOf[args[2]]
	axis, _, neg := n.IndexArgs()
	out := pl.tempValue(n, n.Shape())
	pl.addIndexCheck(n, args[1], idx, n.Shape()[axis], axis, neg)
	pl.addMember(pl.level[n], member{node: base, value: out, shape: n.Shape()})
	iv, sv, ov := pl.p.values[idx], pl.p.values[src], pl.p.values[out]
	s := &scatterStep{add: n.Op() == expr.OpScatterAdd, out: out, idx: idx, src: src, dt: n.DType(),
		axis: axis, neg: neg, n: n.Shape()[axis], shape: iv.shape, idxSt: iv.strides, idxOff: iv.offset,
		srcSt: sv.strides, srcOff: sv.offset, outSt: ov.strides}
	s.lines = 1
	for d, e := range s.shape {
		if d != axis {
			s.lines *= e
		}
	}
	s.kernel = scatterKernel(s.dt, s.add)
	pl.addStep(pl.level[n]+1, s)
	return out
}

// addIndexCheck adds the step that checks the index value idx (of node
// in) of node n against an axis of extent size: before every step when
// the index is a leaf or a view that keeps a leaf's values, else at n's
// level (the graph then writes its destinations last, see mayFail). The
// leaf indexLeaf finds through the views is looked up as the node CSE
// merged it into: a leaf merged into an equal one has no value of its own.
func (pl *planner) addIndexCheck(n, in *expr.Node, idx, size, axis int, neg bool) {
	level := pl.level[n]
	if leaf := indexLeaf(in); leaf != nil {
		if pl.merged {
			leaf = pl.w.nodes[pl.canon[pl.pos(leaf)]]
		}
		v, ok := pl.valueOf[leaf]
		if !ok {
			panic(fmt.Sprintf("exec: internal error: no value for the index leaf of %s", n.Op()))
		}
		idx, level = v, 0
	}
	pl.addStep(level, &indexCheck{idx: idx, n: size, axis: axis, neg: neg, op: n.Op()})
}

// indexLeaf returns the leaf whose values an index node holds, through
// reshapes, expands and permutes, or nil when it is computed.
func indexLeaf(n *expr.Node) *expr.Node {
	for {
		switch n.Op() {
		case expr.OpTensor, expr.OpPlaceholder, expr.OpScalar:
			return n
		case expr.OpReshape, expr.OpExpand, expr.OpPermute:
			n = n.Args()[0]
		default:
			return nil
		}
	}
}

// indexMayFail reports whether node n reads a computed index, which is
// checked only once it is computed (see mayFail).
func indexMayFail(n *expr.Node) bool {
	switch n.Op() {
	case expr.OpGather, expr.OpScatter, expr.OpScatterAdd:
		return indexLeaf(n.Args()[1]) == nil
	}
	return false
}

// indexCheck refuses an index value outside [0, n) (after counting a
// negative one back from n, with neg) with a *tensor.IndexError.
type indexCheck struct {
	idx, n, axis int
	neg          bool
	op           expr.Op
}

func (c *indexCheck) run(x *Executor, vals []tensor.Any) error {
	t := vals[c.idx].(*tensor.Tensor[int64])
	var bad error
	forEachOffset(t.Shape(), t.Strides(), t.Offset(), func(o int) bool {
		k := t.Data()[o]
		w := k
		if c.neg && w < 0 {
			w += int64(c.n)
		}
		if w < 0 || w >= int64(c.n) {
			bad = &tensor.IndexError{Index: int(k), Axis: c.axis, Size: c.n}
			return false
		}
		return true
	})
	return bad
}

// values lists what the check reads, the index; it writes nothing.
func (c *indexCheck) values() (reads, writes []int) { return []int{c.idx}, nil }

func (c *indexCheck) describe(w io.Writer, names func(int) string) {
	lo := "0"
	if c.neg {
		lo = fmt.Sprint(-c.n)
	}
	fmt.Fprintf(w, "  check %s: %s indices in [%s, %d) (axis %d)\n", names(c.idx), c.op, lo, c.n, c.axis)
}

// forEachOffset calls f with the storage offset of every element of a
// layout in row-major order, until f returns false.
func forEachOffset(shape tensor.Shape, strides []int, off int, f func(o int) bool) {
	for _, d := range shape {
		if d == 0 {
			return
		}
	}
	idx := make([]int, len(shape))
	for {
		if !f(off) {
			return
		}
		d := len(shape) - 1
		for ; d >= 0; d-- {
			idx[d]++
			off += strides[d]
			if idx[d] < shape[d] {
				break
			}
			off -= idx[d] * strides[d]
			idx[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// gatherIndexed fills the slot's buffer with the block g at off of an
// operand read through the index in slot idx (int64): element (i, j) is
// at off + i*stR + j*stC + idx[i*c+j]*stride, a negative index counted
// back from n. idxStC is the index's own stride along the block's rows:
// where it is 0 (one index per row, an embedding's lookup) and the
// operand is contiguous along them, each row is one copy.
func (s *slot[T]) gatherIndexed(g *geom, off int, idx slotAny, idxStC, stride, n int) {
	ix := idx.(*slot[int64])
	r, c := g.r, g.c
	s.v = s.buf[:r*c]
	if ix.scalar {
		k := int(ix.s)
		if k < 0 {
			k += n
		}
		gather(s.v, s.data, off+k*stride, g)
		return
	}
	iv := ix.v[:r*c]
	for i := 0; i < r; i++ {
		o := off + i*g.stR
		row, ir := s.v[i*c:(i+1)*c], iv[i*c:(i+1)*c]
		if idxStC == 0 && g.stC == 1 && c > 0 {
			k := int(ir[0])
			if k < 0 {
				k += n
			}
			copy(row, s.data[o+k*stride:o+k*stride+c])
			continue
		}
		for j := range row {
			k := int(ir[j])
			if k < 0 {
				k += n
			}
			row[j] = s.data[o+j*g.stC+k*stride]
		}
	}
}

// scatterStep writes (or, with add, adds) src's elements into out at the
// positions the index gives along axis, over the index's shape. out
// already holds the base (a region wrote it). The elements one line of
// the index's shape writes (its coordinates off the axis fixed) are
// disjoint from every other line's, so lines are split among the workers
// and each walks its lines' indices in order: duplicates are written
// (the last wins) or accumulated in the index's order, the same bits for
// any number of workers.
type scatterStep struct {
	add            bool
	out, idx, src  int
	dt             dtype.DType
	axis, n        int
	neg            bool
	shape          tensor.Shape // the index's
	idxSt, srcSt   []int
	idxOff, srcOff int
	outSt          []int // row-major strides of out (the base's shape)
	lines          int
	kernel         func(s *scatterStep, out, idx, src tensor.Any, lo, hi int)
	runs           stash.Stash[scatterRun] // kept between runs
}

// scatterRun is one evaluation of a scatter step.
type scatterRun struct {
	s              *scatterStep
	out, idx, src  tensor.Any
	perTask, tasks int
}

func (r *scatterRun) RunTask(t int) {
	lo := t * r.perTask
	r.s.kernel(r.s, r.out, r.idx, r.src, lo, min(lo+r.perTask, r.s.lines))
}

func (s *scatterStep) run(x *Executor, vals []tensor.Any) error {
	numel, _ := s.shape.Numel()
	if numel == 0 {
		return nil
	}
	r := scatterRun{s: s, out: vals[s.out], idx: vals[s.idx], src: vals[s.src], perTask: s.lines, tasks: 1}
	if x.workers > 1 && numel >= x.grain && s.lines > 1 {
		r.tasks = min(s.lines, x.workers*tasksPerWorker)
		r.perTask = (s.lines + r.tasks - 1) / r.tasks
		r.tasks = (s.lines + r.perTask - 1) / r.perTask
	}
	if r.tasks == 1 {
		r.RunTask(0)
		return nil
	}
	p := s.runs.Get()
	if p == nil {
		p = new(scatterRun)
	}
	*p = r
	x.pool().parallel(r.tasks, p)
	*p = scatterRun{}
	s.runs.Put(p)
	return nil
}

// values lists what the step reads (the tensor it updates, the index and
// the source) and writes.
func (s *scatterStep) values() (reads, writes []int) {
	return []int{s.out, s.idx, s.src}, []int{s.out}
}

func (s *scatterStep) describe(w io.Writer, names func(int) string) {
	op := "scatter"
	if s.add {
		op = "scatter_add"
	}
	fmt.Fprintf(w, "  %s %s along axis %d at %s from %s: %d lines of %d\n", op, names(s.out), s.axis, names(s.idx), names(s.src), s.lines, s.shape[s.axis])
}

// lineOffsets returns the storage offsets of line l's first element in
// the index, src and out (out's without the indexed axis).
func (s *scatterStep) lineOffsets(l int) (io, so, oo int) {
	io, so = s.idxOff, s.srcOff
	for d := len(s.shape) - 1; d >= 0; d-- {
		if d == s.axis {
			continue
		}
		i := l % s.shape[d]
		l /= s.shape[d]
		io += i * s.idxSt[d]
		so += i * s.srcSt[d]
		oo += i * s.outSt[d]
	}
	return io, so, oo
}

// scatterLines runs lines lo to hi-1 of a scatter (add: a scatter_add).
func scatterLines[T dtype.Elem](s *scatterStep, out, idx, src tensor.Any, lo, hi int, add func(a, b T) T) {
	od, id, sd := out.(*tensor.Tensor[T]).Data(), idx.(*tensor.Tensor[int64]).Data(), src.(*tensor.Tensor[T]).Data()
	k, iSt, sSt, oSt := s.shape[s.axis], s.idxSt[s.axis], s.srcSt[s.axis], s.outSt[s.axis]
	n := int64(s.n)
	for l := lo; l < hi; l++ {
		io, so, oo := s.lineOffsets(l)
		for j := 0; j < k; j++ {
			p := id[io+j*iSt]
			if p < 0 {
				p += n
			}
			o := oo + int(p)*oSt
			if add != nil {
				od[o] = add(od[o], sd[so+j*sSt])
			} else {
				od[o] = sd[so+j*sSt]
			}
		}
	}
}

func scatterOf[T dtype.Elem]() func(s *scatterStep, out, idx, src tensor.Any, lo, hi int) {
	return func(s *scatterStep, out, idx, src tensor.Any, lo, hi int) {
		scatterLines[T](s, out, idx, src, lo, hi, nil)
	}
}

func scatterAddOf[T dtype.Numeric]() func(s *scatterStep, out, idx, src tensor.Any, lo, hi int) {
	add := func(a, b T) T { return a + b }
	return func(s *scatterStep, out, idx, src tensor.Any, lo, hi int) {
		scatterLines(s, out, idx, src, lo, hi, add)
	}
}

// scatterKernel returns the scatter (add: scatter_add) loop of dtype dt.
func scatterKernel(dt dtype.DType, add bool) func(s *scatterStep, out, idx, src tensor.Any, lo, hi int) {
	if add {
		switch dt {
		case dtype.Int8:
			return scatterAddOf[int8]()
		case dtype.Int16:
			return scatterAddOf[int16]()
		case dtype.Int32:
			return scatterAddOf[int32]()
		case dtype.Int64:
			return scatterAddOf[int64]()
		case dtype.Uint8:
			return scatterAddOf[uint8]()
		case dtype.Uint16:
			return scatterAddOf[uint16]()
		case dtype.Uint32:
			return scatterAddOf[uint32]()
		case dtype.Uint64:
			return scatterAddOf[uint64]()
		case dtype.Float32:
			return scatterAddOf[float32]()
		case dtype.Float64:
			return scatterAddOf[float64]()
		case dtype.Complex64:
			return scatterAddOf[complex64]()
		case dtype.Complex128:
			return scatterAddOf[complex128]()
		}
		return nil
	}
	switch dt {
	case dtype.Bool:
		return scatterOf[bool]()
	case dtype.Int8:
		return scatterOf[int8]()
	case dtype.Int16:
		return scatterOf[int16]()
	case dtype.Int32:
		return scatterOf[int32]()
	case dtype.Int64:
		return scatterOf[int64]()
	case dtype.Uint8:
		return scatterOf[uint8]()
	case dtype.Uint16:
		return scatterOf[uint16]()
	case dtype.Uint32:
		return scatterOf[uint32]()
	case dtype.Uint64:
		return scatterOf[uint64]()
	case dtype.Float32:
		return scatterOf[float32]()
	case dtype.Float64:
		return scatterOf[float64]()
	case dtype.Complex64:
		return scatterOf[complex64]()
	case dtype.Complex128:
		return scatterOf[complex128]()
	}
	return nil
}

// inputKind names input slot s's access kind for the debug plan (nout
// operands precede the inputs in the layout): an indexed one names its
// index's slot.
func (g *region) inputKind(s, nout int) string {
	if k := g.kinds[nout+s]; k != accIndexed {
		return k.String()
	}
	return fmt.Sprintf("indexed by s%d", g.reads[s].slot)
}
