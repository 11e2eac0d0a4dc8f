// Package bench times tensorplay pipelines against the two ceilings that
// matter — the same computation written as a plain Go loop, and the memory
// bandwidth (or, for products, the FMA peak) a plain Go loop gets on this
// machine — and against NumPy and PyTorch running the same cases on the
// same inputs (Peers). It holds the standard workloads W1–W14, the
// pipelines suite of NumPy programs, the matmul suite, the runner, the
// reports (table, CSV, JSON, Markdown), charts, profiles and run-to-run
// comparison behind the tpbench command.
//
//	go run ./bench/cmd/tpbench               # the standard set, 1e6 elements
//	go run ./bench/cmd/tpbench -size 1e7     # the sizes the issues quote
//
// # Workloads
//
// A Workload names a computation and sets it up at a size (Params) as a
// Case: a run function for tensorplay, one for the hand-written loop over the
// same inputs, the bytes and flops of one run, and a check that the two
// outputs agree. Standard returns W1–W14; Pipeline wraps your own
// expression; GraphCost computes bytes and flops from a graph.
//
// Tensorplay runs evaluate a graph built once during setup into a
// preallocated destination (exec.EvalTo), so a run measures the executor's
// steady state: the plan is cached and nothing large is allocated. Hand
// loops write into their own preallocated output with as many goroutines as
// the executor has workers (one goroutine per worker per run, as a Go
// programmer would write it), and as fast as plain Go gets (the sums use
// eight accumulators). Matmul's hand loops are gonum's blas64 and blas32
// Gemm, which parallelize over GOMAXPROCS themselves.
//
// # Peers
//
// A Case with a PeerCase is rerun by NumPy and PyTorch: its inputs are
// written as .npy files before tensorplay's first run, tensorplay's outputs
// of that run beside them, and right after tensorplay's side of the row is
// timed, one Python process per peer (Options.Python), started at the
// first such row and kept, runs it with the scripts of bench/peers,
// embedded in the package. A row reports each peer's median, the speed
// ratio and the largest difference from tensorplay's outputs. A peer that
// cannot be imported is skipped with its reason; no row is refused for a
// peer.
//
// # Invariants
//
// A workload whose tensorplay output disagrees with its hand loop is refused:
// its row carries the reason in Err and no numbers, the table lists it as
// refused, and tpbench exits with status 1. The check runs before any timing,
// on one run of each side from the same inputs.
//
// Tensorplay and hand-loop repetitions run in blocks of back-to-back runs
// (as a loop of steps runs them, and as the peers are timed) that alternate
// (tp, hand, hand, tp, ...), so load from other processes slows both alike and their ratio stays
// meaningful on a shared machine even when absolute times are noisy. Every
// throughput is computed from the median of the timed repetitions; min and
// max show the spread.
//
// # Units
//
// GB/s is 1e9 bytes per second of Case.Bytes: every input read once and every
// output written once (STREAM's convention, so rows and the probe compare).
// GFLOP/s counts one flop per elementwise op per element, transcendentals
// included, and 2·m·n·k per matmul. Ratio is tensorplay's throughput over the
// hand loop's: above 1 tensorplay is faster.
//
// # Profiling
//
// The runner labels its goroutine with side=tensorplay, handloop, probe or
// setup (runtime/pprof labels, inherited by the goroutines a hand loop
// starts), so a CPU profile of a whole run can be narrowed to tensorplay with
// go tool pprof -tagignore 'side=handloop|probe|setup'. tpbench -profile
// prints that command.
package bench
