package fft

import (
	"gonum.org/v1/gonum/dsp/fourier"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/axisrows"
	"github.com/tensorplay/tensorplay/tensor"
)

// RFFT is numpy.fft.rfft: the transform of a real input along one axis,
// keeping the n/2+1 coefficients of the non-negative frequencies (the
// others are their conjugates).
func RFFT[T dtype.Float](x expr.Expr[T], opts ...Option) (*tensor.Tensor[complex128], error) {
	c := options(opts)
	vals, shape, err := evalComplex(x)
	if err != nil {
		return nil, err
	}
	ax, err := tensor.Axis(c.axis, len(shape))
	if err != nil {
		return nil, err
	}
	n := c.n
	if n == -1 {
		n = shape[ax]
	}
	if n < 1 {
		return nil, invalidLen("RFFT", n)
	}
	in := axisrows.Along(shape, ax)
	outShape := shape.Clone()
	outShape[ax] = n/2 + 1
	if err := tensor.CheckAlloc(dtype.Complex128, outShape); err != nil {
		return nil, err
	}
	out := axisrows.Rows{Outer: in.Outer, N: n/2 + 1, Inner: in.Inner}
	dst := make([]complex128, out.Outer*out.N*out.Inner)
	s := scale(c.norm, n, false)
	parallelRows(in.Count(), c.workers, func(lo, hi int) {
		plan := fourier.NewFFT(n)
		buf, res := make([]float64, n), make([]complex128, n/2+1)
		for r := lo; r < hi; r++ {
			clear(buf)
			for j, at := 0, in.Start(r); j < min(in.N, n); j, at = j+1, at+in.Inner {
				buf[j] = real(vals[at])
			}
			plan.Coefficients(res, buf)
			for j, at := 0, out.Start(r); j < out.N; j, at = j+1, at+out.Inner {
				dst[at] = scaled(res[j], s)
			}
		}
	})
	return tensor.FromSlice(dst, outShape...)
}

// IRFFT is numpy.fft.irfft: the inverse of RFFT, a float64 result of
// length n along the axis (by default 2*(m-1) for m coefficients). Of the
// coefficients it reads the first n/2+1, padding with zeros; the imaginary
// parts of the zero-frequency (and, for even n, the Nyquist) coefficient
// are ignored, as NumPy does.
func IRFFT[T dtype.Complex](x expr.Expr[T], opts ...Option) (*tensor.Tensor[float64], error) {
	c := options(opts)
	vals, shape, err := evalComplex(x)
	if err != nil {
		return nil, err
	}
	ax, err := tensor.Axis(c.axis, len(shape))
	if err != nil {
		return nil, err
	}
	n := c.n
	if n == -1 {
		n = 2 * (shape[ax] - 1)
	}
	if n < 1 {
		return nil, invalidLen("IRFFT", n)
	}
	in := axisrows.Along(shape, ax)
	outShape := shape.Clone()
	outShape[ax] = n
	if err := tensor.CheckAlloc(dtype.Float64, outShape); err != nil {
		return nil, err
	}
	out := axisrows.Rows{Outer: in.Outer, N: n, Inner: in.Inner}
	dst := make([]float64, out.Outer*n*out.Inner)
	s := scale(c.norm, n, true)
	m := n/2 + 1
	parallelRows(in.Count(), c.workers, func(lo, hi int) {
		plan := fourier.NewFFT(n)
		buf, res := make([]complex128, m), make([]float64, n)
		for r := lo; r < hi; r++ {
			clear(buf)
			for j, at := 0, in.Start(r); j < min(in.N, m); j, at = j+1, at+in.Inner {
				buf[j] = vals[at]
			}
			buf[0] = complex(real(buf[0]), 0)
			if n%2 == 0 {
				buf[m-1] = complex(real(buf[m-1]), 0)
			}
			plan.Sequence(res, buf)
			for j, at := 0, out.Start(r); j < n; j, at = j+1, at+out.Inner {
				dst[at] = res[j] * s
			}
		}
	})
	return tensor.FromSlice(dst, outShape...)
}

// FFTFreq is numpy.fft.fftfreq: the frequencies of an n-point transform
// with sample spacing d, [0, 1, ..., n/2-1, -n/2, ..., -1] / (d*n) (for
// odd n up to (n-1)/2).
func FFTFreq(n int, d float64) (*tensor.Tensor[float64], error) {
	if n < 1 {
		return nil, invalidLen("FFTFreq", n)
	}
	f := make([]float64, n)
	for i := range f {
		k := i
		if i >= (n+1)/2 {
			k = i - n
		}
		f[i] = float64(k) / (d * float64(n))
	}
	return tensor.FromSlice(f, n)
}

// RFFTFreq is numpy.fft.rfftfreq: the n/2+1 non-negative frequencies of
// RFFT's coefficients.
func RFFTFreq(n int, d float64) (*tensor.Tensor[float64], error) {
	if n < 1 {
		return nil, invalidLen("RFFTFreq", n)
	}
	f := make([]float64, n/2+1)
	for i := range f {
		f[i] = float64(i) / (d * float64(n))
	}
	return tensor.FromSlice(f, len(f))
}
