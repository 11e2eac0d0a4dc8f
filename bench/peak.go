package bench

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/matmul"
)

// Peak is the probe's floating-point peak: the rate of the micro-kernels
// that every float32 and float64 product runs on, measured on packed
// panels in L1 with one kernel loop per worker at once (matmul.MeasurePeak).
// It is the ceiling a product can reach on this machine; a product's
// %roof says how much of it packing, caches, edges and splitting leave.
type Peak struct {
	// Kernel is the micro-kernel variant measured: "avx512", "avx2" or "go".
	Kernel string `json:"kernel"`
	// Goroutines is how many kernel loops ran at once (the workers).
	Goroutines int `json:"goroutines"`
	// GFLOPs64 and GFLOPs32 are the peaks in GFLOP/s for float64 and float32.
	GFLOPs64 float64 `json:"gflops_f64"`
	GFLOPs32 float64 `json:"gflops_f32"`
}

// GFLOPs returns the peak for products of element type d, or 0 for types
// the FMA units do not compute (integers, complex: their rows show none).
func (p *Peak) GFLOPs(d dtype.DType) float64 {
	switch {
	case p == nil:
		return 0
	case d == dtype.Float64:
		return p.GFLOPs64
	case d == dtype.Float32:
		return p.GFLOPs32
	}
	return 0
}

// measurePeak measures the micro-kernels on goroutines goroutines at once:
// the best of reps runs of a few milliseconds each (the best, not the
// median: a peak is what the units can do, and load only slows them).
func measurePeak(goroutines, reps int) *Peak {
	m := matmul.MeasurePeak(goroutines, reps)
	return &Peak{Kernel: m.Kernel, Goroutines: m.Goroutines, GFLOPs64: m.GFLOPs64, GFLOPs32: m.GFLOPs32}
}
