package bench

import (
	"fmt"
	"time"
)

// DefaultSlack widens the baseline's min..max spread before a change counts
// as more than noise: 5% on each side.
const DefaultSlack = 0.05

// Verdict says whether a row moved beyond the run-to-run noise.
type Verdict string

// The verdicts.
const (
	Faster  Verdict = "faster"  // new median below the baseline's widened minimum
	Slower  Verdict = "slower"  // new median above the baseline's widened maximum
	Noise   Verdict = "noise"   // within the baseline's widened spread
	Missing Verdict = "no-base" // the baseline has no such row
)

// Change compares one row of a run with the same workload and size in a
// baseline run.
type Change struct {
	OldMedian time.Duration `json:"old_median_ns"`
	// Speedup is old median over new median: 1.2 means 20% faster now.
	Speedup float64 `json:"speedup"`
	Verdict Verdict `json:"verdict"`
}

// Judge decides whether a median time cur is a change from a baseline whose
// repetitions spread over old.Min..old.Max: it is Faster below
// old.Min·(1-slack), Slower above old.Max·(1+slack), else Noise.
func Judge(old Stats, cur time.Duration, slack float64) Verdict {
	lo := time.Duration(float64(old.Min) * (1 - slack))
	hi := time.Duration(float64(old.Max) * (1 + slack))
	switch {
	case cur < lo:
		return Faster
	case cur > hi:
		return Slower
	}
	return Noise
}

// Compare sets Change on every timed row of cur from the row of old with
// the same name and size, and records old's date as cur's Baseline. Rows of
// cur that old lacks (or refused) get the Missing verdict. It returns the
// number of rows that are Slower. old and cur must not be nil: a nil report
// is a programmer error, and panics.
func Compare(old, cur *Report, slack float64) (slower int) {
	type key struct {
		name string
		size int
	}
	base := map[key]Row{}
	for _, r := range old.Rows {
		if r.Err == "" {
			base[key{r.Name, r.Size}] = r
		}
	}
	cur.Baseline = fmt.Sprintf("run of %s", old.Date.Format(time.RFC3339))
	for i := range cur.Rows {
		r := &cur.Rows[i]
		if r.Err != "" {
			continue
		}
		b, ok := base[key{r.Name, r.Size}]
		if !ok {
			r.Change = &Change{Verdict: Missing}
			continue
		}
		c := &Change{
			OldMedian: b.Tensorplay.Median,
			Speedup:   SpeedRatio(r.Tensorplay.Median, b.Tensorplay.Median),
			Verdict:   Judge(b.Tensorplay, r.Tensorplay.Median, slack),
		}
		if c.Verdict == Slower {
			slower++
		}
		r.Change = c
	}
	return slower
}
