//go:build amd64 && !purego

package matmul

import "golang.org/x/sys/cpu"

//go:generate sh -c "cd _asm && go run . -out ../kernel_amd64.s -stubs ../kernel_amd64.go -pkg matmul"

// The AVX2+FMA kernels, when the CPU has both, become the default, and the
// AVX-512F kernels in their place when it has AVX-512F too; the AVX2
// kernels stay in the lists, so that tests run them here as well.
func init() {
	if !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		return
	}
	kernels64 = append(kernels64, microKernel[float64]{"avx2", 6, 8, avxKernel64, avxKernelRows64, avxGemv64, avxGemvColumns64, avxPackRows64, avxPackColumns64, avxPackTail64,
		avxKernelHalf64, avxKernelRowsHalf64, nil, nil})
	kernels32 = append(kernels32, microKernel[float32]{"avx2", 6, 16, avxKernel32, avxKernelRows32, avxGemv32, avxGemvColumns32, avxPackRows32, avxPackColumns32, avxPackTail32,
		avxKernelHalf32, avxKernelRowsHalf32, nil, nil})
	if cpu.X86.HasAVX512F {
		kernels64 = append(kernels64, microKernel[float64]{"avx512", 6, 16, avx512Kernel64, avx512KernelRows64, avxGemv64, avxGemvColumns64, avxPackRowsWide64, avxPackColumns64, avxPackTailWide64,
			avx512KernelHalf64, avx512KernelRowsHalf64, avx512KernelRows12Half64, avx512KernelRowsCols64})
		kernels32 = append(kernels32, microKernel[float32]{"avx512", 6, 32, avx512Kernel32, avx512KernelRows32, avxGemv32, avxGemvColumns32, avxPackRowsWide32, avxPackColumns32, avxPackTailWide32,
			avx512KernelHalf32, avx512KernelRowsHalf32, avx512KernelRows12Half32, avx512KernelRowsCols32})
	}
	kernel64 = kernels64[len(kernels64)-1]
	kernel32 = kernels32[len(kernels32)-1]
}
