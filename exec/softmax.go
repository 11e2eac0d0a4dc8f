package exec

import (
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/internal/vmath"
	"github.com/tensorplay/tensorplay/tensor"
)

// Softmax (expr.Softmax, OpSoftmax) runs on the scan step: its lines are
// those of a scan, each normalized on its own, so a result's bits depend
// on its line and on whether the axis is the last one, never on the
// workers or the input's layout. A line is taken in three steps:
//
//  1. m, the line's maximum (vmath.Max, NaN when the line holds one);
//  2. out = exp(x - m), written and summed: along the last axis in
//     pieces of softmaxChunk elements, element i into lane i%8 of a
//     running sum whose total is taken as a leaf's (vmath.ExpStoreSumLanes:
//     for float32 with AVX-512 one pass that also prefetches the next line)
//     (vmath.LanesTotal); along an outer axis each column's sum in order
//     down the axis;
//  3. out *= 1/s, PyTorch's scaling.
//
// x is read twice, but the second read of a line of up to a few thousand
// elements comes from cache, as does the third step's of out: one read
// of x from memory, one exp per element and one write. A line with +Inf
// (Inf - Inf is NaN), of -Inf only (-Inf - -Inf) or with NaN is NaN
// throughout, expr.Softmax's special lines.

// softmaxChunk is the elements of a line the second step takes at a time:
// 16 KiB of float64, so that a piece's exp and its sum run in L1.
const softmaxChunk = 2048

// runSoftmaxStep runs a softmax scan step whose output is out.
func runSoftmaxStep(s *scanStep, x *Executor, in, out tensor.Any) error {
	switch o := out.(type) {
	case *tensor.Tensor[float32]:
		return runSoftmax(s, x, in.(*tensor.Tensor[float32]).Data(), o.Data())
	case *tensor.Tensor[float64]:
		return runSoftmax(s, x, in.(*tensor.Tensor[float64]).Data(), o.Data())
	}
	return fmt.Errorf("exec: no softmax kernel for %s", s.dt)
}

// softmaxLoops are the executor's own multiply by a scalar for T (its kernel table: internal/simd's AVX2 loops where it has them,
// else the Go loops, the same bits).
//
// mulStream, where there is one, is mul with non-temporal stores (see
// streamBytes): a softmax whose output is that large computes each line's
// exponentials into a buffer in L1 and streams the normalized line out, so
// that the output is written to memory once and never read in first.
type softmaxLoops[T dtype.Float] struct {
	mul       func(d, a []T, s T)
	mulStream func(d, a []T, s T) // nil: none
}

func softmaxLoopsFor[T dtype.Float]() softmaxLoops[T] {
	m := typedFor(dtype.Of[T]()).(*impl[T])
	mul, _ := m.bin(expr.OpMul)
	l := softmaxLoops[T]{mul: mul.vs}
	if m.binStream != nil {
		if ms, ok := m.binStream(expr.OpMul); ok {
			l.mulStream = ms.vs
		}
	}
	return l
}

// newSoftmaxLoops looks up a softmax step's loops for dt when the step is
// planned, as a region looks up its kernels (a lookup of the Go loops
// allocates their function values: once per plan, not per run).
func newSoftmaxLoops(dt dtype.DType) any {
	switch dt {
	case dtype.Float32:
		return softmaxLoopsFor[float32]()
	case dtype.Float64:
		return softmaxLoopsFor[float64]()
	}
	return nil
}

// runSoftmax runs s over in into the row-major out.
func runSoftmax[T dtype.Float](s *scanStep, x *Executor, in, out []T) error {
	if s.n == 0 || s.inner == 0 || s.outer() == 0 {
		return nil
	}
	r := pooledRuns[softmaxRows[T]](s)
	*r = softmaxRows[T]{s: s, loops: s.softmax.(softmaxLoops[T]), src: sameSource[T]{in}, out: out, blocks: s.lineBlocks()}
	err := s.forLines(x, r)
	*r = softmaxRows[T]{}
	s.runs.Put(r)
	return err
}

// softmaxRows is a softmax run's rows for forRows: lines along the
// innermost axis when blocks is 0, else blocks of s.block columns, blocks
// of them per outer index. The step keeps it between runs (scanStep.runs).
type softmaxRows[T dtype.Float] struct {
	s      *scanStep
	loops  softmaxLoops[T]
	src    sameSource[T]
	out    []T
	blocks int
}

func (r *softmaxRows[T]) runRows(lo, hi int) {
	s, out := r.s, r.out
	if r.blocks == 0 {
		var buf, exps []T
		stream := r.loops.mulStream != nil && s.n <= softmaxChunk && len(out)*dtype.Of[T]().Size() >= streamBytes
		if s.axStride != 1 || stream {
			b := lineBuf[T](&s.bufs, 2*min(s.n, softmaxChunk))
			defer s.bufs.Put(b)
			buf = (*b)[:min(s.n, softmaxChunk)]
			if stream {
				exps = (*b)[len(buf):]
			}
		}
		for o := lo; o < hi; o++ {
			var next []T // the next line, prefetched while this one's exponentials run
			if s.axStride == 1 && o+1 < hi {
				next = r.src.data[s.inBase(o+1):][:s.n]
			}
			softmaxLine(r.loops, r.src, out[o*s.n:(o+1)*s.n], s.inBase(o), s.axStride, buf, exps, next)
		}
		if stream {
			simd.Fence() // the streamed lines are written before the step ends
		}
		return
	}
	b := lineBuf[T](&s.bufs, 3*s.block)
	defer s.bufs.Put(b)
	buf := *b
	for u := lo; u < hi; u++ {
		o, i0 := u/r.blocks, u%r.blocks*s.block
		m := min(s.block, s.inner-i0)
		softmaxColumns(s, r.loops, r.src, out[o*s.n*s.inner+i0:], s.inBase(o)+i0*s.inStride, buf[:m], buf[s.block:s.block+m], buf[2*s.block:2*s.block+m])
	}
}

// softmaxLine normalizes the line of len(out) elements whose input starts
// at base, stride apart (loaded into buf when stride is not 1). With exps
// (a buffer of len(out) elements, the line at most softmaxChunk long) the
// exponentials go there, and the normalized line is streamed into out
// (loops.mulStream): the same operations, so the same bits. next, when
// not nil, is what the caller reads after this line: its cache lines are
// asked for while the exponentials run (vmath.ExpStoreSumLanes).
func softmaxLine[T dtype.Float](l softmaxLoops[T], src sameSource[T], out []T, base, stride int, buf, exps, next []T) {
	n := len(out)
	piece := func(c0, m int) []T {
		if stride == 1 {
			return src.data[base+c0 : base+c0+m]
		}
		return src.load(buf[:m], base+c0*stride, stride)
	}
	mx := T(math.Inf(-1))
	for c0 := 0; c0 < n; c0 += softmaxChunk {
		mx = max(mx, vmath.Max(piece(c0, min(softmaxChunk, n-c0)))) // max is NaN when either is
	}
	var lanes [8]T
	for c0 := 0; c0 < n; c0 += softmaxChunk {
		m := min(softmaxChunk, n-c0)
		d := out[c0 : c0+m]
		if exps != nil {
			d = exps[:m]
		}
		var ahead []T
		if next != nil {
			ahead = next[c0 : c0+m]
		}
		vmath.ExpStoreSumLanes(&lanes, d, piece(c0, m), mx, ahead)
	}
	if exps != nil {
		l.mulStream(out, exps[:n], 1/vmath.LanesTotal(&lanes))
		return
	}
	l.mul(out, out, 1/vmath.LanesTotal(&lanes))
}

// softmaxColumns normalizes len(xs) lines of an outer axis, whose input
// starts at base (the lines' elements s.inStride apart) and output at
// out[0], walking them row after row down the axis three times; xs holds
// a row's inputs, mx and sum the lines' maxima and sums.
func softmaxColumns[T dtype.Float](s *scanStep, l softmaxLoops[T], src sameSource[T], out []T, base int, xs, mx, sum []T) {
	w := len(xs)
	for j := range mx {
		mx[j], sum[j] = T(math.Inf(-1)), 0
	}
	for k := range s.n {
		for j, v := range src.load(xs, base+k*s.axStride, s.inStride) {
			mx[j] = max(mx[j], v)
		}
	}
	for k := range s.n {
		row := src.load(xs, base+k*s.axStride, s.inStride)
		d := out[k*s.inner : k*s.inner+w]
		for j, v := range row {
			d[j] = v - mx[j]
		}
		vmath.Exp(d, d)
		for j, v := range d {
			sum[j] += v
		}
	}
	for j, v := range sum {
		sum[j] = 1 / v
	}
	for k := range s.n {
		d := out[k*s.inner : k*s.inner+w]
		for j, r := range sum {
			d[j] *= r
		}
	}
}
