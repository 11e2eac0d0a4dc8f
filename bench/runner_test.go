package bench

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeWorkload records the calls the runner makes; wrong makes its
// tensorplay output disagree with its hand loop.
type fakeWorkload struct {
	calls    []string
	tp, hand []float64
	wrong    bool
	tpErr    error
	setupErr error
}

func (f *fakeWorkload) workload(name string) Workload {
	f.calls = make([]string, 0, 64) // so that recording a call does not allocate
	return Workload{Name: name, Description: "fake", Setup: func(p Params) (*Case, error) {
		if f.setupErr != nil {
			return nil, f.setupErr
		}
		f.tp, f.hand = make([]float64, p.Size), make([]float64, p.Size)
		return &Case{
			Shape: "fake",
			Tensorplay: func() error {
				f.calls = append(f.calls, "tp")
				for i := range f.tp {
					f.tp[i] = float64(i)
				}
				if f.wrong {
					f.tp[len(f.tp)-1] += 0.5
				}
				return f.tpErr
			},
			HandLoop: func() error {
				f.calls = append(f.calls, "hand")
				for i := range f.hand {
					f.hand[i] = float64(i)
				}
				return nil
			},
			Check: func() error {
				f.calls = append(f.calls, "check")
				return AllClose(f.tp, f.hand, 0, 0)
			},
			Bytes: 16 * int64(p.Size),
			Flops: int64(p.Size),
		}, nil
	}}
}

func TestRunOrderOfCalls(t *testing.T) {
	defer func(d time.Duration) { warmupMin = d }(warmupMin)
	warmupMin = 0
	f := &fakeWorkload{}
	rep, err := Run(Options{Sizes: []int{10}, Workers: 1, Warmup: 1, Reps: 3, NoProbe: true}, f.workload("fake"))
	require.NoError(t, err)
	// Check first (one run each), then warm-up, then alternating timed runs.
	assert.Equal(t, []string{"tp", "hand", "check", "tp", "hand", "tp", "hand", "hand", "tp", "tp", "hand"}, f.calls)
	require.Len(t, rep.Rows, 1)
	row := rep.Rows[0]
	assert.Empty(t, row.Err)
	assert.Equal(t, 3, row.Tensorplay.Reps)
	require.NotNil(t, row.HandLoop)
	assert.Equal(t, 3, row.HandLoop.Reps)
	assert.Positive(t, row.GBps)
	assert.Positive(t, row.Ratio)
	assert.Equal(t, int64(160), row.Bytes)
	// Heap statistics are process-wide: a stray runtime allocation may show.
	assert.Less(t, row.AllocsPerRun, 1.0, "the fake allocates nothing per run")
	assert.Empty(t, rep.Probes)
	assert.Equal(t, 1, rep.Workers)
}

func TestRunRefusesDisagreeingOutput(t *testing.T) {
	f := &fakeWorkload{wrong: true}
	good := &fakeWorkload{}
	rep, err := Run(Options{Sizes: []int{8}, Workers: 2, Reps: 2, NoProbe: true}, f.workload("bad"), good.workload("good"))
	require.NoError(t, err)
	require.Len(t, rep.Rows, 2)
	bad := rep.Rows[0]
	assert.Contains(t, bad.Err, "refused: output differs from the hand loop at element 7 of 8: tensorplay 7.5, hand loop 7")
	assert.Equal(t, Stats{}, bad.Tensorplay, "a refused row has no timings")
	assert.Nil(t, bad.HandLoop)
	assert.Zero(t, bad.GBps)
	assert.Equal(t, []string{"tp", "hand", "check"}, f.calls, "nothing is timed after a failed check")
	assert.Empty(t, rep.Rows[1].Err)
	require.Len(t, rep.Refused(), 1)
	assert.Equal(t, "bad", rep.Refused()[0].Name)
}

func TestRunReportsFailures(t *testing.T) {
	tests := []struct {
		name string
		w    Workload
		want string
	}{
		{"setup error", (&fakeWorkload{setupErr: errors.New("no memory")}).workload("x"), "setup: no memory"},
		{"tensorplay error", (&fakeWorkload{tpErr: errors.New("boom")}).workload("x"), "tensorplay: boom"},
		{"no setup", Workload{Name: "x"}, "setup: no Setup function"},
		{"no tensorplay", Workload{Name: "x", Setup: func(Params) (*Case, error) { return &Case{}, nil }}, "setup: no Tensorplay function"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run(Options{Sizes: []int{4}, Reps: 1, NoProbe: true}, tt.w)
			require.NoError(t, err)
			assert.Equal(t, tt.want, rep.Rows[0].Err)
		})
	}
}

func TestRunOptionErrors(t *testing.T) {
	tests := []struct {
		o    Options
		want string
	}{
		{Options{Sizes: []int{0}}, "size 0"},
		{Options{Workers: -1}, "-1 workers"},
		{Options{Reps: -2}, "-2 repetitions"},
		{Options{Warmup: -1}, "-1 warm-up"},
		{Options{MatMulN: -5}, "matmul size -5"},
	}
	for _, tt := range tests {
		_, err := Run(tt.o)
		assert.ErrorContains(t, err, tt.want)
	}
}

func TestRunProbeAndProgress(t *testing.T) {
	var progress bytes.Buffer
	f := &fakeWorkload{}
	rep, err := Run(Options{Sizes: []int{512, 1024}, Workers: 2, Reps: 2, Progress: &progress, ProgressAfter: time.Nanosecond},
		f.workload("fake"))
	require.NoError(t, err)
	assert.Len(t, rep.Probes, 8, "copy and triad, 1 and 2 goroutines, two sizes")
	require.Len(t, rep.Rows, 2)
	assert.Equal(t, 1024, rep.Rows[1].Size)
	assert.Positive(t, rep.Rows[0].PctBandwidth)
	assert.Equal(t, bandwidth(rep.Probes, 1024, 2), rep.Rows[1].BandwidthGBps)
	lines := strings.Split(strings.TrimSpace(progress.String()), "\n")
	assert.Len(t, lines, 4, "a line per probe and per row")
	assert.Contains(t, lines[3], "2/2 rows")
}

func TestAllClose(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name       string
		got, want  []float64
		rtol, atol float64
		err        string
	}{
		{"equal", []float64{1, 2}, []float64{1, 2}, 0, 0, ""},
		{"within rtol", []float64{1, 2.0000001}, []float64{1, 2}, 1e-6, 0, ""},
		{"beyond rtol", []float64{1, 2.001}, []float64{1, 2}, 1e-6, 0, "at element 1 of 2: tensorplay 2.001, hand loop 2"},
		{"atol", []float64{1e-13}, []float64{0}, 0, 1e-12, ""},
		{"NaN equals NaN", []float64{nan}, []float64{nan}, 0, 0, ""},
		{"NaN differs from a number", []float64{nan}, []float64{1}, 1, 1, "tensorplay NaN, hand loop 1"},
		{"a number differs from NaN", []float64{1}, []float64{nan}, 1, 1, "tensorplay 1, hand loop NaN"},
		{"length", []float64{1}, []float64{1, 2}, 0, 0, "1 elements, hand loop has 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := AllClose(tt.got, tt.want, tt.rtol, tt.atol)
			if tt.err == "" {
				assert.NoError(t, err)
				return
			}
			var me *MismatchError
			require.ErrorAs(t, err, &me)
			assert.ErrorContains(t, err, tt.err)
		})
	}
}

// TestWarmupLastsWarmupMin checks that a row's warm-up goes on past its
// count until warmupMin has passed, alternating the sides, and that a row
// with no warm-up gets none.
func TestWarmupLastsWarmupMin(t *testing.T) {
	defer func(d time.Duration) { warmupMin = d }(warmupMin)
	warmupMin = 30 * time.Millisecond
	var tp, hand int
	c := &Case{
		Tensorplay: func() error { tp++; return nil },
		HandLoop:   func() error { hand++; return nil },
	}
	start := time.Now()
	_, err := measure(c, 1, 2)
	require.NoError(t, err)
	assert.Greater(t, tp, 1+2, "more warm-up runs than the one asked for, then 2 timed")
	assert.GreaterOrEqual(t, time.Since(start), warmupMin, "the warm-up took warmupMin at least")
	assert.Equal(t, tp, hand, "the sides alternate in the warm-up too")
	tp, hand = 0, 0
	_, err = measure(c, 0, 2)
	require.NoError(t, err)
	assert.Equal(t, 2, tp, "no warm-up")
}
