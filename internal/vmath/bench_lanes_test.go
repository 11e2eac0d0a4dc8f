package vmath

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkLanes32 times the float32 lane folds on leaves of 128
// elements in L1, as package exec's paired reductions call them, over
// 4096 elements: ns/op divided by 4096 is the time per element.
func BenchmarkLanes32(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float32, 4096)
	for i := range xs {
		xs[i] = float32(r.NormFloat64())
	}
	folds := []struct {
		name string
		fn   func(s *[8]float32, a []float32)
	}{
		{"max", func(s *[8]float32, a []float32) { MaxLanes(s, a) }},
		{"sum", func(s *[8]float32, a []float32) { SumLanes(s, a) }},
		{"sqdev", func(s *[8]float32, a []float32) { SqDevLanes(s, a, 0.5) }},
		{"expsum", func(s *[8]float32, a []float32) { ExpSumLanes(s, a, 4) }},
	}
	for _, f := range folds {
		b.Run(f.name, func(b *testing.B) {
			var s [8]float32
			for b.Loop() {
				for i := 0; i < len(xs); i += 128 {
					f.fn(&s, xs[i:i+128])
				}
			}
		})
	}
	b.Run("max-block", func(b *testing.B) {
		// MaxLanes a block of eight leaves a call, as a logsumexp takes
		// its block's maximum.
		var s [8]float32
		for b.Loop() {
			for i := 0; i < len(xs); i += 8 * LeafLen {
				MaxLanes(&s, xs[i:i+8*LeafLen])
			}
		}
	})
	b.Run("max-vrange", func(b *testing.B) {
		// Max over the same blocks: the maximum of a logsumexp's block.
		for b.Loop() {
			for i := 0; i < len(xs); i += 8 * LeafLen {
				Max(xs[i : i+8*LeafLen])
			}
		}
	})
	b.Run("expsum-whole", func(b *testing.B) {
		var s [8]float32
		for b.Loop() {
			ExpSumLanes(&s, xs, 4)
		}
	})
	d := make([]float32, len(xs))
	b.Run("exp", func(b *testing.B) {
		for b.Loop() {
			Exp(d, xs)
		}
	})
}

// BenchmarkLanes64 is BenchmarkLanes32 for float64: the exponential sums
// of logsumexp by leaf and by block of eight leaves, and Exp.
func BenchmarkLanes64(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := make([]float64, 4096)
	for i := range xs {
		xs[i] = r.NormFloat64()
	}
	b.Run("expsum", func(b *testing.B) {
		var s [8]float64
		for b.Loop() {
			for i := 0; i < len(xs); i += 128 {
				ExpSumLanes(&s, xs[i:i+128], 4)
			}
		}
	})
	b.Run("expsum-leaves", func(b *testing.B) {
		t := make([]float64, len(xs)/LeafLen)
		for b.Loop() {
			ExpSumLeaves(t, xs, 4)
		}
	})
	d := make([]float64, len(xs))
	b.Run("exp", func(b *testing.B) {
		for b.Loop() {
			Exp(d, xs)
		}
	})
}
