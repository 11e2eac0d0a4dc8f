package exec

import (
	"fmt"
	"io"
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/axisrows"
	"github.com/tensorplay/tensorplay/tensor"
)

// A scan step computes a cumulative op (expr's ClassScan) along one axis.
// The input, of shape [outer..., n, inner...], is seen as lines: the n
// elements that differ only in their index along the axis. Each line is
// folded in order, one element after another, so a result's bits depend on
// nothing but its line. Lines are independent and shared among the
// workers:
//
//   - along the innermost axis (inner = 1) a task takes whole lines, each a
//     run of the output that it writes as one stream;
//   - along an outer axis a task takes a block of inner elements of one
//     outer index and walks it down the axis, row after row: output row k is
//     row k-1 combined elementwise with input row k, a loop over a
//     contiguous block that the compiler keeps in registers and that stays
//     in cache from one row to the next.
//
// The output is row-major. The input is read in place through its strides
// (a transposed or reversed view is not copied), converted to the output's
// dtype as it is read when the two differ (CumSumAs); only an input whose
// inner axes do not merge into one stride is first copied.
type scanStep struct {
	in, out    int
	op         expr.Op
	kind       scanKind
	reverse    bool
	dt         dtype.DType // the output's (the accumulator's) dtype
	shape      tensor.Shape
	axis       int
	outerShape []int // the input's extents and strides before the axis
	outerStr   []int
	n, inner   int
	axStride   int // the input's stride along the axis
	inStride   int // the input's stride over the merged inner axes
	inOff      int
	block      int       // inner elements per task (scans along an outer axis)
	bufs       sync.Pool // *[]T: the tasks' line buffers, kept between runs
	softmax    any       // a softmax step's softmaxLoops[T] (softmax.go)
	runs       sync.Pool // a scan step's *scanTasks[T] or a softmax step's *softmaxRows[T], kept between runs
}

// lineBuf returns a buffer of n elements of T for one task of a scan,
// from the step's pool p (a cached plan runs its steps again and again, and
// a buffer per task per run was most of a scan's allocations); the task
// puts it back into p when it is done.
func lineBuf[T any](p *sync.Pool, n int) *[]T {
	if b, ok := p.Get().(*[]T); ok && cap(*b) >= n {
		*b = (*b)[:n]
		return b
	}
	b := make([]T, n)
	return &b
}

// buildScan plans the scan node n.
func (pl *planner) buildScan(n *expr.Node) step {
	in := pl.valueOf[pl.args(n)[0]]
	axis, reverse := n.ScanArgs()
	s := &scanStep{in: in, out: pl.valueOf[n], op: n.Op(), kind: scanKindOf(n.Op()), reverse: reverse, dt: n.DType(), axis: axis}
	if s.kind == scanSoftmax {
		s.softmax = newSoftmaxLoops(s.dt)
	}
	if _, ok := innerStride(pl.p.values[in].shape[axis+1:], pl.p.values[in].strides[axis+1:]); !ok {
		v := pl.p.values[in]
		tmp := pl.addValue(value{kind: valTemp, node: v.node, dt: v.dt, shape: v.shape, strides: tensor.RowMajorStrides(v.shape)})
		g := pl.copyRegion(in, tmp)
		g.note = fmt.Sprintf("copies v%d for a scan: its axes after %d do not merge into one stride", in, axis)
		pl.addStep(pl.level[n], g)
		s.in = tmp
	}
	v := &pl.p.values[s.in]
	s.shape = v.shape.Clone()
	s.outerShape = append([]int(nil), v.shape[:axis]...)
	s.outerStr = append([]int(nil), v.strides[:axis]...)
	s.n, s.axStride, s.inOff = v.shape[axis], v.strides[axis], v.offset
	s.inStride, _ = innerStride(v.shape[axis+1:], v.strides[axis+1:])
	s.inner = 1
	for _, d := range v.shape[axis+1:] {
		s.inner *= d
	}
	s.block = scanBlock(s.outer(), s.inner, pl.x.workers)
	return s
}

// innerStride returns the one stride that steps through the axes of shape
// in row-major order, if there is one: each axis (of extent above 1) must
// step the span of the next.
func innerStride(shape tensor.Shape, strides []int) (int, bool) {
	st, found := 1, false
	for d := len(shape) - 1; d >= 0; d-- {
		if shape[d] == 1 {
			continue
		}
		if !found {
			st, found = strides[d], true
			continue
		}
		if strides[d] != st*prodOf(shape[d+1:]) {
			return 0, false
		}
	}
	return st, true
}

func prodOf(s []int) int {
	p := 1
	for _, d := range s {
		p *= d
	}
	return p
}

// scanBlock is the inner elements one task of a scan along an outer axis
// takes: every inner element when there are enough outer indices to share,
// else one block per worker, of at least 512 and at most 16384 elements (a
// page of float64 to 128 KiB: the input is read in pieces of that many
// contiguous elements, and narrower ones read slower; see docs/scans.md).
func scanBlock(outer, inner, workers int) int {
	const lo, hi = 512, 16384
	blk := min(inner, hi)
	if want := workers; workers > 1 && outer > 0 && outer < want {
		per := (want + outer - 1) / outer
		blk = min(blk, max(lo, (inner+per-1)/per))
	}
	return max(blk, 1)
}

func (s *scanStep) outer() int { return prodOf(s.outerShape) }

// inBase is the input offset of the first element of outer index o.
func (s *scanStep) inBase(o int) int {
	off := s.inOff
	for d := len(s.outerShape) - 1; d >= 0; d-- {
		off += (o % s.outerShape[d]) * s.outerStr[d]
		o /= s.outerShape[d]
	}
	return off
}

func (s *scanStep) run(x *Executor, vals []tensor.Any) error {
	if s.kind == scanSoftmax {
		return runSoftmaxStep(s, x, vals[s.in], vals[s.out])
	}
	r, ok := scanRunners[s.dt]
	if !ok {
		return fmt.Errorf("exec: no %s kernel for %s", s.op, s.dt)
	}
	return r(s, x, vals[s.in], vals[s.out])
}

// values lists what the step reads and writes.
func (s *scanStep) values() (reads, writes []int) { return []int{s.in}, []int{s.out} }

func (s *scanStep) describe(w io.Writer, names func(v int) string) {
	dir := ""
	if s.reverse {
		dir = ", reversed"
	}
	if s.inner == 1 {
		fmt.Fprintf(w, "  scan %s = %s %s along axis %d of %v%s: %d lines of %d\n", names(s.out), s.op, names(s.in), s.axis, s.shape, dir, s.outer(), s.n)
		return
	}
	fmt.Fprintf(w, "  scan %s = %s %s along axis %d of %v%s: %d x %d lines of %d, in blocks of %d\n", names(s.out), s.op, names(s.in), s.axis, s.shape, dir, s.outer(), s.inner, s.n, s.block)
}

// scanRunners runs a scan step whose output has the key's dtype.
var scanRunners = map[dtype.DType]func(s *scanStep, x *Executor, in, out tensor.Any) error{
	dtype.Int8:       runScan[int8],
	dtype.Int16:      runScan[int16],
	dtype.Int32:      runScan[int32],
	dtype.Int64:      runScan[int64],
	dtype.Uint8:      runScan[uint8],
	dtype.Uint16:     runScan[uint16],
	dtype.Uint32:     runScan[uint32],
	dtype.Uint64:     runScan[uint64],
	dtype.Float32:    runScan[float32],
	dtype.Float64:    runScan[float64],
	dtype.Complex64:  runScan[complex64],
	dtype.Complex128: runScan[complex128],
}

// scanChunk is the elements of a line a scan loads at a time when it
// cannot read them in place (a strided, reversed or converted line).
const scanChunk = 2048

// runScan runs s for the output element type T.
func runScan[T dtype.Numeric](s *scanStep, x *Executor, in, outAny tensor.Any) error {
	out := outAny.(*tensor.Tensor[T]).Data()
	if s.n == 0 || s.inner == 0 || s.outer() == 0 {
		return nil
	}
	r := pooledRuns[scanTasks[T]](s)
	*r = scanTasks[T]{s: s, fns: scanFnsFor[T](), in: in, out: out, blocks: s.lineBlocks()}
	if t, ok := in.(*tensor.Tensor[T]); ok {
		r.same = sameSource[T]{t.Data()}
	}
	err := s.forLines(x, r)
	*r = scanTasks[T]{}
	s.runs.Put(r)
	return err
}

// pooledRuns is a run's task struct from s.runs, or a new one: R is the
// step's scanTasks[T] or softmaxRows[T]; the run clears it and puts it back.
func pooledRuns[R any](s *scanStep) *R {
	if r, ok := s.runs.Get().(*R); ok {
		return r
	}
	return new(R)
}

// lineBlocks is how many blocks of s.block columns a scan step's tasks
// cut each outer index's inner axes into, 0 when its lines run along the
// innermost axis (s.inner is 1).
func (s *scanStep) lineBlocks() int {
	if s.inner == 1 {
		return 0
	}
	return (s.inner + s.block - 1) / s.block
}

// forLines runs r over s's rows: one a line along the innermost axis, or
// one a block of lineBlocks.
func (s *scanStep) forLines(x *Executor, r rowRanges) error {
	if b := s.lineBlocks(); b > 0 {
		return x.forRows(axisrows.Rows{Outer: s.outer() * b, N: s.n * s.block, Inner: 1}, r)
	}
	return x.forRows(axisrows.Rows{Outer: s.outer(), N: s.n, Inner: 1}, r)
}

// scanTasks is a scan run's rows for forRows, as softmaxRows is a
// softmax's: lines along the innermost axis when blocks is 0, else blocks
// of s.block columns, blocks of them per outer index. The step keeps it
// between runs (scanStep.runs), so that a run allocates nothing for its
// tasks.
type scanTasks[T dtype.Numeric] struct {
	s   *scanStep
	fns scanFns[T]
	// same is in when it is of type T, every task reading it through
	// &same; else same.data is nil and each task reads in through a
	// source of its own (a cast's).
	same   sameSource[T]
	in     tensor.Any
	out    []T
	blocks int
}

func (r *scanTasks[T]) runRows(lo, hi int) {
	s, out := r.s, r.out
	var src scanSource[T] = &r.same
	if r.same.data == nil {
		src = newScanSource[T](r.in)
	}
	if r.blocks == 0 {
		m := min(s.n, scanChunk)
		b := lineBuf[T](&s.bufs, 2*m)
		defer s.bufs.Put(b)
		buf, rbuf := (*b)[:m], (*b)[m:]
		if !s.reverse {
			rbuf = nil
		}
		for o := lo; o < hi; o++ {
			scanLine(s, r.fns, src, out[o*s.n:(o+1)*s.n], s.inBase(o), buf, rbuf)
		}
		return
	}
	b := lineBuf[T](&s.bufs, s.block)
	defer s.bufs.Put(b)
	buf := *b
	for u := lo; u < hi; u++ {
		o, i0 := u/r.blocks, u%r.blocks*s.block
		m := min(s.block, s.inner-i0)
		scanRows(s, r.fns, src, out[o*s.n*s.inner+i0:], s.inBase(o)+i0*s.inStride, buf[:m])
	}
}

// scanLine scans the line whose input starts at base into out (n
// elements), loading it into buf when it cannot be read in place; a
// reverse scan folds into rbuf and writes it back to front.
func scanLine[T dtype.Numeric](s *scanStep, fns scanFns[T], src scanSource[T], out []T, base int, buf, rbuf []T) {
	var acc T
	if !s.reverse {
		if d, ok := src.(*sameSource[T]); ok && s.axStride == 1 {
			fns.run(s.kind, out, d.data[base:base+s.n], acc, true)
			return
		}
		for c0 := 0; c0 < s.n; c0 += len(buf) {
			m := min(len(buf), s.n-c0)
			xs := src.load(buf[:m], base+c0*s.axStride, s.axStride)
			acc = fns.run(s.kind, out[c0:c0+m], xs, acc, c0 == 0)
		}
		return
	}
	for c0 := 0; c0 < s.n; c0 += len(buf) {
		m := min(len(buf), s.n-c0)
		xs := src.load(buf[:m], base+(s.n-1-c0)*s.axStride, -s.axStride)
		acc = fns.run(s.kind, rbuf[:m], xs, acc, c0 == 0)
		at := s.n - 1 - c0
		for _, v := range rbuf[:m] {
			out[at] = v
			at--
		}
	}
}

// scanRows scans a block of len(buf) lines of an outer axis, whose input
// starts at base and output at out[0], row after row down the axis: the
// first row (the last one, reversed) is the input's, each next row the
// one before combined with the input's.
func scanRows[T dtype.Numeric](s *scanStep, fns scanFns[T], src scanSource[T], out []T, base int, buf []T) {
	m := len(buf)
	var prev []T
	for step := range s.n {
		k := step
		if s.reverse {
			k = s.n - 1 - step
		}
		xs := src.load(buf, base+k*s.axStride, s.inStride)
		dst := out[k*s.inner : k*s.inner+m]
		if prev == nil {
			fns.first(s.kind, dst, xs)
		} else {
			fns.row(s.kind, dst, prev, xs)
		}
		prev = dst
	}
}
