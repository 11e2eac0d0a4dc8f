package bench

import (
	"slices"
	"time"
)

// Stats summarizes the timed repetitions of one run function.
type Stats struct {
	Reps   int           `json:"reps"`
	Min    time.Duration `json:"min_ns"`
	Median time.Duration `json:"median_ns"`
	Max    time.Duration `json:"max_ns"`
}

// Summarize returns the minimum, median and maximum of ds. The median of an
// even number of timings is the mean of the middle two. ds is not modified.
func Summarize(ds []time.Duration) Stats {
	if len(ds) == 0 {
		return Stats{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return Stats{Reps: n, Min: s[0], Median: med, Max: s[n-1]}
}

// GBps is the throughput of moving bytes in d, in 1e9 bytes per second
// (STREAM's unit). It is 0 when d is not positive.
func GBps(bytes int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(bytes) / d.Seconds() / 1e9
}

// GFLOPs is the rate of doing flops in d, in 1e9 per second. It is 0 when d
// is not positive.
func GFLOPs(flops int64, d time.Duration) float64 {
	return GBps(flops, d)
}

// SpeedRatio is the throughput of a run taking d relative to one taking ref:
// ref/d, so 1.25 means 25% faster than ref and 0.5 half as fast. It is 0 when
// either time is not positive.
func SpeedRatio(d, ref time.Duration) float64 {
	if d <= 0 || ref <= 0 {
		return 0
	}
	return float64(ref) / float64(d)
}
