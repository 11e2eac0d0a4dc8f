package bench

import (
	"bufio"
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
	"sync"
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

// peerStream reads the peer protocol from a peer's stdout: a hello line,
// then one line per job, each "TPBENCH " followed by a JSON object; other
// lines (warnings a library prints) are skipped.
type peerStream struct {
	sc *bufio.Scanner
	n  int // lines read
}

func newPeerStream(r io.Reader) *peerStream {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	return &peerStream{sc: sc}
}

// next returns the next protocol line's JSON, or io.EOF at the end.
func (s *peerStream) next() ([]byte, error) {
	for s.sc.Scan() {
		s.n++
		if text, ok := strings.CutPrefix(s.sc.Text(), peerPrefix); ok {
			return []byte(text), nil
		}
	}
	if err := s.sc.Err(); err != nil {
		return nil, fmt.Errorf("peer output: %w", err)
	}
	return nil, io.EOF
}

// hello reads the first protocol line. It fails when there is none, when
// it is not valid JSON, or when it names no peer.
func (s *peerStream) hello() (peerHello, error) {
	var h peerHello
	text, err := s.next()
	if err == io.EOF {
		return h, errors.New("peer output: no " + strings.TrimSpace(peerPrefix) + " line")
	}
	if err != nil {
		return h, err
	}
	if err := json.Unmarshal(text, &h); err != nil {
		return h, fmt.Errorf("peer output line %d: %w", s.n, err)
	}
	if h.Peer == "" {
		return h, fmt.Errorf("peer output line %d: the first line names no peer: %q", s.n, text)
	}
	return h, nil
}

// job reads the next job line, after the hello: io.EOF at the end, an
// error for a line that is not valid JSON, has no job id, or has neither
// times nor an error.
func (s *peerStream) job() (peerLine, error) {
	var l peerLine
	text, err := s.next()
	if err != nil {
		return l, err
	}
	if err := json.Unmarshal(text, &l); err != nil {
		return l, fmt.Errorf("peer output line %d: %w", s.n, err)
	}
	if l.Job == "" {
		return l, fmt.Errorf("peer output line %d: no job id: %q", s.n, text)
	}
	if l.Error == "" && len(l.TimesNs) == 0 {
		return l, fmt.Errorf("peer output line %d: job %s has neither times nor an error", s.n, l.Job)
	}
	return l, nil
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

// peerProc is one peer's process. It serves jobs one at a time, as the
// runner sends them on its stdin right after tensorplay's side of each
// row, so that both sides of a row are timed within seconds of each other:
// on a shared machine whose memory bandwidth moves by up to 2x from one
// minute to the next, a peer timed minutes later, after every row, gave
// ratios that moved as much (PyTorch's W10 sums, 0.55x to 1.18x in five
// runs).
type peerProc struct {
	peer    string
	cmd     *exec.Cmd
	in      io.WriteCloser
	hello   peerHello
	replies chan peerReply
	done    chan struct{} // closed when the process is stopped or closed
	stderr  stderrTail
	wait    time.Duration // for one job's reply
	err     error         // why the process can take no more jobs
}

// peerReply is a job line the process wrote, or why it wrote no more.
type peerReply struct {
	line peerLine
	err  error
}

// start starts the process of peer and reads its hello.
func (pr *peerRun) start(peer string) (*peerProc, error) {
	script := filepath.Join(pr.root, "peers", "tpbench_peer.py")
	if _, err := os.Stat(script); err != nil {
		if err := writePeerScripts(filepath.Join(pr.root, "peers")); err != nil {
			return nil, err
		}
	}
	p := &peerProc{peer: peer, replies: make(chan peerReply, 1), done: make(chan struct{}), wait: time.Minute + 3*pr.budget}
	p.cmd = exec.Command(pr.python, script, "--peer", peer,
		"--warmup", strconv.Itoa(pr.warmup), "--warmup-min", strconv.FormatFloat(warmupMin.Seconds(), 'g', -1, 64), "--reps", strconv.Itoa(pr.reps),
		"--threads", strconv.Itoa(pr.threads), "--budget", strconv.FormatFloat(pr.budget.Seconds(), 'g', -1, 64))
	p.cmd.Env = peerEnv(os.Environ(), pr.threads, pr.libDirs)
	p.cmd.Stderr = &p.stderr
	in, err := p.cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", pr.python, err)
	}
	p.in = in
	hello := make(chan error, 1)
	go func() {
		s := newPeerStream(out)
		h, err := s.hello()
		p.hello = h
		hello <- err
		if err != nil {
			return
		}
		for {
			l, err := s.job()
			select {
			case p.replies <- peerReply{l, err}:
			case <-p.done: // stopped: nobody reads any more
				return
			}
			if err != nil {
				return
			}
		}
	}()
	select {
	case err = <-hello:
	case <-time.After(p.wait):
		err = errors.New("no hello in " + p.wait.String())
	}
	if err != nil {
		return nil, p.stop(err)
	}
	if p.hello.Error != "" {
		p.close() // it could not import its library, and has ended
		return nil, errors.New(p.hello.Error)
	}
	return p, nil
}

// do has the process time j and returns its line.
func (p *peerProc) do(j *peerJob) (peerLine, error) {
	if p.err != nil {
		return peerLine{}, p.err
	}
	data, err := json.Marshal(j)
	if err != nil {
		return peerLine{}, err
	}
	p.stderr.reset() // a failure's message is what this job printed
	if _, err := p.in.Write(append(data, '\n')); err != nil {
		return peerLine{}, p.stop(fmt.Errorf("%s stopped: %w", p.peer, err))
	}
	select {
	case r := <-p.replies:
		switch {
		case r.err == io.EOF:
			return peerLine{}, p.stop(fmt.Errorf("%s stopped", p.peer))
		case r.err != nil:
			return peerLine{}, p.stop(r.err)
		case r.line.Job != j.ID:
			return peerLine{}, p.stop(fmt.Errorf("%s answered job %s for job %s", p.peer, r.line.Job, j.ID))
		}
		return r.line, nil
	case <-time.After(p.wait):
		return peerLine{}, p.stop(fmt.Errorf("%s: no result for job %s in %v", p.peer, j.ID, p.wait))
	}
}

// stop kills the process and keeps err, with the last line of its stderr
// since the current job began (a Python traceback's message), as the
// answer to every later job.
func (p *peerProc) stop(err error) error {
	close(p.done)
	p.in.Close()
	p.cmd.Process.Kill()
	p.cmd.Wait()
	if msg := lastLine(p.stderr.String()); msg != "" {
		err = fmt.Errorf("%w: %s", err, msg)
	}
	p.err = err
	return err
}

// close ends the process once it has read the end of its jobs.
func (p *peerProc) close() {
	if p.err != nil {
		return
	}
	close(p.done)
	p.in.Close()
	exited := make(chan struct{})
	go func() { p.cmd.Wait(); close(exited) }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-exited
	}
	p.err = errors.New(p.peer + " closed")
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

// peers are a run's peer processes, started at its first row with a peer
// case, so that a run without one (the out-of-core suite) starts none.
type peers struct {
	pr      *peerRun // nil without peers
	rep     *Report
	procs   []*peerProc
	started bool
}

// run is the peerRun rows write their peer cases for: nil when there are
// no peers, or when they were started and none could run.
func (ps *peers) run() *peerRun {
	if ps.started && len(ps.procs) == 0 {
		return nil
	}
	return ps.pr
}

// time has every peer time j, the job of row, starting the peers on the
// first job and listing them in the report (a peer that cannot start or
// import its library as skipped, with why), and then removes j's files.
func (ps *peers) time(j *peerJob, row *Row) {
	if !ps.started {
		ps.started = true
		for _, peer := range Peers {
			info := PeerInfo{Name: peer}
			if p, err := ps.pr.start(peer); err != nil {
				info.Skipped = err.Error()
			} else {
				info.Version, info.BLAS, info.Threads = p.hello.Version, p.hello.BLAS, p.hello.Threads
				ps.procs = append(ps.procs, p)
			}
			ps.rep.PeerInfo = append(ps.rep.PeerInfo, info)
		}
	}
	timePeers(ps.procs, j, row)
	os.RemoveAll(j.Dir)
}

// close ends the peers' processes.
func (ps *peers) close() {
	for _, p := range ps.procs {
		p.close()
	}
}

// peerSettle is how long the runner waits after a row's peers before the
// next row: a peer's BLAS and OpenMP threads spin for work for about
// 100 ms after its last call (NumPy's and PyTorch's 512² products here,
// the process's CPU time read after them), on the same cores, and the
// pipelines suite's small rows timed right after them took up to 1.6x
// their time (xent/s 4.3 against 2.6 µs, jacobi/s 8.8 against 6.0).
var peerSettle = 250 * time.Millisecond

// timePeers has every peer time j, the job of row, and adds their results
// to the row; then it waits peerSettle for the peers' threads to go idle.
func timePeers(procs []*peerProc, j *peerJob, row *Row) {
	if len(procs) > 0 {
		defer time.Sleep(peerSettle)
	}
	for _, p := range procs {
		res := PeerResult{Peer: p.peer}
		l, err := p.do(j)
		switch {
		case err != nil:
			res.Err = err.Error()
		case l.Error != "":
			res.Err = l.Error
		default:
			res.Stats = l.stats()
			res.Ratio = SpeedRatio(row.Tensorplay.Median, res.Stats.Median)
			if res.MaxDiff, err = j.maxDiff(p.peer); err != nil {
				res.Err = err.Error()
			}
		}
		row.Peers = append(row.Peers, res)
	}
}

// stderrTail is what a peer wrote on stderr since its current job began,
// its last stderrTailMax bytes at most: enough for the message of a
// traceback it dies with, safe to read while the process writes.
type stderrTail struct {
	mu sync.Mutex
	b  []byte
}

const stderrTailMax = 4096

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > stderrTailMax {
		t.b = t.b[:copy(t.b, t.b[len(t.b)-stderrTailMax:])]
	}
	return len(p), nil
}

func (t *stderrTail) reset() {
	t.mu.Lock()
	t.b = t.b[:0]
	t.mu.Unlock()
}

func (t *stderrTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}
