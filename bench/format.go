package bench

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

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

// header is the two lines that say where and how a report was made.
func header(r *Report) string {
	pages := "off"
	if r.HugePages {
		pages = "on"
	}
	if r.THP != "" {
		pages += " (THP " + r.THP + ")"
	}
	return fmt.Sprintf("tensorplay bench %s  %s %s/%s  %d CPUs  GOMAXPROCS %d\nworkers %d  %d reps (+%d warm-up)  huge pages %s",
		r.Date.Format("2006-01-02 15:04 MST"), r.GoVersion, r.GOOS, r.GOARCH, r.NumCPU, r.GOMAXPROCS,
		r.Workers, r.Reps, r.Warmup, pages)
}

// peakLine describes the FMA probe's peak, or is empty.
func peakLine(r *Report) string {
	p := r.Peak
	if p == nil {
		return ""
	}
	return fmt.Sprintf("FMA peak: the %s micro-kernels on %d goroutines, on data in L1: %s GFLOP/s f64, %s f32",
		p.Kernel, p.Goroutines, fmtRate(p.GFLOPs64), fmtRate(p.GFLOPs32))
}

// peerLines describe the peers of the run: what ran, with which BLAS, or
// why a peer was skipped; then the rows a peer could not run.
func peerLines(r *Report, prefix string) []string {
	var out []string
	for _, p := range r.PeerInfo {
		if p.Skipped != "" {
			out = append(out, fmt.Sprintf("%s%s: skipped: %s", prefix, p.Name, p.Skipped))
			continue
		}
		out = append(out, fmt.Sprintf("%s%s: %s, %d threads, BLAS:\n%s  %s", prefix, p.Name, p.Version, p.Threads, prefix, p.BLAS))
	}
	for _, row := range r.Rows {
		for _, pr := range row.Peers {
			if pr.Err != "" {
				out = append(out, fmt.Sprintf("%s%s %s: %s", prefix, row.Name, pr.Peer, pr.Err))
			}
		}
	}
	return out
}

// ranPeers are the peers with a result in some row, in column order.
func ranPeers(r *Report) []string {
	var out []string
	for _, name := range Peers {
	rows:
		for _, row := range r.Rows {
			if p := row.Peer(name); p != nil && p.Err == "" {
				out = append(out, name)
				break rows
			}
		}
	}
	return out
}

// peerAbbrev is a peer's short name in the narrow table's Δ column.
var peerAbbrev = map[string]string{"numpy": "np", "torch": "pt"}

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

// column is one column of a rows table: its header, whether it is a
// number (right-aligned) and its cell for a row that was measured.
type column struct {
	head  string
	right bool
	cell  func(r *Row) string
}

// pctRoof is a row's share of its ceiling: the probe's bandwidth for a
// memory-bound row, the FMA peak for a product.
func pctRoof(r *Row) string {
	for _, v := range []float64{r.PctBandwidth, r.PctPeak} {
		if v > 0 {
			return strconv.FormatFloat(v, 'f', 0, 64) + "%"
		}
	}
	return ""
}

// peerColumns are the columns of one peer: tensorplay's speed relative to
// it and the largest difference, plus the peer's median when wide.
func peerColumns(name string, wide bool) []column {
	res := func(r *Row) *PeerResult {
		if p := r.Peer(name); p != nil && p.Err == "" {
			return p
		}
		return nil
	}
	cols := []column{{name, true, func(r *Row) string {
		if p := res(r); p != nil {
			return fmtRatio(p.Ratio)
		}
		return ""
	}}}
	diff := "Δ" + peerAbbrev[name]
	if wide {
		cols = append([]column{{name + " median", true, func(r *Row) string {
			if p := res(r); p != nil {
				return fmtDuration(p.Stats.Median)
			}
			return ""
		}}}, cols...)
		diff = name + " max Δ"
	}
	return append(cols, column{diff, true, func(r *Row) string {
		if p := res(r); p != nil {
			return fmtDiff(p.MaxDiff)
		}
		return ""
	}})
}

// rowColumns are the columns of the rows table: the narrow set of the text
// table (fits 100 columns: see tpbench -h for the abbreviations), or every
// column for Markdown.
func rowColumns(r *Report, wide bool) []column {
	median := func(r *Row) string { return fmtDuration(r.Tensorplay.Median) }
	gbps := func(r *Row) string { return fmtRate(r.GBps) }
	gflops := func(r *Row) string { return fmtRate(r.GFLOPs) }
	ratio := func(r *Row) string { return fmtRatio(r.Ratio) }
	allocs := func(r *Row) string { return fmtCount(r.AllocsPerRun) }
	cols := []column{{"workload", false, func(r *Row) string { return r.Name }}}
	if wide {
		cols = append(cols,
			column{"computation", false, func(r *Row) string { return r.Description }},
			column{"shape", false, func(r *Row) string { return r.Shape }},
			column{"min", true, func(r *Row) string { return fmtDuration(r.Tensorplay.Min) }},
			column{"median", true, median},
			column{"max", true, func(r *Row) string { return fmtDuration(r.Tensorplay.Max) }},
			column{"GB/s", true, gbps}, column{"GFLOP/s", true, gflops},
			column{"%bw", true, func(r *Row) string {
				if r.PctBandwidth > 0 {
					return strconv.FormatFloat(r.PctBandwidth, 'f', 0, 64) + "%"
				}
				return ""
			}},
			column{"%peak", true, func(r *Row) string {
				if r.PctPeak > 0 {
					return strconv.FormatFloat(r.PctPeak, 'f', 0, 64) + "%"
				}
				return ""
			}},
			column{"hand", true, func(r *Row) string {
				if r.HandLoop != nil {
					return fmtDuration(r.HandLoop.Median)
				}
				return ""
			}},
			column{"hand GB/s", true, func(r *Row) string { return fmtRate(r.HandGBps) }},
			column{"ratio", true, ratio})
	} else {
		cols = append(cols,
			column{"shape", false, func(r *Row) string { return r.Shape }},
			column{"median", true, median},
			column{"rate", true, func(r *Row) string {
				if r.Bound == ComputeBound {
					return fmtRate(r.GFLOPs) + "GF/s"
				}
				return fmtRate(r.GBps) + "GB/s"
			}},
			column{"%roof", true, pctRoof},
			column{"hand", true, ratio})
	}
	for _, p := range ranPeers(r) {
		cols = append(cols, peerColumns(p, wide)...)
	}
	cols = append(cols, column{"allocs", true, allocs})
	if wide {
		cols = append(cols, column{"alloc B", true, func(r *Row) string { return fmtBytes(r.AllocBytesPerRun) }})
	}
	return cols
}

func rowGrid(r *Report, wide bool) *grid {
	cols := rowColumns(r, wide)
	g := &grid{}
	for _, c := range cols {
		g.head = append(g.head, c.head)
		g.right = append(g.right, c.right)
	}
	withChange := r.Baseline != ""
	if withChange {
		g.head = append(g.head, "vs base", "change")
		g.right = append(g.right, true, false)
	}
	for i := range r.Rows {
		row := &r.Rows[i]
		var cells []string
		if row.Err != "" {
			// The name and what identifies the row, then the verdict.
			for _, c := range cols {
				if c.right {
					break
				}
				cells = append(cells, c.cell(row))
			}
			cells = append(cells, "", "refused")
			for len(cells) < len(cols) {
				cells = append(cells, "")
			}
		} else {
			for _, c := range cols {
				cells = append(cells, c.cell(row))
			}
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

// writeNotes writes the FMA peak and the peers' lines under the rows.
func writeNotes(w io.Writer, r *Report, prefix string) error {
	lines := peerLines(r, prefix)
	if l := peakLine(r); l != "" {
		lines = append([]string{prefix + l}, lines...)
	}
	if len(lines) == 0 {
		return nil
	}
	_, err := io.WriteString(w, "\n"+strings.Join(lines, "\n")+"\n")
	return err
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
	if err := rowGrid(r, false).writeText(w, ""); err != nil {
		return err
	}
	if err := writeNotes(w, r, ""); err != nil {
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
	if err := rowGrid(r, true).writeMarkdown(w); err != nil {
		return err
	}
	if err := writeNotes(w, r, "- "); err != nil {
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
	"allocs_per_run", "alloc_bytes_per_run", "old_median_ns", "speedup", "verdict", "error",
	"pct_peak", "numpy_median_ns", "numpy_ratio", "numpy_max_diff", "numpy_error",
	"torch_median_ns", "torch_ratio", "torch_max_diff", "torch_error"}

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
			f(row.AllocsPerRun), f(row.AllocBytesPerRun), change[0], change[1], change[2], row.Err, f(row.PctPeak)}
		for _, name := range Peers {
			p := row.Peer(name)
			if p == nil {
				rec = append(rec, "", "", "", "")
				continue
			}
			rec = append(rec, i(int64(p.Stats.Median)), f(p.Ratio), f(p.MaxDiff), p.Err)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
