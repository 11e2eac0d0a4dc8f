package exec_test

import (
	"testing"

	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// BenchmarkReadPatterns reads one 3162² float64 array (80 MB) on one
// goroutine in the orders a transposing region reads its inputs, to show
// what bounds it (see docs/executor.md): in order; in 4 KiB pieces of its
// rows, 512 columns of every row before the next 512 (how a tile reads the
// row-contiguous operand), with and without the prefetch two rows ahead
// that the executor issues; and in runs of 4 KiB with 512 bytes skipped
// after each, which the hardware prefetcher does not follow either. On the
// 2-core EPYC of docs/benchmarks.md, in two runs, the read in order ran at
// 25.6–27.3 GB/s, the pieces at 11.3–12.4 GB/s with the prefetches and
// 6.1–6.2 GB/s without, and the runs with skips at 6.9–7.2 GB/s.
func BenchmarkReadPatterns(b *testing.B) {
	const n = 3162
	x := tensor.Must(tensor.Rand[float64](1, n, n)).Data()
	pieces := func(ahead int) func() float64 {
		return func() float64 {
			s := 0.0
			for c0 := 0; c0 < n; c0 += 512 {
				c1 := min(c0+512, n)
				for r := range n {
					if ahead > 0 && r+ahead < n {
						simd.PrefetchL2(x[(r+ahead)*n+c0 : (r+ahead)*n+c1])
					}
					s += sumOf(x[r*n+c0 : r*n+c1])
				}
			}
			return s
		}
	}
	patterns := []struct {
		name  string
		bytes int
		read  func() float64
	}{
		{"in-order", n * n * 8, func() float64 { return sumOf(x) }},
		{"4KiB-pieces-prefetched", n * n * 8, pieces(2)},
		{"4KiB-pieces", n * n * 8, pieces(0)},
		{"4KiB-runs-512B-skipped", n * n * 8 * 8 / 9, func() float64 {
			s := 0.0
			for off := 0; off+512 <= len(x); off += 512 + 64 {
				s += sumOf(x[off : off+512])
			}
			return s
		}},
	}
	for _, p := range patterns {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(p.bytes))
			for b.Loop() {
				readSink += p.read()
			}
		})
	}
}

// readSink keeps the sums of BenchmarkReadPatterns alive.
var readSink float64

// sumOf adds s with four accumulators, fast enough to leave the time to
// memory.
func sumOf(s []float64) float64 {
	var a0, a1, a2, a3 float64
	i := 0
	for ; i+8 <= len(s); i += 8 {
		a0 += s[i] + s[i+4]
		a1 += s[i+1] + s[i+5]
		a2 += s[i+2] + s[i+6]
		a3 += s[i+3] + s[i+7]
	}
	for ; i < len(s); i++ {
		a0 += s[i]
	}
	return a0 + a1 + a2 + a3
}
