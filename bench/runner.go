package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/tensor"
)

// Defaults of Options.
const (
	DefaultSize    = 1_000_000
	DefaultMatMulN = 512
	DefaultReps    = 30
	DefaultWarmup  = 3
)

// Options configure Run. The zero value runs each workload at DefaultSize
// with GOMAXPROCS workers.
type Options struct {
	// Sizes are the Params.Size values to run every workload at; each
	// workload runs once per size. Default: DefaultSize.
	Sizes []int
	// MatMulN is the side of the matmul workloads (default 512).
	MatMulN int
	// Workers is the number of executor workers and hand-loop goroutines
	// (default GOMAXPROCS). Ignored when Executor is set.
	Workers int
	// Executor evaluates the tensorplay runs; default exec.New(exec.Workers(Workers)).
	Executor *exec.Executor
	// Warmup untimed runs and Reps timed runs of each side, per row.
	Warmup, Reps int
	// Seed seeds the workloads' random inputs (default 1).
	Seed uint64
	// NoProbe skips the bandwidth probe (no % of bandwidth then).
	NoProbe bool
	// Progress, when set, receives a line per finished row once the run
	// has taken longer than ProgressAfter (default 3s).
	Progress      io.Writer
	ProgressAfter time.Duration
	// Python, when set, is the interpreter that runs the peer scripts
	// (NumPy, PyTorch) over every row whose case has a Peer; tpbench sets
	// DefaultPython. Empty: no peers.
	Python string
	// PeerLib, when set, is a directory searched for a BLAS shared library
	// (libblas.so.3, libopenblas*.so) that the peers load through
	// LD_LIBRARY_PATH in place of their own.
	PeerLib string
	// PeerBudget bounds the time a peer spends timing one row (default
	// 10s): it stops after that many seconds of timed runs, and always does
	// at least three.
	PeerBudget time.Duration
}

func (o *Options) defaults() error {
	if len(o.Sizes) == 0 {
		o.Sizes = []int{DefaultSize}
	}
	for _, s := range o.Sizes {
		if s < 1 {
			return fmt.Errorf("bench: size %d: must be at least 1", s)
		}
	}
	if o.MatMulN == 0 {
		o.MatMulN = DefaultMatMulN
	}
	if o.Executor != nil {
		o.Workers = o.Executor.Workers()
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Reps == 0 {
		o.Reps = DefaultReps
	}
	if o.Warmup == 0 {
		o.Warmup = DefaultWarmup
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.ProgressAfter == 0 {
		o.ProgressAfter = 3 * time.Second
	}
	if o.PeerBudget == 0 {
		o.PeerBudget = 10 * time.Second
	}
	switch {
	case o.MatMulN < 1:
		return fmt.Errorf("bench: matmul size %d: must be at least 1", o.MatMulN)
	case o.Workers < 1:
		return fmt.Errorf("bench: %d workers: must be at least 1", o.Workers)
	case o.Reps < 1:
		return fmt.Errorf("bench: %d repetitions: must be at least 1", o.Reps)
	case o.Warmup < 0:
		return fmt.Errorf("bench: %d warm-up runs: must not be negative", o.Warmup)
	}
	if o.Executor == nil {
		o.Executor = exec.New(exec.Workers(o.Workers))
	}
	return nil
}

// Run times every workload at every size and returns the report. For each
// row it sets the workload up, runs tensorplay and the hand loop once and
// checks that they agree (refusing the row if not), then does the warm-up
// runs and the timed repetitions, in blocks of back-to-back runs that
// alternate between the two sides so that background load hits both alike.
// With peers, each row's case is then timed by every peer's process before
// the next row starts (see peerProc). The bandwidth probe runs first at
// each size, in the same process. Run returns an error only for invalid
// options; a workload that fails is a refused row.
func Run(o Options, ws ...Workload) (*Report, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	rep := &Report{
		Date:       time.Now().UTC().Truncate(time.Second),
		GoVersion:  runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		NumCPU:     runtime.NumCPU(),
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		THP:        tensor.TransparentHugePages(),
		Workers:    o.Workers,
		Warmup:     o.Warmup,
		Reps:       o.Reps,
	}
	prog := progress{w: o.Progress, after: o.ProgressAfter, start: time.Now(), total: countRows(ws, len(o.Sizes))}
	defer pprof.SetGoroutineLabels(context.Background())
	pr, cleanup := newPeerRun(&o, rep)
	defer cleanup()
	ps := &peers{pr: pr, rep: rep}
	defer ps.close()
	if !o.NoProbe {
		setSide("probe")
		rep.Peak = measurePeak(o.Workers, 30)
	}
	for si, size := range o.Sizes {
		if !o.NoProbe {
			setSide("probe")
			probes := measureBandwidth(size, o.Workers, o.Warmup, o.Reps)
			rep.Probes = append(rep.Probes, probes...)
			prog.step(fmt.Sprintf("bandwidth probe, %d float64 per array", size), false)
		}
		bw := bandwidth(rep.Probes, size, o.Workers)
		for _, w := range ws {
			if w.Fixed && si > 0 {
				continue
			}
			row, job := runRow(w, size, o, ps.run(), len(rep.Rows))
			if row.Err == "" {
				row.derive(bw, rep.Peak)
				if job != nil {
					ps.time(job, &row)
				}
			}
			rep.Rows = append(rep.Rows, row)
			prog.step(fmt.Sprintf("%s %s %s", w.Name, w.Description, row.Shape), true)
		}
	}
	rep.HugePages = tensor.HugePages() // after: a refusal during the run turned it off
	return rep, nil
}

// countRows is the number of rows ws make at n sizes.
func countRows(ws []Workload, n int) int {
	rows := 0
	for _, w := range ws {
		if w.Fixed {
			rows++
		} else {
			rows += n
		}
	}
	return rows
}

// newPeerRun prepares the peers of a run: nil when o has no Python. The
// cleanup removes the directory of the peers' files.
func newPeerRun(o *Options, rep *Report) (*peerRun, func()) {
	if o.Python == "" {
		return nil, func() {}
	}
	skip := func(reason string) (*peerRun, func()) {
		for _, p := range Peers {
			rep.PeerInfo = append(rep.PeerInfo, PeerInfo{Name: p, Skipped: reason})
		}
		return nil, func() {}
	}
	pr := &peerRun{python: o.Python, threads: o.Workers, warmup: o.Warmup, reps: o.Reps, budget: o.PeerBudget}
	if o.PeerLib != "" {
		dirs, err := findBLASDirs(o.PeerLib)
		if err != nil {
			return skip("-peerlib: " + err.Error())
		}
		pr.libDirs = dirs
	}
	root, err := os.MkdirTemp("", "tpbench-peers-")
	if err != nil {
		return skip(err.Error())
	}
	pr.root = root
	return pr, func() { os.RemoveAll(root) }
}

// runRow sets w up at size and measures it. With peers (pr not nil) and a
// case that has a Peer, it also writes the peer's inputs and tensorplay's
// outputs of the check run, and returns the job.
func runRow(w Workload, size int, o Options, pr *peerRun, index int) (Row, *peerJob) {
	row := Row{Name: w.Name, Description: w.Description, Bound: w.Bound, Size: size}
	if w.Bound == "" {
		row.Bound = MemoryBound
	}
	setSide("setup")
	runtime.GC()
	p := Params{Size: size, MatMulN: o.MatMulN, Workers: o.Workers, Exec: o.Executor, Seed: o.Seed}
	if w.Setup == nil {
		row.Err = "setup: no Setup function"
		return row, nil
	}
	c, err := w.Setup(p)
	if err == nil && (c == nil || c.Tensorplay == nil) {
		err = errors.New("no Tensorplay function")
	}
	if err != nil {
		row.Err = "setup: " + err.Error()
		return row, nil
	}
	if c.Cleanup != nil {
		defer c.Cleanup()
	}
	row.Shape, row.Bytes, row.Flops, row.peakDType = c.Shape, c.Bytes, c.Flops, c.PeakDType
	var job *peerJob
	peerFailed := func(err error) {
		job = nil
		for _, p := range Peers {
			row.Peers = append(row.Peers, PeerResult{Peer: p, Err: err.Error()})
		}
	}
	if pr != nil && c.Peer != nil {
		if job, err = writePeerInputs(pr.root, index, c); err != nil {
			peerFailed(err)
		}
	}
	if err := checkCase(c); err != nil {
		row.Err = err.Error()
		return row, nil
	}
	if job != nil {
		if err := job.writeTensorplayOutputs(c); err != nil {
			peerFailed(err)
		}
	}
	runtime.GC()
	reps := o.Reps
	if c.MaxReps > 0 {
		reps = min(reps, c.MaxReps)
	}
	warmup := o.Warmup
	if c.NoWarmup {
		warmup = 0
	}
	m, err := measure(c, warmup, reps)
	if err != nil {
		row.Err = err.Error()
		return row, nil
	}
	row.Tensorplay, row.HandLoop = m.tensorplay, m.hand
	row.AllocsPerRun, row.AllocBytesPerRun = m.allocs, m.allocBytes
	return row, job
}

// checkCase runs each side once and compares their outputs.
func checkCase(c *Case) error {
	setSide("tensorplay")
	if err := c.Tensorplay(); err != nil {
		return fmt.Errorf("tensorplay: %w", err)
	}
	if c.HandLoop != nil {
		setSide("handloop")
		if err := c.HandLoop(); err != nil {
			return fmt.Errorf("hand loop: %w", err)
		}
	}
	if c.Check != nil {
		if err := c.Check(); err != nil {
			return fmt.Errorf("refused: %w", err)
		}
	}
	return nil
}

type measurement struct {
	tensorplay         Stats
	hand               *Stats
	allocs, allocBytes float64
}

// measureBlocks is the number of blocks the timed repetitions of each side
// are cut into: tensorplay's blocks alternate with the hand loop's
// (tp, hand, hand, tp, tp, hand), so that load from other processes hits
// both alike, while the runs inside a block follow one another back to
// back, as the steps of a user's loop do and as the peers are timed.
const measureBlocks = 4

// warmupMin is the least time a row's warm-up takes (when it has any):
// its warm-up runs go on until then. A row that follows an idle pause (a
// row's peers, and the wait for their threads to stop spinning) found the
// cores clocked down or their vCPUs descheduled, and three warm-up runs of
// a short product did not bring them back: 256³ float32 on two workers
// took 140 against 87 µs, the layer product 71 against 35 µs.
var warmupMin = 100 * time.Millisecond

// measure does the warm-up runs of c (at least warmup of each side, for
// at least warmupMin) and its timed runs, in blocks of back-to-back
// repetitions (see measureBlocks). Heap statistics are read around each
// block of tensorplay runs, outside the timed intervals: reading them
// stops the world, and between two runs it would also let the worker pool
// go idle, so that every run paid for waking it, which no loop of steps
// does.
func measure(c *Case, warmup, reps int) (measurement, error) {
	var m measurement
	start := time.Now()
	for i := 0; i < warmup || warmup > 0 && time.Since(start) < warmupMin; i++ {
		if err := timeSide(c.Tensorplay, "tensorplay", nil); err != nil {
			return m, fmt.Errorf("tensorplay: %w", err)
		}
		if c.HandLoop != nil {
			if err := timeSide(c.HandLoop, "handloop", nil); err != nil {
				return m, fmt.Errorf("hand loop: %w", err)
			}
		}
	}
	tp := make([]time.Duration, reps)
	var hand []time.Duration
	if c.HandLoop != nil {
		hand = make([]time.Duration, reps)
	}
	var before, after runtime.MemStats
	var mallocs, bytes uint64
	blocks := min(measureBlocks, reps)
	for b := range blocks {
		lo, hi := b*reps/blocks, (b+1)*reps/blocks
		runTP := func() error {
			runtime.ReadMemStats(&before)
			for i := lo; i < hi; i++ {
				if err := timeSide(c.Tensorplay, "tensorplay", &tp[i]); err != nil {
					return fmt.Errorf("tensorplay: %w", err)
				}
			}
			runtime.ReadMemStats(&after)
			mallocs += after.Mallocs - before.Mallocs
			bytes += after.TotalAlloc - before.TotalAlloc
			return nil
		}
		runHand := func() error {
			if c.HandLoop == nil {
				return nil
			}
			for i := lo; i < hi; i++ {
				if err := timeSide(c.HandLoop, "handloop", &hand[i]); err != nil {
					return fmt.Errorf("hand loop: %w", err)
				}
			}
			return nil
		}
		first, second := runTP, runHand
		if b%2 == 1 {
			first, second = runHand, runTP
		}
		if err := first(); err != nil {
			return m, err
		}
		if err := second(); err != nil {
			return m, err
		}
	}
	m.tensorplay = Summarize(tp)
	if hand != nil {
		s := Summarize(hand)
		m.hand = &s
	}
	m.allocs = float64(mallocs) / float64(reps)
	m.allocBytes = float64(bytes) / float64(reps)
	return m, nil
}

// timeSide runs fn under the profiler label side=name and stores its
// duration in d, if d is not nil.
func timeSide(fn func() error, name string, d *time.Duration) error {
	setSide(name)
	start := time.Now()
	err := fn()
	if d != nil {
		*d = time.Since(start)
	}
	return err
}
