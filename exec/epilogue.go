package exec

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// An epilogue is a fused region that a matmul applies to each block of its
// result as soon as the block is final, while it is in cache: relu(x@W + b)
// is then one pass over the product, which the matmul writes straight into
// the region's output and the region rewrites in place. The region is no
// step of its own; it runs through runSpan (epilogue_run.go).
//
// A region becomes a matmul's epilogue (fuseEpilogues) when
//   - the matmul is float32 or float64 and its result C is a temporary
//     that nothing but the region reads (no result, view or other step);
//   - the region has one output O of C's shape and dtype, a row-major
//     temporary or a row-major destination that shares memory with no
//     leaf (epilogueOutput), which the matmul then writes in C's place;
//   - every other input is broadcast along all of C's axes but the last
//     (a bias of shape [N] or [1, N], a scalar), and is made before the
//     matmul runs;
//   - the region is an ordinary one: no staged copy or final pass, not
//     tiled for a transposed operand.
//
// C's elements are then computed exactly as before and the region's kernels
// run on them elementwise, so the result has the unfused plan's bits.
type epilogue struct {
	g     *region
	width int // the columns of the product: its result is rows of width elements
	// Per operand of g (its outputs, then its inputs): the strides of a
	// flat row and of a column of the product's result.
	stR, stC []int
	// multiRow: a piece may span several whole rows (see runSpan), in the
	// plan flat; spans of part of a row run in the region's g.tp, a row at
	// a time (see epiloguePlans).
	multiRow bool
	flat     tilePlan
	// image, when not 0, is the rows of one image of a convolution's
	// result (its output channels): a span lies in one image, row r of the
	// result is row r%image of image r/image, and stN holds each operand's
	// stride per image (conv_epilogue.go).
	image int
	stN   []int
}

// fuseEpilogues makes each region that can be a matmul's epilogue one, and
// drops it from the steps, and the matmul's result from the temporaries.
// It runs after dropDeadSteps, on the ordered steps.
func (pl *planner) fuseEpilogues() {
	p := pl.p
	for i := 0; i < len(p.steps); i++ {
		s, ok := p.steps[i].(*matmulStep)
		if !ok || s.epi != nil || (s.dt != dtype.Float32 && s.dt != dtype.Float64) {
			continue
		}
		j, e := pl.epilogueFor(i, s.out, matmulRows{s.m})
		if e == nil {
			continue
		}
		s.out, s.epi = pl.takeEpilogue(j, s.out, e), e
		p.notes = append(p.notes, fmt.Sprintf("matmul %dx%d @ %dx%d applies a fused region to each block of its result (epilogue)", s.n, s.k, s.k, s.m))
	}
}

// takeEpilogue makes region step j the epilogue e of the step that writes
// c: drops the step, and c from the temporaries, and returns the value that
// step is to write instead, the region's output (where the region then
// reads c).
func (pl *planner) takeEpilogue(j, c int, e *epilogue) int {
	p := pl.p
	o := e.g.outputs[0].value
	for k, in := range e.g.inputs {
		if in == c {
			e.g.inputs[k] = o // the product is read where it is written
		}
	}
	p.steps = append(p.steps[:j], p.steps[j+1:]...)
	temps := p.temps[:0]
	for _, t := range p.temps {
		if t != c {
			temps = append(temps, t)
		}
	}
	p.temps = temps
	return o
}

// epilogueRows is how an epilogue sees its product's result as rows.
type epilogueRows interface {
	// fits reports whether a region of shape can be the epilogue.
	fits(shape tensor.Shape) bool
	// newEpilogue returns the epilogue of region g, with the product's
	// strides set for operand 0 and nout+k for each input k that is c.
	newEpilogue(g *region, nout int) *epilogue
	// strides sets operand op's strides in e from its broadcast strides st
	// over the region's shape, or reports false for an operand the
	// epilogue cannot read.
	strides(e *epilogue, op int, st []int) bool
}

// matmulRows are a matrix product's: rows of m elements, other operands
// broadcast along them.
type matmulRows struct{ m int }

func (r matmulRows) fits(shape tensor.Shape) bool {
	return len(shape) > 0 && shape[len(shape)-1] == r.m
}

func (r matmulRows) newEpilogue(g *region, nout int) *epilogue {
	e := &epilogue{g: g, width: r.m, stR: make([]int, nout+len(g.inputs)), stC: make([]int, nout+len(g.inputs)), multiRow: true}
	e.stR[0], e.stC[0] = r.m, 1
	return e
}

func (r matmulRows) strides(e *epilogue, op int, st []int) bool {
	d := len(st)
	for _, x := range st[:d-1] {
		if x != 0 {
			return false // varies along the rows: not a bias
		}
	}
	if r.m == 1 {
		st[d-1] = 0 // one column: one value (the region's slot is constant)
	}
	e.stC[op] = st[d-1]
	if st[d-1] != 0 {
		e.multiRow = false // a bias row is read in place a row at a time: direct inputs have no buffers to gather several rows into
	}
	return true
}

// epilogueFor returns the position of the region that can be the epilogue
// of step i, which writes c seen as rows, and the epilogue made of it, or
// nil.
func (pl *planner) epilogueFor(i, c int, rows epilogueRows) (int, *epilogue) {
	p := pl.p
	cv := &p.values[c]
	if cv.kind != valTemp || cv.storage != c {
		return 0, nil
	}
	for _, r := range p.results {
		if p.values[r].storage == c {
			return 0, nil
		}
	}
	j := -1
	for k := range p.steps {
		reads, _ := p.steps[k].values()
		for _, r := range reads {
			if p.values[r].storage != c {
				continue
			}
			if j >= 0 && j != k || r != c {
				return 0, nil // read twice, or through a view
			}
			j = k
		}
	}
	if j <= i {
		return 0, nil
	}
	g, ok := p.steps[j].(*region)
	if !ok || g.note != "" || g.tp.rowwise || g.tp.copyRows > 0 || len(g.outputs) != 1 || !g.shape.Equal(cv.shape) {
		return 0, nil
	}
	o := g.outputs[0].value
	ov := &p.values[o]
	if ov.storage != o || ov.dt != cv.dt || !ov.shape.Equal(cv.shape) || !pl.epilogueOutput(o) {
		return 0, nil
	}
	if !rows.fits(g.shape) {
		return 0, nil
	}
	nout := len(g.outputs)
	e := rows.newEpilogue(g, nout)
	ready := pl.madeBefore(i)
	for k, in := range g.inputs {
		op := nout + k
		if g.indexed(k) {
			return 0, nil // read through an index: not a bias
		}
		if in == c {
			e.stR[op], e.stC[op] = e.stR[0], e.stC[0]
			if e.stN != nil {
				e.stN[op] = e.stN[0]
			}
			continue
		}
		v := &p.values[in]
		if !ready[v.storage] || v.storage == o {
			return 0, nil
		}
		st, err := tensor.BroadcastStrides(v.shape, v.strides, g.shape)
		if err != nil || !rows.strides(e, op, st) {
			return 0, nil
		}
	}
	// No step between the two may write what the region reads.
	for k := i + 1; k < j; k++ {
		_, writes := p.steps[k].values()
		for _, w := range writes {
			for _, in := range g.inputs {
				if p.values[w].storage == p.values[in].storage {
					return 0, nil
				}
			}
		}
	}
	if !e.epiloguePlans() {
		return 0, nil
	}
	// Without streaming stores: the block is in cache and is read back.
	g.streams = false
	for k := range g.instrs {
		g.instrs[k].stream = false
	}
	for k := range g.outputs {
		switch g.outputs[k].store {
		case storeDirectStream:
			g.outputs[k].store = storeDirect
		case storeCopiedStream:
			g.outputs[k].store = storeCopied
		}
	}
	st, err := g.newState() // the kernels exist: a run cannot fail making one
	if err != nil {
		return 0, nil
	}
	g.states.Put(st)
	return j, e
}

// epilogueOutput reports whether value o can be written by a matmul, as
// its epilogue's output: a row-major temporary, or a row-major destination
// at offset 0 that shares memory with no leaf and no other destination
// (the matmul writes it before the region reads the other inputs).
func (pl *planner) epilogueOutput(o int) bool {
	ov := &pl.p.values[o]
	switch {
	case ov.kind == valTemp:
		return ov.offset == 0 && equalInts(ov.strides, tensor.RowMajorStrides(ov.shape))
	case ov.kind != valFixed || ov.dst < 0 || ov.fixed == nil || !rowMajorAtZero(ov.fixed) || pl.sharesWithLeaf(ov.fixed):
		return false
	}
	for v := range pl.p.values {
		w := &pl.p.values[v]
		if v != o && w.kind == valFixed && w.dst >= 0 && w.fixed != nil && w.fixed.SameStorage(ov.fixed) {
			return false
		}
	}
	return true
}

// madeBefore reports, per value, whether it is ready before step i runs:
// a leaf or destination, or the storage of a value an earlier step writes.
func (pl *planner) madeBefore(i int) []bool {
	p := pl.p
	ready := make([]bool, len(p.values))
	for v := range p.values {
		if p.values[v].kind == valFixed {
			ready[v] = true
		}
	}
	for k := range i {
		_, writes := p.steps[k].values()
		for _, w := range writes {
			ready[w], ready[p.values[w].storage] = true, true
		}
	}
	// A temporary no step writes (there is none after dropDeadSteps) is not
	// ready; a view's readiness is its storage's.
	return ready
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// describe prints the epilogue's region under its matmul, indented.
func (e *epilogue) describe(w io.Writer, names func(v int) string) {
	var b bytes.Buffer
	e.g.describe(&b, names)
	fmt.Fprintf(w, "    epilogue on each block of the product, in place:\n")
	if e.multiRow {
		fmt.Fprintf(w, "      blocks of whole rows: tile %v\n", &e.flat)
	}
	for _, line := range strings.SplitAfter(strings.TrimSuffix(b.String(), "\n"), "\n") {
		fmt.Fprintf(w, "    %s", line)
	}
	fmt.Fprintln(w)
}
