package random

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Uniform returns a tensor of shape drawn uniformly from [lo, hi)
// (Generator.uniform, torch.rand scaled). float32 values are drawn as
// float32: 24 random bits each. lo and hi must be finite, lo < hi.
func Uniform[T dtype.Float](g *Generator, lo, hi T, shape ...int) (*tensor.Tensor[T], error) {
	if !(lo < hi) || math.IsInf(float64(hi-lo), 0) {
		return nil, &tensor.ArgError{Op: "Uniform", Reason: fmt.Sprintf("the bounds must be finite with lo < hi, got [%v, %v)", lo, hi)}
	}
	unit := unitOf[T]()
	return fill(g, shape, func(r *rand.Rand, out []T) {
		for i := range out {
			v := lo + (hi-lo)*unit(r)
			for v >= hi { // rounding reached hi: draw again
				v = lo + (hi-lo)*unit(r)
			}
			out[i] = v
		}
	})
}

// unitOf returns a draw from [0, 1) at T's precision.
func unitOf[T dtype.Float]() func(r *rand.Rand) T {
	if dtype.Of[T]() == dtype.Float32 {
		return func(r *rand.Rand) T { return T(r.Float32()) }
	}
	return func(r *rand.Rand) T { return T(r.Float64()) }
}

// Normal returns a tensor of shape drawn from the normal distribution with
// the given mean and standard deviation (Generator.normal, torch.normal).
// std must be finite and not negative.
func Normal[T dtype.Float](g *Generator, mean, std T, shape ...int) (*tensor.Tensor[T], error) {
	if !(std >= 0) || math.IsInf(float64(std), 0) || math.IsNaN(float64(mean)) || math.IsInf(float64(mean), 0) {
		return nil, &tensor.ArgError{Op: "Normal", Reason: fmt.Sprintf("the mean must be finite and the standard deviation finite and not negative, got mean %v std %v", mean, std)}
	}
	return fill(g, shape, func(r *rand.Rand, out []T) {
		for i := range out {
			out[i] = mean + std*T(r.NormFloat64())
		}
	})
}

// Integers returns a tensor of shape drawn uniformly from the integers in
// [lo, hi) (Generator.integers, torch.randint). hi must exceed lo.
func Integers[T dtype.Integer](g *Generator, lo, hi T, shape ...int) (*tensor.Tensor[T], error) {
	if hi <= lo {
		return nil, &tensor.ArgError{Op: "Integers", Reason: fmt.Sprintf("hi (%v) must exceed lo (%v)", hi, lo)}
	}
	span := uint64(hi) - uint64(lo) // two's complement: right for signed types too
	return fill(g, shape, func(r *rand.Rand, out []T) {
		for i := range out {
			out[i] = T(uint64(lo) + r.Uint64N(span))
		}
	})
}

// Bernoulli returns a tensor of shape whose elements are true with
// probability p (torch.bernoulli with a scalar p, as a mask; cast it for
// 0/1 numbers). p must be in [0, 1].
func Bernoulli(g *Generator, p float64, shape ...int) (*tensor.Tensor[bool], error) {
	if !(p >= 0 && p <= 1) {
		return nil, &tensor.ArgError{Op: "Bernoulli", Reason: fmt.Sprintf("p must be in [0, 1], got %v", p)}
	}
	return fill(g, shape, func(r *rand.Rand, out []bool) {
		for i := range out {
			out[i] = r.Float64() < p
		}
	})
}
