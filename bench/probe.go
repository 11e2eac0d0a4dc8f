package bench

import "time"

// Probe is one line of the STREAM-style bandwidth probe: a plain Go loop
// streaming float64 arrays, timed in the same process as the workloads.
type Probe struct {
	Kernel     string  `json:"kernel"` // "copy" (c = a) or "triad" (a = b + s*c)
	Goroutines int     `json:"goroutines"`
	Size       int     `json:"size"`  // elements per array
	Bytes      int64   `json:"bytes"` // moved per run: 16 per element for copy, 24 for triad
	Stats      Stats   `json:"stats"`
	GBps       float64 `json:"gbps"` // at the median time
}

// probeKernels are STREAM's copy and triad over [lo, hi) of the arrays.
var probeKernels = []struct {
	name  string
	bytes int64 // per element
	run   func(a, b, c []float64, lo, hi int)
}{
	{"copy", 16, func(a, _, c []float64, lo, hi int) {
		src, dst := a[lo:hi], c[lo:hi]
		src = src[:len(dst)]
		for i := range dst {
			dst[i] = src[i]
		}
	}},
	{"triad", 24, func(a, b, c []float64, lo, hi int) {
		const s = 3.0
		dst, x, y := a[lo:hi], b[lo:hi], c[lo:hi]
		x, y = x[:len(dst)], y[:len(dst)]
		for i := range dst {
			dst[i] = x[i] + s*y[i]
		}
	}},
}

// measureBandwidth runs copy and triad over arrays of size elements with 1
// goroutine and, when workers > 1, with workers goroutines: warmup untimed
// runs, then reps timed ones each.
func measureBandwidth(size, workers, warmup, reps int) []Probe {
	a, b, c := handStorage[float64](size), handStorage[float64](size), handStorage[float64](size)
	for i := range a {
		a[i], b[i], c[i] = 1, 2, 0
	}
	counts := []int{1}
	if workers > 1 {
		counts = append(counts, workers)
	}
	var out []Probe
	for _, g := range counts {
		for _, k := range probeKernels {
			once := func() {
				parallelFor(g, size, cacheLine, func(lo, hi int) { k.run(a, b, c, lo, hi) })
			}
			for range warmup {
				once()
			}
			ds := make([]time.Duration, reps)
			for i := range ds {
				start := time.Now()
				once()
				ds[i] = time.Since(start)
			}
			p := Probe{Kernel: k.name, Goroutines: g, Size: size, Bytes: k.bytes * int64(size), Stats: Summarize(ds)}
			p.GBps = GBps(p.Bytes, p.Stats.Median)
			out = append(out, p)
		}
	}
	return out
}

// bandwidth is the reference a memory-bound row is read against: the best
// median GB/s of the probes at size with the given number of goroutines, or
// 0 if there is none.
func bandwidth(probes []Probe, size, goroutines int) float64 {
	best := 0.0
	for _, p := range probes {
		if p.Size == size && p.Goroutines == goroutines {
			best = max(best, p.GBps)
		}
	}
	return best
}
