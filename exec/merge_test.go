package exec_test

import (
	"runtime"
	"testing"
	"time"
	"weak"

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

// poolWorkers counts the goroutines running an executor's worker loop.
// (Counting all goroutines is not enough: the workers of executors that
// earlier tests closed may still be on their way out.)
func poolWorkers() int { return exec.LiveWorkers() }

// TestExecutorClose checks that Close stops the workers of an executor that
// ran in parallel, and is harmless on one that never did.
func TestExecutorClose(t *testing.T) {
	// settled waits until the workers of executors closed earlier are gone:
	// the count holds still for a few milliseconds.
	settled := func() int {
		n := poolWorkers()
		for same := 0; same < 5; {
			time.Sleep(2 * time.Millisecond)
			m := poolWorkers()
			if m == n {
				same++
			} else {
				n, same = m, 0
			}
		}
		return n
	}
	before := settled()
	x := exec.New(exec.Workers(4), exec.Grain(1))
	a := expr.Of(tensor.Must(tensor.Rand[float64](1, 64, 64)))
	_, err := exec.EvalWith(x, a.Add(a))
	require.NoError(t, err)
	require.Equal(t, before+3, poolWorkers(), "three workers besides the caller")
	x.Close()
	deadline := time.Now().Add(5 * time.Second)
	for poolWorkers() > before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	assert.Equal(t, before, poolWorkers(), "the workers have exited")
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

// TestSignatureCollision checks two graphs whose signatures once encoded
// alike: two sums of a 0-d tensor, then one sum with keepdim.
func TestSignatureCollision(t *testing.T) {
	s := expr.Of(tensor.Must(tensor.FromSlice([]float64{2})))
	outs, err := exec.EvalN(s.Sum(), s.Sum())
	require.NoError(t, err)
	assert.Equal(t, []float64{2}, outs[1].Values())
	s2 := expr.Of(tensor.Must(tensor.FromSlice([]float64{3})))
	got, err := exec.Eval(s2.SumKeepDims())
	require.NoError(t, err)
	assert.Equal(t, []float64{3}, got.Values())
}

// TestMultiRootDirectWriteAfterFusion checks a destination that is also an
// input of a later kernel, in a region where fusion removed kernels: the
// destination must not be written before its last reader.
func TestMultiRootDirectWriteAfterFusion(t *testing.T) {
	av := []float64{1, 2, 3, 4}
	a := tensor.Must(tensor.FromSlice(append([]float64(nil), av...), 4))
	b := tensor.Must(tensor.FromSlice([]float64{10, 10, 10, 10}, 4))
	c := tensor.Must(tensor.FromSlice([]float64{0, 0, 0, 0}, 4))
	x, y, z := expr.Of(a), expr.Of(b), expr.Of(c)
	r1 := x.Mul(y).Add(z)
	r2 := x.AddScalar(1).Mul(y)
	outs, err := exec.Default.Run([]*expr.Node{r1.Node(), r2.Node()}, []tensor.Any{a, nil})
	require.NoError(t, err)
	for i, v := range av {
		assert.Equal(t, v*10, a.Values()[i], "a = a*b+c")
		assert.Equal(t, (v+1)*10, outs[1].(*tensor.Tensor[float64]).Values()[i], "(a+1)*b from the old a")
	}
}

// TestMultiRootDestinationReadByAnotherStep checks a destination that a
// reduction of another result reads: the reduction sees the old values.
func TestMultiRootDestinationReadByAnotherStep(t *testing.T) {
	a := tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4}, 4))
	x := expr.Of(a)
	outs, err := exec.Default.Run([]*expr.Node{x.AddScalar(1).Node(), x.Sum().Node()}, []tensor.Any{a, nil})
	require.NoError(t, err)
	assert.Equal(t, []float64{2, 3, 4, 5}, a.Values())
	assert.Equal(t, []float64{10}, outs[1].(*tensor.Tensor[float64]).Values())
}

// TestOverlapOfSlicesWithOtherCapacity checks a destination and an input
// made from one array with different bounds and capacities: the overlap
// is seen, the input staged, and the result computed from the old values.
func TestOverlapOfSlicesWithOtherCapacity(t *testing.T) {
	buf := make([]float64, 1001)
	for i := range buf {
		buf[i] = float64(i)
	}
	dst := tensor.Must(tensor.FromSlice(buf[1:1001], 1000))
	src := tensor.Must(tensor.FromSlice(buf[0:1000:1000], 1000))
	want := make([]float64, 1000)
	for i := range want {
		want[i] = float64(i) * 10
	}
	require.NoError(t, exec.EvalTo(dst, expr.Of(src).MulScalar(10)))
	assert.Equal(t, want, dst.Values())
}

// TestCastsAllocateNothingPerBlock checks that casts and complex parts,
// which pass blocks through interfaces, allocate nothing per block: a
// repeated EvalTo of a prebuilt graph allocates nothing at all.
func TestCastsAllocateNothingPerBlock(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	x := exec.New(exec.Workers(1), exec.BlockSize(64))
	a := tensor.Must(tensor.Rand[float64](1, 100000))
	z := tensor.Must(tensor.New[complex128](100000))
	dst := tensor.Must(tensor.New[float32](100000))
	dst64 := tensor.Must(tensor.New[float64](100000))
	cast := expr.Cast[float32](expr.Of(a).MulScalar(3))
	re := expr.Real[float64](expr.Of(z).Add(expr.Cast[complex128](expr.Of(a))))
	require.NoError(t, exec.EvalToWith(x, dst, cast))
	require.NoError(t, exec.EvalToWith(x, dst64, re))
	assert.Zero(t, testing.AllocsPerRun(50, func() { _ = exec.EvalToWith(x, dst, cast) }), "cast")
	assert.Zero(t, testing.AllocsPerRun(50, func() { _ = exec.EvalToWith(x, dst64, re) }), "real of a cast")
	assert.Equal(t, float32(a.Values()[7]*3), dst.Values()[7])
	assert.Equal(t, a.Values()[9], dst64.Values()[9])
}

// TestPlansKeepNoTensors checks that after an evaluation the executor (its
// plan cache and pooled scratch) keeps no reference to the tensors used.
func TestPlansKeepNoTensors(t *testing.T) {
	x := exec.New(exec.Workers(2), exec.Grain(1))
	a := tensor.Must(tensor.Rand[float64](1, 50000))
	b := tensor.Must(tensor.Rand[float64](2, 50000))
	wa := weak.Make(a)
	e := expr.Of(a).Mul(expr.Of(b)).Sum()
	_, err := exec.EvalWith(x, e)
	require.NoError(t, err)
	e, a = expr.Expr[float64]{}, nil
	for i := 0; i < 5 && wa.Value() != nil; i++ {
		runtime.GC()
	}
	assert.Nil(t, wa.Value(), "the cached plan or pooled scratch keeps the input alive")
	runtime.KeepAlive(x)
}
