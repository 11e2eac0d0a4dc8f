package exec

import (
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/matmul"
	"github.com/tensorplay/tensorplay/tensor"
)

// windowStep computes a convolution, a pooling or one of their gradients
// (expr's ClassWindow) from whole operands into a row-major result: the
// convolutions on internal/matmul's packed GEMM with implicit operands
// (conv_gemm.go), the poolings with direct loops (pooling.go), both split
// over the executor's workers by images and channels (or, for a large
// product, inside it), so that every element is summed in an order the
// number of workers does not change.
type windowStep struct {
	op   expr.Op
	fwd  expr.Op // OpPoolGrad: the pooling differentiated
	dt   dtype.DType
	args []int // operand values
	out  int
	geo  winGeom
	ops  []operand // the operands' layouts, as args
	// scratch holds buffers of the step's element type (*[]F) that one
	// image's work uses and later ones reuse: a padded image.
	scratch sync.Pool
	epi     *epilogue // a forward convolution's, applied to each block of its result, or nil (conv_epilogue.go)
}

// operand is the layout of a window step's operand: offset and strides
// over its (padded to 5-D for the image operands) shape.
type operand struct {
	off     int
	strides [5]int
}

// winGeom is a window's geometry over three spatial axes: a 1-D or 2-D window
// has leading axes of extent 1.
type winGeom struct {
	n, c, o, groups int    // batch, input channels, output channels, groups
	in, out         [3]int // spatial extents of the (forward) input and output
	k, s, dl, pl    [3]int // kernel, stride, dilation, padding before
	ph              [3]int // padding after
	adaptive        bool
	excludePad      bool
}

// taps is the number of kernel positions.
func (g *winGeom) taps() int { return g.k[0] * g.k[1] * g.k[2] }

// inPlane and outPlane are the elements of one channel of an image.
func (g *winGeom) inPlane() int  { return g.in[0] * g.in[1] * g.in[2] }
func (g *winGeom) outPlane() int { return g.out[0] * g.out[1] * g.out[2] }

// window returns, on spatial axis a, the clipped input range [lo, hi) of
// output position o and for a pooling the extent of its window within the
// padded input (the divisor of count_include_pad), as torch computes them.
func (g *winGeom) window(a, o int) (lo, hi, padded int) {
	in := g.in[a]
	if g.adaptive {
		out := g.out[a]
		lo, hi = o*in/out, ((o+1)*in+out-1)/out
		return lo, hi, hi - lo
	}
	lo = o*g.s[a] - g.pl[a]
	hi = lo + g.dl[a]*(g.k[a]-1) + 1
	padded = min(hi, in+g.ph[a]) - lo
	return max(lo, 0), min(hi, in), padded
}

func (pl *planner) buildWindow(n *expr.Node) (step, error) {
	args := pl.args(n)
	s := &windowStep{op: n.Op(), dt: n.DType(), out: pl.valueOf[n]}
	if s.dt != dtype.Float32 && s.dt != dtype.Float64 {
		return nil, fmt.Errorf("exec: no %s kernel for %s", s.op, s.dt)
	}
	w := n.Window()
	s.fwd = w.Forward
	for _, a := range args {
		v := pl.valueOf[a]
		s.args = append(s.args, v)
		val := &pl.p.values[v]
		op := operand{off: val.offset}
		// Image operands [N, C, spatial...] (and weights [O, C/g,
		// kernel...]) are padded to 5-D with leading spatial axes of
		// extent 1; a bias is 1-D.
		st := val.strides
		if len(st) >= 3 {
			d := len(st) - 2
			op.strides[0], op.strides[1] = st[0], st[1]
			copy(op.strides[5-d:], st[2:])
		} else if len(st) == 1 {
			op.strides[0] = st[0]
		}
		s.ops = append(s.ops, op)
	}
	// The geometry, from the forward input and output shapes.
	var in, out tensor.Shape
	switch s.op {
	case expr.OpConv:
		in, out = args[0].Shape(), n.Shape()
		s.geo.o = args[1].Shape()[0]
	case expr.OpConvInputGrad: // (g, w) -> x
		in, out = n.Shape(), args[0].Shape()
		s.geo.o = out[1]
	case expr.OpConvWeightGrad: // (x, g) -> w
		in, out = args[0].Shape(), args[1].Shape()
		s.geo.o = out[1]
	case expr.OpPoolGrad: // (x, g) -> x
		in, out = args[0].Shape(), args[1].Shape()
		s.geo.o = in[1]
	default:
		in, out = args[0].Shape(), n.Shape()
		s.geo.o = in[1]
	}
	g := &s.geo
	g.n, g.c, g.groups = in[0], in[1], w.Groups
	g.adaptive = w.Output != nil
	g.excludePad = w.ExcludePad
	d := len(in) - 2
	for a := range 3 {
		g.in[a], g.out[a], g.k[a], g.s[a], g.dl[a] = 1, 1, 1, 1, 1
		if i := a - (3 - d); i >= 0 {
			g.in[a], g.out[a] = in[i+2], out[i+2]
			g.k[a], g.s[a], g.dl[a], g.pl[a], g.ph[a] = w.Kernel[i], w.Stride[i], w.Dilation[i], w.PadLo[i], w.PadHi[i]
		}
	}
	return s, nil
}

func (s *windowStep) run(x *Executor, vals []tensor.Any) error {
	r := poolRunner{x}
	if s.dt == dtype.Float32 {
		runWindow[float32](s, vals, r)
	} else {
		runWindow[float64](s, vals, r)
	}
	return nil
}

func runWindow[F float32 | float64](s *windowStep, vals []tensor.Any, r matmul.Runner) {
	data := func(i int) []F { return vals[s.args[i]].(*tensor.Tensor[F]).Data() }
	out := vals[s.out].(*tensor.Tensor[F]).Data()
	switch s.op {
	case expr.OpConv:
		var bias []F
		if len(s.args) > 2 {
			bias = data(2)
		}
		convForward(s, data(0), data(1), bias, out, r, s.convEpilogue(vals))
	case expr.OpConvInputGrad:
		convInputGrad(s, data(0), data(1), out, r)
	case expr.OpConvWeightGrad:
		convWeightGrad(s, data(0), data(1), out, r)
	case expr.OpPoolGrad:
		poolBackward(s, data(0), data(1), out, r)
	default:
		poolForward(s, data(0), out, r)
	}
}

func (s *windowStep) describe(w io.Writer, names func(v int) string) {
	fmt.Fprintf(w, "  %s %s =", s.op, names(s.out))
	for _, a := range s.args {
		fmt.Fprintf(w, " %s", names(a))
	}
	g := &s.geo
	fmt.Fprintf(w, ": batch %d, channels %d -> %d, spatial %v -> %v, kernel %v\n", g.n, g.c, g.o, g.in, g.out, g.k)
	if s.epi != nil {
		s.epi.describe(w, names)
	}
}

// sameWindow reports whether n and m have equal window geometries (or
// none), for merging common subexpressions (sameAttrs).
func sameWindow(n, m *expr.Node) bool {
	wn, wm := n.Window(), m.Window()
	if wn == nil || wm == nil {
		return wn == wm
	}
	return slices.Equal(wn.Key(), wm.Key())
}

// values lists what the step reads and writes (its operands, and its epilogue's).
func (s *windowStep) values() (reads, writes []int) {
	if s.epi != nil {
		return append(slices.Clone(s.args), s.epi.g.inputs...), []int{s.out}
	}
	return s.args, []int{s.out}
}

// forParts runs f(i, runner) for every i < count: the range cut into up to
// r.Workers() contiguous pieces, each run serially, when there are enough
// parts for every worker or they are small; otherwise one after another,
// each splitting its own work (multiply-adds or elements) over r. What f
// computes for i must not depend on the runner it is given, only on i.
func forParts(r matmul.Runner, count, work int, f func(i int, r matmul.Runner)) {
	if w := r.Workers(); w <= 1 || count <= 1 || count < 2*w && work >= 1<<18 {
		for i := range count {
			f(i, r)
		}
		return
	}
	parts := min(r.Workers(), count)
	r.Run(parts, &partRanges{count, parts, f})
}

// partRanges is forParts' split of [0, count) into parts ranges, each run
// serially.
type partRanges struct {
	count, parts int
	f            func(i int, r matmul.Runner)
}

func (t *partRanges) RunTask(p int) {
	for i := p * t.count / t.parts; i < (p+1)*t.count/t.parts; i++ {
		t.f(i, matmul.Serial())
	}
}
