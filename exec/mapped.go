package exec

import (
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// RangeReleaser is implemented by the tensor.Backing of storage that can
// give memory back once it has been used: a memory-mapped file (interop/npy's
// OpenMapped and CreateMapped). Over such a tensor, a leaf or a
// destination, every kernel (a fused region, a reduction's producer, a
// matmul) tells the storage which elements it has finished with, in
// ranges of about releaseBytes as its blocks pass them, so that what is
// resident of a file far larger than memory stays a few tiles per worker.
// Ordinary tensors have no backing and cost nothing.
type RangeReleaser interface {
	// ReleaseRange says that elements [off, off+n) of the tensor's Data()
	// will not be needed soon. It is advice: they may be read or written
	// again (by another worker's block on the same page, or a later step),
	// and must then still hold their values. It is called concurrently
	// from the workers. I/O errors are the storage's to report (npy's
	// Flush and Close).
	ReleaseRange(off, n int)
}

// releaseBytes is how much of an operand's storage a worker's blocks pass
// before they release it: 8 MiB, so that a worker holds at most about that
// much of each mapped operand, at one madvise per 8 MiB.
const releaseBytes = 8 << 20

// releaserOf returns t's RangeReleaser, or nil for ordinary storage.
func releaserOf(t tensor.Any) RangeReleaser {
	b, ok := t.(interface{ Backing() tensor.Backing })
	if !ok {
		return nil
	}
	r, _ := b.Backing().(RangeReleaser)
	return r
}

// checkWritable refuses a destination whose storage is read-only (a file
// mapped for reading, where a write would fault).
func checkWritable(d tensor.Any, op string) error {
	b, ok := d.(interface{ Backing() tensor.Backing })
	if ok && b.Backing() != nil && b.Backing().ReadOnly() {
		return &tensor.ReadOnlyError{Op: op, Shape: d.Shape().Clone()}
	}
	return nil
}

// releaseOp is one mapped operand of a kernel: which operand it is (its
// index in regionState.offs and geoms), its storage, and the span of
// storage a task's blocks have touched since it last released.
type releaseOp struct {
	op     int
	r      RangeReleaser
	limit  int // elements per release
	lo, hi int // touched span [lo, hi); hi == 0: none
}

// releases is a task's list of mapped operands; a kernel with none has a
// nil list.
type releases struct {
	ops   []releaseOp
	fence bool // streaming stores: fence before releasing written pages
}

// mappedOperands returns the region's mapped operands in this run (outputs
// first, then inputs, as in its layout), or nil when there are none, the
// common case. A reduction's producer has inputs only (producer).
func (g *region) mappedOperands(vals []tensor.Any, producer bool) *releases {
	var rs *releases
	nout, n := len(g.outputs), len(g.outputs)+len(g.inputs)
	if producer {
		nout, n = 0, len(g.inputs)
	}
	for op := range n {
		var t tensor.Any
		if op < nout {
			t = vals[g.outputs[op].value]
		} else {
			t = vals[g.inputs[op-nout]]
		}
		r := releaserOf(t)
		if r == nil {
			continue
		}
		if rs == nil {
			rs = &releases{fence: g.streams}
		}
		rs.ops = append(rs.ops, releaseOp{op: op, r: r, limit: max(1, releaseBytes/max(1, t.DType().Size()))})
	}
	return rs
}

// forTask returns a copy of the list for one task's own spans.
func (rs *releases) forTask() *releases {
	if rs == nil {
		return nil
	}
	return &releases{ops: append([]releaseOp(nil), rs.ops...), fence: rs.fence}
}

// touch records the block at st.offs and st.geoms (r×c elements of each
// operand) and releases each operand's span once it holds limit elements.
func (rs *releases) touch(st *regionState) {
	for i := range rs.ops {
		o := &rs.ops[i]
		gm := &st.geoms[o.op]
		if gm.r <= 0 || gm.c <= 0 {
			continue
		}
		lo := st.offs[o.op]
		hi := lo + (gm.r-1)*gm.stR + (gm.c-1)*gm.stC + 1
		if o.hi == 0 {
			o.lo, o.hi = lo, hi
		} else {
			o.lo, o.hi = min(o.lo, lo), max(o.hi, hi)
		}
		if o.hi-o.lo >= o.limit {
			rs.release(o)
		}
	}
}

// release gives back o's span.
func (rs *releases) release(o *releaseOp) {
	if rs.fence {
		simd.Fence() // streamed stores reach memory before their pages go
	}
	o.r.ReleaseRange(o.lo, o.hi-o.lo)
	o.lo, o.hi = 0, 0
}

// done releases what the task's last blocks touched.
func (rs *releases) done() {
	for i := range rs.ops {
		if o := &rs.ops[i]; o.hi > 0 {
			rs.release(o)
		}
	}
}
