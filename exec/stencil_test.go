package exec_test

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// NumPy's in-place Jacobi step, u[1:-1,1:-1] = 0.25*(u[:-2,1:-1] +
// u[2:,1:-1] + u[1:-1,:-2] + u[1:-1,2:]): every operand is a shifted view
// of the destination's storage, so the region is swept (see exec/sweep.go):
// written a block behind, from shadows, with nothing staged.

// sub is u[r0:r1, c0:c1].
func sub(u *tensor.Tensor[float64], r0, r1, c0, c1 int) *tensor.Tensor[float64] {
	return tensor.Must(tensor.Must(u.Slice(0, r0, r1, 1)).Slice(1, c0, c1, 1))
}

// jacobiStep builds the step over u, as the NumPy line reads.
func jacobiStep(u *tensor.Tensor[float64]) (*tensor.Tensor[float64], expr.Expr[float64]) {
	n, m := u.Shape()[0], u.Shape()[1]
	up, down := expr.Of(sub(u, 0, n-2, 1, m-1)), expr.Of(sub(u, 2, n, 1, m-1))
	left, right := expr.Of(sub(u, 1, n-1, 0, m-2)), expr.Of(sub(u, 1, n-1, 2, m))
	return sub(u, 1, n-1, 1, m-1), up.Add(down).Add(left).Add(right).MulScalar(0.25)
}

// jacobiRef is the same step computed the slow way: into a new tensor from
// the old values, then copied into the interior.
func jacobiRef(t *testing.T, u *tensor.Tensor[float64]) {
	inner, e := jacobiStep(u)
	out, err := exec.Eval(e)
	require.NoError(t, err)
	require.NoError(t, exec.CopyTo(inner, out))
}

// The in-place step gives the values of the step computed from the old
// values, on any executor, step after step.
func TestStencilInPlace(t *testing.T) {
	for _, x := range testExecutors {
		t.Run(x.name, func(t *testing.T) {
			u := randomTensor[float64](t, newRand(3), 40, 70)
			ref := u.Clone()
			for range 3 {
				inner, e := jacobiStep(u)
				require.NoError(t, exec.EvalToWith(x.x, inner, e))
				jacobiRef(t, ref)
				assertBits(t, ref.Values(), u.Values(), "u")
			}
		})
	}
}

// After the first step, the in-place stencil allocates nothing when its
// graph is built once, and only the graph when it is rebuilt each step:
// the sweep's shadows are kept for the next run.
func TestStencilAllocatesOnlyItsGraph(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	defer steadyState()()
	x := exec.New(exec.Workers(2))
	defer x.Close()
	u := tensor.Must(tensor.Full(1.0, 258, 258))
	inner, e := jacobiStep(u)
	require.NoError(t, exec.EvalToWith(x, inner, e))
	// Over many runs: a worker's block state comes from a sync.Pool, which
	// now and then misses (a run allocating a few KiB of it again).
	assert.Zero(t, testing.AllocsPerRun(200, func() { _ = exec.EvalToWith(x, inner, e) }), "a graph built once")

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const steps = 50
	for range steps {
		inner, e := jacobiStep(u)
		require.NoError(t, exec.EvalToWith(x, inner, e))
	}
	runtime.ReadMemStats(&after)
	perStep := (after.TotalAlloc - before.TotalAlloc) / steps
	assert.Less(t, perStep, uint64(8<<10), "bytes per step: the graph's nodes and views, not shadows")
}

// BenchmarkStencilInPlace is one in-place Jacobi step of 256x256, the
// graph rebuilt each step as NumPy's line is, against the same step
// through a scratch tensor (two buffers).
func BenchmarkStencilInPlace(b *testing.B) {
	x := exec.New(exec.Workers(2))
	defer x.Close()
	u := tensor.Must(tensor.Full(1.0, 258, 258))
	b.Run("in-place", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			inner, e := jacobiStep(u)
			if err := exec.EvalToWith(x, inner, e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("scratch", func(b *testing.B) {
		scratch := tensor.Must(tensor.New[float64](256, 256))
		b.ReportAllocs()
		for b.Loop() {
			inner, e := jacobiStep(u)
			if err := exec.EvalToWith(x, scratch, e); err != nil {
				b.Fatal(err)
			}
			if err := exec.CopyTo(inner, scratch); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// steadyState runs the program on one P with the collector stopped, until
// the function it returns is called. Allocation tests measure with it what
// a repeated step allocates itself: the executor keeps per-run state in
// sync.Pools, which a collection empties and which are per P (a worker
// that ran on another P leaves its state where this one does not look),
// and a step that misses one refills it.
func steadyState() func() {
	runtime.GC()
	procs := runtime.GOMAXPROCS(1)
	old := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(old)
		runtime.GOMAXPROCS(procs)
	}
}
