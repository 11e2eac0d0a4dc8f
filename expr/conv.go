package expr

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
)

// Conv is the convolution of x by the kernels w (torch's conv1d, conv2d and
// conv3d, a cross-correlation): x is [N, C, spatial...] with one, two or
// three spatial axes, w is [O, C/groups, kernel...], and the result is [N, O,
// out...] with out = ⌊(in + padding - dilation·(kernel-1) - 1) / stride⌋ + 1
// per axis. Options set the stride, padding, dilation and groups. Shapes
// are checked here: a kernel larger than the padded input and channels not
// divisible by the groups are *ShapeOpError values naming the axis. N may
// be symbolic; the other extents must be known.
func Conv[T dtype.Float](x, w Expr[T], opts ...WindowOption) Expr[T] {
	return Expr[T]{conv(x.Node(), w.Node(), nil, opts)}
}

// ConvBias is Conv plus a bias of shape [O] added to every output channel,
// computed as the convolution's output is written.
func ConvBias[T dtype.Float](x, w, bias Expr[T], opts ...WindowOption) Expr[T] {
	return Expr[T]{conv(x.Node(), w.Node(), bias.Node(), opts)}
}

func conv(x, w, b *Node, opts []WindowOption) *Node {
	args := []*Node{x, w}
	if b != nil {
		args = append(args, b)
	}
	n, ok := newNode(OpConv, args...)
	if !ok {
		return n
	}
	if err := checkAccepts(OpConv, x.dt); err != nil {
		n.err = err
		return n
	}
	xd := x.Dims()
	d := len(xd) - 2
	if d < 1 || d > 3 {
		n.err = &ShapeOpError{Op: "conv", Reason: fmt.Sprintf("input %v needs 3 to 5 dimensions ([N, C, spatial...])", xd)}
		return n
	}
	ws := w.shape
	if w.sym() != nil || len(ws) != d+2 {
		n.err = &ShapeOpError{Op: "conv", Reason: fmt.Sprintf("weight %v must be a known [out channels, in channels/groups, kernel...] of rank %d for input %v", w.Dims(), d+2, xd)}
		return n
	}
	win, err := resolveWindow("conv", d, ws[2:], 1, opts)
	if err != nil {
		n.err = err
		return n
	}
	out, err := convOut(win, xd, ws)
	if err != nil {
		n.err = err
		return n
	}
	if b != nil && (b.sym() != nil || len(b.shape) != 1 || b.shape[0] != ws[0]) {
		n.err = &ShapeOpError{Op: "conv", Reason: fmt.Sprintf("bias %v must be [%d], one per output channel of weight %v", b.Dims(), ws[0], ws)}
		return n
	}
	n.dt = x.dt
	n.extra().window = win
	setDims(n, out)
	return n
}

// convOut checks a convolution of input dims xd by weight ws and returns
// its output dims.
func convOut(win *Window, xd Dims, ws []int) (Dims, error) {
	c, ok := xd[1].Value()
	if !ok {
		return nil, &ShapeOpError{Op: "conv", Reason: fmt.Sprintf("input channels (axis 1) of %v must be known", xd)}
	}
	g := win.Groups
	switch {
	case c%g != 0:
		return nil, &ShapeOpError{Op: "conv", Reason: fmt.Sprintf("input channels %d (axis 1 of %v) are not divisible by groups %d", c, xd, g)}
	case ws[0]%g != 0:
		return nil, &ShapeOpError{Op: "conv", Reason: fmt.Sprintf("output channels %d (axis 0 of weight %v) are not divisible by groups %d", ws[0], ws, g)}
	case ws[1] != c/g:
		return nil, &ShapeOpError{Op: "conv", Reason: fmt.Sprintf("weight %v takes %d input channels per group (axis 1), input %v has %d in each of %d groups", ws, ws[1], xd, c/g, g)}
	}
	out := Dims{xd[0], Known(ws[0])}
	for i, e := range xd[2:] {
		in, ok := e.Value()
		if !ok {
			return nil, &ShapeOpError{Op: "conv", Reason: fmt.Sprintf("spatial extent (axis %d) of %v must be known", i+2, xd)}
		}
		o, err := win.outExtent("conv", i, in)
		if err != nil {
			return nil, err
		}
		out = append(out, Known(o))
	}
	return out, nil
}

// ConvInputGrad is the gradient of a convolution with respect to its input
// x, given the gradient g of its output and its weight w (a transposed
// convolution); like is the convolution node, whose geometry and input
// shape it takes. Autograd builds it.
func ConvInputGrad[T dtype.Float](g, w Expr[T], like *Node) Expr[T] {
	return Expr[T]{convGrad(OpConvInputGrad, g.Node(), w.Node(), like)}
}

// ConvWeightGrad is the gradient of a convolution with respect to its
// weight, given its input x and the gradient g of its output; like is the
// convolution node.
func ConvWeightGrad[T dtype.Float](x, g Expr[T], like *Node) Expr[T] {
	return Expr[T]{convGrad(OpConvWeightGrad, x.Node(), g.Node(), like)}
}

// convGrad builds a gradient node of op on a, b: (g, w) for the input's,
// (x, g) for the weight's, shaped as the convolution like's input or
// weight.
func convGrad(op Op, a, b, like *Node) *Node {
	n, ok := newNode(op, a, b)
	if !ok {
		return n
	}
	if like == nil || like.op != OpConv || like.err != nil {
		n.err = &ShapeOpError{Op: op.String(), Reason: "needs the convolution node it differentiates"}
		return n
	}
	x, w := like.args[0], like.args[1]
	var want, gd Dims
	var target Dims
	switch op {
	case OpConvInputGrad:
		gd, want, target = a.Dims(), w.Dims(), x.Dims()
		target = append(Dims{gd[0]}, target[1:]...)
	default:
		gd, want, target = b.Dims(), x.Dims(), w.Dims()
		want = append(Dims{gd[0]}, want[1:]...)
	}
	other := b
	if op == OpConvWeightGrad {
		other = a
	}
	if a.dt != like.dt || b.dt != like.dt || len(gd) != len(like.Dims()) || !sameTail(gd, like.Dims()) || !other.Dims().Same(want) {
		n.err = &ShapeOpError{Op: op.String(), Reason: fmt.Sprintf("operands %v and %v do not fit the convolution %v -> %v", a.Dims(), b.Dims(), x.Dims(), like.Dims())}
		return n
	}
	win := *like.Window()
	for _, e := range x.Dims()[2:] {
		v, _ := e.Value()
		win.In = append(win.In, v)
	}
	n.dt = like.dt
	n.extra().window = &win
	setDims(n, target)
	return n
}

// sameTail reports whether a and b agree on every axis after the first.
func sameTail(a, b Dims) bool {
	return len(a) == len(b) && a[1:].Same(b[1:])
}

// replayWindow builds a convolution, pooling or gradient node n again on
// args (see Specializer.replay).
func replayWindow(n *Node, args []*Node) *Node {
	w := n.Window()
	same := func(v *Window) { *v = *w; v.In = nil }
	switch n.op {
	case OpConv:
		var b *Node
		if len(args) > 2 {
			b = args[2]
		}
		return conv(args[0], args[1], b, []WindowOption{same})
	case OpConvInputGrad, OpConvWeightGrad:
		return convGradReplay(n, args)
	case OpPoolGrad:
		return poolGrad(args[0], args[1], w)
	}
	return pool(n.op, args[0], w.Kernel, w.Output, []WindowOption{same})
}

// convGradReplay rebuilds a gradient node from its window alone: the
// convolution it came from is not among its operands.
func convGradReplay(n *Node, args []*Node) *Node {
	m, ok := newNode(n.op, args...)
	if !ok {
		return m
	}
	w := *n.Window()
	g := args[0]
	if n.op == OpConvWeightGrad {
		g = args[1]
	}
	gd := g.Dims()
	var out Dims
	if n.op == OpConvInputGrad {
		out = append(Dims{gd[0]}, dimsOfShape(n.shape)[1:]...)
	} else {
		out = dimsOfShape(n.shape)
	}
	m.dt = n.dt
	m.extra().window = &w
	setDims(m, out)
	return m
}
