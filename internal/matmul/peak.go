package matmul

import (
	"sync"
	"time"
)

// Peak is the rate of the micro-kernels products use, measured on packed
// panels that stay in L1: the ceiling that a product's GFLOP/s is measured
// against (what it loses to packing, caches, edges and splitting). It is
// the machine's FMA peak as far as the kernels can reach it, measured
// rather than computed from a clock that turbo and shared hosts make
// unreliable.
type Peak struct {
	// Kernel names the variant measured: "avx512" (AVX-512F assembly),
	// "avx2" (AVX2+FMA assembly) or "go" (the pure-Go kernels, under
	// -tags purego or without AVX2).
	Kernel string
	// Goroutines is how many kernel loops ran at once.
	Goroutines int
	// GFLOPs64 and GFLOPs32 are the rates of all goroutines together, in
	// GFLOP/s (two per multiply-add), for float64 and float32.
	GFLOPs64, GFLOPs32 float64
}

// peakK is the depth of the panels MeasurePeak multiplies: the 6×256 panel
// of a and the 256×16 panel of b of float32 (6 and 16 KiB), or their
// float64 halves, fit in any L1 with room to spare.
const peakK = 256

// peakRun is the length of one timed run of MeasurePeak.
const peakRun = 3 * time.Millisecond

// MeasurePeak times the default float64 and float32 micro-kernels on
// goroutines goroutines at once (at least 1), each multiplying its own
// L1-resident panels, and returns their rates: for each type, the best of
// reps (at least 3) runs of a few milliseconds (peakRun). The best, not the
// median: a peak is what the units can do, and load only slows them.
func MeasurePeak(goroutines, reps int) Peak {
	goroutines, reps = max(1, goroutines), max(3, reps)
	return Peak{
		Kernel:     kernel64.name,
		Goroutines: goroutines,
		GFLOPs64:   peakRate(kernel64, goroutines, reps),
		GFLOPs32:   peakRate(kernel32, goroutines, reps),
	}
}

// peakRate is MeasurePeak's rate for one kernel.
func peakRate[F float](kern microKernel[F], goroutines, reps int) float64 {
	type panels struct{ a, b, c []F }
	work := make([]panels, goroutines)
	for g := range work {
		w := panels{make([]F, peakK*kern.mr), make([]F, peakK*kern.nr), make([]F, kern.mr*kern.nr)}
		for i := range w.a {
			w.a[i] = F(i%7) / 8
		}
		for i := range w.b {
			w.b[i] = F(i%5) / 4
		}
		work[g] = w
	}
	loop := func(w panels, n int) {
		for range n {
			kern.run(peakK, w.a, w.b, w.c, kern.nr, false)
		}
	}
	// Calibrate: calls per run so that one run on one goroutine takes
	// between peakRun/2 and peakRun.
	calls := 1
	for start := time.Now(); ; calls *= 2 {
		loop(work[0], calls)
		if time.Since(start) >= peakRun/2 {
			break
		}
		start = time.Now()
	}
	best := time.Duration(1<<63 - 1)
	for range reps {
		var wg sync.WaitGroup
		start := time.Now()
		for _, w := range work {
			wg.Go(func() { loop(w, calls) })
		}
		wg.Wait()
		best = min(best, time.Since(start))
	}
	flops := 2 * float64(goroutines) * float64(calls) * peakK * float64(kern.mr*kern.nr)
	return flops / best.Seconds() / 1e9
}
