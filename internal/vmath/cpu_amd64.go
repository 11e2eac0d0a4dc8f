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
}
