package exec

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Short rows. A reduction along rows shorter than shortRow (a softmax over
// 10 classes, an argmin over 4 centroids) would otherwise compute its
// producer a row at a time, one block of the "reduction runs" plan per
// output: for 64 rows of 10 that is 64 trips through the block driver for
// 640 elements, and the trips, not the arithmetic, were the cost of the
// small pipelines (xent/s, kmeans/s, attn/s). Such a reduction computes its
// producer in blocks of many whole rows instead, from the tile table's
// "short rows" plan, as a region of that shape would, and folds each row of
// the block into its output; a reduction of rows into a short run of
// columns (one-hot counts: sum over 1000 rows of 4) likewise computes many
// of its rows at once and folds them into the run one after another. Each
// output still folds its elements in their
// logical order through the tree of leafAcc, so the result is the same to
// the bit; only how the elements are reached changes.

// planProducer plans the tiles of the reduction's producer g: blocks of
// whole short rows when the reduction qualifies (see rowsFit), else one
// run along the innermost axis per block ("reduction runs").
func (rs *reduceStep) planProducer(g *region, facts *tileFacts, block int) {
	if shortRowBlocks && rs.rowsFit() {
		f := *facts
		f.block = block
		g.planTiles(&f)
		tp := &g.tp
		if !tp.rowwise && !tp.bufferless && tp.copyRows == 0 && tp.c == g.cols && tp.piece >= tp.r*tp.c {
			rs.rows = true
			if rs.inner {
				rs.perGroup = max(1, reduceChunk/(tp.r*tp.c)) // blocks per task
				rs.groups = (g.blocks + rs.perGroup - 1) / rs.perGroup
			}
			return
		}
	}
	facts.reduce, facts.block = true, rs.c
	g.planTiles(facts)
}

// rowsFit reports whether the reduction's rows are short and whole rows
// can be computed together: along rows (case A), rows of only the
// innermost layout axis, one output each, in one chunk, at least two of
// them; or rows into columns (case B), a run of fewer than shortRow
// outputs (one block of them) folding the rows of one reduced axis, the
// layout's second innermost, not an arg reduction. Paired reductions
// (logsumexp, var) qualify along rows only: each short row is one block of
// their accumulator (see pairRows).
func (rs *reduceStep) rowsFit() bool {
	d := len(rs.prod.lay.sizes)
	if d < 2 || rs.innerSize >= shortRow || pairedOp(rs.op) && !rs.inner {
		return false
	}
	if rs.inner {
		return len(rs.red) == 0 && rs.chunks == 1 && rs.nOut > 1
	}
	return len(rs.red) == 1 && rs.red[0] == d-2 && rs.innerBlks == 1 &&
		rs.op != expr.OpArgMax && rs.op != expr.OpArgMin
}

// evalRows computes the producer (case B, rs.rows) for rows j to
// j+rows-1 of the reduced axis, of n elements each, from the operands'
// offsets base at the current outputs, as one block of whole rows; it
// returns rows.
func (rs *reduceStep) evalRows(st *regionState, base []int, j, rows, n int) int {
	g := rs.prod
	rs.seek(st, base, rs.red, j)
	for op := range st.geoms {
		st.geoms[op].r, st.geoms[op].c = rows, n
	}
	g.runBlock(st, &g.tp)
	if st.rel != nil {
		st.rel.touch(st)
	}
	return rows
}

// rowValues returns row i (of n elements) of slot s's block: the slot's
// one value expanded into buf when it is constant over the block.
func rowValues[T dtype.Elem](s *slot[T], i, n int, buf *[]T) []T {
	if s.scalar {
		return expanded(s, n, buf)
	}
	return s.v[i*n : (i+1)*n]
}

// runRowBlock computes block blk of whole rows of the producer, as a
// region's block, and returns the output's geometry over it: row i of the
// block folds into offset st.offs[out] + i*stR.
func (rs *reduceStep) runRowBlock(st *regionState, blk int) *geom {
	g := rs.prod
	g.blockOffsets(st, blk)
	g.runBlock(st, &g.tp)
	if st.rel != nil {
		st.rel.touch(st)
	}
	return &st.geoms[len(g.inputs)]
}

// reduceRows is task task of a reduction planned in blocks of whole rows
// (rs.rows): blocks perGroup*task on, each computed by runBlock as a
// region's, then every row folded into its output.
func (m *impl[T]) reduceRows(rs *reduceStep, st *regionState, task int, outAny tensor.Any) {
	g := rs.prod
	sc := m.scratch(st, rs.c)
	src := st.slots[rs.root].(*slot[T])
	outOp := len(g.inputs)
	n := rs.innerSize
	arg := rs.op == expr.OpArgMax || rs.op == expr.OpArgMin
	var rop *reduceOp[T]
	var argRow func(row []T) int64
	var out []T
	var outIdx []int64
	if arg {
		argRow = m.reduces.argmaxRow
		if rs.op == expr.OpArgMin {
			argRow = m.reduces.argminRow
		}
		outIdx = outAny.(*tensor.Tensor[int64]).Data()[:rs.outNumel]
	} else {
		rop = m.reduces.op(rs.op)
		out = outAny.(*tensor.Tensor[T]).Data()[:rs.outNumel]
	}
	var a, b *slot[T]
	if rs.dot {
		a, b = st.slots[rs.dotA].(*slot[T]), st.slots[rs.dotB].(*slot[T])
	}
	acc := &sc.acc
	lo, hi := task*rs.perGroup, min((task+1)*rs.perGroup, g.blocks)
	for blk := lo; blk < hi; blk++ {
		gm := rs.runRowBlock(st, blk)
		for i := range gm.r {
			off := st.offs[outOp] + i*gm.stR
			switch {
			case arg && src.scalar: // every element the same: the first
				outIdx[off] = 0
			case arg:
				outIdx[off] = argRow(src.v[i*n : (i+1)*n])
			case rs.dot && n > 0 && n <= reduceLeaf:
				out[off] = acc.leafOnly(rop, m.reduces.dot, rowValues(a, i, n, &sc.fill), rowValues(b, i, n, &sc.fillB))
			case rs.dot:
				acc.reset(rop)
				acc.feed(rop, m.reduces.dot, rowValues(a, i, n, &sc.fill), rowValues(b, i, n, &sc.fillB))
				out[off] = acc.total(rop)
			case n > 0 && n <= reduceLeaf:
				out[off] = acc.leafOnly(rop, nil, rowValues(src, i, n, &sc.fill), nil)
			default:
				acc.reset(rop)
				acc.feed(rop, nil, rowValues(src, i, n, &sc.fill), nil)
				out[off] = acc.total(rop)
			}
		}
	}
}

// pairRows is reduceRows for a paired reduction: each row of a block,
// shorter than a pair block and starting at a block boundary as every
// output's elements do, is one (partial) block of p, folded straight from
// the producer's block, without pairAcc's gathering buffer: the calls
// pairTask makes for the row, so the same bits. Rows of a few elements go
// through p.leafRows when p has it (logsumexp: a block's exponentials in
// one vector call rather than a scalar exp an element of a 10-class row).
func (m *impl[T]) pairRows(rs *reduceStep, st *regionState, task int, outAny tensor.Any, p *pairOp[T]) {
	g := rs.prod
	sc := m.scratch(st, rs.c)
	acc := sc.pairAcc()
	src := st.slots[rs.root].(*slot[T])
	outOp := len(g.inputs)
	n := rs.innerSize
	out := outAny.(*tensor.Tensor[T]).Data()[:rs.outNumel]
	lo, hi := task*rs.perGroup, min((task+1)*rs.perGroup, g.blocks)
	for blk := lo; blk < hi; blk++ {
		gm := rs.runRowBlock(st, blk)
		if p.leafRows != nil && n > 0 && n < leafRowsMax && !src.scalar {
			if len(acc.rows) < gm.r*n {
				acc.rows, acc.res = make([]T, gm.r*n), make([]pair[T], gm.r)
			}
			res := acc.res[:gm.r]
			p.leafRows(src.v[:gm.r*n], n, acc.rows[:gm.r*n], res)
			for i, pr := range res {
				out[st.offs[outOp]+i*gm.stR] = p.final(pr)
			}
			continue
		}
		for i := range gm.r {
			acc.reset()
			if n > 0 {
				p.block(rowValues(src, i, n, &sc.fill), nil, &acc.ln, &acc.ps, p.combine)
			}
			out[st.offs[outOp]+i*gm.stR] = p.final(acc.total(p))
		}
	}
}

// leafRowsMax bounds the rows pairRows hands to leafRows: shorter than a
// vector group of float32 (sixteen with AVX-512), whose elements the leaf
// folds would take one scalar exp at a time; longer rows are faster
// through the folds' vector loops (BenchmarkShortRowsLSE).
const leafRowsMax = 16

// widestOf is the widest element a reduction's producer reads or computes,
// or its result's (dt): the page rule's widest (see blockFor).
func widestOf(pr *program, inDTs []dtype.DType, dt dtype.DType) int {
	w := dt.Size()
	for _, d := range inDTs {
		w = max(w, d.Size())
	}
	for _, n := range pr.nodes {
		w = max(w, n.DType().Size())
	}
	return w
}

// shortRowBlocks turns the blocks of whole short rows on; tests turn it
// off to compare with the row-at-a-time path, bit for bit.
var shortRowBlocks = true
