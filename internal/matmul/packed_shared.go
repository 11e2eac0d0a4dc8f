package matmul

// sharedTasks is the number of row tasks per worker packedShared aims at:
// a worker that starts late, or loses its core to another process, leaves
// its tasks to the others instead of keeping them all waiting at the end.
const sharedTasks = 4

// packedShared computes dst = a @ b split by rows over r's workers as BLIS
// splits its ic loop: for each kc×nc block of b, the workers first pack
// the block's panels between them into one buffer, then take tasks of
// whole mr-row blocks of dst (about sharedTasks per worker, at most mc
// rows each), each packing its rows of a (or reading them in place) and
// running the macro-kernel on the shared block. The whole product is one
// Parallel call whose parts step through these phases together (see
// phases): the end of a phase is the barrier between packing a block and
// using it, and between one block of b and the next. Every element is
// summed as packedBand sums it: the kc steps in order, each from zero in
// the micro-kernel, so the bits do not depend on the tasks or on who runs
// them.
func packedShared[F float, O operands[F]](dst Matrix[F], ops O, k int, r Runner, kern microKernel[F], bl blocking, epi Epilogue) {
	m, n := dst.Rows, dst.Cols
	mr, nr := kern.mr, kern.nr
	workers := r.Workers()
	kc := bl.kcFor(k)
	nc := min(bl.nc, roundUp(n, nr))
	rowBlocks := (m + mr - 1) / mr
	per := clamp((rowBlocks+sharedTasks*workers-1)/(sharedTasks*workers), 1, max(1, bl.mc/mr))
	rows := per * mr // of each task
	tasks := (m + rows - 1) / rows
	bufB := getBuffer[F](blockB, kc*nc)
	defer putBuffer(blockB, bufB)
	a, inPlace := ops.inPlace(n, nr)
	s := getPhases(2 * ((n + nc - 1) / nc) * ((k + kc - 1) / kc))
	defer s.put()
	r.Parallel(workers, func(int) {
		var bufA *[]F // taken with the part's first row task
		defer func() {
			if bufA != nil {
				putBuffer(blockA, bufA)
			}
		}()
		ph := 0
		for jc := 0; jc < n; jc += nc {
			nb := min(nc, n-jc)
			panels := (nb + nr - 1) / nr
			packers := min(sharedTasks*workers, panels)
			for pc := 0; pc < k; pc += kc {
				kb := min(kc, k-pc)
				if !s.run(ph, packers, func(w int) {
					j0, j1 := w*panels/packers*nr, min((w+1)*panels/packers*nr, nb)
					ops.packB((*bufB)[j0*kb:], pc, pc+kb, jc+j0, jc+j1, nr)
				}) {
					return
				}
				if !s.run(ph+1, tasks, func(t int) {
					if bufA == nil {
						bufA = getBuffer[F](blockA, rows*kc+tileLen(kern))
					}
					ic := t * rows
					mb := min(rows, m-ic)
					rowBlock(dst, ops, a, inPlace, ic, mb, jc, nb, pc, kb, k, *bufA, *bufB, kern, (*bufA)[rows*kb:], epi)
				}) {
					return
				}
				ph += 2
			}
		}
	})
}
