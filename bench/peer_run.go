package bench

import (
	"bufio"
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// DefaultPython is the interpreter tpbench asks for NumPy and PyTorch.
const DefaultPython = "/usr/bin/python3"

// Peers are the libraries the peer scripts can time, in column order.
var Peers = []string{"numpy", "torch"}

//go:embed peers/*.py
var peerScripts embed.FS

// peerPrefix starts every line of the peer protocol on the peer's stdout;
// other lines (warnings a library prints) are ignored.
const peerPrefix = "TPBENCH "

// peerHello is the first protocol line: the peer imported its library.
// Error is set instead when it could not.
type peerHello struct {
	Peer    string `json:"peer"`
	Version string `json:"version"`
	BLAS    string `json:"blas"`
	Threads int    `json:"threads"`
	Error   string `json:"error"`
}

// peerLine is one job's result: its timings in nanoseconds, or an error.
type peerLine struct {
	Job     string    `json:"job"`
	TimesNs []float64 `json:"times_ns"`
	Error   string    `json:"error"`
}

// peerOutput is what one peer process reported.
type peerOutput struct {
	hello peerHello
	jobs  map[string]peerLine
}

// parsePeerOutput reads the peer protocol from r: a hello line, then one
// line per job, each "TPBENCH " followed by a JSON object. It fails on a
// protocol line that is not valid JSON, a job line before the hello, or no
// hello at all.
func parsePeerOutput(r io.Reader) (*peerOutput, error) {
	out := &peerOutput{jobs: map[string]peerLine{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	seen := false
	for n := 1; sc.Scan(); n++ {
		text, ok := strings.CutPrefix(sc.Text(), peerPrefix)
		if !ok {
			continue
		}
		if !seen {
			if err := json.Unmarshal([]byte(text), &out.hello); err != nil {
				return nil, fmt.Errorf("peer output line %d: %w", n, err)
			}
			if out.hello.Peer == "" {
				return nil, fmt.Errorf("peer output line %d: the first line names no peer: %q", n, text)
			}
			seen = true
			continue
		}
		var l peerLine
		if err := json.Unmarshal([]byte(text), &l); err != nil {
			return nil, fmt.Errorf("peer output line %d: %w", n, err)
		}
		if l.Job == "" {
			return nil, fmt.Errorf("peer output line %d: no job id: %q", n, text)
		}
		if l.Error == "" && len(l.TimesNs) == 0 {
			return nil, fmt.Errorf("peer output line %d: job %s has neither times nor an error", n, l.Job)
		}
		out.jobs[l.Job] = l
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("peer output: %w", err)
	}
	if !seen {
		return nil, errors.New("peer output: no " + strings.TrimSpace(peerPrefix) + " line")
	}
	return out, nil
}

// stats converts a job's timings.
func (l peerLine) stats() Stats {
	ds := make([]time.Duration, len(l.TimesNs))
	for i, t := range l.TimesNs {
		ds[i] = time.Duration(t)
	}
	return Summarize(ds)
}

// peerEnv is the environment of a peer process: the caller's, without the
// OpenBLAS tuning variables this machine's users set for other programs,
// with every BLAS and OpenMP pool at the given number of threads, and
// LD_LIBRARY_PATH set to libDirs when there are any.
func peerEnv(base []string, threads int, libDirs []string) []string {
	drop := []string{"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
		"MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"}
	if len(libDirs) > 0 {
		drop = append(drop, "LD_LIBRARY_PATH")
	}
	var env []string
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(drop, name) {
			env = append(env, kv)
		}
	}
	n := strconv.Itoa(threads)
	for _, v := range drop[2:6] {
		env = append(env, v+"="+n)
	}
	if len(libDirs) > 0 {
		env = append(env, "LD_LIBRARY_PATH="+strings.Join(libDirs, string(os.PathListSeparator)))
	}
	return env
}

// blasLib matches the shared libraries that can stand in for NumPy's BLAS.
var blasLib = regexp.MustCompile(`^lib(open)?blas[^/]*\.so(\.[0-9]+)*$`)

// findBLASDirs returns the directories under root that hold a BLAS shared
// library (libblas.so.3, libopenblas*.so*), for LD_LIBRARY_PATH.
func findBLASDirs(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && blasLib.MatchString(d.Name()) {
			if dir := filepath.Dir(path); !slices.Contains(dirs, dir) {
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("no libblas.so.3 or libopenblas*.so under %s", root)
	}
	return dirs, nil
}

// peerRun is how the runner starts the peers.
type peerRun struct {
	python  string
	libDirs []string
	threads int
	warmup  int
	reps    int
	budget  time.Duration // per job and peer, for the timed runs
	root    string        // the jobs' directories live here
}

// run starts one process for peer over jobs and returns what it reported.
func (pr *peerRun) run(peer string, jobs []*peerJob) (*peerOutput, error) {
	script := filepath.Join(pr.root, "peers", "tpbench_peer.py")
	if _, err := os.Stat(script); err != nil {
		if err := writePeerScripts(filepath.Join(pr.root, "peers")); err != nil {
			return nil, err
		}
	}
	list := filepath.Join(pr.root, "jobs.json")
	data, err := json.Marshal(map[string]any{"jobs": jobs})
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(list, data, 0o644); err != nil {
		return nil, err
	}
	// Every job may take its budget twice over (warm-up and first run).
	limit := time.Minute + time.Duration(len(jobs))*3*pr.budget
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, pr.python, script, "--peer", peer, "--jobs", list,
		"--warmup", strconv.Itoa(pr.warmup), "--reps", strconv.Itoa(pr.reps),
		"--threads", strconv.Itoa(pr.threads), "--budget", strconv.FormatFloat(pr.budget.Seconds(), 'g', -1, 64))
	cmd.Env = peerEnv(os.Environ(), pr.threads, pr.libDirs)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	out, err := parsePeerOutput(&stdout)
	if err != nil {
		if runErr != nil {
			return nil, fmt.Errorf("%s: %v: %s", pr.python, runErr, lastLine(stderr.String()))
		}
		return nil, err
	}
	if runErr != nil && out.hello.Error == "" {
		out.hello.Error = fmt.Sprintf("%v: %s", runErr, lastLine(stderr.String()))
	}
	return out, nil
}

// lastLine is the last non-empty line of s: a Python traceback's message.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// writePeerScripts copies the embedded peer scripts into dir.
func writePeerScripts(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files, err := fs.Glob(peerScripts, "peers/*.py")
	if err != nil {
		return err
	}
	for _, f := range files {
		data, err := peerScripts.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// runPeers runs every peer over the jobs and fills in the rows' peer
// results and the report's peer list.
func runPeers(pr *peerRun, jobs []*peerJob, rep *Report) {
	for _, peer := range Peers {
		info := PeerInfo{Name: peer}
		out, err := pr.run(peer, jobs)
		switch {
		case err != nil:
			info.Skipped = err.Error()
		case out.hello.Error != "":
			info.Skipped = out.hello.Error
		}
		if info.Skipped != "" {
			rep.PeerInfo = append(rep.PeerInfo, info)
			continue
		}
		info.Version, info.BLAS, info.Threads = out.hello.Version, out.hello.BLAS, out.hello.Threads
		rep.PeerInfo = append(rep.PeerInfo, info)
		for _, j := range jobs {
			row := &rep.Rows[j.row]
			res := PeerResult{Peer: peer}
			l, ok := out.jobs[j.ID]
			switch {
			case !ok:
				res.Err = "no result"
			case l.Error != "":
				res.Err = l.Error
			default:
				res.Stats = l.stats()
				res.Ratio = SpeedRatio(row.Tensorplay.Median, res.Stats.Median)
				if res.MaxDiff, err = j.maxDiff(peer); err != nil {
					res.Err = err.Error()
				}
			}
			row.Peers = append(row.Peers, res)
		}
	}
}
