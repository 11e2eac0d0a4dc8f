//go:build amd64 && !purego

package matmul

import "golang.org/x/sys/cpu"

//go:generate sh -c "cd _asm && go run . -out ../kernel_amd64.s -stubs ../kernel_amd64.go -pkg matmul"

// The AVX2+FMA kernels, when the CPU has both, become the default.
func init() {
	if !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		return
	}
	kernels64 = append(kernels64, microKernel[float64]{"avx2", 6, 8, avxKernel64, avxKernelRows64, avxGemv64, avxGemvColumns64, avxPackRows64, avxPackColumns64, avxPackTail64,
		avxKernelHalf64, avxKernelRowsHalf64})
	kernels32 = append(kernels32, microKernel[float32]{"avx2", 6, 16, avxKernel32, avxKernelRows32, avxGemv32, avxGemvColumns32, avxPackRows32, avxPackColumns32, avxPackTail32,
		avxKernelHalf32, avxKernelRowsHalf32})
	kernel64 = kernels64[len(kernels64)-1]
	kernel32 = kernels32[len(kernels32)-1]
}
