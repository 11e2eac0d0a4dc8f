package exec

import "github.com/tensorplay/tensorplay/tensor"

// runSpan is the region interpreter's entry point for a sub-range of a
// region's iteration space, which an epilogue uses: it computes g over rows
// [r0, r0+rows) and columns [c0, c0+cols) of the space seen as flat rows of
// e.width elements, each operand op at e.stR[op] per row and e.stC[op] per
// column from its offset, on the calling goroutine with a state of its
// own, so that spans of one region may run concurrently. It bypasses the
// region's own tiling (g.lay, blocks, tasks) and keeps only its kernels,
// slots and buffer length: pieces are at most g.r·g.c elements (any length
// in a bufferless region, whose blocks are read and written in place), of
// several whole rows when e.multiRow allows and the span is full rows, else
// pieces of one row. It takes what an ordinary block (runTask's non-row
// mode) takes: no row mode, panels or bands.
func (e *epilogue) runSpan(vals []tensor.Any, r0, rows, c0, cols int) {
	g := e.g
	st, _ := g.states.Get().(*regionState)
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
	nout := len(g.outputs)
	limit := g.tp.r * g.tp.c
	if g.tp.bufferless {
		limit = rows * cols
	}
	piece := func(row, col, r, c int) {
		for op := range st.geoms {
			gm := &st.geoms[op]
			gm.r, gm.c, gm.stR, gm.stC = r, c, e.stR[op], e.stC[op]
			st.offs[op] = g.offsets[op] + row*e.stR[op] + col*e.stC[op]
		}
		n := r * c
		if n != st.prepared && !g.tp.bufferless {
			for s := len(g.inputs); s < len(st.slots); s++ {
				st.slots[s].prepare(n)
			}
			st.prepared = n
		}
		for s := range g.inputs {
			// The epilogue's own geometry (a bias row, the product's
			// rows): constant, one run in place, or gathered.
			gm := &st.geoms[nout+s]
			switch {
			case g.scalar[s]:
				st.slots[s].value(st.offs[nout+s])
			case gm.stC == 1 && (gm.r == 1 || gm.stR == gm.c):
				st.slots[s].view(st.offs[nout+s], n)
			default:
				st.slots[s].gather(gm, st.offs[nout+s])
			}
		}
		g.compute(st, st.geoms, 0, 0, n)
	}
	if e.multiRow && c0 == 0 && cols == e.width && cols <= limit {
		per := limit / cols
		for i := 0; i < rows; i += per {
			piece(r0+i, 0, min(per, rows-i), cols)
		}
	} else {
		step := min(cols, limit)
		for i := range rows {
			for j := 0; j < cols; j += step {
				piece(r0+i, c0+j, 1, min(step, cols-j))
			}
		}
	}
	st.release()
	g.states.Put(st)
}
