package bench

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"golang.org/x/sys/cpu"

	"github.com/tensorplay/tensorplay/dtype"
)

// Peak is the probe's estimate of the machine's floating-point peak: the
// rate of fused multiply-adds one goroutine sustains, measured with
// math.FMA, times the SIMD lanes of the widest vector FMA the CPU has, two
// flops per FMA and the number of goroutines that ran at once.
//
// math.FMA compiles to a scalar VFMADD (one lane), so the measured rate is
// the FMA units' throughput in instructions per second; a vector FMA of the
// same units does Lanes of them per instruction. This is the usual peak
// estimate (cores × FMA throughput × lanes × 2), measured rather than
// computed from a clock that turbo and shared hosts make unreliable.
type Peak struct {
	// Goroutines is how many FMA loops ran at once (the workers).
	Goroutines int `json:"goroutines"`
	// FMAsPerSec is the scalar FMA rate of all goroutines together.
	FMAsPerSec float64 `json:"fmas_per_sec"`
	// VectorBits is the width of the vector FMA the peak assumes: 256 for
	// AVX2+FMA, 512 for AVX-512, 128 without either (SSE2, NEON).
	VectorBits int `json:"vector_bits"`
	// GFLOPs64 and GFLOPs32 are the peaks in GFLOP/s for float64 and float32.
	GFLOPs64 float64 `json:"gflops_f64"`
	GFLOPs32 float64 `json:"gflops_f32"`
	// GOAMD64 is the amd64 level the probe was built for (empty when not
	// known). Below v3, math.FMA checks the CPU at every call and the loop
	// keeps its chains in memory around that call: the rate is then about
	// a quarter of the units' (0.25–0.3 against 1.0–1.2 G/s measured on
	// the same loaded machine), a lower bound that flatters every % of
	// peak. Build with GOAMD64=v3 for the real rate.
	GOAMD64 string `json:"goamd64,omitempty"`
}

// Underestimated reports whether the peak comes from a build whose
// math.FMA is a call (GOAMD64 v1 or v2), so that it is a lower bound.
func (p *Peak) Underestimated() bool {
	return p != nil && runtime.GOARCH == "amd64" && (p.GOAMD64 == "" || p.GOAMD64 == "v1" || p.GOAMD64 == "v2")
}

// goamd64 is the GOAMD64 setting the binary was built with.
func goamd64() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "GOAMD64" {
				return s.Value
			}
		}
	}
	return ""
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

// vectorBits is the width of the CPU's widest vector FMA.
func vectorBits() int {
	switch {
	case cpu.X86.HasAVX512F:
		return 512
	case cpu.X86.HasAVX2 && cpu.X86.HasFMA:
		return 256
	}
	return 128
}

// fmaChains is the number of independent FMA chains per loop: enough to
// cover the latency (4–5 cycles) of two FMA units.
const fmaChains = 12

// fmaLoop runs n rounds of fmaChains independent FMA chains, in locals
// so that they live in registers, and returns a value that depends on all
// of them, so that none is optimized away.
func fmaLoop(n int, x float64) float64 {
	a0, a1, a2, a3, a4, a5 := x, x+1, x+2, x+3, x+4, x+5
	a6, a7, a8, a9, a10, a11 := x+6, x+7, x+8, x+9, x+10, x+11
	const m, c = 0.999999, 1e-7
	for range n {
		a0 = math.FMA(a0, m, c)
		a1 = math.FMA(a1, m, c)
		a2 = math.FMA(a2, m, c)
		a3 = math.FMA(a3, m, c)
		a4 = math.FMA(a4, m, c)
		a5 = math.FMA(a5, m, c)
		a6 = math.FMA(a6, m, c)
		a7 = math.FMA(a7, m, c)
		a8 = math.FMA(a8, m, c)
		a9 = math.FMA(a9, m, c)
		a10 = math.FMA(a10, m, c)
		a11 = math.FMA(a11, m, c)
	}
	return a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11
}

// fmaSink keeps the probe's results alive.
var fmaSink float64

// measurePeak times fmaLoop on goroutines goroutines at once: the rate is
// the best of reps runs of about 20 ms each (the best, not the median: a
// peak is what the units can do, and load only slows them).
func measurePeak(goroutines, reps int) *Peak {
	const rounds = 1 << 20           // 12M FMAs: about 3 ms at 4 GFMA/s
	fmaSink += fmaLoop(rounds/16, 1) // warm up
	best := time.Duration(math.MaxInt64)
	for range max(reps, 3) {
		var wg sync.WaitGroup
		sums := make([]float64, goroutines)
		start := time.Now()
		for g := range goroutines {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sums[g] = fmaLoop(rounds, float64(g))
			}()
		}
		wg.Wait()
		best = min(best, time.Since(start))
		for _, s := range sums {
			fmaSink += s
		}
	}
	p := &Peak{Goroutines: goroutines, VectorBits: vectorBits(), GOAMD64: goamd64()}
	p.FMAsPerSec = float64(goroutines) * rounds * fmaChains / best.Seconds()
	p.GFLOPs64 = p.FMAsPerSec * float64(p.VectorBits/64) * 2 / 1e9
	p.GFLOPs32 = p.FMAsPerSec * float64(p.VectorBits/32) * 2 / 1e9
	return p
}
