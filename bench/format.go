package bench

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/tensorplay/tensorplay/internal/nilarg"
)

// Format is an output format of a report.
type Format string

// The formats.
const (
	Table    Format = "table"    // aligned text for a terminal
	CSV      Format = "csv"      // one line per row, raw numbers (ns, GB/s)
	JSON     Format = "json"     // the Report itself; what Compare reads back
	Markdown Format = "markdown" // tables for docs and pull requests
)

// Formats lists the formats Write accepts.
var Formats = []Format{Table, CSV, JSON, Markdown}

// Write writes r to w in format f. A nil w or r is a *tensor.ArgError.
func Write(w io.Writer, r *Report, f Format) error {
	if err := errors.Join(nilarg.Check("bench.Write", "w", w), nilarg.Check("bench.Write", "r", r)); err != nil {
		return err
	}
	switch f {
	case Table:
		return writeTable(w, r)
	case CSV:
		return writeCSV(w, r)
	case JSON:
		return r.WriteJSON(w)
	case Markdown:
		return writeMarkdown(w, r)
	}
	return fmt.Errorf("bench: unknown format %q (want table, csv, json or markdown)", f)
}

// header is the line that says where and how a report was made.
func header(r *Report) string {
	pages := "off"
	if r.HugePages {
		pages = "on"
	}
	if r.THP != "" {
		pages += " (THP " + r.THP + ")"
	}
	return fmt.Sprintf("tensorplay bench %s  %s %s/%s  %d CPUs  GOMAXPROCS %d  workers %d  %d reps (+%d warm-up)  huge pages %s",
		r.Date.Format("2006-01-02 15:04 MST"), r.GoVersion, r.GOOS, r.GOARCH, r.NumCPU, r.GOMAXPROCS,
		r.Workers, r.Reps, r.Warmup, pages)
}

func probeGrid(r *Report) *grid {
	g := &grid{
		head:  []string{"probe", "size", "goroutines", "min", "median", "max", "GB/s"},
		right: []bool{false, true, true, true, true, true, true},
	}
	for _, p := range r.Probes {
		g.add(p.Kernel, fmtSize(p.Size), strconv.Itoa(p.Goroutines), fmtDuration(p.Stats.Min),
			fmtDuration(p.Stats.Median), fmtDuration(p.Stats.Max), fmtRate(p.GBps))
	}
	return g
}

// rowHead names the table's columns: three of text, then numbers.
var rowHead = []string{"workload", "computation", "shape", "min", "median", "max", "GB/s", "GFLOP/s",
	"%bw", "hand", "hand GB/s", "ratio", "allocs", "alloc B"}

func rowGrid(r *Report) *grid {
	g := &grid{head: append([]string(nil), rowHead...), right: make([]bool, len(rowHead))}
	for i := 3; i < len(rowHead); i++ {
		g.right[i] = true // the numbers
	}
	withChange := r.Baseline != ""
	if withChange {
		g.head = append(g.head, "vs base", "change")
		g.right = append(g.right, true, false)
	}
	for _, row := range r.Rows {
		cells := []string{row.Name, row.Description, row.Shape}
		if row.Err != "" {
			cells = append(cells, "", "refused")
			for len(cells) < len(rowHead) {
				cells = append(cells, "")
			}
		} else {
			pct := ""
			if row.PctBandwidth > 0 {
				pct = strconv.FormatFloat(row.PctBandwidth, 'f', 0, 64) + "%"
			}
			hand := ""
			if row.HandLoop != nil {
				hand = fmtDuration(row.HandLoop.Median)
			}
			cells = append(cells, fmtDuration(row.Tensorplay.Min), fmtDuration(row.Tensorplay.Median),
				fmtDuration(row.Tensorplay.Max), fmtRate(row.GBps), fmtRate(row.GFLOPs), pct, hand,
				fmtRate(row.HandGBps), fmtRatio(row.Ratio), fmtCount(row.AllocsPerRun),
				fmtBytes(row.AllocBytesPerRun))
		}
		if withChange {
			if c := row.Change; c != nil {
				cells = append(cells, fmtRatio(c.Speedup), string(c.Verdict))
			} else {
				cells = append(cells, "", "")
			}
		}
		g.add(cells...)
	}
	return g
}

// refusals lists the refused rows with their reasons.
func refusals(w io.Writer, r *Report, prefix string) error {
	for _, row := range r.Refused() {
		if _, err := fmt.Fprintf(w, "%s%s %s: %s\n", prefix, row.Name, fmtSize(row.Size), row.Err); err != nil {
			return err
		}
	}
	return nil
}

func writeTable(w io.Writer, r *Report) error {
	if _, err := fmt.Fprintf(w, "%s\n\n", header(r)); err != nil {
		return err
	}
	if len(r.Probes) > 0 {
		if err := probeGrid(r).writeText(w, ""); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	if err := rowGrid(r).writeText(w, ""); err != nil {
		return err
	}
	if r.Baseline != "" {
		if _, err := fmt.Fprintf(w, "\nvs base: speedup over the %s; change: beyond its min..max spread or noise\n", r.Baseline); err != nil {
			return err
		}
	}
	if len(r.Refused()) > 0 {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	return refusals(w, r, "")
}

func writeMarkdown(w io.Writer, r *Report) error {
	if _, err := fmt.Fprintf(w, "%s\n\n", header(r)); err != nil {
		return err
	}
	if len(r.Probes) > 0 {
		if err := probeGrid(r).writeMarkdown(w); err != nil {
			return err
		}
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	if err := rowGrid(r).writeMarkdown(w); err != nil {
		return err
	}
	if len(r.Refused()) > 0 {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
	}
	return refusals(w, r, "- ")
}

// csvHead names the CSV columns; times are in nanoseconds.
var csvHead = []string{"name", "description", "bound", "size", "shape", "bytes", "flops",
	"min_ns", "median_ns", "max_ns", "hand_min_ns", "hand_median_ns", "hand_max_ns",
	"gbps", "gflops", "hand_gbps", "ratio", "bandwidth_gbps", "pct_bandwidth",
	"allocs_per_run", "alloc_bytes_per_run", "old_median_ns", "speedup", "verdict", "error"}

func writeCSV(w io.Writer, r *Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHead); err != nil {
		return err
	}
	i := func(v int64) string { return strconv.FormatInt(v, 10) }
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, row := range r.Rows {
		var hand [3]string
		if row.HandLoop != nil {
			hand = [3]string{i(int64(row.HandLoop.Min)), i(int64(row.HandLoop.Median)), i(int64(row.HandLoop.Max))}
		}
		var change [3]string
		if c := row.Change; c != nil {
			change = [3]string{i(int64(c.OldMedian)), f(c.Speedup), string(c.Verdict)}
		}
		rec := []string{row.Name, row.Description, string(row.Bound), strconv.Itoa(row.Size), row.Shape,
			i(row.Bytes), i(row.Flops),
			i(int64(row.Tensorplay.Min)), i(int64(row.Tensorplay.Median)), i(int64(row.Tensorplay.Max)),
			hand[0], hand[1], hand[2],
			f(row.GBps), f(row.GFLOPs), f(row.HandGBps), f(row.Ratio), f(row.BandwidthGBps), f(row.PctBandwidth),
			f(row.AllocsPerRun), f(row.AllocBytesPerRun), change[0], change[1], change[2], row.Err}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
