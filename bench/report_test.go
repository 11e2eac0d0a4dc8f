package bench

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// syntheticReport is a report with made-up timings: two timed rows, one
// compute-bound row without a hand loop and one refused row.
func syntheticReport() *Report {
	hand := Stats{Reps: 3, Min: 900 * time.Microsecond, Median: time.Millisecond, Max: 2 * time.Millisecond}
	r := &Report{
		Date: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), GoVersion: "go1.26", GOOS: "linux", GOARCH: "amd64",
		NumCPU: 2, GOMAXPROCS: 2, Workers: 2, Warmup: 1, Reps: 3, HugePages: true, THP: "madvise",
		Probes: []Probe{
			{Kernel: "copy", Goroutines: 2, Size: 1e6, Bytes: 16e6, Stats: Stats{Reps: 3, Min: ms, Median: ms, Max: ms}, GBps: 16},
			{Kernel: "triad", Goroutines: 2, Size: 1e6, Bytes: 24e6, Stats: Stats{Reps: 3, Min: ms, Median: 2 * ms, Max: 3 * ms}, GBps: 12},
		},
		Rows: []Row{
			{Name: "W1", Description: "a+b", Bound: MemoryBound, Size: 1e6, Shape: "1000000", Bytes: 24e6, Flops: 1e6,
				Tensorplay: Stats{Reps: 3, Min: ms, Median: 2 * ms, Max: 3 * ms}, HandLoop: &hand, AllocsPerRun: 0.5, AllocBytesPerRun: 1500},
			{Name: "W3", Description: "(a*b+c)*(a-b)/(c+1.5)", Bound: MemoryBound, Size: 1e6, Shape: "1000000", Bytes: 32e6, Flops: 6e6,
				Tensorplay: Stats{Reps: 3, Min: 3 * ms, Median: 4 * ms, Max: 5 * ms}, HandLoop: &hand},
			{Name: "mine", Description: "my|pipe", Bound: ComputeBound, Size: 1e6, Shape: "10x10", Bytes: 800, Flops: 1e9,
				Tensorplay: Stats{Reps: 3, Min: time.Second, Median: time.Second, Max: time.Second}},
			{Name: "bad", Description: "broken", Bound: MemoryBound, Size: 1e6, Shape: "7",
				Err: "refused: output differs from the hand loop at element 3 of 7: tensorplay 1, hand loop 2"},
		},
	}
	for i := range r.Rows {
		if r.Rows[i].Err == "" {
			r.Rows[i].derive(16, nil)
		}
	}
	return r
}

func TestJSONRoundTrip(t *testing.T) {
	r := syntheticReport()
	Compare(syntheticReport(), r, DefaultSlack)
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, r, JSON))
	back, err := ReadReport(&buf)
	require.NoError(t, err)
	assert.Equal(t, r, back)

	_, err = ReadReport(strings.NewReader("{not json"))
	assert.ErrorContains(t, err, "reading report")
}

func TestJudge(t *testing.T) {
	old := Stats{Reps: 5, Min: 10 * ms, Median: 11 * ms, Max: 12 * ms}
	tests := []struct {
		cur   time.Duration
		slack float64
		want  Verdict
	}{
		{11 * ms, 0.05, Noise},
		{10 * ms, 0.05, Noise},
		{9600 * time.Microsecond, 0.05, Noise}, // inside min·0.95 = 9.5ms
		{9400 * time.Microsecond, 0.05, Faster},
		{12500 * time.Microsecond, 0.05, Noise}, // inside max·1.05 = 12.6ms
		{12700 * time.Microsecond, 0.05, Slower},
		{9900 * time.Microsecond, 0, Faster},
		{12100 * time.Microsecond, 0, Slower},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Judge(old, tt.cur, tt.slack), "%v slack %g", tt.cur, tt.slack)
	}
}

func TestCompare(t *testing.T) {
	old := syntheticReport()
	cur := syntheticReport()
	cur.Rows[0].Tensorplay = Stats{Reps: 3, Min: 500 * time.Microsecond, Median: 500 * time.Microsecond, Max: ms} // was 1..3ms
	cur.Rows[1].Tensorplay = Stats{Reps: 3, Min: 8 * ms, Median: 8 * ms, Max: 9 * ms}                             // was 3..5ms
	cur.Rows = append(cur.Rows, Row{Name: "W9", Size: 1e6, Tensorplay: Stats{Median: ms}})
	old.Rows[2].Size = 1e7 // same name, other size: no baseline

	slower := Compare(old, cur, DefaultSlack)
	assert.Equal(t, 1, slower)
	assert.Contains(t, cur.Baseline, "2026-11-30T12:00:00Z")

	require.NotNil(t, cur.Rows[0].Change)
	assert.Equal(t, Faster, cur.Rows[0].Change.Verdict)
	assert.InDelta(t, 4, cur.Rows[0].Change.Speedup, 1e-9)
	assert.Equal(t, 2*ms, cur.Rows[0].Change.OldMedian)

	assert.Equal(t, Slower, cur.Rows[1].Change.Verdict)
	assert.InDelta(t, 0.5, cur.Rows[1].Change.Speedup, 1e-9)

	assert.Equal(t, Missing, cur.Rows[2].Change.Verdict)
	assert.Nil(t, cur.Rows[3].Change, "refused rows are not compared")
	assert.Equal(t, Missing, cur.Rows[4].Change.Verdict)
}

func TestWriteTable(t *testing.T) {
	r := syntheticReport()
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, r, Table))
	out := buf.String()
	assert.Contains(t, out, "tensorplay bench 2026-11-30 12:00 UTC  go1.26 linux/amd64  2 CPUs")
	assert.Contains(t, out, "3 reps (+1 warm-up)  huge pages on (THP madvise)\n")
	lines := strings.Split(out, "\n")
	var head, rule, w1 string
	for i, l := range lines {
		if strings.HasPrefix(l, "workload") {
			head, rule, w1 = l, lines[i+1], lines[i+2]
		}
	}
	require.NotEmpty(t, head)
	assert.Equal(t, len(strings.Fields(head)), len(strings.Fields(rule)))
	for _, l := range lines {
		assert.LessOrEqual(t, utf8.RuneCountInString(l), 100, "the table fits 100 columns: %q", l)
	}
	// Right-aligned columns end where their header ends.
	assert.Equal(t, strings.Index(head, "median")+len("median"), strings.Index(w1, "2.000ms")+len("2.000ms"))
	assert.Contains(t, w1, "12.00GB/s") // 24 MB / 2 ms
	assert.Contains(t, w1, "75%")       // of 16 GB/s
	assert.Contains(t, w1, "0.50x")     // hand 1 ms vs 2 ms
	assert.Regexp(t, `(?m)^bad .*refused`, out)
	assert.Contains(t, out, "\nbad 1e6: refused: output differs")
	assert.Regexp(t, `(?m)^triad +1e6 +2 +1.000ms +2.000ms +3.000ms +12.00$`, out)

	Compare(syntheticReport(), r, DefaultSlack)
	buf.Reset()
	require.NoError(t, Write(&buf, r, Table))
	assert.Contains(t, buf.String(), "vs base")
	assert.Regexp(t, `(?m)^W1 .* 1.00x +noise$`, buf.String())
}

func TestWriteCSV(t *testing.T) {
	r := syntheticReport()
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, r, CSV))
	recs, err := csv.NewReader(&buf).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 1+len(r.Rows))
	assert.Equal(t, csvHead, recs[0])
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	assert.Equal(t, "W1", recs[1][col["name"]])
	assert.Equal(t, "2000000", recs[1][col["median_ns"]])
	assert.Equal(t, "1000000", recs[1][col["hand_median_ns"]])
	assert.Equal(t, "12", recs[1][col["gbps"]])
	assert.Equal(t, "", recs[3][col["hand_median_ns"]], "no hand loop")
	assert.Contains(t, recs[4][col["error"]], "refused")
}

func TestWriteMarkdown(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, syntheticReport(), Markdown))
	out := buf.String()
	assert.Contains(t, out, "| workload | computation | shape | min | median |")
	assert.Contains(t, out, "| --- | --- | --- | --: |")
	assert.Contains(t, out, `my\|pipe`, "pipes in cells are escaped")
	assert.Contains(t, out, "- bad 1e6: refused: output differs")
}

func TestWriteUnknownFormat(t *testing.T) {
	assert.ErrorContains(t, Write(&bytes.Buffer{}, syntheticReport(), "yaml"), `unknown format "yaml"`)
}

func TestUnits(t *testing.T) {
	for d, want := range map[time.Duration]string{
		812: "812ns", 45610: "45.61µs", 3141593: "3.142ms", 1250 * ms: "1.250s", 123456 * time.Microsecond: "123.5ms",
	} {
		assert.Equal(t, want, fmtDuration(d))
	}
	for n, want := range map[int]string{1e6: "1e6", 1e7: "1e7", 40000: "4e4", 2500000: "25e5", 7: "7", 1000: "1e3", 1234: "1234"} {
		assert.Equal(t, want, fmtSize(n))
	}
	assert.Equal(t, "", fmtRate(0))
	assert.Equal(t, "250", fmtRate(250.4))
	assert.Equal(t, "0", fmtCount(0))
	assert.Equal(t, "2.5", fmtCount(2.5))
	assert.Equal(t, "12B", fmtBytes(12))
	assert.Equal(t, "2.1MB", fmtBytes(2.1e6))
}
