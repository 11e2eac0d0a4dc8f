//go:build amd64 && !purego

package vmath

import "golang.org/x/sys/cpu"

//go:generate sh -c "cd _asm && go run . -out ../vec_amd64.s -stubs ../vec_amd64.go -pkg vmath"

// The AVX2 loops, when the CPU has AVX2, take the fast paths.
func init() {
	if !cpu.X86.HasAVX2 {
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

	max32F.vec = func(s *[8]float32, a []float32, _ float32) int { return maxLanes32AVX2(s, a) }
	max64F.vec = func(s *[8]float64, a []float64, _ float64) int { return maxLanes64AVX2(s, a) }
	sum32F.vec = func(s *[8]float32, a []float32, _ float32) int { return sumLanes32AVX2(s, a) }
	sum64F.vec = func(s *[8]float64, a []float64, _ float64) int { return sumLanes64AVX2(s, a) }
	sqDev32F.vec = sqDevLanes32AVX2
	sqDev64F.vec = sqDevLanes64AVX2
	expSum32F.vec = expSumLanes32AVX2
	expSum64F.vec = func(s *[8]float64, a []float64, k float64) int { return expSumLanes64AVX2(s, a, k, &expTable) }
}
