// Package fft computes discrete Fourier transforms of tensors along chosen
// axes, batched over the others, as numpy.fft does: FFT, IFFT, RFFT,
// IRFFT, FFT2, IFFT2, FFTN, IFFTN, FFTFreq and RFFTFreq, with NumPy's normalization modes. The one-dimensional
// transforms are gonum's (gonum.org/v1/gonum/dsp/fourier, FFTPACK's
// algorithms for every length).
//
// As in NumPy 1.24, the transforms compute in float64: complex results are
// complex128 and IRFFT's real result is float64, whatever the input's
// precision (cast the result for complex64). The functions evaluate their
// input and return new tensors; rows are transformed in parallel on the
// executor's worker count, and the values do not depend on it.
package fft

import (
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/dsp/fourier"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/axisrows"
	"github.com/tensorplay/tensorplay/tensor"
)

// Input is an element type the transforms accept.
type Input interface {
	dtype.Float | dtype.Complex
}

// Norm is NumPy's norm argument: which direction is scaled, and by what.
type Norm int

const (
	// Backward leaves the forward transform unscaled and scales the
	// inverse by 1/n (NumPy's default, "backward").
	Backward Norm = iota
	// Ortho scales both directions by 1/sqrt(n) ("ortho").
	Ortho
	// Forward scales the forward transform by 1/n and leaves the inverse
	// unscaled ("forward").
	Forward
)

// An Option changes a transform.
type Option func(*config)

type config struct {
	n       int   // Len; -1: the input's length
	axis    int   // Axis
	axes    []int // Axes; nil: the last len(shape) axes, or all
	shape   []int // Shape
	norm    Norm
	workers int
}

// Len sets the length of the transform along its axis (NumPy's n): the
// input is cropped or padded with zeros to n elements.
func Len(n int) Option { return func(c *config) { c.n = max(n, 0) } } // any n < 1 is an error

// Axis sets the axis of a one-dimensional transform (by default -1, the
// last).
func Axis(axis int) Option { return func(c *config) { c.axis = axis } }

// Axes sets the axes of FFTN and IFFTN (by default all, or the last
// len(Shape) ones) and of FFT2 and IFFT2 (by default the last two).
func Axes(axes ...int) Option { return func(c *config) { c.axes = axes } }

// Shape sets the lengths of FFTN's and IFFTN's transforms along their
// axes (NumPy's s), cropping or padding each.
func Shape(s ...int) Option { return func(c *config) { c.shape = s } }

// Normalize sets the normalization mode (by default Backward).
func Normalize(n Norm) Option { return func(c *config) { c.norm = n } }

// Workers sets how many goroutines transform rows at once (by default
// exec.Default's worker count).
func Workers(n int) Option { return func(c *config) { c.workers = max(1, n) } }

func options(opts []Option) config {
	c := config{n: -1, axis: -1, workers: exec.Default.Workers()}
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// FFT is numpy.fft.fft: the discrete Fourier transform along one axis.
func FFT[T Input](x expr.Expr[T], opts ...Option) (*tensor.Tensor[complex128], error) {
	c := options(opts)
	return transform(x, "FFT", []int{c.axis}, lens(c.n), false, c)
}

// IFFT is numpy.fft.ifft: the inverse transform along one axis.
func IFFT[T Input](x expr.Expr[T], opts ...Option) (*tensor.Tensor[complex128], error) {
	c := options(opts)
	return transform(x, "IFFT", []int{c.axis}, lens(c.n), true, c)
}

// FFT2 is numpy.fft.fft2: the transform along the last two axes (or Axes).
func FFT2[T Input](x expr.Expr[T], opts ...Option) (*tensor.Tensor[complex128], error) {
	c := options(opts)
	if c.axes == nil {
		c.axes = []int{-2, -1}
	}
	return FFTN(x, append(opts, Axes(c.axes...))...)
}

// IFFT2 is numpy.fft.ifft2: the inverse of FFT2.
func IFFT2[T Input](x expr.Expr[T], opts ...Option) (*tensor.Tensor[complex128], error) {
	c := options(opts)
	if c.axes == nil {
		c.axes = []int{-2, -1}
	}
	return IFFTN(x, append(opts, Axes(c.axes...))...)
}

// FFTN is numpy.fft.fftn: the transform along several axes, one after
// the other.
func FFTN[T Input](x expr.Expr[T], opts ...Option) (*tensor.Tensor[complex128], error) {
	c := options(opts)
	axes, ns, err := nAxes(x.Shape(), c, "FFTN")
	if err != nil {
		return nil, err
	}
	return transform(x, "FFTN", axes, ns, false, c)
}

// IFFTN is numpy.fft.ifftn: the inverse of FFTN.
func IFFTN[T Input](x expr.Expr[T], opts ...Option) (*tensor.Tensor[complex128], error) {
	c := options(opts)
	axes, ns, err := nAxes(x.Shape(), c, "IFFTN")
	if err != nil {
		return nil, err
	}
	return transform(x, "IFFTN", axes, ns, true, c)
}

// lens is the transform lengths of a one-axis transform: n, or -1 for the
// input's.
func lens(n int) []int { return []int{n} }

// nAxes resolves FFTN's axes and lengths as NumPy does: Shape without Axes
// means the last len(Shape) axes; neither means every axis.
func nAxes(shape tensor.Shape, c config, op string) ([]int, []int, error) {
	axes := c.axes
	switch {
	case axes == nil && c.shape != nil:
		if len(c.shape) > len(shape) {
			return nil, nil, &tensor.ArgError{Op: op, Reason: fmt.Sprintf("%d lengths for a tensor of rank %d (shape %v)", len(c.shape), len(shape), shape)}
		}
		for i := range c.shape {
			axes = append(axes, len(shape)-len(c.shape)+i)
		}
	case axes == nil:
		for i := range shape {
			axes = append(axes, i)
		}
	}
	ns := make([]int, len(axes))
	for i := range ns {
		ns[i] = -1 // the axis's own length
	}
	if c.shape != nil {
		if len(c.shape) != len(axes) {
			return nil, nil, &tensor.ArgError{Op: op, Reason: fmt.Sprintf("%d lengths %v for %d axes %v", len(c.shape), c.shape, len(axes), axes)}
		}
		copy(ns, c.shape)
		for _, n := range ns {
			if n <= 0 {
				return nil, nil, invalidLen(op, n)
			}
		}
	}
	return axes, ns, nil
}

func invalidLen(op string, n int) error {
	return &tensor.ArgError{Op: op, Reason: fmt.Sprintf("invalid number of data points (%d): it must be at least 1", n)}
}

// transform evaluates x and applies the complex transform along each of
// axes in turn, with lengths ns (-1: the axis's own).
func transform[T Input](x expr.Expr[T], op string, axes, ns []int, inverse bool, c config) (*tensor.Tensor[complex128], error) {
	vals, shape, err := evalComplex(x)
	if err != nil {
		return nil, err
	}
	for i, a := range axes {
		ax, err := tensor.Axis(a, len(shape))
		if err != nil {
			return nil, err
		}
		n := ns[i]
		if n == -1 {
			n = shape[ax]
		}
		if n < 1 {
			return nil, invalidLen(op, n)
		}
		if vals, shape, err = alongAxis(vals, shape, ax, n, inverse, scale(c.norm, n, inverse), c.workers); err != nil {
			return nil, err
		}
	}
	return tensor.FromSlice(vals, shape...)
}

// scale is the factor of a transform of length n in mode norm.
func scale(norm Norm, n int, inverse bool) float64 {
	switch {
	case norm == Ortho:
		return 1 / math.Sqrt(float64(n))
	case (norm == Backward) == inverse:
		return 1 / float64(n)
	}
	return 1
}

// evalComplex evaluates x and returns its values as complex128, row-major.
func evalComplex[T Input](x expr.Expr[T]) ([]complex128, tensor.Shape, error) {
	if err := x.Err(); err != nil {
		return nil, nil, err
	}
	t, err := exec.Eval(x)
	if err != nil {
		return nil, nil, err
	}
	out := make([]complex128, t.Numel())
	switch v := any(t.Values()).(type) {
	case []float32:
		for i, e := range v {
			out[i] = complex(float64(e), 0)
		}
	case []float64:
		for i, e := range v {
			out[i] = complex(e, 0)
		}
	case []complex64:
		for i, e := range v {
			out[i] = complex128(e)
		}
	case []complex128:
		copy(out, v)
	}
	return out, t.Shape().Clone(), nil
}

// parallelRows calls f over ranges of count rows on up to workers
// goroutines; each call gets its own ranges, so f may keep per-call state.
func parallelRows(count, workers int, f func(lo, hi int)) {
	workers = min(workers, count)
	if workers <= 1 {
		if count > 0 {
			f(0, count)
		}
		return
	}
	var wg sync.WaitGroup
	per := (count + workers - 1) / workers
	for lo := 0; lo < count; lo += per {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			f(lo, hi)
		}(lo, min(lo+per, count))
	}
	wg.Wait()
}

// alongAxis applies the complex transform of length n along axis of src
// (shape shape), cropping or zero-padding each row, and scales it.
func alongAxis(src []complex128, shape tensor.Shape, axis, n int, inverse bool, s float64, workers int) ([]complex128, tensor.Shape, error) {
	in := axisrows.Along(shape, axis)
	outShape := shape.Clone()
	outShape[axis] = n
	if err := tensor.CheckAlloc(dtype.Complex128, outShape); err != nil {
		return nil, nil, err
	}
	out := axisrows.Rows{Outer: in.Outer, N: n, Inner: in.Inner}
	dst := make([]complex128, in.Outer*n*in.Inner)
	parallelRows(in.Count(), workers, func(lo, hi int) {
		plan := fourier.NewCmplxFFT(n)
		buf, res := make([]complex128, n), make([]complex128, n)
		for r := lo; r < hi; r++ {
			clear(buf)
			for j, at := 0, in.Start(r); j < min(in.N, n); j, at = j+1, at+in.Inner {
				buf[j] = src[at]
			}
			if inverse {
				plan.Sequence(res, buf)
			} else {
				plan.Coefficients(res, buf)
			}
			for j, at := 0, out.Start(r); j < n; j, at = j+1, at+out.Inner {
				dst[at] = scaled(res[j], s)
			}
		}
	})
	return dst, outShape, nil
}

// scaled is v times the real s, part by part (a complex product would turn
// an infinite part times the zero imaginary part of s into NaN).
func scaled(v complex128, s float64) complex128 {
	if s == 1 {
		return v
	}
	return complex(real(v)*s, imag(v)*s)
}
