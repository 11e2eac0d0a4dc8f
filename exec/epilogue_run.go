package exec

import (
	"math"

	"github.com/tensorplay/tensorplay/tensor"
)

// runSpan is the region interpreter's entry point for a sub-range of a
// region's iteration space, which an epilogue uses: it computes g over rows
// [r0, r0+rows) and columns [c0, c0+cols) of the space seen as flat rows of
// e.width elements, each operand op at e.stR[op] per row and e.stC[op] per
// column from its offset, on the calling goroutine with a state of its
// own, so that spans of one region may run concurrently. The span is one
// block of runBlock, every operand read by its access kind (e.kinds, from
// classify): one flat run in pieces when it is whole rows and e.multiRow
// allows (plan e.flat), else a row at a time (plan g.tp, e's rows plan).
func (e *epilogue) runSpan(vals []tensor.Any, r0, rows, c0, cols int) {
	g := e.g
	st := g.states.Get()
	if st == nil {
		var err error
		if st, err = g.newState(); err != nil {
			panic(err) // checked when the plan was built; the pool reports a panic as the run's error
		}
	}
	for i, o := range g.outputs {
		st.outs[i].bind(vals[o.value])
	}
	for s, v := range g.inputs {
		st.slots[s].bind(vals[v])
	}
	for op := range st.geoms {
		st.geoms[op] = geom{r: rows, c: cols, stR: e.stR[op], stC: e.stC[op]}
		row := r0 * e.stR[op]
		if e.image > 0 {
			row = r0/e.image*e.stN[op] + r0%e.image*e.stR[op]
		}
		st.offs[op] = g.offsets[op] + row + c0*e.stC[op]
	}
	nout := len(g.outputs)
	for _, s := range g.invariant {
		st.slots[s].value(st.offs[nout+s])
	}
	tp := &g.tp
	if e.multiRow && c0 == 0 && cols == e.width {
		tp = &e.flat
	}
	g.runBlock(st, tp)
	st.release()
	g.states.Put(st)
}

// epiloguePlans gives e's region the kinds and the two tile plans of its
// spans, which keep the region's buffers (pieces of at most g.tp.piece
// elements; any length in a bufferless region), before its states are
// made, so that the buffers follow the kinds. It reports false where an
// operand's kind in the product's geometry disagrees with the slots the
// region was compiled with (a constant slot must stay constant).
func (e *epilogue) epiloguePlans() bool {
	g := e.g
	nout := len(g.outputs)
	kinds := make([]access, len(e.stR))
	for op := range kinds {
		kinds[op] = classify([]int{e.stR[op], e.stC[op]}, false, e.multiRow, e.width)
		if e.image > 0 && op >= nout && kinds[op].constant() && !g.scalar[op-nout] {
			kinds[op] = accStrided // a convolution's per-channel operand, one value per row: gathered as the region was compiled to
		}
		switch {
		case op < nout && kinds[op] != accDirect:
			return false
		case op >= nout && kinds[op].constant() != g.scalar[op-nout]:
			return false
		case g.tp.bufferless && !kinds[op].constant() && !kinds[op].inPlace():
			return false // no buffer to gather into
		}
	}
	piece := g.tp.piece
	if g.tp.bufferless {
		piece = math.MaxInt
	}
	g.kinds = kinds
	g.invariant, g.varying = nil, nil
	g.sortInputs(nout)
	f := tileFacts{epilogue: true, cols: e.width, block: piece, bufferless: g.tp.bufferless}
	rows := tileFor(&f)
	f.wholeRows = true
	e.flat = tileFor(&f)
	g.tp = rows
	return true
}
