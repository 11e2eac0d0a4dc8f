package tensor

import (
	"math/rand/v2"

	"github.com/tensorplay/tensorplay/dtype"
)

// seedStream is the PCG stream constant paired with the caller's seed.
const seedStream = 0x9e3779b97f4a7c15

// newRand returns the generator Rand and RandN draw from: math/rand/v2's
// PCG seeded with (seed, seedStream), so a seed gives the same tensor on
// every run and platform.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seedStream)) }

// Rand returns a row-major tensor of the given shape filled with samples
// from the uniform distribution on [0, 1), drawn in row-major order from a
// generator seeded with seed.
func Rand[T dtype.Float](seed uint64, shape ...int) (*Tensor[T], error) {
	t, err := New[T](shape...)
	if err != nil {
		return nil, err
	}
	r := newRand(seed)
	for i := range t.data {
		v := T(r.Float64())
		for v >= 1 { // float32 rounding can reach 1; draw again to stay in [0, 1)
			v = T(r.Float64())
		}
		t.data[i] = v
	}
	return t, nil
}

// RandN returns a row-major tensor of the given shape filled with samples
// from the standard normal distribution, drawn in row-major order from a
// generator seeded with seed.
func RandN[T dtype.Float](seed uint64, shape ...int) (*Tensor[T], error) {
	t, err := New[T](shape...)
	if err != nil {
		return nil, err
	}
	r := newRand(seed)
	for i := range t.data {
		t.data[i] = T(r.NormFloat64())
	}
	return t, nil
}
