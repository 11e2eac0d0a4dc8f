package bench

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

// A PeerCase lets another library rerun a case on the same inputs: the
// runner writes Inputs as .npy files before tensorplay's first run, keeps
// the tensors Outputs returns right after that run, and once tensorplay's
// side of the row is timed sends the row to one kept Python process per
// peer (NumPy, PyTorch), which runs its Pipeline, in the scripts of
// bench/peers, on those files: once for its outputs, then at least Warmup
// times and for warmupMin, then Reps times, timed with time.perf_counter. The row reports the peer's median, tensorplay's speed
// relative to it and the largest absolute difference between the peer's
// outputs and tensorplay's.
type PeerCase struct {
	// Pipeline names the function of the peer scripts that computes the
	// case: "matmul", "xent", ... (bench/peers/tpbench_peer.py lists them).
	Pipeline string
	// Inputs are the arrays the script reads, by name.
	Inputs []PeerInput
	// Params are the scalars the script needs (a learning rate, eps).
	Params map[string]float64
	// Outputs returns tensorplay's results after one run from Inputs, in
	// the order the script writes its own.
	Outputs func() []tensor.Any
}

// PeerInput is one named input array of a PeerCase.
type PeerInput struct {
	Name   string
	Tensor tensor.Any
}

// PeerResult is one peer's measurement of one row.
type PeerResult struct {
	Peer  string `json:"peer"` // "numpy" or "torch"
	Stats Stats  `json:"stats"`
	// Ratio is tensorplay's speed relative to the peer's (peer median over
	// tensorplay median): 0.5 means tensorplay takes twice the peer's time.
	Ratio float64 `json:"ratio,omitempty"`
	// MaxDiff is the largest |peer - tensorplay| over every output element.
	MaxDiff float64 `json:"max_diff"`
	// Err is why the peer has no numbers for the row.
	Err string `json:"error,omitempty"`
}

// PeerInfo describes one peer of a run: its version and BLAS, or why it
// was skipped.
type PeerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
	// BLAS is the BLAS library the peer's process mapped (from
	// /proc/self/maps), or what numpy.show_config says.
	BLAS    string `json:"blas,omitempty"`
	Threads int    `json:"threads,omitempty"`
	// Skipped says why the peer did not run (not importable, no Python).
	Skipped string `json:"skipped,omitempty"`
}

// peerJob is one row's case as the peer process sees it: a directory of
// .npy files and what to compute from them.
type peerJob struct {
	ID       string             `json:"id"`
	Dir      string             `json:"dir"`
	Pipeline string             `json:"pipeline"`
	Params   map[string]float64 `json:"params"`
	Inputs   []string           `json:"inputs"`
	Outputs  int                `json:"outputs"`
	MaxReps  int                `json:"max_reps,omitempty"`
}

// writePeerInputs writes c's inputs into a new directory under root and
// returns the job.
func writePeerInputs(root string, row int, c *Case) (*peerJob, error) {
	j := &peerJob{ID: fmt.Sprintf("%03d", row), Pipeline: c.Peer.Pipeline, Params: c.Peer.Params, MaxReps: c.MaxReps}
	if j.Params == nil {
		j.Params = map[string]float64{}
	}
	j.Dir = filepath.Join(root, j.ID)
	if err := os.MkdirAll(j.Dir, 0o755); err != nil {
		return nil, err
	}
	for _, in := range c.Peer.Inputs {
		if err := saveAny(filepath.Join(j.Dir, in.Name+".npy"), in.Tensor); err != nil {
			return nil, fmt.Errorf("peer input %s: %w", in.Name, err)
		}
		j.Inputs = append(j.Inputs, in.Name)
	}
	return j, nil
}

// writeTensorplayOutputs saves tensorplay's results of the check run next
// to the inputs, as tp<i>.npy.
func (j *peerJob) writeTensorplayOutputs(c *Case) error {
	if c.Peer.Outputs == nil {
		return fmt.Errorf("peer case %s has no Outputs", j.Pipeline)
	}
	outs := c.Peer.Outputs()
	j.Outputs = len(outs)
	for i, t := range outs {
		if err := saveAny(filepath.Join(j.Dir, "tp"+strconv.Itoa(i)+".npy"), t); err != nil {
			return fmt.Errorf("tensorplay output %d: %w", i, err)
		}
	}
	return nil
}

// maxDiff compares the peer's outputs of j with tensorplay's: the largest
// absolute difference, with NaN where one side has a NaN the other has not.
func (j *peerJob) maxDiff(peer string) (float64, error) {
	worst := 0.0
	for i := range j.Outputs {
		tp, err := npy.LoadConvert[float64](filepath.Join(j.Dir, "tp"+strconv.Itoa(i)+".npy"))
		if err != nil {
			return 0, err
		}
		got, err := npy.LoadConvert[float64](filepath.Join(j.Dir, fmt.Sprintf("out_%s_%d.npy", peer, i)))
		if err != nil {
			return 0, err
		}
		if !tp.Shape().Equal(got.Shape()) {
			return 0, fmt.Errorf("output %d: %s gave shape %v, tensorplay %v", i, peer, got.Shape(), tp.Shape())
		}
		d, err := largestDifference(tp.Values(), got.Values())
		if err != nil {
			return 0, fmt.Errorf("output %d: %w", i, err)
		}
		worst = max(worst, d)
	}
	return worst, nil
}

// largestDifference is max |a[i]-b[i]|; NaN against NaN counts as equal,
// NaN against a number is an error.
func largestDifference(a, b []float64) (float64, error) {
	if len(a) != len(b) {
		return 0, fmt.Errorf("%d elements against %d", len(b), len(a))
	}
	worst := 0.0
	for i, x := range a {
		y := b[i]
		switch {
		case math.IsNaN(x) && math.IsNaN(y), x == y:
			continue
		case math.IsNaN(x) || math.IsNaN(y):
			return 0, fmt.Errorf("element %d: tensorplay %g, peer %g", i, x, y)
		}
		worst = max(worst, math.Abs(x-y))
	}
	return worst, nil
}

// saveAny writes t as .npy for the element types the peers read.
func saveAny(path string, t tensor.Any) error {
	switch v := t.(type) {
	case *tensor.Tensor[float32]:
		return npy.Save(path, v)
	case *tensor.Tensor[float64]:
		return npy.Save(path, v)
	case *tensor.Tensor[int64]:
		return npy.Save(path, v)
	case *tensor.Tensor[int32]:
		return npy.Save(path, v)
	case *tensor.Tensor[bool]:
		return npy.Save(path, v)
	}
	return fmt.Errorf("no .npy writer for %T", t)
}
