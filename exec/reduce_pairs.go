package exec

import (
	"math"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vmath"
	"github.com/tensorplay/tensorplay/tensor"
)

// Paired reductions: logsumexp and the sum of squared deviations from the
// mean (var's numerator) fold each output's elements into a pair of
// statistics, so that they read their input once, where composing them
// from max and sum (or mean and sum) reads it twice.
//
// They keep the fixed tree of every reduction (see reduceStep): leaves of
// reduceLeaf consecutive elements in logical order, combined by the
// binary counter, chunks combined pairwise. The elements are taken in
// blocks of pairBlock (eight leaves, from the start of the output's
// elements: chunks hold a power of two of at least 256 leaves, so a block
// never straddles one). A block's statistic is computed over the whole
// block once, each of its leaves' pairs from it, each pass a lane fold of
// package vmath (eight lanes, vector loops with AVX2):
//   - logsumexp: m, the block's maximum (vmath.Max); each leaf's
//     pair is (m, s) with s the sum of exp(x - m) in the eight lanes of a
//     sum (vmath.ExpSumLanes). Two pairs combine by rescaling the smaller
//     one's sum to the larger maximum (the online softmax's trick):
//     s = s1·exp(m1 - m) + s2·exp(m2 - m), the term of the pair holding m
//     not scaled (exp(0) is 1), so that the leaves of a block, which share
//     m, combine by a plain sum and no exp. The result is m + log(s). A
//     block whose maximum is -Inf, +Inf or NaN gives each leaf its own
//     maximum, as a block of one leaf would.
//   - sum of squared deviations: the block's mean from the lanes of its
//     sum (vmath.SumLanes); each leaf's pair is (n, mean, M2) with M2 =
//     Σ(x - mean)² in the lanes of another (vmath.SqDevLanes); pairs
//     combine by Chan's update, which for the leaves of a block (δ = 0)
//     is the plain sum of their M2. The result is M2.
//
// Paired reductions always run along rows (case A), the reduced axes
// innermost in logical order, so that a leaf is a run of one output's
// elements; an input whose kept axis is innermost in memory is then read
// with the strides of its reduced axis.

// pair is a paired reduction's partial result: (_, m, s) for logsumexp,
// (n, mean, M2) for the squared deviations.
type pair[T dtype.Elem] struct{ n, a, b T }

// pairOp is one paired reduction.
type pairOp[T dtype.Elem] struct {
	identity pair[T] // the pair of no elements
	// block pushes the pairs of v's leaves (v: 1 to pairBlock elements, in
	// logical order, from a block boundary) onto ps, one per leaf of
	// reduceLeaf elements, the last one possibly short; ln is scratch
	// lanes. ahead is what is folded next, when known, for prefetching.
	block   func(v, ahead []T, ln *[8]T, ps *pstack[pair[T]], combine func(x, y pair[T]) pair[T])
	combine func(x, y pair[T]) pair[T] // x's elements precede y's
	final   func(p pair[T]) T
	ahead   bool // block uses ahead: the fold asks for the next row's start (see aheadRun)
	// leafRows, when set, computes into res the pair of each row of v, rows
	// of n elements, one leaf each (n < leafRowsMax), that block would push
	// for the row, with the exponentials of the whole of v in one vector
	// call; buf is scratch of len(v) (see pairRows).
	leafRows func(v []T, n int, buf []T, res []pair[T])
}

// pairBlock is the elements of a paired reduction's block: eight leaves.
const pairBlock = 8 * reduceLeaf

// The leaves of vmath's leaf folds are the fixed tree's.
var _ = [1]struct{}{}[reduceLeaf-vmath.LeafLen]

// leafEnd is the end of the leaf of v starting at i.
func leafEnd(i, n int) int { return min(i+reduceLeaf, n) }

// pairedOp reports whether op is a paired reduction.
func pairedOp(op expr.Op) bool { return op == expr.OpLogSumExp || op == expr.OpSumSqDev }

// lanesTotal combines a sum's eight lanes as a leaf does.
func lanesTotal[T dtype.Numeric](s *[8]T) T {
	return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))
}

func lseOp[T dtype.Float]() *pairOp[T] {
	inf := T(math.Inf(1))
	// maxOf is v's maximum, NaN winning (of ±0 either may come out: either
	// shift gives the same exp, and m + log s the same sum).
	maxOf := func(v []T, ln *[8]T) T {
		*ln = [8]T{-inf, -inf, -inf, -inf, -inf, -inf, -inf, -inf}
		vmath.MaxLanes(ln, v)
		return max(max(max(ln[0], ln[1]), max(ln[2], ln[3])), max(max(ln[4], ln[5]), max(ln[6], ln[7])))
	}
	// leaf is the pair of v shifted by its block's finite maximum m.
	leaf := func(v []T, ln *[8]T, m T) pair[T] {
		*ln = [8]T{}
		vmath.ExpSumLanes(ln, v, m)
		return pair[T]{a: m, b: lanesTotal(ln)}
	}
	return &pairOp[T]{
		identity: pair[T]{a: -inf},
		ahead:    true,
		block: func(v, ahead []T, ln *[8]T, ps *pstack[pair[T]], combine func(x, y pair[T]) pair[T]) {
			if m := vmath.Max(v); m-m == 0 {
				vmath.ExpSumLeavesAhead(ln[:], v, m, ahead)
				if len(v) == pairBlock {
					// The leaves' pairs share m: their tree is the tree of
					// their sums, combined as a leaf's lanes are.
					ps.pushTree(pair[T]{a: m, b: lanesTotal(ln)}, 8, combine)
					return
				}
				for i, j := 0, 0; i < len(v); i, j = i+reduceLeaf, j+1 {
					ps.push(pair[T]{a: m, b: ln[j]}, combine)
				}
				return
			}
			for i := 0; i < len(v); i += reduceLeaf {
				l := v[i:leafEnd(i, len(v))]
				switch m := maxOf(l, ln); {
				case m == -inf:
					ps.push(pair[T]{a: m}, combine) // exp(-inf - m) of nothing: s = 0
				case m-m != 0:
					ps.push(pair[T]{a: m, b: 1}, combine) // +Inf or NaN: the result is m
				default:
					ps.push(leaf(l, ln, m), combine)
				}
			}
		},
		combine: func(x, y pair[T]) pair[T] {
			if x.a == y.a && x.a-x.a == 0 {
				return pair[T]{a: x.a, b: x.b + y.b} // exp(0) is 1: no rescaling
			}
			m := max(x.a, y.a)
			if m-m != 0 || m == -inf {
				return pair[T]{a: m, b: x.b + y.b}
			}
			// The pair holding the maximum is scaled by exp(0) = 1 exactly.
			if x.a == m {
				return pair[T]{a: m, b: x.b + T(y.b*T(math.Exp(float64(y.a-m))))}
			}
			return pair[T]{a: m, b: T(x.b*T(math.Exp(float64(x.a-m)))) + y.b}
		},
		final: func(p pair[T]) T { return p.a + T(math.Log(float64(p.b))) },
		// A short row is one partial leaf of one block: its maximum m
		// (block's vmath.Max: NaN when the row holds one; of ±0 either may
		// come out, as above), then, when m is finite, the leaf's
		// exponentials, element j into lane j%8 and the lanes' total,
		// which is what ExpSumLeaves computes for the leaf; a row whose
		// maximum is ±Inf or NaN gets block's pair for it, maxOf's maximum
		// (whose NaN is the one block keeps).
		leafRows: func(v []T, n int, buf []T, res []pair[T]) {
			for i := range res {
				row := v[i*n : (i+1)*n]
				m := row[0]
				for _, x := range row[1:] {
					if x > m || x != x {
						m = x
					}
				}
				d := buf[i*n : (i+1)*n]
				if m-m == 0 {
					res[i] = pair[T]{a: m}
					for j, x := range row {
						d[j] = x - m
					}
					continue
				}
				var ln [8]T
				if m = maxOf(row, &ln); m == -inf { // block's own maximum, NaN payload and all
					res[i] = pair[T]{a: m}
				} else {
					res[i] = pair[T]{a: m, b: 1}
				}
				clear(d)
			}
			vmath.Exp(buf, buf)
			for i := range res {
				if m := res[i].a; m-m == 0 {
					var ln [8]T
					for j, e := range buf[i*n : (i+1)*n] {
						ln[j&7] += e
					}
					res[i].b = lanesTotal(&ln)
				}
			}
		},
	}
}

func sqDevOp[T dtype.Float]() *pairOp[T] {
	return &pairOp[T]{
		block: func(v, _ []T, ln *[8]T, ps *pstack[pair[T]], combine func(x, y pair[T]) pair[T]) {
			// The block's mean from its leaves' sums, added as the lanes
			// of a leaf are (missing leaves are 0), then each leaf's M2.
			*ln = [8]T{}
			vmath.SumLeaves(ln[:], v)
			mean := lanesTotal(ln) / T(len(v))
			vmath.SqDevLeaves(ln[:], v, mean)
			if len(v) == pairBlock && mean-mean == 0 {
				// The leaves' pairs share the mean (δ = 0): their tree is
				// the tree of their M2, combined as a leaf's lanes are,
				// each combination's +0 kept (M2 is never -0).
				ps.pushTree(pair[T]{n: pairBlock, a: mean + 0, b: lanesTotal(ln) + 0}, 8, combine)
				return
			}
			for i, j := 0, 0; i < len(v); i, j = i+reduceLeaf, j+1 {
				ps.push(pair[T]{n: T(leafEnd(i, len(v)) - i), a: mean, b: ln[j]}, combine)
			}
		},
		combine: func(x, y pair[T]) pair[T] {
			switch {
			case x.n == 0:
				return y
			case y.n == 0:
				return x
			}
			n := x.n + y.n
			delta := y.a - x.a
			if delta == 0 { // Chan's update with δ = 0, to the bit
				return pair[T]{n: n, a: x.a + 0, b: T(x.b+y.b) + 0}
			}
			mean := x.a + T(delta*T(y.n/n))
			m2 := T(x.b+y.b) + T(T(delta*delta)*T(T(x.n*y.n)/n))
			return pair[T]{n: n, a: mean, b: m2}
		},
		final: func(p pair[T]) T { return p.b },
	}
}

// pairAcc folds one output's elements, given in logical order from a block
// boundary on, into blocks, leaves and the binary counter; a block cut
// between two runs is gathered into buf first.
type pairAcc[T dtype.Elem] struct {
	buf   [pairBlock]T
	ln    [8]T
	n     int // elements in buf
	ps    pstack[pair[T]]
	ahead []T // what is fed after the current run, when known (see aheadRun)
	rows  []T // pairRows's scratch for a block's exponentials
	res   []pair[T]
}

func (a *pairAcc[T]) reset() { a.n, a.ps.n = 0, 0 }

// pairAcc is the scratch's paired accumulator, made on first use.
func (sc *reduceScratch[T]) pairAcc() *pairAcc[T] {
	if sc.pairs == nil {
		sc.pairs = new(pairAcc[T])
	}
	return sc.pairs
}

func (a *pairAcc[T]) feed(p *pairOp[T], v []T) {
	for len(v) > 0 {
		if a.n == 0 && len(v) >= pairBlock {
			ahead := a.ahead
			if len(v) >= 2*pairBlock {
				ahead = v[pairBlock:]
			}
			p.block(v[:pairBlock], ahead, &a.ln, &a.ps, p.combine)
			v = v[pairBlock:]
			continue
		}
		k := copy(a.buf[a.n:], v)
		v = v[k:]
		if a.n += k; a.n == pairBlock {
			a.flush(p)
		}
	}
}

func (a *pairAcc[T]) flush(p *pairOp[T]) {
	if a.n > 0 {
		p.block(a.buf[:a.n], nil, &a.ln, &a.ps, p.combine)
		a.n = 0
	}
}

func (a *pairAcc[T]) total(p *pairOp[T]) pair[T] {
	a.flush(p)
	return a.ps.total(p.identity, p.combine)
}

// pairTask is reduceTask for a paired reduction (case A, or outputs of
// one element each where every reduced axis has extent 1): task's
// outputs, each over its chunk of elements, into the result or, when the
// reduction is split into chunks, into the chunk's partial pairs.
func (m *impl[T]) pairTask(rs *reduceStep, st *regionState, task int, outAny tensor.Any, partialAny any, p *pairOp[T]) {
	g := rs.prod
	sc := m.scratch(st, rs.c)
	acc := sc.pairAcc()
	src := st.slots[rs.root].(*slot[T])
	k, grp := task%rs.chunks, task/rs.chunks
	lo, hi := grp*rs.perGroup, min((grp+1)*rs.perGroup, rs.nOut)
	j0, j1 := k*rs.perChunk, min((k+1)*rs.perChunk, rs.seqLen)
	outOp := len(g.inputs)
	d := len(g.lay.sizes)
	var out []T
	var part []pair[T]
	var fin pendingFinals[T]
	if rs.chunks == 1 {
		out = outAny.(*tensor.Tensor[T]).Data()[:rs.outNumel]
	} else {
		part = partialAny.([]pair[T])[k*rs.outNumel:]
	}
	for o := lo; o < hi; o++ {
		if !rs.inner {
			// Every reduced axis has extent 1 (the layout dropped them): a
			// run of outputs of one element each.
			ko, cb := o/rs.innerBlks, o%rs.innerBlks
			rs.seek(st, g.offsets, rs.kept, ko)
			for op := range st.offs {
				st.offs[op] += cb * rs.c * g.lay.strides[op][d-1]
			}
			n := min(rs.c, rs.innerSize-cb*rs.c)
			g.evalBlock(st, n)
			outOff, outStride := st.offs[outOp], rs.outStrides[d-1]
			for i, x := range expanded(src, n, &sc.fill) {
				acc.reset()
				acc.buf[0], acc.n = x, 1
				out[outOff+i*outStride] = p.final(acc.total(p))
			}
			continue
		}
		if p.ahead {
			acc.ahead = aheadRun(rs, st, src, o+1, hi)
		}
		rs.seek(st, g.offsets, rs.kept, o)
		copy(sc.kbase, st.offs)
		outOff := st.offs[outOp]
		acc.reset()
		for j := j0; j < j1; {
			rb, col := j/rs.innerSize, j%rs.innerSize
			n := min(rs.c, rs.innerSize-col, j1-j)
			rs.seek(st, sc.kbase, rs.red, rb)
			for op := range st.offs {
				st.offs[op] += col * g.lay.strides[op][d-1]
			}
			g.evalBlock(st, n)
			acc.feed(p, expanded(src, n, &sc.fill))
			j += n
		}
		if out != nil {
			fin.add(outOff, acc.total(p))
			if fin.n == len(fin.offs) {
				fin.flush(p, out)
			}
		} else {
			part[outOff] = acc.total(p)
		}
	}
	fin.flush(p, out)
}

// pendingFinals holds the totals of a few outputs until their finals are
// taken together: logsumexp's final is a log (math.Log), whose latency,
// one output after another, each waiting on its row, cost W15/lse 8% of
// its time; a batch's logs are independent and overlap.
type pendingFinals[T dtype.Elem] struct {
	offs [8]int
	tot  [8]pair[T]
	n    int
}

func (f *pendingFinals[T]) add(off int, t pair[T]) {
	f.offs[f.n], f.tot[f.n] = off, t
	f.n++
}

// flush writes the pending outputs' finals into out.
func (f *pendingFinals[T]) flush(p *pairOp[T], out []T) {
	for i := range f.n {
		out[f.offs[i]] = p.final(f.tot[i])
	}
	f.n = 0
}

// pairFinish combines the chunks' partial pairs as a fixed pairwise tree
// and writes the results.
func (m *impl[T]) pairFinish(rs *reduceStep, outAny tensor.Any, partialAny any, p *pairOp[T]) {
	if rs.chunks == 1 {
		return
	}
	out := outAny.(*tensor.Tensor[T]).Data()[:rs.outNumel]
	partial := partialAny.([]pair[T])
	n := rs.outNumel
	for step := 1; step < rs.chunks; step *= 2 {
		for k := 0; k+step < rs.chunks; k += 2 * step {
			d, a := partial[k*n:(k+1)*n], partial[(k+step)*n:(k+step+1)*n]
			for i := range d {
				d[i] = p.combine(d[i], a[i])
			}
		}
	}
	for i := range out {
		out[i] = p.final(partial[i])
	}
}

// newPairPartial allocates the chunk partials of a paired reduction.
func newPairPartial[T dtype.Elem](rs *reduceStep) any {
	if err := tensor.CheckAlloc(dtype.Of[T](), tensor.Shape{rs.chunks, rs.outNumel, 3}); err != nil {
		fail(err)
	}
	return make([]pair[T], rs.chunks*rs.outNumel)
}

func (m *impl[T]) pairs() bool { return m.reduces.lse != nil }
