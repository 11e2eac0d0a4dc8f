package matmul

import "sync"

// packedParallelMin is the number of multiply-adds below which gemmPacked
// runs on the caller's goroutine: a goroutine costs about a microsecond,
// 2¹⁶ multiply-adds about two on one core.
const packedParallelMin = 1 << 16

// gemmPacked is gemm for float32 and float64 in the GotoBLAS/BLIS design,
// for a non-empty dst with unit column stride and rows that do not overlap,
// and a.Cols > 0. dst is cut into up to workers bands of whole kernel
// blocks, rows when dst is taller than wide and columns otherwise; each band
// runs the whole loop nest of packedBand on its own goroutine, packing its
// own blocks, so bands share nothing but a and b. The caller's goroutine
// computes the first band.
func gemmPacked[F float](dst, a, b Matrix[F], workers int, kern microKernel[F], bl blocking) {
	m, n, k := dst.Rows, dst.Cols, a.Cols
	parts := 1
	if workers > 1 && m*n*k >= packedParallelMin {
		parts = workers
	}
	rows := m >= n
	unit, extent := kern.mr, m
	if !rows {
		unit, extent = kern.nr, n
	}
	blocks := (extent + unit - 1) / unit
	parts = min(parts, blocks)
	if parts <= 1 {
		packedBand(dst, a, b, kern, bl)
		return
	}
	band := func(w int) {
		lo, hi := w*blocks/parts*unit, min((w+1)*blocks/parts*unit, extent)
		if rows {
			packedBand(dst.Slice(lo, hi, 0, n), a.Slice(lo, hi, 0, k), b, kern, bl)
		} else {
			packedBand(dst.Slice(0, m, lo, hi), a, b.Slice(0, k, lo, hi), kern, bl)
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < parts; w++ {
		wg.Go(func() { band(w) })
	}
	band(0)
	wg.Wait()
}

// packedBand computes dst = a @ b on the caller's goroutine with the five
// loops of GotoBLAS: columns of dst in steps of nc, the inner dimension in
// steps of kc (packing a kc×nc block of b), rows in steps of mc (packing an
// mc×kc block of a), then the macro-kernel over nr-column and mr-row panels.
// Each element of dst is written by the first kc step and added to by the
// later ones, so its sum is ordered by p and cut at multiples of kc alone.
func packedBand[F float](dst, a, b Matrix[F], kern microKernel[F], bl blocking) {
	m, n, k := dst.Rows, dst.Cols, a.Cols
	mr, nr := kern.mr, kern.nr
	kc := min(bl.kc, k)
	mc := min(bl.mc, roundUp(m, mr))
	nc := min(bl.nc, roundUp(n, nr))
	bufA, bufB := getBuffer[F](roundUp(mc, mr)*kc), getBuffer[F](kc*roundUp(nc, nr))
	defer putBuffer(bufA)
	defer putBuffer(bufB)
	tile := make([]F, mr*nr)
	for jc := 0; jc < n; jc += nc {
		nb := min(nc, n-jc)
		for pc := 0; pc < k; pc += kc {
			kb := min(kc, k-pc)
			packB(*bufB, b.Slice(pc, pc+kb, jc, jc+nb), nr)
			for ic := 0; ic < m; ic += mc {
				mb := min(mc, m-ic)
				packA(*bufA, a.Slice(ic, ic+mb, pc, pc+kb), mr)
				macroKernel(dst.Slice(ic, ic+mb, jc, jc+nb), *bufA, *bufB, kb, pc > 0, kern, tile)
			}
		}
	}
}

// macroKernel runs the micro-kernel over every mr×nr block of dst, from
// packed panels of kb steps. Whole blocks are written in place; a partial
// block at the right or bottom edge is computed into tile and only its part
// inside dst copied (or added) out.
func macroKernel[F float](dst Matrix[F], pa, pb []F, kb int, add bool, kern microKernel[F], tile []F) {
	mr, nr := kern.mr, kern.nr
	rs := dst.RowStride
	for jr := 0; jr < dst.Cols; jr += nr {
		bp := pb[jr*kb:]
		cols := min(nr, dst.Cols-jr)
		for ir := 0; ir < dst.Rows; ir += mr {
			ap := pa[ir*kb:]
			rows := min(mr, dst.Rows-ir)
			off := dst.Offset + ir*rs + jr
			if rows == mr && cols == nr {
				kern.run(kb, ap, bp, dst.Data[off:], rs, add)
				continue
			}
			kern.run(kb, ap, bp, tile, nr, false)
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
