package expr

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
)

// MaxPool is the maximum over windows of kernel extents of x's spatial axes
// (torch's max_pool1d/2d/3d): x is [N, C, spatial...], the stride defaults
// to the kernel, padding counts as -inf, and CeilMode rounds the output
// extent up. A NaN in a window is its maximum; of equal maxima the first
// in window order is the one its gradient goes to, as torch's.
func MaxPool[T dtype.Float](x Expr[T], kernel []int, opts ...WindowOption) Expr[T] {
	return Expr[T]{pool(OpMaxPool, x.Node(), kernel, nil, opts)}
}

// AvgPool is the mean over windows (torch's avg_pool1d/2d/3d with
// count_include_pad=True unless ExcludePad is given: a window is divided by
// its extent within the padded input).
func AvgPool[T dtype.Float](x Expr[T], kernel []int, opts ...WindowOption) Expr[T] {
	return Expr[T]{pool(OpAvgPool, x.Node(), kernel, nil, opts)}
}

// AdaptiveAvgPool averages x's spatial axes down (or up) to the extents
// out, one value for every axis or one per axis (torch's
// adaptive_avg_pool): output element o of an axis of extent in averages
// inputs ⌊o·in/out⌋ to ⌈(o+1)·in/out⌉ - 1.
func AdaptiveAvgPool[T dtype.Float](x Expr[T], out ...int) Expr[T] {
	return Expr[T]{pool(OpAdaptiveAvgPool, x.Node(), nil, out, nil)}
}

// AdaptiveMaxPool is AdaptiveAvgPool with the maximum (torch's
// adaptive_max_pool).
func AdaptiveMaxPool[T dtype.Float](x Expr[T], out ...int) Expr[T] {
	return Expr[T]{pool(OpAdaptiveMaxPool, x.Node(), nil, out, nil)}
}

// GlobalAvgPool is the mean over all spatial axes of x ([N, C, spatial...]
// to [N, C]), named global_avg_pool in summaries.
func GlobalAvgPool[T dtype.Float](x Expr[T]) Expr[T] {
	d := len(x.Dims())
	if d < 3 {
		return Expr[T]{errNode(OpMean, &ShapeOpError{Op: "global_avg_pool", Reason: fmt.Sprintf("input %v needs at least 3 dimensions ([N, C, spatial...])", x.Dims())})}
	}
	axes := make([]int, 0, d-2)
	for i := 2; i < d; i++ {
		axes = append(axes, i)
	}
	return Scope("global_avg_pool", func() Expr[T] { return x.Mean(axes...) })
}

func pool(op Op, x *Node, kernel, output []int, opts []WindowOption) *Node {
	n, ok := newNode(op, x)
	if !ok {
		return n
	}
	if err := checkAccepts(op, x.dt); err != nil {
		n.err = err
		return n
	}
	name := op.String()
	xd := x.Dims()
	d := len(xd) - 2
	if d < 1 || d > 3 {
		n.err = &ShapeOpError{Op: name, Reason: fmt.Sprintf("input %v needs 3 to 5 dimensions ([N, C, spatial...])", xd)}
		return n
	}
	adaptive := op == OpAdaptiveAvgPool || op == OpAdaptiveMaxPool
	var win *Window
	var err error
	if adaptive {
		win = &Window{Groups: 1}
		if win.Output, err = perAxis("output size", name, output, d, -1); err == nil && len(output) == 0 {
			err = &ShapeOpError{Op: name, Reason: "needs an output size"}
		}
		for i := range d {
			if err == nil && win.Output[i] < 1 {
				err = &ShapeOpError{Op: name, Reason: fmt.Sprintf("output size %d on spatial axis %d must be positive", win.Output[i], i)}
			}
		}
		win.Kernel, win.Stride, win.Dilation = ones(d), ones(d), ones(d)
		win.PadLo, win.PadHi = make([]int, d), make([]int, d)
	} else {
		if len(kernel) == 0 {
			err = &ShapeOpError{Op: name, Reason: "needs a kernel size"}
		} else {
			win, err = resolveWindow(name, d, kernel, 0, opts)
		}
		for i := 0; err == nil && i < d; i++ {
			if op == OpAvgPool && win.Dilation[i] != 1 {
				err = &ShapeOpError{Op: name, Reason: fmt.Sprintf("dilation %d on spatial axis %d: average pooling has none", win.Dilation[i], i)}
				break
			}
			if half := (win.Dilation[i]*(win.Kernel[i]-1) + 1) / 2; win.PadLo[i] > half || win.PadHi[i] > half {
				err = &ShapeOpError{Op: name, Reason: fmt.Sprintf("padding (%d, %d) on spatial axis %d is more than half the kernel extent %d", win.PadLo[i], win.PadHi[i], i, win.Kernel[i])}
			}
		}
	}
	if err != nil {
		n.err = err
		return n
	}
	out := Dims{xd[0], xd[1]}
	for i, e := range xd[2:] {
		in, ok := e.Value()
		if !ok {
			n.err = &ShapeOpError{Op: name, Reason: fmt.Sprintf("spatial extent (axis %d) of %v must be known", i+2, xd)}
			return n
		}
		o, err := win.outExtent(name, i, in)
		if err != nil {
			n.err = err
			return n
		}
		out = append(out, Known(o))
	}
	n.dt = x.dt
	n.extra().window = win
	setDims(n, out)
	return n
}

func ones(d int) []int {
	s := make([]int, d)
	for i := range s {
		s[i] = 1
	}
	return s
}

// PoolGrad is the gradient of the pooling node like with respect to its
// input x, given the gradient g of its output: a max pooling's goes to the
// first maximum of each window, an average pooling's is spread over the
// window. Autograd builds it.
func PoolGrad[T dtype.Float](x, g Expr[T], like *Node) Expr[T] {
	if like == nil || like.err != nil || like.Window() == nil || like.op == OpConv {
		return Expr[T]{errNode(OpPoolGrad, &ShapeOpError{Op: "pool_grad", Reason: "needs the pooling node it differentiates"})}
	}
	w := *like.Window()
	w.Forward = like.op
	return Expr[T]{poolGrad(x.Node(), g.Node(), &w)}
}

func poolGrad(x, g *Node, w *Window) *Node {
	n, ok := newNode(OpPoolGrad, x, g)
	if !ok {
		return n
	}
	xd := x.Dims()
	if x.dt != g.dt || len(g.Dims()) != len(xd) || !g.Dims()[:2].Same(xd[:2]) {
		n.err = &ShapeOpError{Op: "pool_grad", Reason: fmt.Sprintf("gradient %v does not fit input %v", g.Dims(), xd)}
		return n
	}
	for i, e := range xd[2:] {
		in, _ := e.Value()
		o, err := w.outExtent("pool_grad", i, in)
		if gv, _ := g.Dims()[i+2].Value(); err != nil || gv != o {
			n.err = &ShapeOpError{Op: "pool_grad", Reason: fmt.Sprintf("gradient %v does not fit the pooling of input %v", g.Dims(), xd)}
			return n
		}
	}
	n.dt = x.dt
	n.extra().window = w
	setDims(n, xd)
	return n
}
