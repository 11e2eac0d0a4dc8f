//go:build linux

package npy_test

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	tpexec "github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

// The bounded-memory test evaluates over a 1 GiB mapped input, more than
// four times its bound on resident memory, so that a run that kept the
// file's pages (or copied it) would fail.
const (
	boundedRows  = 1 << 17 // × boundedCols float64: 1 GiB
	boundedCols  = 1 << 10
	boundedChunk = 1 << 10 // rows per chunk checked in memory (8 MiB)
	boundedLimit = 256 << 20
	childEnv     = "TENSORPLAY_NPY_BOUNDED_CHILD"
)

// TestMappedBoundedMemory runs boundedChild in a process of its own
// (VmHWM, the peak resident set, is per process: other tests' memory
// must not count) and checks its peak against the bound.
func TestMappedBoundedMemory(t *testing.T) {
	if dir := os.Getenv(childEnv); dir != "" {
		boundedChild(t, dir)
		return
	}
	if testing.Short() {
		t.Skip("writes and reads 2 GiB of files: not in -short runs")
	}
	dir := t.TempDir()
	var fs syscall.Statfs_t
	require.NoError(t, syscall.Statfs(dir, &fs))
	if free := int64(fs.Bavail) * int64(fs.Bsize); free < 3<<30 {
		t.Skipf("needs 3 GiB free in %s, has %d MiB", dir, free>>20)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMappedBoundedMemory$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"="+dir, "GOMAXPROCS=2")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "child:\n%s", out)
	var hwm int64 = -1
	for _, line := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "peak resident set: "); ok {
			hwm, err = strconv.ParseInt(strings.TrimSuffix(v, " bytes"), 10, 64)
			require.NoError(t, err)
		}
	}
	require.Positive(t, hwm, "child printed no peak:\n%s", out)
	t.Logf("child:\n%s", out)
	t.Logf("peak resident set %d MiB over a 1 GiB mapped input and a 1 GiB mapped output", hwm>>20)
	assert.Less(t, hwm, int64(boundedLimit), "child:\n%s", out)
}

// boundedChild writes the input in chunks, then evaluates an elementwise
// chain from it into a mapped output and two reductions of it, and checks
// every result against the same evaluation in memory, chunk by chunk.
func boundedChild(t *testing.T, dir string) {
	x := tpexec.New(tpexec.Workers(2))
	defer x.Close()
	// Chunk k of the input is a normal sample shifted by k/1024: distinct
	// chunks, each cheap to make again.
	base, err := tensor.RandN[float64](1, boundedChunk, boundedCols)
	require.NoError(t, err)
	chunk := func(k int) *tensor.Tensor[float64] {
		c, err := tpexec.EvalWith(x, expr.Of(base).AddScalar(float64(k)/1024))
		require.NoError(t, err)
		return c
	}
	rows := func(a *tensor.Tensor[float64], k int) *tensor.Tensor[float64] {
		v, err := a.Slice(0, k*boundedChunk, (k+1)*boundedChunk, 1)
		require.NoError(t, err)
		return v
	}
	chain := func(a *tensor.Tensor[float64]) expr.Expr[float64] {
		e := expr.Of(a)
		return e.Square().MulScalar(0.5).Add(e).SubScalar(1).Abs().Sqrt()
	}
	const chunks = boundedRows / boundedChunk
	start := time.Now()
	phase := func(name string) {
		fmt.Printf("%-28s %6.2fs  resident %4d MiB, peak %4d MiB\n", name, time.Since(start).Seconds(), vmStatus(t, "VmRSS:")>>20, vmStatus(t, "VmHWM:")>>20)
	}
	// release gives back the pages of rows of chunk k read outside the
	// executor, as the executor gives back those it reads.
	release := func(m *npy.Mapped[float64], k int) {
		m.Tensor().Backing().(tpexec.RangeReleaser).ReleaseRange(k*boundedChunk*boundedCols, boundedChunk*boundedCols)
	}

	inPath, outPath := filepath.Join(dir, "in.npy"), filepath.Join(dir, "out.npy")
	w, err := npy.CreateMapped[float64](inPath, boundedRows, boundedCols)
	require.NoError(t, err)
	for k := range chunks {
		require.NoError(t, tpexec.EvalToWith(x, rows(w.Tensor(), k), expr.Of(chunk(k))))
	}
	require.NoError(t, w.Close())
	phase("input written")

	in, err := npy.OpenMapped[float64](inPath, npy.ReadOnly)
	require.NoError(t, err)
	defer in.Close()
	out, err := npy.CreateMapped[float64](outPath, boundedRows, boundedCols)
	require.NoError(t, err)
	a := in.Tensor()
	require.NoError(t, tpexec.EvalToWith(x, out.Tensor(), chain(a)))
	require.NoError(t, out.Close())
	phase("chain into mapped output")
	total, err := tpexec.EvalWith(x, expr.Of(a).Sum())
	require.NoError(t, err)
	rowSums, err := tpexec.EvalWith(x, expr.Of(a).Square().Sum(1))
	require.NoError(t, err)
	phase("reductions")

	// In memory, chunk by chunk: the chain's rows and the row sums are
	// each computed from their own rows; the total, a fixed tree over
	// leaves of 128 elements, is the pairwise sum of the chunks' totals
	// (each a whole subtree: 2^13 leaves), combined as that tree does.
	res, err := npy.OpenMapped[float64](outPath, npy.ReadOnly)
	require.NoError(t, err)
	defer res.Close()
	sums := make([]float64, chunks)
	for k := range chunks {
		c := chunk(k)
		require.True(t, bitsEqual(c, rows(a, k)), "input chunk %d", k)
		release(in, k)
		want, err := tpexec.EvalWith(x, chain(c))
		require.NoError(t, err)
		require.True(t, bitsEqual(want, rows(res.Tensor(), k)), "output chunk %d", k)
		release(res, k)
		wantRows, err := tpexec.EvalWith(x, expr.Of(c).Square().Sum(1))
		require.NoError(t, err)
		got, err := rowSums.Slice(0, k*boundedChunk, (k+1)*boundedChunk, 1)
		require.NoError(t, err)
		require.True(t, bitsEqual(wantRows, got), "row sums of chunk %d", k)
		s, err := tpexec.EvalWith(x, expr.Of(c).Sum())
		require.NoError(t, err)
		sums[k], _ = s.Item()
	}
	for len(sums) > 1 {
		for i := range len(sums) / 2 {
			sums[i] = sums[2*i] + sums[2*i+1]
		}
		sums = sums[:len(sums)/2]
	}
	got, _ := total.Item()
	require.Equal(t, math.Float64bits(sums[0]), math.Float64bits(got), "total %v, in memory %v", got, sums[0])
	phase("checked in memory")
	fmt.Printf("peak resident set: %d bytes\n", vmStatus(t, "VmHWM:"))
}

// bitsEqual reports whether the contiguous tensors a and b hold the same
// float64 bits, read in place.
func bitsEqual(x, y *tensor.Tensor[float64]) bool {
	if !x.IsContiguous() || !y.IsContiguous() || x.Numel() != y.Numel() {
		return false
	}
	a := x.Data()[x.Offset() : x.Offset()+x.Numel()]
	b := y.Data()[y.Offset() : y.Offset()+y.Numel()]
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// vmStatus reads a size from /proc/self/status: "VmHWM:", the process's
// peak resident set, or "VmRSS:", the resident set now.
func vmStatus(t *testing.T, key string) int64 {
	f, err := os.Open("/proc/self/status")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), key); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", key)
	return 0
}
