package bench

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
)

// Bound says which resource limits a workload, and so which reference its
// row is read against.
type Bound string

// The bounds.
const (
	// MemoryBound workloads stream their operands once and do little
	// arithmetic per element; their rows show the % of the bandwidth probe.
	MemoryBound Bound = "memory"
	// ComputeBound workloads (transcendentals, matmul) are limited by the
	// arithmetic units; their rows show GFLOP/s and no bandwidth share.
	ComputeBound Bound = "compute"
)

// A Workload is one computation the runner times: how to build its inputs,
// the tensorplay pipeline and the hand-written Go loop over the same data.
// Setup is called once per size; everything it allocates belongs to the Case
// it returns.
type Workload struct {
	Name        string // short and unique, matched by -run: "W3", "W10/0"
	Description string // the computation: "(a*b+c)*(a-b)/(c+1.5) f64"
	Bound       Bound
	Setup       func(p Params) (*Case, error)
	// Suite names the set the workload belongs to, selected by tpbench
	// -suite: "pipelines", "matmul"; empty (the standard set, and any
	// workload of your own) is the default suite.
	Suite string
	// Fixed says the workload chooses its own sizes and ignores
	// Params.Size: it runs once, at the first of Options.Sizes.
	Fixed bool
}

// Params are what a workload's Setup is built for.
type Params struct {
	// Size is the number of elements of each full-size operand; 2-D
	// workloads use the nearest square, Side(Size) x Side(Size).
	Size int
	// MatMulN is the side of the square matrices of matmul workloads.
	MatMulN int
	// Workers is the number of goroutines: the executor's workers, and the
	// goroutines a hand loop should use.
	Workers int
	// Exec is the executor the tensorplay run must evaluate with, or derive
	// its own from with (*exec.Executor).With, keeping its settings (W3 turns
	// compiled kernels off this way).
	Exec *exec.Executor
	// Seed seeds the random inputs.
	Seed uint64
}

// A Case is a workload set up at one size: its two run functions over the
// same inputs, the work one run does, and the check that their outputs agree.
//
// The runner calls Tensorplay and HandLoop once each, then Check, and times
// them only if Check returns nil: a workload whose tensorplay output
// disagrees with its hand loop is refused, never reported.
type Case struct {
	// Shape describes the operands, for the report: "1000x1000", "1000000".
	Shape string
	// Tensorplay runs the pipeline once through tensorplay.
	Tensorplay func() error
	// HandLoop runs the same computation once as plain Go over the same
	// inputs, with Params.Workers goroutines. Nil for a pipeline with no
	// hand-written counterpart: its row has no ratio, and Check only
	// validates the tensorplay output, if it is set.
	HandLoop func() error
	// Check compares the outputs of one Tensorplay and one HandLoop run
	// (each started from the same inputs). Nil means nothing to compare.
	Check func() error
	// Bytes is the memory one run must move: every input read once and
	// every output written once, in bytes.
	Bytes int64
	// Flops is the arithmetic of one run (each elementwise op or
	// transcendental counts one per element; matmul 2·m·n·k), or 0.
	Flops int64
	// PeakDType, set on rows whose flops are fused multiply-adds (matmul),
	// is the element type their % of the probe's FMA peak is read for.
	PeakDType dtype.DType
	// MaxReps, when positive and below the run's repetitions, caps the
	// timed repetitions of this case (products that take a second).
	MaxReps int
	// Peer, when set, lets NumPy and PyTorch rerun the case on the same
	// inputs in a subprocess (see Peers).
	Peer *PeerCase
	// NoWarmup skips the warm-up runs (the check run warms up): for cases
	// whose every run reads gigabytes from disk (the outofcore suite).
	NoWarmup bool
	// Cleanup, when set, is called once the row is measured (or failed):
	// it removes what Setup put outside memory, such as files.
	Cleanup func()
}
