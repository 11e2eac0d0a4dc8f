package expr

import (
	"fmt"
	"strings"
)

// Window is the geometry of a convolution or pooling node (conv.go,
// pool.go): per spatial axis of an NCHW-style operand (the axes after batch
// and channels), the kernel extent, stride, dilation and the padding before
// and after. Nodes never change it; Node.Window returns it for the executor
// and autograd.
type Window struct {
	Kernel   []int
	Stride   []int
	Dilation []int
	PadLo    []int
	PadHi    []int
	Groups   int // conv: channel groups (1 by default)
	// CeilMode rounds the output extent of a pooling up, as
	// torch's ceil_mode=True; a last window starting in the right padding is
	// dropped, as torch does.
	CeilMode bool
	// ExcludePad divides an average pooling by the number of input
	// elements in the window rather than by the kernel's size within the
	// padded input (torch's count_include_pad=False).
	ExcludePad bool
	// Output is the output extent of an adaptive pooling; In is the input's
	// spatial extents of a gradient node (it has no input of that shape).
	Output []int
	In     []int
	// Forward is the pooling op whose gradient an OpPoolGrad node is.
	Forward Op

	same bool // padding "same", resolved when the rank is known
}

// Window returns the geometry of a convolution, pooling or gradient node,
// nil for other ops. It must not be modified.
func (n *Node) Window() *Window {
	if n.ext == nil {
		return nil
	}
	return n.ext.window
}

// A WindowOption sets a convolution's or pooling's geometry. Options with
// one value apply it to every spatial axis; with several, one per axis.
type WindowOption func(*Window)

// Stride sets the step between windows (default 1 for a convolution, the
// kernel for a pooling).
func Stride(s ...int) WindowOption { return func(w *Window) { w.Stride = s } }

// Padding pads both sides of each spatial axis with p zeros (for a
// max pooling, with -inf).
func Padding(p ...int) WindowOption {
	return func(w *Window) { w.PadLo, w.PadHi, w.same = p, p, false }
}

// PaddingPairs pads each spatial axis with its own (before, after) pair,
// as torch.nn.functional.pad does.
func PaddingPairs(pairs ...[2]int) WindowOption {
	return func(w *Window) {
		w.PadLo, w.PadHi, w.same = make([]int, len(pairs)), make([]int, len(pairs)), false
		for i, p := range pairs {
			w.PadLo[i], w.PadHi[i] = p[0], p[1]
		}
	}
}

// PadSame pads a stride-1 convolution so that the output has the input's
// extent: dilation·(kernel-1) zeros per axis, the odd one after (torch's
// padding="same").
func PadSame() WindowOption { return func(w *Window) { w.same, w.PadLo, w.PadHi = true, nil, nil } }

// PadValid is no padding (torch's padding="valid"), the default.
func PadValid() WindowOption { return func(w *Window) { w.same, w.PadLo, w.PadHi = false, nil, nil } }

// Dilation sets the spacing of the kernel's taps (default 1).
func Dilation(d ...int) WindowOption { return func(w *Window) { w.Dilation = d } }

// Groups splits a convolution's channels into g groups, each input group
// convolved with its own output channels; g equal to the input channels is
// a depthwise convolution.
func Groups(g int) WindowOption { return func(w *Window) { w.Groups = g } }

// CeilMode rounds a pooling's output extent up (torch's ceil_mode=True).
func CeilMode() WindowOption { return func(w *Window) { w.CeilMode = true } }

// ExcludePad makes an average pooling divide by the input elements in each
// window (torch's count_include_pad=False).
func ExcludePad() WindowOption { return func(w *Window) { w.ExcludePad = true } }

// perAxis expands v to d values: one value applies to every axis, none is
// def.
func perAxis(name string, op string, v []int, d, def int) ([]int, error) {
	out := make([]int, d)
	switch len(v) {
	case 0:
		for i := range out {
			out[i] = def
		}
	case 1:
		for i := range out {
			out[i] = v[0]
		}
	case d:
		copy(out, v)
	default:
		return nil, &ShapeOpError{Op: op, Reason: fmt.Sprintf("%s has %d values for %d spatial axes", name, len(v), d)}
	}
	return out, nil
}

// resolve fills the window's per-axis values for d spatial axes from the
// options, kernel giving the kernel extents, and checks their signs.
func resolveWindow(op string, d int, kernel []int, stride int, opts []WindowOption) (*Window, error) {
	w := &Window{Groups: 1}
	for _, o := range opts {
		if o != nil {
			o(w)
		}
	}
	var err error
	if w.Kernel, err = perAxis("kernel", op, kernel, d, 1); err != nil {
		return nil, err
	}
	def := stride
	if w.Stride, err = perAxis("stride", op, w.Stride, d, def); err != nil {
		return nil, err
	}
	if len(w.Stride) > 0 && stride == 0 { // pooling: the stride defaults to the kernel
		for i, s := range w.Stride {
			if s == 0 {
				w.Stride[i] = w.Kernel[i]
			}
		}
	}
	if w.Dilation, err = perAxis("dilation", op, w.Dilation, d, 1); err != nil {
		return nil, err
	}
	if w.PadLo, err = perAxis("padding", op, w.PadLo, d, 0); err != nil {
		return nil, err
	}
	if w.PadHi, err = perAxis("padding", op, w.PadHi, d, 0); err != nil {
		return nil, err
	}
	for i := range d {
		switch {
		case w.Kernel[i] < 1:
			return nil, &ShapeOpError{Op: op, Reason: fmt.Sprintf("kernel extent %d on spatial axis %d must be positive", w.Kernel[i], i)}
		case w.Stride[i] < 1:
			return nil, &ShapeOpError{Op: op, Reason: fmt.Sprintf("stride %d on spatial axis %d must be positive", w.Stride[i], i)}
		case w.Dilation[i] < 1:
			return nil, &ShapeOpError{Op: op, Reason: fmt.Sprintf("dilation %d on spatial axis %d must be positive", w.Dilation[i], i)}
		case w.PadLo[i] < 0 || w.PadHi[i] < 0:
			return nil, &ShapeOpError{Op: op, Reason: fmt.Sprintf("padding (%d, %d) on spatial axis %d must not be negative", w.PadLo[i], w.PadHi[i], i)}
		}
	}
	if w.same {
		for i := range d {
			if w.Stride[i] != 1 {
				return nil, &ShapeOpError{Op: op, Reason: fmt.Sprintf("padding \"same\" needs stride 1, got %d on spatial axis %d", w.Stride[i], i)}
			}
			total := w.Dilation[i] * (w.Kernel[i] - 1)
			w.PadLo[i], w.PadHi[i] = total/2, total-total/2
		}
		w.same = false
	}
	if w.Groups < 1 {
		return nil, &ShapeOpError{Op: op, Reason: fmt.Sprintf("groups %d must be positive", w.Groups)}
	}
	return w, nil
}

// outExtent is the output extent of a window on spatial axis i (operand
// axis i+2) over an input extent in, or an error naming the axis.
func (w *Window) outExtent(op string, i, in int) (int, error) {
	if w.Output != nil {
		return w.Output[i], nil
	}
	eff := w.Dilation[i]*(w.Kernel[i]-1) + 1
	padded := in + w.PadLo[i] + w.PadHi[i]
	if eff > padded {
		return 0, &ShapeOpError{Op: op, Reason: fmt.Sprintf("kernel extent %d (dilated %d) is larger than the padded input extent %d on axis %d", w.Kernel[i], eff, padded, i+2)}
	}
	span := padded - eff
	if w.CeilMode {
		out := (span+w.Stride[i]-1)/w.Stride[i] + 1
		// torch: the last window must start inside the input or its left
		// padding.
		if (out-1)*w.Stride[i] >= in+w.PadLo[i] {
			out--
		}
		return out, nil
	}
	return span/w.Stride[i] + 1, nil
}

// Start and End give the input positions [Start, End) of window o on
// spatial axis i of an input of extent in, before clipping to the input
// (they may be negative or past it, in the padding); the taps are
// Start, Start+Dilation, … . For an adaptive pooling they are torch's
// floor(o·in/out) and ceil((o+1)·in/out), inside the input.
func (w *Window) Start(i, o, in int) int {
	if w.Output != nil {
		return o * in / w.Output[i]
	}
	return o*w.Stride[i] - w.PadLo[i]
}

// End is the end of window o on spatial axis i (see Start).
func (w *Window) End(i, o, in int) int {
	if w.Output != nil {
		out := w.Output[i]
		return ((o+1)*in + out - 1) / out
	}
	return w.Start(i, o, in) + w.Dilation[i]*(w.Kernel[i]-1) + 1
}

// Key returns the window as integers, for plan caches.
func (w *Window) Key() []uint64 {
	var k []uint64
	add := func(v ...int) {
		k = append(k, uint64(len(v)))
		for _, x := range v {
			k = append(k, uint64(x))
		}
	}
	flag := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	add(w.Kernel...)
	add(w.Stride...)
	add(w.Dilation...)
	add(w.PadLo...)
	add(w.PadHi...)
	add(w.Output...)
	add(w.In...)
	add(w.Groups, flag(w.CeilMode), flag(w.ExcludePad), int(w.Forward))
	return k
}

// String prints the window's attributes for graph listings.
func (w *Window) String() string {
	var parts []string
	list := func(name string, v []int, skip int) {
		for _, x := range v {
			if x != skip {
				parts = append(parts, name+"="+compactShape(v))
				return
			}
		}
	}
	if w.Output != nil {
		list("output", w.Output, -1)
	} else {
		list("kernel", w.Kernel, -1)
		list("stride", w.Stride, 1)
		list("dilation", w.Dilation, 1)
		list("pad", w.PadLo, 0)
		if fmt.Sprint(w.PadLo) != fmt.Sprint(w.PadHi) {
			list("pad_after", w.PadHi, -1)
		}
	}
	if w.Groups > 1 {
		parts = append(parts, fmt.Sprintf("groups=%d", w.Groups))
	}
	if w.CeilMode {
		parts = append(parts, "ceil")
	}
	if w.ExcludePad {
		parts = append(parts, "exclude_pad")
	}
	if w.Forward != OpInvalid {
		parts = append(parts, "of="+w.Forward.String())
	}
	return " " + strings.Join(parts, " ")
}
