//go:build amd64 && !purego

package vmath

import "golang.org/x/sys/cpu"

//go:generate sh -c "cd _asm && go run . -out ../vec_amd64.s -stubs ../vec_amd64.go -pkg vmath"

// The AVX2 loops, when the CPU has AVX2 and FMA (the float32 exp loops fuse
// multiply-adds, as fma32 does in Go), take the fast paths.
func init() {
	if !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		return
	}
	exp32K.vec = exp32AVX2
	log32K.vec = log32AVX2
	sin32K.vec = sin32AVX2
	cos32K.vec = cos32AVX2
	exp64K.vec = func(d, a []float64) int { return exp64AVX2(d, a, &expTable) }
	log64K.vec = log64AVX2
	sin64K.vec = sin64AVX2
	cos64K.vec = cos64AVX2
	tanh32K.vec = tanh32AVX2
	sigmoid32K.vec = sigmoid32AVX2
	tanh64K.vec = func(d, a []float64) int { return tanh64AVX2(d, a, &expTable) }
	sigmoid64K.vec = func(d, a []float64) int { return sigmoid64AVX2(d, a, &expTable) }

	lanesAVX2 = true
	if cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ {
		// Sixteen float32 lanes (eight float64) an instruction for the
		// exps of softmax and logsumexp, and float32 tanh, sin and cos: the same operations, twice the
		// rate on full-width AVX-512 units (BenchmarkLanes32 and
		// BenchmarkLanes64, exp and expsum).
		// The AVX2 loops stay as the kernels' half loops (see kernel).
		for _, k := range []*kernel[float32]{&exp32K, &tanh32K, &sin32K, &cos32K} {
			k.half = k.vec
		}
		for _, k := range []*kernel[float64]{&exp64K, &sin64K, &cos64K} {
			k.half = k.vec
		}
		exp32K.vec = exp32AVX512
		tanh32K.vec = tanh32AVX512 // GELU's: 2.1x tanh32AVX2 (BenchmarkFloat32)
		sin32K.vec = sin32AVX512
		cos32K.vec = cos32AVX512
		exp64K.vec = func(d, a []float64) int { return exp64AVX512(d, a, &expTable) }
		sin64K.vec = sin64AVX512 // float64 sin and cos: 2x the AVX2 loops (BenchmarkFloat64)
		cos64K.vec = cos64AVX512
		lanesAVX512 = true
	}
}
