package exec_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestPrefetchNextBlock checks which regions prefetch their next block
// (a large region of one axis with a slow kernel, such as exp or sin) and
// that the prefetches, which reach past a block up to the end of each
// input's storage, change no result: at lengths around the block, over
// inputs whose storage ends with the region and over views with storage
// after them, against the same expressions evaluated without prefetching.
func TestPrefetchNextBlock(t *testing.T) {
	r := newRand(97)
	plan := func(x *exec.Executor, e expr.Expr[float32]) string {
		var buf bytes.Buffer
		_, err := exec.EvalWith(x.With(exec.Debug(&buf)), e)
		require.NoError(t, err)
		return buf.String()
	}
	const ahead = "prefetching the next block"
	type eval struct {
		name string
		e    expr.Expr[float32]
		want []float32
	}
	var evals []eval
	for _, n := range []int{1, 1023, 1024, 1025, 3000, 4096} {
		whole := randomTensor[float32](t, r, n)                                   // storage ends with the region
		head := tensor.Must(randomTensor[float32](t, r, n+700).Slice(0, 0, n, 1)) // storage after it
		tail := tensor.Must(randomTensor[float32](t, r, n+700).Slice(0, 700, n+700, 1))
		e := expr.Of(whole).Exp().Mul(expr.Of(head).Sin()).Add(expr.Of(tail).Abs().Sqrt())
		x := exec.New(exec.Workers(2))
		require.NotContains(t, plan(x, e), ahead, "below streamBytes")
		got, err := exec.EvalWith(x, e)
		require.NoError(t, err)
		evals = append(evals, eval{fmt.Sprintf("n=%d", n), e, got.Values()})
	}

	defer exec.SetStreamBytes(0)()
	x := exec.New(exec.Workers(2)) // a new executor makes new plans
	a := randomTensor[float32](t, r, 5000)
	assert.Contains(t, plan(x, expr.Of(a).Exp().Mul(expr.Of(a).Sin())), ahead, "exp and sin")
	assert.Contains(t, plan(x, expr.Of(a).Add(expr.Of(a)).Log()), ahead, "log of a fused pair")
	assert.NotContains(t, plan(x, expr.Of(a).Add(expr.Of(a).Mul(expr.Of(a)))), ahead, "add and mul")
	two := tensor.Must(randomTensor[float32](t, r, 50, 100).T()) // transposed: copied
	assert.NotContains(t, plan(x, expr.Of(two).Exp()), ahead, "transposed")
	rows, row := randomTensor[float32](t, r, 50, 100), randomTensor[float32](t, r, 100)
	assert.NotContains(t, plan(x, expr.Of(rows).Add(expr.Of(row)).Exp()), ahead, "a layout of two axes")
	ints := randomTensor[int32](t, r, 5000)
	var buf bytes.Buffer
	_, err := exec.EvalWith(x.With(exec.Debug(&buf)), expr.Of(ints).Mod(expr.Scalar[int32](7)))
	require.NoError(t, err)
	assert.NotContains(t, buf.String(), ahead, "an integer remainder")

	for _, ev := range evals {
		for _, x := range []*exec.Executor{exec.New(exec.Workers(2)), exec.New(exec.Workers(3), exec.Grain(1)), exec.New(exec.BlockSize(100))} {
			require.Contains(t, plan(x, ev.e), ahead, ev.name)
			got, err := exec.EvalWith(x, ev.e)
			require.NoError(t, err, ev.name)
			assertValues(t, ev.want, got.Values(), "%s", ev.name)
		}
	}
}
