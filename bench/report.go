package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/nilarg"
)

// Report is the result of one run of the harness: the machine, the settings,
// the bandwidth probe and one row per workload and size. It round-trips
// through JSON (WriteJSON, ReadReport) so runs can be compared later.
type Report struct {
	Date       time.Time `json:"date"`
	GoVersion  string    `json:"go_version"`
	GOOS       string    `json:"goos"`
	GOARCH     string    `json:"goarch"`
	NumCPU     int       `json:"num_cpu"`
	GOMAXPROCS int       `json:"gomaxprocs"`
	Workers    int       `json:"workers"`
	Warmup     int       `json:"warmup"`
	Reps       int       `json:"reps"`
	// HugePages records tensor.HugePages at the end of the run: whether
	// tensors (and the hand loops' arrays) were advised to use huge pages.
	HugePages bool `json:"huge_pages"`
	// THP is the kernel's transparent huge page mode
	// (tensor.TransparentHugePages): under "always" every large array gets
	// them, advised or not.
	THP    string  `json:"thp,omitempty"`
	Probes []Probe `json:"probes,omitempty"`
	// Peak is the FMA probe's floating-point peak (nil with -noprobe).
	Peak *Peak `json:"peak,omitempty"`
	// PeerInfo lists the peers of the run (NumPy, PyTorch): version and
	// BLAS, or why each was skipped. Empty when peers were not asked for.
	PeerInfo []PeerInfo `json:"peers,omitempty"`
	Rows     []Row      `json:"rows"`
	// Baseline names the report Compare compared this one against.
	Baseline string `json:"baseline,omitempty"`
}

// Row is one workload at one size. Throughputs are computed from median
// times. A refused row (Err set) carries no numbers.
type Row struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Bound       Bound  `json:"bound"`
	Size        int    `json:"size"`  // Params.Size
	Shape       string `json:"shape"` // the operands, as the workload describes them
	Bytes       int64  `json:"bytes"` // per run
	Flops       int64  `json:"flops"` // per run

	Tensorplay Stats  `json:"tensorplay"`
	HandLoop   *Stats `json:"hand_loop,omitempty"` // nil without a hand loop

	// AllocsPerRun and AllocBytesPerRun are the heap allocations of one
	// tensorplay run, averaged over the timed repetitions.
	AllocsPerRun     float64 `json:"allocs_per_run"`
	AllocBytesPerRun float64 `json:"alloc_bytes_per_run"`

	GBps     float64 `json:"gbps"`                // Bytes over the tensorplay median
	GFLOPs   float64 `json:"gflops"`              // Flops over the tensorplay median
	HandGBps float64 `json:"hand_gbps,omitempty"` // Bytes over the hand loop median
	// Ratio is tensorplay's throughput over the hand loop's (hand median /
	// tensorplay median): 1.1 means tensorplay is 10% faster.
	Ratio float64 `json:"ratio,omitempty"`
	// BandwidthGBps is the probe's bandwidth for this size and worker count;
	// PctBandwidth is 100·GBps/BandwidthGBps, for memory-bound rows only.
	BandwidthGBps float64 `json:"bandwidth_gbps,omitempty"`
	PctBandwidth  float64 `json:"pct_bandwidth,omitempty"`
	// PctPeak is 100·GFLOPs over the probe's FMA peak for the row's element
	// type, for rows whose flops are multiply-adds (matmul).
	PctPeak float64 `json:"pct_peak,omitempty"`

	// Peers has one result per peer that ran (NumPy, PyTorch), for rows
	// whose case has a PeerCase.
	Peers []PeerResult `json:"peers,omitempty"`

	// Err is why the row was refused: a setup or run error, or outputs that
	// disagree with the hand loop.
	Err string `json:"error,omitempty"`

	// Change is set by Compare: how this row moved against a baseline run.
	Change *Change `json:"change,omitempty"`

	peakDType dtype.DType // Case.PeakDType
}

// Peer returns the row's result for peer, or nil.
func (r *Row) Peer(peer string) *PeerResult {
	for i := range r.Peers {
		if r.Peers[i].Peer == peer {
			return &r.Peers[i]
		}
	}
	return nil
}

// derive fills in the throughputs, the ratio and the bandwidth and peak
// shares from the timings; bw is the probe bandwidth for the row (0 if
// none), peak the FMA probe (nil if none).
func (r *Row) derive(bw float64, peak *Peak) {
	r.GBps = GBps(r.Bytes, r.Tensorplay.Median)
	r.GFLOPs = GFLOPs(r.Flops, r.Tensorplay.Median)
	r.HandGBps, r.Ratio = 0, 0
	if r.HandLoop != nil {
		r.HandGBps = GBps(r.Bytes, r.HandLoop.Median)
		r.Ratio = SpeedRatio(r.Tensorplay.Median, r.HandLoop.Median)
	}
	r.BandwidthGBps, r.PctBandwidth = 0, 0
	if r.Bound == MemoryBound && bw > 0 {
		r.BandwidthGBps = bw
		r.PctBandwidth = 100 * r.GBps / bw
	}
	r.PctPeak = 0
	if p := peak.GFLOPs(r.peakDType); p > 0 {
		r.PctPeak = 100 * r.GFLOPs / p
	}
}

// Refused returns the rows that were refused.
func (r *Report) Refused() []Row {
	var out []Row
	for _, row := range r.Rows {
		if row.Err != "" {
			out = append(out, row)
		}
	}
	return out
}

// WriteJSON writes r as indented JSON. A nil r or w is a *tensor.ArgError.
func (r *Report) WriteJSON(w io.Writer) error {
	if err := errors.Join(nilarg.Check("bench.Report.WriteJSON", "r", r), nilarg.Check("bench.Report.WriteJSON", "w", w)); err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ReadReport reads a report written by WriteJSON (tpbench -format json).
// A nil rd is a *tensor.ArgError.
func ReadReport(rd io.Reader) (*Report, error) {
	if err := nilarg.Check("bench.ReadReport", "rd", rd); err != nil {
		return nil, err
	}
	var r Report
	dec := json.NewDecoder(rd)
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("bench: reading report: %w", err)
	}
	return &r, nil
}
