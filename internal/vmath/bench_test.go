package vmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkExp compares the block kernels with a loop over the math
// package on 4096 arguments in [-1, 1) (in L1).
func BenchmarkExp(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := uniform(r, 4096, -1, 1)
	d := make([]float64, len(x))
	b.Run("vmath", func(b *testing.B) {
		for b.Loop() {
			Exp(d, x)
		}
	})
	b.Run("math", func(b *testing.B) {
		for b.Loop() {
			for i := range d {
				d[i] = math.Exp(x[i])
			}
		}
	})
}

func BenchmarkSigmoid(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := uniform(r, 4096, -8, 8)
	d := make([]float64, len(x))
	b.Run("vmath", func(b *testing.B) {
		for b.Loop() {
			Sigmoid(d, x)
		}
	})
	b.Run("math", func(b *testing.B) {
		for b.Loop() {
			for i := range d {
				d[i] = 1 / (1 + math.Exp(-x[i]))
			}
		}
	})
}
