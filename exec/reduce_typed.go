package exec

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// reduceScratch is one worker's typed scratch for reductions.
type reduceScratch[T dtype.Elem] struct {
	fill   []T // a scalar block expanded (fillB: a second operand's)
	fillB  []T
	kbase  []int // operand offsets at the current output
	acc    leafAcc[T]
	lanes  [8][]T // case B: the current leaf's lanes, one vector each
	levels [][]T  // case B: the binary counter of leaf vectors
	weight []int
	free   [][]T // vectors for levels
	bestV  []T
	bestI  []int64
	pairs  *pairAcc[T] // a paired reduction's accumulator, made on first use
}

// pstack combines partial results pairwise: a binary counter whose slot i
// holds the combination of 2^i consecutive partials. The order of
// combination depends only on the number of partials.
type pstack[T any] struct {
	v [64]T
	w [64]int
	n int
}

func (s *pstack[T]) push(x T, combine func(a, b T) T) { s.pushTree(x, 1, combine) }

// pushTree pushes x, the combined tree of w leaves (a power of two), as
// pushing the w leaves one by one would leave it when every node on the
// stack holds at least w leaves.
func (s *pstack[T]) pushTree(x T, w int, combine func(a, b T) T) {
	s.v[s.n], s.w[s.n] = x, w
	s.n++
	for s.n >= 2 && s.w[s.n-1] == s.w[s.n-2] {
		s.v[s.n-2] = combine(s.v[s.n-2], s.v[s.n-1])
		s.w[s.n-2] *= 2
		s.n--
	}
}

func (s *pstack[T]) total(identity T, combine func(a, b T) T) T {
	if s.n == 0 {
		return identity
	}
	r := s.v[s.n-1]
	for i := s.n - 2; i >= 0; i-- {
		r = combine(s.v[i], r)
	}
	return r
}

// leafAcc folds one output's elements, given in logical order from a leaf
// boundary on, into the fixed tree: lanes, leaves, the binary counter.
type leafAcc[T dtype.Elem] struct {
	s  [8]T
	n  int // elements in the current leaf
	ps pstack[T]
	lv [leafBatch]T // whole leaves' values, from reduceOp.leaves
}

// leafBatch is the most whole leaves feed folds in one call of
// reduceOp.leaves: 4096 elements, 32 KiB of float64, a few microseconds
// between pushes into the tree. Per leaf, the lane fold's call, the leaf's
// tree and the push had cost a plain float64 sum along rows of 3162
// nearly as much as reading the leaf (45% of its time).
const leafBatch = 32

func (a *leafAcc[T]) reset(r *reduceOp[T]) {
	a.s = [8]T{r.identity, r.identity, r.identity, r.identity, r.identity, r.identity, r.identity, r.identity}
	a.n, a.ps.n = 0, 0
}

// feed folds the next len(v) elements (with dot, the products v[i]*b[i]).
func (a *leafAcc[T]) feed(r *reduceOp[T], dot func(s *[8]T, lane int, a, b []T), v, b []T) {
	for len(v) > 0 {
		if m := min(len(v)/reduceLeaf, leafBatch); a.n == 0 && dot == nil && r.leaves != nil && m >= 2 {
			// Whole leaves at a leaf's start: folded together, then
			// pushed as flush pushes each (pushAll: as trees, the same
			// bits).
			r.leaves(a.lv[:m], v[:m*reduceLeaf])
			if r.pushAll != nil {
				r.pushAll(&a.ps, a.lv[:m])
			} else {
				for _, x := range a.lv[:m] {
					a.ps.push(x, r.combine)
				}
			}
			v = v[m*reduceLeaf:]
			continue
		}
		k := min(len(v), reduceLeaf-a.n)
		if dot != nil {
			dot(&a.s, a.n&7, v[:k], b[:k])
			b = b[k:]
		} else {
			r.lanes(&a.s, a.n&7, v[:k])
		}
		v = v[k:]
		if a.n += k; a.n == reduceLeaf {
			a.flush(r)
		}
	}
}

func (a *leafAcc[T]) flush(r *reduceOp[T]) {
	if a.n == 0 {
		return
	}
	a.ps.push(r.leaf(&a.s), r.combine)
	a.s = [8]T{r.identity, r.identity, r.identity, r.identity, r.identity, r.identity, r.identity, r.identity}
	a.n = 0
}

// leafOnly is reset, feed and total of 0 < len(v) <= reduceLeaf elements,
// which make one leaf: that leaf's value, the same bits, without the
// binary counter (a short row's whole fold).
func (a *leafAcc[T]) leafOnly(r *reduceOp[T], dot func(s *[8]T, lane int, a, b []T), v, b []T) T {
	if dot == nil && r.leafOf != nil {
		return r.leafOf(&a.s, v)
	}
	a.s = [8]T{r.identity, r.identity, r.identity, r.identity, r.identity, r.identity, r.identity, r.identity}
	if dot != nil {
		dot(&a.s, 0, v, b)
	} else {
		r.lanes(&a.s, 0, v)
	}
	return r.leaf(&a.s)
}

func (a *leafAcc[T]) total(r *reduceOp[T]) T {
	a.flush(r)
	return a.ps.total(r.identity, r.combine)
}

// newPartial allocates the chunk partials of a run: up to 256 per output,
// so a result that fits can need partials that do not (they are checked
// against the memory limit like every tensor of a run, see fail).
func (m *impl[T]) newPartial(rs *reduceStep) any {
	if pairedOp(rs.op) {
		return newPairPartial[T](rs)
	}
	if err := tensor.CheckAlloc(dtype.Of[T](), tensor.Shape{rs.chunks, rs.outNumel}); err != nil {
		fail(err)
	}
	return make([]T, rs.chunks*rs.outNumel)
}

func (m *impl[T]) scratch(st *regionState, n int) *reduceScratch[T] {
	sc, _ := st.rscratch.(*reduceScratch[T])
	if sc == nil {
		sc = &reduceScratch[T]{fill: make([]T, n), kbase: make([]int, len(st.offs)),
			bestV: make([]T, n), bestI: make([]int64, n)}
		st.rscratch = sc
	}
	return sc
}

// expanded returns s's block as a slice; a scalar is expanded into buf,
// which is grown to hold n elements.
func expanded[T dtype.Elem](s *slot[T], n int, buf *[]T) []T {
	if !s.scalar {
		return s.v[:n]
	}
	if len(*buf) < n {
		*buf = make([]T, n)
	}
	f := (*buf)[:n]
	for i := range f {
		f[i] = s.s
	}
	return f
}

func (m *impl[T]) reduceTask(rs *reduceStep, st *regionState, task int, outAny tensor.Any, partialAny any) {
	if p := m.reduces.pair(rs.op); p != nil {
		if rs.rows && rs.inner {
			m.pairRows(rs, st, task, outAny, p)
			return
		}
		m.pairTask(rs, st, task, outAny, partialAny, p)
		return
	}
	if rs.rows && rs.inner {
		m.reduceRows(rs, st, task, outAny)
		return
	}
	g := rs.prod
	sc := m.scratch(st, rs.c)
	src := st.slots[rs.root].(*slot[T])
	k, grp := task%rs.chunks, task/rs.chunks
	lo, hi := grp*rs.perGroup, min((grp+1)*rs.perGroup, rs.nOut)
	j0, j1 := k*rs.perChunk, min((k+1)*rs.perChunk, rs.seqLen)
	outOp := len(g.inputs)
	d := len(g.lay.sizes)
	arg := rs.op == expr.OpArgMax || rs.op == expr.OpArgMin
	var rop *reduceOp[T]
	var beats func(a, b T) bool
	if arg {
		beats = m.reduces.argmax
		if rs.op == expr.OpArgMin {
			beats = m.reduces.argmin
		}
	} else {
		rop = m.reduces.op(rs.op)
	}
	// The result is row-major from offset 0 (a temporary, or a destination
	// of that layout whose storage may run on past its elements).
	var out []T
	var outIdx []int64
	if arg {
		outIdx = outAny.(*tensor.Tensor[int64]).Data()[:rs.outNumel]
	} else if rs.chunks == 1 {
		out = outAny.(*tensor.Tensor[T]).Data()[:rs.outNumel]
	} else {
		out = partialAny.([]T)[k*rs.outNumel:]
	}
	for o := lo; o < hi; o++ {
		if rs.inner {
			// Along rows: elements j0..j1 of the output, in logical order,
			// a row (of the reduced axes) at a time.
			rs.seek(st, g.offsets, rs.kept, o)
			copy(sc.kbase, st.offs)
			outOff := st.offs[outOp]
			acc := &sc.acc
			if !arg {
				acc.reset(rop)
			}
			var bestV T
			bestI := int64(-1)
			for j := j0; j < j1; {
				rb, col := j/rs.innerSize, j%rs.innerSize
				n := min(rs.c, rs.innerSize-col, j1-j)
				rs.seek(st, sc.kbase, rs.red, rb)
				for op := range st.offs {
					st.offs[op] += col * g.lay.strides[op][d-1]
				}
				g.evalBlock(st, n)
				switch {
				case rs.dot:
					a, b := st.slots[rs.dotA].(*slot[T]), st.slots[rs.dotB].(*slot[T])
					acc.feed(rop, m.reduces.dot, expanded(a, n, &sc.fill), expanded(b, n, &sc.fillB))
				case arg:
					for i, x := range expanded(src, n, &sc.fill) {
						if bestI < 0 || beats(x, bestV) {
							bestV, bestI = x, int64(j+i)
						}
					}
				default:
					acc.feed(rop, nil, expanded(src, n, &sc.fill), nil)
				}
				j += n
			}
			if arg {
				outIdx[outOff] = max(bestI, 0)
			} else {
				out[outOff] = acc.total(rop)
			}
			continue
		}
		// Outer reduction: rows of the reduced axes fold into a run of
		// outputs along the innermost (kept) axis.
		ko, cb := o/rs.innerBlks, o%rs.innerBlks
		rs.seek(st, g.offsets, rs.kept, ko)
		for op := range st.offs {
			st.offs[op] += cb * rs.c * g.lay.strides[op][d-1]
		}
		copy(sc.kbase, st.offs)
		outOff, outStride := st.offs[outOp], rs.outStrides[d-1]
		n := min(rs.c, rs.innerSize-cb*rs.c)
		if arg {
			bv, bi := sc.bestV[:n], sc.bestI[:n]
			for j := j0; j < j1; j++ {
				rs.seek(st, sc.kbase, rs.red, j)
				g.evalBlock(st, n)
				v := expanded(src, n, &sc.fill)
				for i, x := range v {
					if j == j0 || beats(x, bv[i]) {
						bv[i], bi[i] = x, int64(j)
					}
				}
			}
			for i := range bi {
				outIdx[outOff+i*outStride] = bi[i]
			}
			continue
		}
		res := sc.foldRows(rs, st, src, j0, j1, n, rop, g)
		for i, x := range res {
			out[outOff+i*outStride] = x
		}
	}
}

// vec returns a vector of n elements for a lane or a level.
func (sc *reduceScratch[T]) vec(n int) []T {
	if k := len(sc.free); k > 0 && cap(sc.free[k-1]) >= n {
		v := sc.free[k-1][:n]
		sc.free = sc.free[:k-1]
		return v
	}
	return make([]T, n, max(n, reduceOuterBlock))
}

// foldRows folds rows j0..j1 (from a leaf boundary on) of an outer
// reduction into n outputs, with the tree of leafAcc done a vector at a
// time: row j goes into lane vector j%8, every reduceLeaf rows the lanes
// combine into a leaf vector, and leaf vectors go through a binary counter.
func (sc *reduceScratch[T]) foldRows(rs *reduceStep, st *regionState, src *slot[T], j0, j1, n int, rop *reduceOp[T], g *region) []T {
	sc.weight = sc.weight[:0]
	for l := range sc.lanes {
		if sc.lanes[l] == nil || cap(sc.lanes[l]) < n {
			sc.lanes[l] = sc.vec(n)
		}
		sc.lanes[l] = sc.lanes[l][:n]
	}
	inLeaf := 0
	endLeaf := func() {
		for l := inLeaf; l < 8; l++ {
			lane := sc.lanes[l]
			for i := range lane {
				lane[i] = rop.identity
			}
		}
		rop.vleaf(&sc.lanes)
		// Push lane 0's vector as a leaf; lane 0 takes a fresh one.
		sc.levels = append(sc.levels[:len(sc.weight)], sc.lanes[0])
		sc.weight = append(sc.weight, 1)
		sc.lanes[0] = sc.vec(n)
		for l := len(sc.weight); l >= 2 && sc.weight[l-1] == sc.weight[l-2]; l-- {
			rop.vcombine(sc.levels[l-2], sc.levels[l-1])
			sc.free = append(sc.free, sc.levels[l-1])
			sc.weight[l-2] *= 2
			sc.weight = sc.weight[:l-1]
			sc.levels = sc.levels[:l-1]
		}
		inLeaf = 0
	}
	inBlock, at := 0, 0 // with rs.rows: rows of the current block of rows, and the next one's index
	for j := j0; j < j1; j++ {
		var v []T
		if rs.rows {
			if at == inBlock {
				inBlock, at = rs.evalRows(st, sc.kbase, j, min(g.tp.r, j1-j), n), 0
			}
			v = rowValues(src, at, n, &sc.fill)
			at++
		} else {
			rs.seek(st, sc.kbase, rs.red, j)
			g.evalBlock(st, n)
			v = expanded(src, n, &sc.fill)
		}
		if inLeaf < 8 {
			rop.vinit(sc.lanes[inLeaf], v)
		} else {
			rop.vcombine(sc.lanes[inLeaf&7], v)
		}
		if inLeaf++; inLeaf == reduceLeaf {
			endLeaf()
		}
	}
	if inLeaf > 0 {
		endLeaf()
	}
	if len(sc.weight) == 0 {
		res := sc.lanes[0]
		for i := range res {
			res[i] = rop.identity
		}
		return res
	}
	res := sc.levels[len(sc.weight)-1]
	for l := len(sc.weight) - 2; l >= 0; l-- {
		// res = levels[l] combined with res, in that order.
		rop.vcombine(sc.levels[l], res)
		sc.free = append(sc.free, res)
		res = sc.levels[l]
	}
	// res stays a level vector; give the levels back for the next call
	// after the caller has read res (it copies res out at once).
	sc.free = append(sc.free, res)
	sc.levels = sc.levels[:0]
	return res
}

func (m *impl[T]) reduceFinish(rs *reduceStep, outAny tensor.Any, partialAny any) {
	if p := m.reduces.pair(rs.op); p != nil {
		m.pairFinish(rs, outAny, partialAny, p)
		return
	}
	if rs.op == expr.OpArgMax || rs.op == expr.OpArgMin {
		return
	}
	// Only the result's elements: a destination may be the head of a larger
	// buffer (a first row, a 0-d view), whose other elements are not ours.
	out := outAny.(*tensor.Tensor[T]).Data()[:rs.outNumel]
	if rs.chunks > 1 {
		// Combine the chunks' partial results as a fixed pairwise tree,
		// whole vectors at a time so memory is read in order.
		rop := m.reduces.op(rs.op)
		partial := partialAny.([]T)
		n := rs.outNumel
		for step := 1; step < rs.chunks; step *= 2 {
			for k := 0; k+step < rs.chunks; k += 2 * step {
				rop.vcombine(partial[k*n:(k+1)*n], partial[(k+step)*n:(k+step+1)*n])
			}
		}
		copy(out, partial[:n])
	}
	if rs.op == expr.OpMean {
		m.reduces.scale(out, rs.count)
	}
}
