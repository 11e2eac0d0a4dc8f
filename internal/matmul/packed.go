package matmul

import "sync"

// packedParallelMin is the number of multiply-adds up to which gemmPacked
// runs on the caller's goroutine, OpenBLAS's threshold (64³): below it a
// product takes under 15µs on one core, and on a loaded machine a second
// worker measured slower at every size up to 64×784×128.
const packedParallelMin = 1 << 18

// gemmPacked is gemm for float32 and float64 in the GotoBLAS/BLIS design,
// for a non-empty dst with unit column stride and rows that do not overlap,
// and a.Cols > 0. It runs on up to workers goroutines, the caller's
// computing the first band: dst is cut into bands of whole mr-row blocks
// (the mc loop) or of nr-column blocks (the nc loop), and each band runs
// packedBand with its own packing buffers, so the workers share nothing but
// a and b. Each band packs all of the operand it does not split, so dst is
// split along its longer side (rows when it is at least as tall as wide),
// provided that gives two blocks per worker: at 64×784×128, splitting the
// rows had each worker pack all of b, 40% of its time.
//
// Workers sharing each packed block of b, as BLIS does, would pack b once
// rather than once per band; with a barrier per block it measured the same
// on this package's benchmarks and is not worth the synchronization.
func gemmPacked[F float](dst, a, b Matrix[F], workers int, kern microKernel[F], bl blocking) {
	m, n, k := dst.Rows, dst.Cols, a.Cols
	parts := 1
	if workers > 1 && m*n*k > packedParallelMin {
		parts = workers
	}
	rowBlocks, colBlocks := (m+kern.mr-1)/kern.mr, (n+kern.nr-1)/kern.nr
	switch {
	case parts == 1 || rowBlocks == 1 && colBlocks == 1:
		packedBand(dst, a, b, kern, bl)
	case rowBlocks >= 2*parts && (m >= n || colBlocks < 2*parts):
		run(parts, func(w int) {
			lo, hi := w*rowBlocks/parts*kern.mr, min((w+1)*rowBlocks/parts*kern.mr, m)
			packedBand(dst.Slice(lo, hi, 0, n), a.Slice(lo, hi, 0, k), b, kern, bl)
		})
	default:
		parts = min(parts, colBlocks)
		run(parts, func(w int) {
			lo, hi := w*colBlocks/parts*kern.nr, min((w+1)*colBlocks/parts*kern.nr, n)
			packedBand(dst.Slice(0, m, lo, hi), a, b.Slice(0, k, lo, hi), kern, bl)
		})
	}
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

// packedBand computes dst = a @ b on the caller's goroutine with the five
// loops of GotoBLAS: columns of dst in steps of nc, the inner dimension in
// steps of kc (packing a kc×nc block of b), rows in steps of mc (packing an
// mc×kc block of a, unless the micro-kernel reads a in place), then the
// macro-kernel over nr-column and mr-row panels. Each element of dst is
// written by the first kc step and added to by the later ones, so its sum
// is ordered by p and cut at multiples of kc alone, whatever band of dst a
// worker has.
func packedBand[F float](dst, a, b Matrix[F], kern microKernel[F], bl blocking) {
	m, n, k := dst.Rows, dst.Cols, a.Cols
	mr, nr := kern.mr, kern.nr
	kc := min(bl.kc, k)
	mc := min(bl.mc, roundUp(m, mr))
	nc := min(bl.nc, roundUp(n, nr))
	bufA, bufB := getBuffer[F](blockA, mc*kc), getBuffer[F](blockB, kc*nc)
	defer putBuffer(blockA, bufA)
	defer putBuffer(blockB, bufB)
	tile := make([]F, mr*nr)
	inPlace := readInPlace(a, n, nr)
	for jc := 0; jc < n; jc += nc {
		nb := min(nc, n-jc)
		for pc := 0; pc < k; pc += kc {
			kb := min(kc, k-pc)
			packB(*bufB, b.Slice(pc, pc+kb, jc, jc+nb), nr)
			for ic := 0; ic < m; ic += mc {
				mb := min(mc, m-ic)
				ab := a.Slice(ic, ic+mb, pc, pc+kb)
				if inPlace {
					// Only a last partial block of rows is packed.
					packA(*bufA, ab.Slice(mb/mr*mr, mb, 0, kb), mr)
				} else {
					packA(*bufA, ab, mr)
				}
				macroKernel(dst.Slice(ic, ic+mb, jc, jc+nb), ab, inPlace, *bufA, *bufB, kb, pc > 0, kern, tile)
			}
		}
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
