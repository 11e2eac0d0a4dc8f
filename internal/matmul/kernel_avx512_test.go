//go:build amd64 && !purego

package matmul

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/cpu"
)

// TestKernelSelection checks which variants init lists on this CPU: the
// Go kernel first, AVX2 with AVX2 and FMA, AVX-512 (the default, with
// panels twice as wide) with AVX-512F as well. The AVX2 variants stay
// listed, so that forEachKernel and TestKernelsAgree run them here too.
func TestKernelSelection(t *testing.T) {
	want := []string{"go"}
	if cpu.X86.HasAVX2 && cpu.X86.HasFMA {
		want = append(want, "avx2")
		if cpu.X86.HasAVX512F {
			want = append(want, "avx512")
		}
	}
	require.Len(t, kernels64, len(want))
	require.Len(t, kernels32, len(want))
	for i, name := range want {
		assert.Equal(t, name, kernels64[i].name)
		assert.Equal(t, name, kernels32[i].name)
	}
	assert.Equal(t, want[len(want)-1], kernel64.name)
	assert.Equal(t, want[len(want)-1], kernel32.name)
	if want[len(want)-1] == "avx512" {
		assert.Equal(t, [2]int{6, 16}, [2]int{kernel64.mr, kernel64.nr})
		assert.Equal(t, [2]int{6, 32}, [2]int{kernel32.mr, kernel32.nr})
	}
}

// TestPackOps checks that packB packs with routines of the panel width it
// is asked for, whatever the default kernel's: each variant's own, and the
// Go routines for a width no variant has.
func TestPackOps(t *testing.T) {
	for i := range kernels64 {
		k64, k32 := kernelOf[float64](i), kernelOf[float32](i)
		assert.Equal(t, k64.nr, packOps[float64](k64.nr).nr, k64.name)
		assert.Equal(t, k32.nr, packOps[float32](k32.nr).nr, k32.name)
	}
	src := make([]float64, 3*7)
	for i := range src {
		src[i] = float64(i + 1)
	}
	dst := make([]float64, 3*4)
	packB(dst, RowMajor(src, 3, 7).Slice(0, 3, 0, 4), 4)
	assert.Equal(t, []float64{1, 2, 3, 4, 8, 9, 10, 11, 15, 16, 17, 18}, dst)
	tail := make([]float64, 2*4)
	packB(tail, RowMajor(src, 3, 7).Slice(0, 2, 4, 7), 4)
	assert.Equal(t, []float64{5, 6, 7, 0, 12, 13, 14, 0}, tail)
}
