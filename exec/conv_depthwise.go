package exec

import (
	"github.com/tensorplay/tensorplay/internal/matmul"
	"github.com/tensorplay/tensorplay/internal/simd"
)

// A convolution whose groups each read one input channel (a depthwise
// convolution, with any number of output channels per group) is no GEMM:
// its K is the kernel's taps alone, too few for the packed GEMM to pay
// for packing. It runs as a direct stencil instead, an output channel plane
// at a time (planes split over the workers): each output row is the sum,
// tap after tap in the kernel's order, of a run of an input row times the
// tap's weight, by the executor's vector loop d = x·w + d (each product
// rounded, then added; no fused multiply-add) over the positions whose tap
// is inside the input; a tap in the padding adds nothing. The order of
// every sum is the taps', whatever the number of workers.

// depthwise reports whether the convolution is one input channel per group.
func (g *winGeom) depthwise() bool { return g.c == g.groups }

// axpyLoop returns d = x·y + z for T: the executor's vector loop, or its Go
// loop (the same bits) where there is none.
func axpyLoop[T float32 | float64]() func(d, x []T, y T, z []T) {
	if f, ok := simd.FusedS[T](simd.Add, simd.Mul, true); ok {
		return f
	}
	return fuseAddMulLS[T]
}

// convDepthwise computes the forward convolution of a depthwise s into out
// (row-major [N, O, spatial...]) from dense x and w, adding bias (when not
// nil) to each output element after its sum, then finishing each output
// plane with fin (when not nil) as one block of a row.
func convDepthwise[F float32 | float64](s *windowStep, x, w, bias, out []F, r matmul.Runner, fin matmul.Epilogue) {
	g := &s.geo
	cog := g.o / g.groups
	taps, plane, op := g.taps(), g.inPlane(), g.outPlane()
	axpy := axpyLoop[F]()
	var bs, boff int
	if bias != nil {
		bs, boff = s.ops[2].strides[0], s.ops[2].off
	}
	forParts(r, g.n*g.o, 0, func(i int, _ matmul.Runner) {
		n, oc := i/g.o, i%g.o
		dst := out[i*op : (i+1)*op]
		depthwisePlane(g, dst, x[(n*g.c+oc/cog)*plane:][:plane], w[oc*taps:][:taps], axpy)
		if bias != nil {
			b := bias[boff+oc*bs]
			for j := range dst {
				dst[j] += b
			}
		}
		if fin != nil {
			fin(i*op, 1, op)
		}
	})
}

// depthwisePlane writes into dst (a row-major output plane) the
// convolution of the input plane x by the kernel w (taps row-major).
func depthwisePlane[F float32 | float64](g *winGeom, dst, x, w []F, axpy func(d, x []F, y F, z []F)) {
	in1, in2 := g.in[1], g.in[2]
	s2 := g.s[2]
	for od := range g.out[0] {
		for oh := range g.out[1] {
			row := dst[(od*g.out[1]+oh)*g.out[2]:][:g.out[2]]
			clear(row)
			for kd := range g.k[0] {
				id := od*g.s[0] - g.pl[0] + kd*g.dl[0]
				if id < 0 || id >= g.in[0] {
					continue
				}
				for kh := range g.k[1] {
					ih := oh*g.s[1] - g.pl[1] + kh*g.dl[1]
					if ih < 0 || ih >= in1 {
						continue
					}
					xr := x[(id*in1+ih)*in2:][:in2]
					wt := w[(kd*g.k[1]+kh)*g.k[2]:][:g.k[2]]
					for kw, wv := range wt {
						iw0 := -g.pl[2] + kw*g.dl[2]
						qa, qb := validRange(iw0, s2, in2, g.out[2])
						if qb == qa {
							continue
						}
						d := row[qa:qb]
						if s2 == 1 {
							axpy(d, xr[iw0+qa:], wv, d)
							continue
						}
						src := xr[iw0+qa*s2:]
						for q := range d {
							d[q] += F(src[q*s2] * wv)
						}
					}
				}
			}
		}
	}
}
