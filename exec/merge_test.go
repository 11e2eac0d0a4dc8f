package exec_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestPlanMergesDependentOutputs checks the shape of a backward pass: g is a
// result and also a factor of the other results, and all of them come from
// one fused pass; the values match a separate evaluation of each.
func TestPlanMergesDependentOutputs(t *testing.T) {
	const R, C = 8, 4
	x := tensor.Must(tensor.Rand[float64](1, R, C))
	y := tensor.Must(tensor.Rand[float64](2, R, C))
	z := tensor.Must(tensor.Rand[float64](3, R, C))
	a, b, c := expr.Of(x), expr.Of(y), expr.Of(z)
	g := a.Mul(b).Add(c).MulScalar(2)
	da, db := g.Mul(b), g.Mul(a)

	p := planOf(t, g.Node(), da.Node(), db.Node())
	require.Len(t, p.regions, 1, "one pass for g, g*b and g*a:\n%s", p.text)

	outs, err := exec.EvalN(g, da, db)
	require.NoError(t, err)
	for i, e := range []expr.Expr[float64]{g, da, db} {
		want, err := exec.Eval(e)
		require.NoError(t, err)
		assert.Equal(t, want.Values(), outs[i].Values(), "output %d", i)
	}

	// A result that waits for a reduction of another cannot join it.
	s := g.Sub(g.Mean())
	p = planOf(t, g.Node(), s.Node())
	assert.Len(t, p.regions, 2, "g, then mean(g), then g-mean(g):\n%s", p.text)
}

// TestExecutorClose checks that Close stops the workers of an executor that
// ran in parallel, and is harmless on one that never did.
func TestExecutorClose(t *testing.T) {
	before := runtime.NumGoroutine()
	x := exec.New(exec.Workers(4), exec.Grain(1))
	a := expr.Of(tensor.Must(tensor.Rand[float64](1, 64, 64)))
	_, err := exec.EvalWith(x, a.Add(a))
	require.NoError(t, err)
	require.GreaterOrEqual(t, runtime.NumGoroutine(), before+3, "three workers besides the caller")
	x.Close()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "the workers have exited")
	exec.New().Close()
}

// TestReductionBitsIgnoreBlockSize checks that a reduction's bits depend on
// the graph alone: executors with other block sizes and worker counts agree.
func TestReductionBitsIgnoreBlockSize(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.RandN[float64](7, 300, 2000)))
	y := expr.Of(tensor.Must(tensor.RandN[float64](8, 300, 2000)))
	graphs := []expr.Expr[float64]{x.Sum(), x.Sum(1), x.Sum(0), x.Mul(y).Sum(1), x.Mul(y).Add(y).Mean(0)}
	ref := exec.New(exec.Workers(1))
	for _, g := range graphs {
		want, err := exec.EvalWith(ref, g)
		require.NoError(t, err)
		for _, o := range [][]exec.Option{{exec.BlockSize(16)}, {exec.BlockSize(1000), exec.Workers(3), exec.Grain(1)}, {exec.Workers(8), exec.Grain(1)}} {
			got, err := exec.EvalWith(exec.New(o...), g)
			require.NoError(t, err)
			assert.Equal(t, want.Values(), got.Values())
		}
	}
}
