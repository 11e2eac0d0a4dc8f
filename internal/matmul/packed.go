package matmul

// packedParallelMin is the number of multiply-adds up to which gemmPacked
// runs on the caller's goroutine, OpenBLAS's threshold (64³): below it a
// product takes under 15µs on one core. With the executor's workers
// spinning for work, a split from 2¹⁶ float64 (2¹⁷ float32) multiply-adds,
// one band of rows per worker, measured 1.05–1.25x faster at 64³ and
// [64,128]@[128,10] in go test's loop of products, but 0.85–1.2x in
// tpbench's blocks of runs between the hand loop's; it is not worth its
// risk on a machine whose second core comes and goes.
const packedParallelMin = 1 << 18

// gemmPacked is gemm for float32 and float64 in the GotoBLAS/BLIS design,
// for a non-empty dst with unit column stride and rows that do not overlap,
// and a.Cols > 0: packedProduct of real operands.
func gemmPacked[F float](dst, a, b Matrix[F], r Runner, kern microKernel[F], bl blocking, epi Epilogue) {
	packedProduct(dst, realOperands[F]{a, b}, a.Cols, r, kern, bl, epi)
}

// packedProduct computes dst = a @ b for the operands ops (k steps of the
// inner dimension) on up to r.Workers() parts. A product split by rows
// (the mc loop) runs packedShared: the workers pack each block of b once,
// together, then take row tasks from a shared counter, several per
// worker, so that a worker that starts late or loses its core does not
// hold the others up, all within one Runner.Run call (see phases). A
// product split by columns (the nc loop: a short, wide dst) is cut into
// bands of nr-column blocks (see columnTasks), each running packedBand
// with its own packing buffers and packing all of a unless it reads a in
// place. dst is split along its longer side (rows when it is at least as
// tall as wide), provided that gives two blocks per worker.
//
// Against one band per worker, each packing all of b (this package's
// split before), the shared split measured 1.1–2.4x the speed at 256³,
// 512³, 1024³ and [4096,256]@[256,64] in 7 of 8 cases (min of 6 alternating
// rounds, load 19 on 2 vCPUs; the eighth, float32 tall, 0.8x).
func packedProduct[F float, O operands[F]](dst Matrix[F], ops O, k int, r Runner, kern microKernel[F], bl blocking, epi Epilogue) {
	m, n := dst.Rows, dst.Cols
	parts := 1
	if w := r.Workers(); w > 1 && m*n*k > packedParallelMin {
		parts = w
	}
	rowBlocks, colBlocks := (m+kern.mr-1)/kern.mr, (n+kern.nr-1)/kern.nr
	switch {
	case parts == 1 || rowBlocks == 1 && colBlocks == 1:
		packedBand(dst, ops, k, 0, m, 0, n, kern, bl, epi)
	case rowBlocks >= 2*parts && (m >= n || colBlocks < 2*parts):
		packedShared(dst, ops, k, r, kern, bl, epi)
	default:
		tasks := columnTasks(ops, colBlocks, min(parts, colBlocks), kern.nr)
		parallel(r, tasks, bandTask[F, O]{dst, ops, k, kern, bl, epi, tasks})
	}
}

// bandTask is packedProduct's split by columns: tasks bands of whole
// panels, each packing its own blocks.
type bandTask[F float, O operands[F]] struct {
	dst   Matrix[F]
	ops   O
	k     int
	kern  microKernel[F]
	bl    blocking
	epi   Epilogue
	tasks int
}

func (t *bandTask[F, O]) RunTask(w int) {
	nr, n := t.kern.nr, t.dst.Cols
	colBlocks := (n + nr - 1) / nr
	lo, hi := w*colBlocks/t.tasks*nr, min((w+1)*colBlocks/t.tasks*nr, n)
	packedBand(t.dst, t.ops, t.k, 0, t.dst.Rows, lo, hi, t.kern, t.bl, t.epi)
}

// columnTasks is the number of bands of whole panels a product split by
// columns is cut into, for parts workers: sharedTasks per worker (at most
// one panel each) when every band reads a in place, so that the bands
// only divide b's packing and the kernels' work between them and a worker
// that starts late leaves its bands to the others; otherwise, when each
// band packs all of a for itself, one band per worker.
func columnTasks[F float, O operands[F]](ops O, colBlocks, parts, nr int) int {
	tasks := min(colBlocks, sharedTasks*parts)
	if _, ok := ops.inPlace((colBlocks+tasks-1)/tasks*nr, nr); ok {
		return tasks
	}
	return parts
}

// packedBand computes rows [i0, i1) and columns [j0, j1) of dst = a @ b on
// the caller's goroutine with the five loops of GotoBLAS: columns of dst in
// steps of nc, the inner dimension in steps of kc (packing a kc×nc block of
// b), rows in steps of mc (packing an mc×kc block of a, unless the
// micro-kernel reads a in place), then the macro-kernel over nr-column and
// mr-row panels. Each element of dst is written by the first kc step and
// added to by the later ones, so its sum is ordered by p and cut at
// multiples of kc alone, whatever band of dst a worker has. After the last
// kc step of each mc×nc block, epi (if not nil) finishes the block.
func packedBand[F float, O operands[F]](dst Matrix[F], ops O, k, i0, i1, j0, j1 int, kern microKernel[F], bl blocking, epi Epilogue) {
	m, n := i1-i0, j1-j0
	mr, nr := kern.mr, kern.nr
	kc := bl.kcFor(k)
	mc := min(bl.mc, roundUp(m, mr))
	nc := min(bl.nc, roundUp(n, nr))
	// The tile for partial blocks rides at the end of a's buffer, so that
	// a product allocates nothing once the pools hold its buffers.
	bufA, bufB := getBuffer[F](blockA, mc*kc+tileLen(kern)), getBuffer[F](blockB, kc*nc)
	defer putBuffer(blockA, bufA)
	defer putBuffer(blockB, bufB)
	tile := (*bufA)[mc*kc:]
	a, inPlace := ops.inPlace(n, nr)
	b, direct := ops.bInPlace()
	// b is read in place, not packed, when it is one panel more than half
	// full whose rows lie as densely as a packed panel's (at most nr
	// apart: a narrow b, not a band of a wide one, whose rows far apart
	// would share a few sets of L1), read by rowsCols with a in place:
	// every block of rows is then whole or can be shifted up (m >= mr).
	direct = direct && inPlace && kern.rowsCols != nil && n > nr/2 && n <= nr && b.RowStride <= nr && m >= mr
	for jc := j0; jc < j1; jc += nc {
		nb := min(nc, j1-jc)
		for pc := 0; pc < k; pc += kc {
			kb := min(kc, k-pc)
			pb, ldb := *bufB, 0
			if direct {
				pb, ldb = b.Data[b.Offset+pc*b.RowStride+jc:], b.RowStride
			} else {
				ops.packB(pb, pc, pc+kb, jc, jc+nb, nr)
			}
			for ic := i0; ic < i1; ic += mc {
				rowBlock(dst, ops, a, inPlace, ic, min(mc, i1-ic), jc, nb, pc, kb, k, *bufA, pb, ldb, kern, tile, epi)
			}
		}
	}
}

// rowBlock is the innermost step of the GotoBLAS loops: rows [ic, ic+mb)
// and columns [jc, jc+nb) of dst from the kb steps from pc of the inner
// dimension, with b's block packed in pb (or, with ldb > 0, b itself read
// in place there, its rows ldb apart: see macroKernel). It packs the rows of a into pa
// (unless inPlace: the micro-kernel reads a itself, and only a last partial
// block of rows that cannot be read shifted up is packed), runs the
// macro-kernel, and after the last kc step (pc+kb == k) calls epi on the
// block.
func rowBlock[F float, O operands[F]](dst Matrix[F], ops O, a Matrix[F], inPlace bool, ic, mb, jc, nb, pc, kb, k int, pa, pb []F, ldb int, kern microKernel[F], tile []F, epi Epilogue) {
	mr := kern.mr
	var ab Matrix[F]
	if inPlace {
		ab = a.Slice(ic, ic+mb, pc, pc+kb)
		if _, ok := shiftedLast(ab, mr); !ok {
			ops.packA(pa, ic+mb/mr*mr, ic+mb, pc, pc+kb, mr)
		}
	} else {
		ops.packA(pa, ic, ic+mb, pc, pc+kb, mr)
	}
	d := dst.Slice(ic, ic+mb, jc, jc+nb)
	macroKernel(d, ab, inPlace, pa, pb, ldb, kb, pc > 0, kern, tile)
	if epi != nil && pc+kb == k {
		epi(d.Offset, mb, nb)
	}
}

// operands are the a (m×k) and b (k×n) of a real product as packedBand
// reads them: real matrices (realOperands), or the real form of a complex
// product (complexOperands).
type operands[F float] interface {
	// packA packs rows [i0, i1) and columns [p0, p1) of a into buf as
	// packA does.
	packA(buf []F, i0, i1, p0, p1, mr int)
	// packB packs rows [p0, p1) and columns [j0, j1) of b into buf as
	// packB does.
	packB(buf []F, p0, p1, j0, j1, nr int)
	// inPlace returns a and true when a product n columns wide reads a's
	// whole blocks of mr rows in place (see readInPlace).
	inPlace(n, nr int) (Matrix[F], bool)
	// bInPlace returns b and true when b is a real matrix with unit
	// column stride and rows apart (not broadcast), which rowsCols can
	// read in place.
	bInPlace() (Matrix[F], bool)
}

// realOperands are real matrices, packed as they lie.
type realOperands[F float] struct{ a, b Matrix[F] }

func (o realOperands[F]) packA(buf []F, i0, i1, p0, p1, mr int) {
	packA(buf, o.a.Slice(i0, i1, p0, p1), mr)
}

func (o realOperands[F]) packB(buf []F, p0, p1, j0, j1, nr int) {
	packB(buf, o.b.Slice(p0, p1, j0, j1), nr)
}

func (o realOperands[F]) inPlace(n, nr int) (Matrix[F], bool) {
	return o.a, readInPlace(o.a, n, nr)
}

func (o realOperands[F]) bInPlace() (Matrix[F], bool) {
	return o.b, o.b.ColStride == 1 && o.b.RowStride > 0
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
// inside dst copied (or added) out. A last panel of b at most nr/2 columns
// wide runs the half kernels, which compute only the first nr/2 columns
// of the block, each element as the whole kernel does. A last panel more
// than half full, with a in place, runs kern.rowsCols (when the variant
// has it), which writes the block's columns in place, with the whole
// kernel's bits; so does b read in place (ldb > 0: then b is that one
// panel, its rows ldb apart, and every block of rows of a is whole or can
// be shifted up).
func macroKernel[F float](dst, a Matrix[F], inPlace bool, pa, pb []F, ldb, kb int, add bool, kern microKernel[F], tile []F) {
	mr, nr := kern.mr, kern.nr
	rs := dst.RowStride
	whole := dst.Rows / mr * mr
	shifted, shiftOK := 0, false
	if inPlace {
		shifted, shiftOK = shiftedLast(a, mr)
	}
	for jr := 0; jr < dst.Cols; jr += nr {
		bp, stride := pb[jr*kb:], nr
		if ldb > 0 {
			bp, stride = pb, ldb
		}
		cols := min(nr, dst.Cols-jr)
		edge := inPlace && kern.rowsCols != nil && (ldb > 0 || cols > nr/2 && cols < nr)
		for ir := 0; ir < dst.Rows; ir += mr {
			rows := min(mr, dst.Rows-ir)
			off := dst.Offset + ir*rs + jr
			if edge && (rows == mr || shiftOK) {
				// In place; a partial last block shifted up, into the tile.
				from, c, ldc, cAdd := a.Offset+ir*a.RowStride, dst.Data[off:], rs, add
				if rows < mr {
					from, c, ldc, cAdd = shifted, tile, nr, false
				}
				kern.rowsCols(kb, a.Data[from:], a.RowStride, bp, stride, c, ldc, cAdd, cols)
				if rows < mr {
					copyOut(dst.Data[off:], rs, tile[(mr-rows)*nr:], nr, rows, cols, add)
				}
				continue
			}
			if inPlace && cols <= nr/2 && kern.rowsHalf12 != nil && ir+2*mr <= whole {
				// Two whole blocks of rows of a half panel in one call.
				kern.rowsHalf12(kb, a.Data[a.Offset+ir*a.RowStride:], a.RowStride, bp, tile, nr, false)
				copyOut(dst.Data[off:], rs, tile, nr, 2*mr, cols, add)
				ir += mr
				continue
			}
			c, ldc, cAdd := dst.Data[off:], rs, add
			if rows < mr || cols < nr {
				c, ldc, cAdd = tile, nr, false
			}
			skip := 0 // rows of tile above the block's
			run, runRows := kern.run, kern.rows
			if cols <= nr/2 {
				run, runRows = kern.runHalf, kern.rowsHalf // c is the tile
			}
			switch {
			case inPlace && rows == mr:
				runRows(kb, a.Data[a.Offset+ir*a.RowStride:], a.RowStride, bp, c, ldc, cAdd)
			case inPlace:
				if shiftOK {
					runRows(kb, a.Data[shifted:], a.RowStride, bp, c, ldc, cAdd)
					skip = mr - rows
					break
				}
				run(kb, pa[(ir-whole)*kb:], bp, c, ldc, cAdd)
			default:
				run(kb, pa[ir*kb:], bp, c, ldc, cAdd)
			}
			if rows == mr && cols == nr {
				continue
			}
			copyOut(dst.Data[off:], rs, tile[skip*nr:], nr, rows, cols, add)
		}
	}
}

// copyOut writes (or, with add, adds) the first cols columns of rows rows
// of the tile t (rows nr apart) to c (rows rs apart).
func copyOut[F float](c []F, rs int, t []F, nr, rows, cols int, add bool) {
	for i := range rows {
		d, s := c[i*rs:i*rs+cols], t[i*nr:i*nr+cols]
		if !add {
			copy(d, s)
			continue
		}
		for j := range d {
			d[j] += s[j]
		}
	}
}

// tileLen is the length of the tile a macro-kernel of kern computes
// partial blocks into: one block, or two for kern.rowsHalf12.
func tileLen[F float](kern microKernel[F]) int {
	if kern.rowsHalf12 != nil {
		return 2 * kern.mr * kern.nr
	}
	return kern.mr * kern.nr
}

// shiftedLast returns where the micro-kernel reads the last, partial block
// of mr rows of a (read in place) shifted up to end at a's last row, and
// whether it can: a has a partial block and the mr rows ending at its last
// lie inside a.Data. The rows above the block are computed into the tile
// and dropped, so nothing is packed; each element the block keeps is
// summed by the same operations either way.
func shiftedLast[F float](a Matrix[F], mr int) (int, bool) {
	s := a.Offset + (a.Rows-mr)*a.RowStride
	return s, a.Rows%mr != 0 && s >= 0
}

// roundUp rounds n up to a multiple of unit.
func roundUp(n, unit int) int {
	return (n + unit - 1) / unit * unit
}
