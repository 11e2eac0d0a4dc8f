package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

// readPeerStream reads a whole peer output as the runner does: the hello,
// then job lines to the end.
func readPeerStream(in string) (peerHello, map[string]peerLine, error) {
	s := newPeerStream(strings.NewReader(in))
	h, err := s.hello()
	if err != nil {
		return h, nil, err
	}
	jobs := map[string]peerLine{}
	for {
		l, err := s.job()
		if err == io.EOF {
			return h, jobs, nil
		}
		if err != nil {
			return h, jobs, err
		}
		jobs[l.Job] = l
	}
}

func TestPeerStream(t *testing.T) {
	hello, jobs, err := readPeerStream(strings.Join([]string{
		"a warning the library printed",
		`TPBENCH {"peer": "numpy", "version": "numpy 1.24.2", "blas": "/usr/lib/libblas.so.3", "threads": 2}`,
		`TPBENCH {"job": "000", "times_ns": [3000, 1000, 2000]}`,
		`TPBENCH {"job": "001", "error": "KeyError: no numpy pipeline 'x'"}`,
	}, "\n"))
	require.NoError(t, err)
	assert.Equal(t, peerHello{Peer: "numpy", Version: "numpy 1.24.2", BLAS: "/usr/lib/libblas.so.3", Threads: 2}, hello)
	require.Len(t, jobs, 2)
	assert.Equal(t, Stats{Reps: 3, Min: 1000, Median: 2000, Max: 3000}, jobs["000"].stats())
	assert.Equal(t, "KeyError: no numpy pipeline 'x'", jobs["001"].Error)

	skipped, _, err := readPeerStream(`TPBENCH {"peer": "torch", "error": "cannot import torch"}` + "\n")
	require.NoError(t, err)
	assert.Equal(t, "cannot import torch", skipped.Error)

	for _, tt := range []struct{ name, in, err string }{
		{"nothing", "Traceback (most recent call last):\n", "no TPBENCH line"},
		{"bad json", "TPBENCH {peer: numpy}\n", "peer output line 1: invalid character"},
		{"no peer", `TPBENCH {"version": "1"}` + "\n", "the first line names no peer"},
		{"no job id", `TPBENCH {"peer": "numpy"}` + "\n" + `TPBENCH {"times_ns": [1]}` + "\n", "line 2: no job id"},
		{"empty job", `TPBENCH {"peer": "numpy"}` + "\n" + `TPBENCH {"job": "000"}` + "\n", "job 000 has neither times nor an error"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := readPeerStream(tt.in)
			assert.ErrorContains(t, err, tt.err)
		})
	}
}

func TestPeerEnv(t *testing.T) {
	base := []string{"HOME=/root", "OPENBLAS_CORETYPE=Haswell", "OPENBLAS_L2_SIZE=512", "OMP_NUM_THREADS=8", "LD_LIBRARY_PATH=/old"}
	env := peerEnv(base, 2, nil)
	assert.ElementsMatch(t, []string{"HOME=/root", "LD_LIBRARY_PATH=/old", "OMP_NUM_THREADS=2", "OPENBLAS_NUM_THREADS=2",
		"MKL_NUM_THREADS=2", "NUMEXPR_NUM_THREADS=2"}, env)
	env = peerEnv(base, 1, []string{"/ob/a", "/ob/b"})
	assert.Contains(t, env, "LD_LIBRARY_PATH=/ob/a:/ob/b")
	assert.NotContains(t, env, "LD_LIBRARY_PATH=/old")
}

func TestFindBLASDirs(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"usr/lib/openblas-pthread/libblas.so.3", "usr/lib/openblas-pthread/libopenblasp-r0.3.21.so",
		"usr/lib/other/liblapack.so.3", "usr/lib/x/libopenblas.so.0"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, f), nil, 0o644))
	}
	dirs, err := findBLASDirs(root)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(root, "usr/lib/openblas-pthread"), filepath.Join(root, "usr/lib/x")}, dirs)
	_, err = findBLASDirs(filepath.Join(root, "usr/lib/other"))
	assert.ErrorContains(t, err, "no libblas.so.3 or libopenblas*.so under")
}

func TestLargestDifference(t *testing.T) {
	d, err := largestDifference([]float64{1, 2, 3}, []float64{1, 2.5, 2})
	require.NoError(t, err)
	assert.Equal(t, 1.0, d)
	nan := []float64{0, 0}
	nan[1] = nan[1] / nan[0] // NaN without a constant expression
	d, err = largestDifference(nan, nan)
	require.NoError(t, err)
	assert.Equal(t, 0.0, d, "NaN against NaN is equal")
	_, err = largestDifference([]float64{1, 2}, nan)
	assert.ErrorContains(t, err, "element 1: tensorplay 2, peer NaN")
	_, err = largestDifference([]float64{1}, nan)
	assert.ErrorContains(t, err, "2 elements against 1")
}

// fakePeerEnv makes the test binary act as a peer process (see TestMain):
// it copies tensorplay's outputs as its own, adding the offset in
// TPBENCH_FAKE_OFFSET to every element, and reports fixed times.
const fakePeerEnv = "TPBENCH_FAKE_PEER"

func TestMain(m *testing.M) {
	if os.Getenv(fakePeerEnv) != "" {
		os.Exit(fakePeer(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// fakePeer follows the protocol of bench/peers/tpbench_peer.py: args are
// the script's path, then --peer NAME and the timing flags; the jobs come
// on stdin, a JSON object a line. With TPBENCH_FAKE_DIE set it ends
// without answering the second job.
func fakePeer(args []string) int {
	var peer string
	for i := 1; i+1 < len(args); i++ {
		if args[i] == "--peer" {
			peer = args[i+1]
		}
	}
	if peer == "torch" {
		fmt.Println(`TPBENCH {"peer": "torch", "error": "cannot import torch: No module named 'torch'"}`)
		return 0
	}
	fmt.Printf("TPBENCH {\"peer\": %q, \"version\": \"fake 1.0\", \"blas\": \"none\", \"threads\": %s}\n", peer, os.Getenv("OMP_NUM_THREADS"))
	offset := 0.0
	fmt.Sscan(os.Getenv("TPBENCH_FAKE_OFFSET"), &offset)
	sc := bufio.NewScanner(os.Stdin)
	for n := 0; sc.Scan(); n++ {
		var j peerJob
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			fmt.Println("cannot parse the job:", err)
			return 1
		}
		if n == 1 && os.Getenv("TPBENCH_FAKE_DIE") != "" {
			fmt.Fprintln(os.Stderr, "RuntimeError: the fake peer died")
			return 1
		}
		for i := range j.Outputs {
			tp, err := npy.LoadConvert[float64](filepath.Join(j.Dir, fmt.Sprintf("tp%d.npy", i)))
			if err != nil {
				fmt.Printf("TPBENCH {\"job\": %q, \"error\": %q}\n", j.ID, err.Error())
				continue
			}
			for k := range tp.Data() {
				tp.Data()[k] += offset
			}
			if err := npy.Save(filepath.Join(j.Dir, fmt.Sprintf("out_%s_%d.npy", peer, i)), tp); err != nil {
				fmt.Printf("TPBENCH {\"job\": %q, \"error\": %q}\n", j.ID, err.Error())
			}
		}
		fmt.Printf("TPBENCH {\"job\": %q, \"times_ns\": [4000000, 2000000, 3000000]}\n", j.ID)
	}
	return 0
}

// peerWorkload is a tiny case with a peer: y = 2x.
func peerWorkload(name string, withPeer bool) Workload {
	return Workload{Name: name, Bound: MemoryBound, Setup: func(p Params) (*Case, error) {
		x := tensor.Must(tensor.Arange(0.0, 8, 1))
		y := tensor.Must(tensor.New[float64](8))
		c := &Case{Shape: "8", Tensorplay: func() error {
			for i, v := range x.Data() {
				y.Data()[i] = 2 * v
			}
			return nil
		}, Bytes: 128}
		if withPeer {
			c.Peer = &PeerCase{Pipeline: "double", Inputs: []PeerInput{{"x", x}}, Outputs: outputs(y)}
		}
		return c, nil
	}}
}

func TestRunWithFakePeer(t *testing.T) {
	defer func(d time.Duration) { peerSettle = d }(peerSettle)
	peerSettle = 0
	exe, err := os.Executable()
	require.NoError(t, err)
	t.Setenv(fakePeerEnv, "1")
	t.Setenv("TPBENCH_FAKE_OFFSET", "0.25")
	rep, err := Run(Options{Reps: 2, Warmup: 1, NoProbe: true, Workers: 2, Python: exe, PeerBudget: time.Second},
		peerWorkload("peered", true), peerWorkload("alone", false))
	require.NoError(t, err)
	require.Len(t, rep.Rows, 2)
	require.Len(t, rep.PeerInfo, 2)
	assert.Equal(t, PeerInfo{Name: "numpy", Version: "fake 1.0", BLAS: "none", Threads: 2}, rep.PeerInfo[0])
	assert.Equal(t, "torch", rep.PeerInfo[1].Name)
	assert.Contains(t, rep.PeerInfo[1].Skipped, "cannot import torch")

	row := rep.Rows[0]
	require.Len(t, row.Peers, 1, "only numpy ran")
	np := row.Peers[0]
	assert.Empty(t, np.Err)
	assert.Equal(t, Stats{Reps: 3, Min: 2 * time.Millisecond, Median: 3 * time.Millisecond, Max: 4 * time.Millisecond}, np.Stats)
	assert.Equal(t, 0.25, np.MaxDiff)
	assert.InDelta(t, SpeedRatio(row.Tensorplay.Median, 3*time.Millisecond), np.Ratio, 1e-12)
	assert.Empty(t, rep.Rows[1].Peers, "a case without a Peer has no peer results")

	var out strings.Builder
	require.NoError(t, Write(&out, rep, Table))
	assert.Regexp(t, `numpy +Δnp +allocs`, out.String())
	assert.Contains(t, out.String(), "2e-01")
	assert.Contains(t, out.String(), "numpy: fake 1.0, 2 threads, BLAS:\n  none")
	assert.Contains(t, out.String(), "torch: skipped: cannot import torch")
	assert.NotContains(t, out.String(), "Δpt", "a peer that never ran has no columns")
}

// TestRunWithDyingPeer checks that a peer process that ends in the middle
// of a run costs only its own results: the rows before keep theirs, the
// row it died on and every later one say why (its stderr's last line),
// and the run goes on.
func TestRunWithDyingPeer(t *testing.T) {
	defer func(d time.Duration) { peerSettle = d }(peerSettle)
	peerSettle = 0
	exe, err := os.Executable()
	require.NoError(t, err)
	t.Setenv(fakePeerEnv, "1")
	t.Setenv("TPBENCH_FAKE_DIE", "1")
	rep, err := Run(Options{Reps: 2, Warmup: 1, NoProbe: true, Workers: 1, Python: exe, PeerBudget: time.Second},
		peerWorkload("first", true), peerWorkload("second", true), peerWorkload("third", true))
	require.NoError(t, err)
	require.Len(t, rep.Rows, 3)
	for i, row := range rep.Rows {
		require.Len(t, row.Peers, 1, row.Name)
		res := row.Peers[0]
		if i == 0 {
			assert.Empty(t, res.Err)
			assert.Equal(t, 3*time.Millisecond, res.Stats.Median)
			continue
		}
		assert.Contains(t, res.Err, "numpy stopped", row.Name)
		assert.Contains(t, res.Err, "RuntimeError: the fake peer died", row.Name)
		assert.Empty(t, row.Err, "a peer's failure does not refuse the row")
	}
}

func TestRunWithoutPython(t *testing.T) {
	rep, err := Run(Options{Reps: 1, Warmup: 0, NoProbe: true, Python: filepath.Join(t.TempDir(), "no-python")},
		peerWorkload("peered", true))
	require.NoError(t, err)
	require.Len(t, rep.PeerInfo, 2)
	for _, p := range rep.PeerInfo {
		assert.Contains(t, p.Skipped, "no-python")
	}
	assert.Empty(t, rep.Rows[0].Peers)
	assert.Empty(t, rep.Rows[0].Err, "a missing peer does not refuse the row")
}

func TestPeerLibWithoutBLAS(t *testing.T) {
	rep, err := Run(Options{Reps: 1, NoProbe: true, Python: "python3", PeerLib: t.TempDir()}, peerWorkload("peered", true))
	require.NoError(t, err)
	require.Len(t, rep.PeerInfo, 2)
	assert.Contains(t, rep.PeerInfo[0].Skipped, "-peerlib: no libblas.so.3")
}

// TestPeerScriptsEmbedded checks that every pipeline a case names has a
// class in both peer scripts.
func TestPeerScriptsEmbedded(t *testing.T) {
	x := exec.New(exec.Workers(1))
	names := map[string]bool{}
	for _, w := range All() {
		if strings.HasPrefix(w.Name, "W13") || strings.HasPrefix(w.Name, "W14") {
			continue
		}
		c, err := w.Setup(Params{Size: 16, MatMulN: 8, Seed: 1, Workers: 1, Exec: x})
		require.NoError(t, err, w.Name)
		require.NotNil(t, c.Peer, w.Name)
		names[c.Peer.Pipeline] = true
	}
	for _, f := range []string{"peers/peer_numpy.py", "peers/peer_torch.py"} {
		src, err := peerScripts.ReadFile(f)
		require.NoError(t, err)
		for n := range names {
			assert.Contains(t, string(src), fmt.Sprintf("%q: ", n), "%s has no %s", f, n)
		}
	}
}
