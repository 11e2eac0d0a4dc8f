package exec

import (
	"fmt"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/matmul"
	"github.com/tensorplay/tensorplay/tensor"
)

// A convolution's elementwise consumer is fused into the write of its
// output as a matmul's is (epilogue.go): the region runs on each block of
// the result as soon as the block is final — each mc×nc block of an image's
// GEMM, each output plane of a depthwise convolution. The result
// [N, O, spatial...] is seen as N·O rows of one output channel's plane,
// so an operand may vary along the rows as well as along them: a
// per-channel [O, 1, 1], a per-image and channel [N, O, 1, 1] (what
// broadcast_add takes), or a tensor of the result's shape, as long as it
// walks each plane as one run.

// convRows are a convolution result's rows: o output channels per image,
// planes of p elements, of the given shape.
type convRows struct {
	o, p  int
	shape tensor.Shape
}

func (r convRows) fits(shape tensor.Shape) bool { return shape.Equal(r.shape) }

func (r convRows) newEpilogue(g *region, nout int) *epilogue {
	n := nout + len(g.inputs)
	// Not multiRow: a span is rows of one image, run a row at a time.
	e := &epilogue{g: g, width: r.p, stR: make([]int, n), stC: make([]int, n), stN: make([]int, n), image: r.o}
	e.stN[0], e.stR[0], e.stC[0] = r.o*r.p, r.p, 1
	return e
}

func (r convRows) strides(e *epilogue, op int, st []int) bool {
	d := len(st)
	want := st[d-1]
	for k := d - 1; k >= 2; k-- {
		if r.shape[k] > 1 && st[k] != want {
			return false // does not walk the plane as one run
		}
		want *= r.shape[k]
	}
	e.stN[op], e.stR[op], e.stC[op] = st[0], st[1], st[d-1]
	if r.p == 1 {
		e.stC[op] = 0
	}
	return true
}

// fuseConvEpilogues makes each region that can be a forward convolution's
// epilogue one (as fuseEpilogues does for matmuls).
func (pl *planner) fuseConvEpilogues() {
	p := pl.p
	for i := 0; i < len(p.steps); i++ {
		s, ok := p.steps[i].(*windowStep)
		if !ok || s.op != expr.OpConv || s.epi != nil {
			continue
		}
		shape := p.values[s.out].shape
		j, e := pl.epilogueFor(i, s.out, convRows{o: s.geo.o, p: s.geo.outPlane(), shape: shape})
		if e == nil {
			continue
		}
		s.out, s.epi = pl.takeEpilogue(j, s.out, e), e
		p.notes = append(p.notes, fmt.Sprintf("conv %v applies a fused region to each block of its result (epilogue)", shape))
	}
}

// convEpilogue returns the matmul.Epilogue that runs s's epilogue region
// on a block of the result (offset, rows and columns of its rows of planes),
// or nil.
func (s *windowStep) convEpilogue(vals []tensor.Any) matmul.Epilogue {
	if s.epi == nil {
		return nil
	}
	var sr spanRunner = s.epi
	p := s.geo.outPlane()
	return func(off, rows, cols int) { sr.runSpan(vals, off/p, rows, off%p, cols) }
}
