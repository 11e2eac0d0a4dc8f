package fft

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// FFTShift is numpy.fft.fftshift: it moves the zero-frequency term to the
// centre by rolling each of axes (every axis when none are given) by half
// its extent, n/2. It is lazy: an expression, evaluated with exec.
func FFTShift[T dtype.Elem](x expr.Expr[T], axes ...int) expr.Expr[T] {
	return shift(x, axes, false)
}

// IFFTShift is numpy.fft.ifftshift, FFTShift's inverse: it rolls each axis
// by -(n/2), which differs from FFTShift for odd extents.
func IFFTShift[T dtype.Elem](x expr.Expr[T], axes ...int) expr.Expr[T] {
	return shift(x, axes, true)
}

func shift[T dtype.Elem](x expr.Expr[T], axes []int, inverse bool) expr.Expr[T] {
	shape := x.Shape()
	if x.Err() != nil {
		return x
	}
	if len(axes) == 0 {
		axes = make([]int, len(shape))
		for i := range axes {
			axes[i] = i
		}
	}
	shifts := make([]int, len(axes))
	for i, a := range axes {
		if a < -len(shape) || a >= len(shape) {
			continue // RollAxes reports the axis
		}
		if a < 0 {
			a += len(shape)
		}
		shifts[i] = shape[a] / 2
		if inverse {
			shifts[i] = -shifts[i]
		}
	}
	return x.RollAxes(shifts, axes)
}
