package matmul

import "sync"

// packedParallelMin is the number of multiply-adds below which gemmPacked
// runs on the caller's goroutine: a goroutine costs about a microsecond,
// 2¹⁶ multiply-adds about two on one core.
const packedParallelMin = 1 << 16

// gemmPacked is gemm for float32 and float64 in the GotoBLAS/BLIS design,
// for a non-empty dst with unit column stride and rows that do not overlap,
// and a.Cols > 0. It runs on up to workers goroutines, the caller's
// computing a share:
//
//   - when dst has at least two mr-row blocks per worker, the workers split
//     its rows (the mc loop) and share each packed kc×nc block of b, each
//     packing a part of it (see packedRows);
//   - otherwise, the short and wide case, dst is cut into bands of whole
//     nr-column blocks, each computed by packedRows alone with its own
//     packed b.
func gemmPacked[F float](dst, a, b Matrix[F], workers int, kern microKernel[F], bl blocking) {
	m, n, k := dst.Rows, dst.Cols, a.Cols
	parts := 1
	if workers > 1 && m*n*k >= packedParallelMin {
		parts = workers
	}
	rowBlocks, colBlocks := (m+kern.mr-1)/kern.mr, (n+kern.nr-1)/kern.nr
	switch {
	case parts == 1 || rowBlocks == 1 && colBlocks == 1:
		packedAlone(dst, a, b, kern, bl)
	case rowBlocks >= 2*parts:
		team := newTeam[F](parts, kern, bl, k, n)
		run(parts, func(w int) { packedRows(dst, a, b, kern, bl, team, w) })
		team.release()
	default:
		parts = min(parts, colBlocks)
		unit := kern.nr
		run(parts, func(w int) {
			lo, hi := w*colBlocks/parts*unit, min((w+1)*colBlocks/parts*unit, n)
			packedAlone(dst.Slice(0, m, lo, hi), a, b.Slice(0, k, lo, hi), kern, bl)
		})
	}
}

// packedAlone is packedRows for a team of one.
func packedAlone[F float](dst, a, b Matrix[F], kern microKernel[F], bl blocking) {
	team := newTeam[F](1, kern, bl, a.Cols, dst.Cols)
	packedRows(dst, a, b, kern, bl, team, 0)
	team.release()
}

// run calls f(w) for w in [0, parts), f(0) on the caller's goroutine and
// the others on new ones, and returns when all have.
func run(parts int, f func(w int)) {
	var wg sync.WaitGroup
	for w := 1; w < parts; w++ {
		wg.Go(func() { f(w) })
	}
	f(0)
	wg.Wait()
}

// A team is the state the workers of one product share: two buffers for
// packed blocks of b, used in turn, and a barrier.
type team[F float] struct {
	size   int
	packed [2]*[]F
	barrier
}

// newTeam returns a team of size workers for a product with k×n operand b.
func newTeam[F float](size int, kern microKernel[F], bl blocking, k, n int) *team[F] {
	t := &team[F]{size: size, barrier: barrier{n: size}}
	elems := min(bl.kc, k) * min(bl.nc, roundUp(n, kern.nr))
	t.packed[0] = getBuffer[F](elems)
	if size > 1 {
		t.packed[1] = getBuffer[F](elems)
	} else {
		t.packed[1] = t.packed[0]
	}
	return t
}

// release returns the team's buffers to the pool.
func (t *team[F]) release() {
	putBuffer(t.packed[0])
	if t.size > 1 {
		putBuffer(t.packed[1])
	}
}

// packedRows is worker w of team's share of dst = a @ b, with the five loops
// of GotoBLAS: columns of dst in steps of nc, the inner dimension in steps of
// kc, packing a kc×nc block of b, rows in steps of mc, packing an mc×kc
// block of a, then the macro-kernel over nr-column and mr-row panels.
//
// The team packs each block of b together, worker w its w-th share of the
// panels, and waits at the barrier before using it; the rows of dst are cut
// into team.size bands of whole mr-row blocks, and worker w computes band w,
// packing its own blocks of a. The block after next reuses the buffer of
// this one: every worker has finished with it once all have passed the next
// barrier.
//
// Each element of dst is written by the first kc step and added to by the
// later ones, so its sum is ordered by p and cut at multiples of kc alone,
// whatever the team size.
func packedRows[F float](dst, a, b Matrix[F], kern microKernel[F], bl blocking, team *team[F], w int) {
	m, n, k := dst.Rows, dst.Cols, a.Cols
	mr, nr := kern.mr, kern.nr
	kc := min(bl.kc, k)
	nc := min(bl.nc, roundUp(n, nr))
	rowBlocks := (m + mr - 1) / mr
	r0, r1 := w*rowBlocks/team.size*mr, min((w+1)*rowBlocks/team.size*mr, m)
	mc := min(bl.mc, roundUp(r1-r0, mr))
	bufA := getBuffer[F](mc * kc)
	defer putBuffer(bufA)
	tile := make([]F, mr*nr)
	inPlace := readInPlace(a, n, nr)
	step := 0
	for jc := 0; jc < n; jc += nc {
		nb := min(nc, n-jc)
		panels := (nb + nr - 1) / nr
		for pc := 0; pc < k; pc += kc {
			kb := min(kc, k-pc)
			packed := *team.packed[step%2]
			step++
			p0, p1 := w*panels/team.size*nr, min((w+1)*panels/team.size*nr, nb)
			if p0 < p1 {
				packB(packed[p0*kb:], b.Slice(pc, pc+kb, jc+p0, jc+p1), nr)
			}
			team.wait()
			for ic := r0; ic < r1; ic += mc {
				mb := min(mc, r1-ic)
				ab := a.Slice(ic, ic+mb, pc, pc+kb)
				if inPlace {
					// Only a last partial block of rows is packed.
					whole := mb / mr * mr
					packA(*bufA, ab.Slice(whole, mb, 0, kb), mr)
				} else {
					packA(*bufA, ab, mr)
				}
				macroKernel(dst.Slice(ic, ic+mb, jc, jc+nb), ab, inPlace, *bufA, packed, kb, pc > 0, kern, tile)
			}
		}
	}
}

// barrier blocks each of n goroutines in wait until all n have called it.
type barrier struct {
	n          int
	mu         sync.Mutex
	cond       *sync.Cond
	count, gen int
}

// wait returns once all n goroutines have called it (at once for n <= 1).
func (b *barrier) wait() {
	if b.n <= 1 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.cond == nil {
		b.cond = sync.NewCond(&b.mu)
	}
	gen := b.gen
	if b.count++; b.count == b.n {
		b.count, b.gen = 0, b.gen+1
		b.cond.Broadcast()
		return
	}
	for gen == b.gen {
		b.cond.Wait()
	}
}

// inPlaceMaxCols is the widest product whose a the micro-kernel reads in
// place rather than packed. Packing costs a pass over a and pays back over
// the nr-column panels of b that reuse it; beyond a few panels, the packed
// panels' contiguity wins.
const inPlaceMaxCols = 8

// readInPlace reports whether packedRows lets the micro-kernel read a's
// rows in place: a has unit column stride and dst has at most
// inPlaceMaxCols panels of nr columns.
func readInPlace[F float](a Matrix[F], n, nr int) bool {
	return a.ColStride == 1 && n <= inPlaceMaxCols*nr
}

// macroKernel runs the micro-kernel over every mr×nr block of dst, from
// packed panels of b of kb steps, and of a: packed in pa, or, when inPlace,
// the whole blocks of mr rows read from a itself and only a partial last
// block packed in pa. Whole blocks of dst are written in place; a partial
// block at the right or bottom edge is computed into tile and only its part
// inside dst copied (or added) out.
func macroKernel[F float](dst, a Matrix[F], inPlace bool, pa, pb []F, kb int, add bool, kern microKernel[F], tile []F) {
	mr, nr := kern.mr, kern.nr
	rs := dst.RowStride
	whole := dst.Rows / mr * mr
	for jr := 0; jr < dst.Cols; jr += nr {
		bp := pb[jr*kb:]
		cols := min(nr, dst.Cols-jr)
		for ir := 0; ir < dst.Rows; ir += mr {
			rows := min(mr, dst.Rows-ir)
			off := dst.Offset + ir*rs + jr
			c, ldc, cAdd := dst.Data[off:], rs, add
			if rows < mr || cols < nr {
				c, ldc, cAdd = tile, nr, false
			}
			switch {
			case inPlace && rows == mr:
				kern.rows(kb, a.Data[a.Offset+ir*a.RowStride:], a.RowStride, bp, c, ldc, cAdd)
			case inPlace:
				kern.run(kb, pa[(ir-whole)*kb:], bp, c, ldc, cAdd)
			default:
				kern.run(kb, pa[ir*kb:], bp, c, ldc, cAdd)
			}
			if rows == mr && cols == nr {
				continue
			}
			for i := range rows {
				c, t := dst.Data[off+i*rs:off+i*rs+cols], tile[i*nr:i*nr+cols]
				if !add {
					copy(c, t)
					continue
				}
				for j := range c {
					c[j] += t[j]
				}
			}
		}
	}
}

// roundUp rounds n up to a multiple of unit.
func roundUp(n, unit int) int {
	return (n + unit - 1) / unit * unit
}
