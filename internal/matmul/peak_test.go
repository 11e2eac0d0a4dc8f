package matmul

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMeasurePeak(t *testing.T) {
	p := MeasurePeak(0, 0)
	assert.Equal(t, kernel64.name, p.Kernel)
	assert.Equal(t, 1, p.Goroutines, "at least one goroutine")
	assert.Positive(t, p.GFLOPs64)
	assert.Positive(t, p.GFLOPs32)
	assert.Equal(t, 2, MeasurePeak(2, 3).Goroutines)
}

func TestMeasurePeakGoKernel(t *testing.T) {
	// The rate is computed from the work the kernel was given: the Go
	// kernel, far slower than the assembly, still reports a rate.
	defer func(k64 microKernel[float64], k32 microKernel[float32]) { kernel64, kernel32 = k64, k32 }(kernel64, kernel32)
	kernel64, kernel32 = kernels64[0], kernels32[0]
	p := MeasurePeak(1, 3)
	assert.Equal(t, "go", p.Kernel)
	assert.Positive(t, p.GFLOPs64)
	assert.Less(t, p.GFLOPs64, 1e3, "a rate in GFLOP/s, not FLOP/s")
}
