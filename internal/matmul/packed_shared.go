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
// Runner.Run call whose parts step through these phases together (see
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
	parallel(r, workers, sharedTask[F, O]{dst: dst, ops: ops, k: k, kern: kern, epi: epi, a: a, inPlace: inPlace,
		bufB: *bufB, s: s, workers: workers, kc: kc, nc: nc, rows: rows, tasks: tasks})
}

// sharedTask is packedShared's part for one worker: every part steps
// through the phases of every block of b, packing its share of the block
// and then taking row tasks.
type sharedTask[F float, O operands[F]] struct {
	dst                          Matrix[F]
	ops                          O
	k                            int
	kern                         microKernel[F]
	epi                          Epilogue
	a                            Matrix[F] // a read in place, if inPlace
	inPlace                      bool
	bufB                         []F // the block of b, packed by the parts together
	s                            *phases
	workers, kc, nc, rows, tasks int
}

func (t *sharedTask[F, O]) RunTask(int) {
	m, n, k := t.dst.Rows, t.dst.Cols, t.k
	nr, rows, s := t.kern.nr, t.rows, t.s
	var bufA *[]F // taken with the part's first row task
	defer func() {
		if bufA != nil {
			putBuffer(blockA, bufA)
		}
	}()
	ph := 0
	for jc := 0; jc < n; jc += t.nc {
		nb := min(t.nc, n-jc)
		panels := (nb + nr - 1) / nr
		packers := min(sharedTasks*t.workers, panels)
		for pc := 0; pc < k; pc += t.kc {
			kb := min(t.kc, k-pc)
			if !s.run(ph, packers, func(w int) {
				j0, j1 := w*panels/packers*nr, min((w+1)*panels/packers*nr, nb)
				t.ops.packB(t.bufB[j0*kb:], pc, pc+kb, jc+j0, jc+j1, nr)
			}) {
				return
			}
			if !s.run(ph+1, t.tasks, func(i int) {
				if bufA == nil {
					bufA = getBuffer[F](blockA, rows*t.kc+tileLen(t.kern))
				}
				ic := i * rows
				mb := min(rows, m-ic)
				rowBlock(t.dst, t.ops, t.a, t.inPlace, ic, mb, jc, nb, pc, kb, k, *bufA, t.bufB, 0, t.kern, (*bufA)[rows*kb:], t.epi)
			}) {
				return
			}
			ph += 2
		}
	}
}
