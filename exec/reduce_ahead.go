package exec

import "github.com/tensorplay/tensorplay/dtype"

// aheadRun is, for a reduction along rows (case A) whose reduced values
// are a direct input (no producer kernels), the run of output next's
// elements the fold of output next will read first, so that the fold of
// the output before it can prefetch it (see vmath.ExpSumLeavesAhead): a
// row of 1024 float32 is a 4 KiB page, a stream of its own that the
// hardware prefetcher starts only at the row's first misses, while the
// exponentials of a row in L1 leave the memory idle. It is nil when
// there is no such run (next == hi: the task's last output). It leaves
// st.offs changed.
func aheadRun[T dtype.Elem](rs *reduceStep, st *regionState, src *slot[T], next, hi int) []T {
	g := rs.prod
	nout := len(g.outputs)
	if next >= hi || rs.root >= len(g.inputs) || g.kinds[nout+rs.root] != accDirect || src.data == nil {
		return nil
	}
	rs.seek(st, g.offsets, rs.kept, next)
	off := st.offs[nout+rs.root]
	n := min(rs.c, rs.innerSize)
	if off < 0 || off+n > len(src.data) {
		return nil
	}
	return src.data[off : off+n]
}
