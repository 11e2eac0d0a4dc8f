package bench

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const ms = time.Millisecond

func TestSummarize(t *testing.T) {
	tests := []struct {
		name string
		in   []time.Duration
		want Stats
	}{
		{"empty", nil, Stats{}},
		{"one", []time.Duration{5 * ms}, Stats{Reps: 1, Min: 5 * ms, Median: 5 * ms, Max: 5 * ms}},
		{"odd unsorted", []time.Duration{9 * ms, 1 * ms, 4 * ms}, Stats{Reps: 3, Min: ms, Median: 4 * ms, Max: 9 * ms}},
		{"even takes the mean of the middle two", []time.Duration{4 * ms, 1 * ms, 2 * ms, 10 * ms},
			Stats{Reps: 4, Min: ms, Median: 3 * ms, Max: 10 * ms}},
		{"outlier does not move the median", []time.Duration{2 * ms, 2 * ms, 2 * ms, 2 * ms, time.Second},
			Stats{Reps: 5, Min: 2 * ms, Median: 2 * ms, Max: time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := append([]time.Duration(nil), tt.in...)
			assert.Equal(t, tt.want, Summarize(in))
			assert.Equal(t, tt.in, in, "input must not be reordered")
		})
	}
}

func TestRates(t *testing.T) {
	tests := []struct {
		name        string
		n           int64
		d           time.Duration
		gbps, gflop float64
	}{
		{"24 MB in 1 ms", 24_000_000, ms, 24, 24},
		{"1 GB in 1 s", 1e9, time.Second, 1, 1},
		{"8e6 bytes in 2 ms", 8e6, 2 * ms, 4, 4},
		{"zero time", 100, 0, 0, 0},
		{"negative time", 100, -ms, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.InDelta(t, tt.gbps, GBps(tt.n, tt.d), 1e-12)
			assert.InDelta(t, tt.gflop, GFLOPs(tt.n, tt.d), 1e-12)
		})
	}
}

func TestSpeedRatio(t *testing.T) {
	assert.InDelta(t, 0.5, SpeedRatio(2*ms, ms), 1e-12, "twice the time is half the speed")
	assert.InDelta(t, 1.25, SpeedRatio(4*ms, 5*ms), 1e-12)
	assert.Zero(t, SpeedRatio(0, ms))
	assert.Zero(t, SpeedRatio(ms, 0))
}

func TestRowDerive(t *testing.T) {
	hand := Stats{Reps: 3, Min: ms, Median: 2 * ms, Max: 3 * ms}
	tests := []struct {
		name                          string
		row                           Row
		bw                            float64
		gbps, gflops, handGBps, ratio float64
		pct, bandwidth                float64
	}{
		{
			name: "memory bound with a hand loop",
			row: Row{Bound: MemoryBound, Bytes: 32e6, Flops: 2e6,
				Tensorplay: Stats{Reps: 3, Min: ms, Median: 4 * ms, Max: 5 * ms}, HandLoop: &hand},
			bw:   16,
			gbps: 8, gflops: 0.5, handGBps: 16, ratio: 0.5, pct: 50, bandwidth: 16,
		},
		{
			name: "compute bound shows no bandwidth share",
			row:  Row{Bound: ComputeBound, Bytes: 8e6, Flops: 1e9, Tensorplay: Stats{Median: time.Second}, HandLoop: &hand},
			bw:   16,
			gbps: 0.008, gflops: 1, handGBps: 4, ratio: 0.002,
		},
		{
			name: "no hand loop, no probe",
			row:  Row{Bound: MemoryBound, Bytes: 1e9, Tensorplay: Stats{Median: time.Second}},
			gbps: 1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.row
			r.derive(tt.bw, nil)
			assert.InDelta(t, tt.gbps, r.GBps, 1e-9)
			assert.InDelta(t, tt.gflops, r.GFLOPs, 1e-9)
			assert.InDelta(t, tt.handGBps, r.HandGBps, 1e-9)
			assert.InDelta(t, tt.ratio, r.Ratio, 1e-9)
			assert.InDelta(t, tt.pct, r.PctBandwidth, 1e-9)
			assert.InDelta(t, tt.bandwidth, r.BandwidthGBps, 1e-9)
		})
	}
}

func TestBandwidthPicksBestAtSizeAndGoroutines(t *testing.T) {
	probes := []Probe{
		{Kernel: "copy", Goroutines: 1, Size: 100, GBps: 10},
		{Kernel: "triad", Goroutines: 1, Size: 100, GBps: 12},
		{Kernel: "copy", Goroutines: 2, Size: 100, GBps: 20},
		{Kernel: "triad", Goroutines: 2, Size: 100, GBps: 18},
		{Kernel: "copy", Goroutines: 2, Size: 1000, GBps: 15},
	}
	assert.InDelta(t, 12, bandwidth(probes, 100, 1), 0)
	assert.InDelta(t, 20, bandwidth(probes, 100, 2), 0)
	assert.InDelta(t, 15, bandwidth(probes, 1000, 2), 0)
	assert.Zero(t, bandwidth(probes, 1000, 4))
}

func TestMeasureBandwidth(t *testing.T) {
	ps := measureBandwidth(4096, 2, 1, 3)
	require.Len(t, ps, 4, "copy and triad with 1 and 2 goroutines")
	for _, p := range ps {
		assert.Equal(t, 3, p.Stats.Reps)
		assert.Positive(t, p.GBps, p.Kernel)
		assert.Equal(t, 4096, p.Size)
	}
	assert.Equal(t, int64(16*4096), ps[0].Bytes)
	assert.Equal(t, int64(24*4096), ps[1].Bytes)
	assert.Len(t, measureBandwidth(64, 1, 0, 1), 2, "one goroutine count when workers is 1")
}

func TestParallelForCoversRangeOnce(t *testing.T) {
	for _, tt := range []struct{ workers, n, align int }{
		{1, 10, 1}, {2, 10, 1}, {3, 10, 8}, {4, 3, 8}, {2, 0, 8}, {8, 1000, 8}, {0, 5, 0},
	} {
		hits := make([]int, tt.n)
		var ranges [][2]int
		done := make(chan [2]int, 64)
		parallelFor(tt.workers, tt.n, tt.align, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				hits[i]++
			}
			done <- [2]int{lo, hi}
		})
		close(done)
		for r := range done {
			ranges = append(ranges, r)
			if r[0] != 0 && tt.align > 0 {
				assert.Zero(t, r[0]%tt.align, "boundary %d not aligned to %d", r[0], tt.align)
			}
		}
		assert.LessOrEqual(t, len(ranges), max(tt.workers, 1))
		for i, h := range hits {
			assert.Equal(t, 1, h, "element %d of %+v", i, tt)
		}
	}
}
