package bench

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/tensorplay/tensorplay/internal/nilarg"
	"github.com/tensorplay/tensorplay/tensor"
)

// Exit statuses of Main.
const (
	ExitOK      = 0 // everything ran and every row was reported
	ExitFailure = 1 // a row was refused, or a file could not be read or written
	ExitUsage   = 2 // bad flags
)

// config is the parsed command line of Main.
type config struct {
	run        *regexp.Regexp
	sizes      []int
	matmul     int
	workers    int
	reps       int
	warmup     int
	seed       uint64
	format     Format
	out        string
	chart      string
	profile    string
	profileDir string
	compare    string
	slack      float64
	noProbe    bool
	hugePages  bool
	list       bool
	suites     []string
	python     string
	peerLib    string
	noPeers    bool
}

const usageText = `usage: %[1]s [flags]

%[1]s times tensorplay workloads next to hand-written Go loops over the same
data and a STREAM-style bandwidth probe, all in one process, and prints a table.

With NumPy importable by -python (and PyTorch), the rows that have a peer
are also run in NumPy and PyTorch, on the same inputs, in a subprocess.

Examples:
  %[1]s                                 # the standard set at 1e6 elements
  %[1]s -size 1e7 -run 'W[1-3]$'        # the issue's sizes, a subset
  %[1]s -suite pipelines                # eight NumPy programs, against NumPy and PyTorch
  %[1]s -suite matmul -peerlib /usr/lib/x86_64-linux-gnu/openblas-pthread   # products, NumPy on an OpenBLAS
  %[1]s -suite conv -workers 2          # convolutions, against PyTorch
  %[1]s -format json -o base.json       # save a run (the table still goes to stdout)
  %[1]s -compare base.json              # compare against it
  %[1]s -run W3 -profile cpu -profiledir prof

Columns of the table (-format markdown prints every column, unabbreviated):
  shape    the operands; a product's is m×k×n (n³ when square)
  median   tensorplay's median time per run
  rate     memory-bound rows: GB/s, bytes moved (inputs read once, outputs
           written once) per second; compute-bound rows: GF/s, GFLOP/s (one
           flop per element per op, 2mnk per product)
  %%roof    memory-bound rows: %% of the probe's bandwidth; products: %% of
           the FMA peak (the micro-kernels' rate on data in L1)
  hand     tensorplay's speed over the hand-written Go loop's (>1: faster)
  numpy    tensorplay's speed over NumPy's (peer median / tensorplay median:
           0.50x means tensorplay takes twice NumPy's time)
  Δnp      the largest |NumPy - tensorplay| over the row's outputs
  torch    the same against PyTorch; Δpt its largest difference
  allocs   heap allocations per tensorplay run

Flags:
`

func newFlagSet(name string, stderr io.Writer, c *config) (*flag.FlagSet, func() error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), usageText, name)
		fs.PrintDefaults()
	}
	run := fs.String("run", ".", "run only the workloads whose name matches this `regexp` (W1, W10/0, ...)")
	size := fs.String("size", "1e6", "elements per operand, a comma-separated `list` (1e6,1e7); 2-D workloads use the nearest square")
	fs.IntVar(&c.matmul, "matmul", DefaultMatMulN, "side `n` of the matmul workloads")
	fs.IntVar(&c.workers, "workers", runtime.GOMAXPROCS(0), "executor workers and hand-loop goroutines")
	fs.IntVar(&c.reps, "reps", DefaultReps, "timed repetitions of each side per row")
	fs.IntVar(&c.warmup, "warmup", DefaultWarmup, fmt.Sprintf("untimed warm-up runs of each side per row (and more until they have taken %v)", warmupMin))
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the random inputs")
	format := fs.String("format", string(Table), "output `format`: table, csv, json or markdown")
	fs.StringVar(&c.out, "o", "", "write the report to `file` (the table still goes to stdout)")
	fs.StringVar(&c.chart, "chart", "", "draw GB/s per workload into `file`.svg or .png")
	fs.StringVar(&c.profile, "profile", "", "profile the run: cpu, mem, allocs, block, mutex or trace")
	fs.StringVar(&c.profileDir, "profiledir", "", "`dir`ectory for the profile (default: a new temporary one)")
	fs.StringVar(&c.compare, "compare", "", "compare with a run saved by -format json -o `file`")
	fs.Float64Var(&c.slack, "slack", DefaultSlack, "widen the baseline's min..max by this `fraction` before calling a change")
	fs.BoolVar(&c.noProbe, "noprobe", false, "skip the bandwidth probe")
	fs.BoolVar(&c.hugePages, "hugepages", tensor.HugePages(), "advise arrays of 4 MiB or more, on both sides, to use transparent huge pages (Linux; default: tensor.HugePages, TENSORPLAY_HUGEPAGES=1)")
	fs.BoolVar(&c.list, "list", false, "list the workloads of -suite and exit")
	suite := fs.String("suite", "standard", "the workload `sets` to run, comma-separated: standard, pipelines, matmul, conv, outofcore (8 GiB on disk, only when named) or all")
	fs.StringVar(&c.python, "python", DefaultPython, "the `interpreter` that runs the NumPy and PyTorch peers")
	fs.StringVar(&c.peerLib, "peerlib", "", "`dir`ectory with a BLAS (libblas.so.3, libopenblas*.so) for the peers, through LD_LIBRARY_PATH")
	fs.BoolVar(&c.noPeers, "nopeers", false, "do not run the NumPy and PyTorch peers")
	validate := func() error {
		var err error
		if c.run, err = regexp.Compile(*run); err != nil {
			return fmt.Errorf("-run: %w", err)
		}
		if c.sizes, err = parseSizes(*size); err != nil {
			return fmt.Errorf("-size: %w", err)
		}
		if c.suites, err = parseSuites(*suite); err != nil {
			return fmt.Errorf("-suite: %w", err)
		}
		c.format = Format(*format)
		if !validFormat(c.format) {
			return fmt.Errorf("-format %q: want table, csv, json or markdown", *format)
		}
		if c.chart != "" {
			ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(c.chart)), ".")
			if ext != "svg" && ext != "png" && ext != "pdf" {
				return fmt.Errorf("-chart %q: the file must end in .svg or .png", c.chart)
			}
		}
		if _, ok := profileModes[c.profile]; c.profile != "" && !ok {
			return fmt.Errorf("-profile %q: want cpu, mem, allocs, block, mutex or trace", c.profile)
		}
		switch {
		case c.matmul < 1:
			return fmt.Errorf("-matmul %d: must be at least 1", c.matmul)
		case c.workers < 1:
			return fmt.Errorf("-workers %d: must be at least 1", c.workers)
		case c.reps < 1:
			return fmt.Errorf("-reps %d: must be at least 1", c.reps)
		case c.warmup < 0:
			return fmt.Errorf("-warmup %d: must not be negative", c.warmup)
		case c.slack < 0:
			return fmt.Errorf("-slack %g: must not be negative", c.slack)
		}
		return nil
	}
	return fs, validate
}

// parseFlags parses args into a config. A non-nil error has already been
// reported to stderr with the usage; flag.ErrHelp means -h was asked for.
func parseFlags(name string, args []string, stderr io.Writer) (*config, error) {
	c := &config{}
	fs, validate := newFlagSet(name, stderr, c)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	err := validate()
	if err == nil && fs.NArg() > 0 {
		err = fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		fs.Usage()
		return nil, err
	}
	return c, nil
}

// Suites are the values of tpbench -suite; "all" is every one of them.
// The outofcore suite, which writes a file of 8 GiB, runs only when named.
var Suites = []string{"standard", "pipelines", "matmul", "conv"}

// parseSuites reads a comma-separated list of suites.
func parseSuites(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		switch {
		case f == "all":
			return Suites, nil
		case slices.Contains(Suites, f) || f == "outofcore":
			out = append(out, f)
		default:
			return nil, fmt.Errorf("%q: want standard, pipelines, matmul, conv, outofcore or all", f)
		}
	}
	return out, nil
}

// inSuites reports whether w belongs to one of suites; a workload with no
// Suite is in the standard one.
func inSuites(w Workload, suites []string) bool {
	s := w.Suite
	if s == "" {
		s = "standard"
	}
	return slices.Contains(suites, s)
}

// All returns the workloads that need only memory: Standard, Pipelines
// and MatMul. tpbench adds OutOfCore, whose setup writes gigabytes to disk.
func All() []Workload {
	return slices.Concat(Standard(), Pipelines(), MatMul(), Conv())
}

// parseSizes reads a comma-separated list of positive element counts,
// written as integers (1000000, 1_000_000) or in e-notation (1e6, 2.5e5).
func parseSizes(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		n, err := strconv.ParseInt(f, 0, 64)
		if err != nil {
			v, ferr := strconv.ParseFloat(f, 64)
			if ferr != nil || v != float64(int64(v)) {
				return nil, fmt.Errorf("%q is not a whole number of elements", f)
			}
			n = int64(v)
		}
		if n < 1 || n > 1<<34 {
			return nil, fmt.Errorf("%q: want 1 to %d elements", f, int64(1)<<34)
		}
		out = append(out, int(n))
	}
	return out, nil
}

func validFormat(f Format) bool {
	for _, g := range Formats {
		if f == g {
			return true
		}
	}
	return false
}

// Select returns the workloads whose name matches pattern (a regexp,
// unanchored, as go test -run).
func Select(ws []Workload, pattern string) ([]Workload, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	return selectRe(ws, re), nil
}

func selectRe(ws []Workload, re *regexp.Regexp) []Workload {
	var out []Workload
	for _, w := range ws {
		if re.MatchString(w.Name) {
			out = append(out, w)
		}
	}
	return out
}

// Main is the tpbench command over the workloads ws: it parses args (see
// tpbench -h), runs, writes the report and returns the exit status: ExitOK,
// ExitFailure when a row was refused or a file failed, ExitUsage for bad
// flags. A program of your own can call it with your workloads, alone or
// appended to Standard(), to get every flag of tpbench for them:
//
//	func main() {
//		ws := append(bench.Standard(), myPipeline)
//		os.Exit(bench.Main(os.Args[1:], os.Stdout, os.Stderr, ws...))
//	}
//
// A nil stdout or stderr discards what would be written to it.
func Main(args []string, stdout, stderr io.Writer, ws ...Workload) int {
	if nilarg.Is(stdout) {
		stdout = io.Discard
	}
	if nilarg.Is(stderr) {
		stderr = io.Discard
	}
	name := "tpbench"
	c, err := parseFlags(name, args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	if err != nil {
		return ExitUsage
	}
	var inSuite []Workload
	for _, w := range ws {
		if inSuites(w, c.suites) {
			inSuite = append(inSuite, w)
		}
	}
	ws = inSuite
	if c.list {
		width := 0
		for _, w := range ws {
			width = max(width, len(w.Name))
		}
		for _, w := range ws {
			fmt.Fprintf(stdout, "%-*s %-7s %s\n", width, w.Name, w.Bound, w.Description)
		}
		return ExitOK
	}
	return execute(name, c, stdout, stderr, ws)
}

// failf reports a failure on stderr and returns ExitFailure.
func failf(stderr io.Writer, name, format string, args ...any) int {
	fmt.Fprintf(stderr, "%s: %s\n", name, fmt.Sprintf(format, args...))
	return ExitFailure
}

func execute(name string, c *config, stdout, stderr io.Writer, ws []Workload) int {
	selected := selectRe(ws, c.run)
	if len(selected) == 0 {
		return failf(stderr, name, "no workload of -suite %s matches -run %q (see -list)", strings.Join(c.suites, ","), c.run)
	}
	var base *Report
	if c.compare != "" {
		f, err := os.Open(c.compare)
		if err != nil {
			return failf(stderr, name, "-compare: %v", err)
		}
		base, err = ReadReport(f)
		f.Close()
		if err != nil {
			return failf(stderr, name, "-compare %s: %v", c.compare, err)
		}
	}
	prof, err := startProfile(c.profile, c.profileDir)
	if err != nil {
		return failf(stderr, name, "-profile: %v", err)
	}
	defer tensor.SetHugePages(tensor.SetHugePages(c.hugePages))
	python := c.python
	if c.noPeers {
		python = ""
	}
	rep, err := Run(Options{
		Sizes: c.sizes, MatMulN: c.matmul, Workers: c.workers, Reps: c.reps, Warmup: c.warmup,
		Seed: c.seed, NoProbe: c.noProbe, Progress: stderr, Python: python, PeerLib: c.peerLib,
	}, selected...)
	prof.stop()
	if err != nil {
		return failf(stderr, name, "%v", err)
	}
	if base != nil {
		Compare(base, rep, c.slack)
	}
	status := ExitOK
	if c.out != "" {
		if err := writeFile(c.out, func(w io.Writer) error { return Write(w, rep, c.format) }); err != nil {
			status = failf(stderr, name, "-o: %v", err)
		}
		if err := Write(stdout, rep, Table); err != nil {
			status = failf(stderr, name, "%v", err)
		}
	} else if err := Write(stdout, rep, c.format); err != nil {
		status = failf(stderr, name, "%v", err)
	}
	if c.chart != "" {
		if err := SaveChart(c.chart, rep); err != nil {
			status = failf(stderr, name, "-chart: %v", err)
		} else {
			fmt.Fprintf(stderr, "%s: chart written to %s\n", name, c.chart)
		}
	}
	if prof.path != "" {
		fmt.Fprintf(stderr, "%s: %s profile written to %s\n  open it with: %s\n", name, c.profile, prof.path, prof.command())
	}
	if n := len(rep.Refused()); n > 0 {
		status = failf(stderr, name, "%d row(s) refused: tensorplay's output or run failed (see above)", n)
	}
	return status
}

// writeFile writes a file through fn, reporting the first error of writing
// or closing it.
func writeFile(path string, fn func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := fn(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
