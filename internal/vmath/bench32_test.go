package vmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkFloat32 times each float32 kernel on 4096 arguments (in L1) in
// its usual range: "vec" is the kernel as the executor calls it (the AVX2
// loop where the CPU has it), "go" its Go loop, "math" a loop over the
// math package in float64 rounded to float32. The ns/op divided by 4096 is
// the time per element.
func BenchmarkFloat32(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, c := range f32Cases {
		lo, hi := c.lo, c.hi
		if c.name != "log" {
			lo, hi = -10, 10
		}
		xs := make([]float32, 4096)
		for i := range xs {
			xs[i] = float32(lo + (hi-lo)*r.Float64())
		}
		d := make([]float32, len(xs))
		k := kernels32[c.name]
		b.Run(c.name+"/vec", func(b *testing.B) {
			for b.Loop() {
				c.fn(d, xs)
			}
		})
		b.Run(c.name+"/go", func(b *testing.B) {
			for b.Loop() {
				k.goFn(d, xs)
			}
		})
		b.Run(c.name+"/math", func(b *testing.B) {
			for b.Loop() {
				for i, x := range xs {
					d[i] = float32(c.ref(float64(x)))
				}
			}
		})
	}
}

// BenchmarkFloat64 is BenchmarkFloat32 for the float64 kernels.
func BenchmarkFloat64(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	refs := map[string]func(float64) float64{"exp": math.Exp, "log": math.Log, "sin": math.Sin, "cos": math.Cos,
		"tanh": math.Tanh, "sigmoid": func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }}
	for _, c := range f64Cases {
		lo, hi := -10.0, 10.0
		if c.name == "log" {
			lo, hi = 0, 100
		}
		xs := make([]float64, 4096)
		for i := range xs {
			xs[i] = lo + (hi-lo)*r.Float64()
		}
		d := make([]float64, len(xs))
		k, ref := kernels64[c.name], refs[c.name]
		b.Run(c.name+"/vec", func(b *testing.B) {
			for b.Loop() {
				c.fn(d, xs)
			}
		})
		b.Run(c.name+"/go", func(b *testing.B) {
			for b.Loop() {
				k.goFn(d, xs)
			}
		})
		b.Run(c.name+"/math", func(b *testing.B) {
			for b.Loop() {
				for i, x := range xs {
					d[i] = ref(x)
				}
			}
		})
	}
}
