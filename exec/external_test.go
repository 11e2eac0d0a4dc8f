package exec_test

import (
	"bytes"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// cumsumOp is an external op for the tests: the running sum along the last
// axis, computed in Go; calls counts its evaluations.
func cumsumOp(calls *atomic.Int64, key string) *expr.External {
	return &expr.External{Name: "test_cumsum", Key: key, Eval: func(args []tensor.Any) (tensor.Any, error) {
		calls.Add(1)
		a := args[0].(*tensor.Tensor[float64])
		shape := a.Shape()
		v := a.Values()
		n := shape[len(shape)-1]
		for i := range v {
			if i%n != 0 {
				v[i] += v[i-1]
			}
		}
		return tensor.FromSlice(v, shape...)
	}}
}

func externalOf(e *expr.External, a expr.Expr[float64]) expr.Expr[float64] {
	return expr.Wrap[float64](expr.Apply(e, dtype.Float64, a.Shape(), a))
}

func TestExternalEvaluatesInGraph(t *testing.T) {
	a := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)))
	for _, workers := range []int{1, 2} {
		t.Run("", func(t *testing.T) {
			var calls atomic.Int64
			x := exec.New(exec.Workers(workers))
			// Operand computed, result consumed: fusion stops at the external node.
			y := externalOf(cumsumOp(&calls, ""), a.MulScalar(2)).AddScalar(1)
			got, err := exec.EvalWith(x, y)
			require.NoError(t, err)
			assert.Equal(t, []float64{3, 7, 13, 9, 19, 31}, got.Values())
			assert.Equal(t, int64(1), calls.Load())
			// The cached plan calls Eval again, on the new values.
			got, err = exec.EvalWith(x, y)
			require.NoError(t, err)
			assert.Equal(t, []float64{3, 7, 13, 9, 19, 31}, got.Values())
			assert.Equal(t, int64(2), calls.Load())
		})
	}
}

func TestExternalCommonSubexpressions(t *testing.T) {
	a := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2, 3}, 3)))
	var calls atomic.Int64
	// Equal identities and operands: computed once.
	y := externalOf(cumsumOp(&calls, "k"), a).Add(externalOf(cumsumOp(&calls, "k"), a))
	got, err := exec.Eval(y)
	require.NoError(t, err)
	assert.Equal(t, []float64{2, 6, 12}, got.Values())
	assert.Equal(t, int64(1), calls.Load())
	// Different keys: two computations, and a plan of its own.
	calls.Store(0)
	y = externalOf(cumsumOp(&calls, "k"), a).Add(externalOf(cumsumOp(&calls, "other"), a))
	_, err = exec.Eval(y)
	require.NoError(t, err)
	assert.Equal(t, int64(2), calls.Load())
}

func TestExternalResultAndDestination(t *testing.T) {
	a := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2, 3}, 3)))
	var calls atomic.Int64
	y := externalOf(cumsumOp(&calls, ""), a)
	got, err := exec.Eval(y)
	require.NoError(t, err)
	assert.Equal(t, []float64{1, 3, 6}, got.Values())

	dst := tensor.Must(tensor.FromSlice([]float64{9, 9, 9, 9, 9, 9}, 3, 2))
	col := tensor.Must(dst.Slice(1, 1, 2, 1))
	col = tensor.Must(col.Reshape(3))
	require.NoError(t, exec.EvalTo(col, y))
	assert.Equal(t, []float64{9, 1, 9, 3, 9, 6}, dst.Values())
}

func TestExternalErrorsWriteNothing(t *testing.T) {
	a := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2, 3}, 3)))
	boom := errors.New("boom")
	failing := &expr.External{Name: "fails", Eval: func([]tensor.Any) (tensor.Any, error) { return nil, boom }}
	wrongShape := &expr.External{Name: "wrong", Eval: func([]tensor.Any) (tensor.Any, error) {
		return tensor.Zeros[float64](2)
	}}
	wrongType := &expr.External{Name: "wrongtype", Eval: func([]tensor.Any) (tensor.Any, error) {
		return tensor.Zeros[float32](3)
	}}
	cases := []struct {
		name string
		e    *expr.External
		want string
	}{
		{"eval error", failing, "boom"},
		{"shape", wrongShape, "exec: external op wrong: Eval returned shape [2], the node has shape [3]"},
		{"dtype", wrongType, "exec: external op wrongtype: Eval returned a float32 tensor, the node is float64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dst := tensor.Must(tensor.FromSlice([]float64{7, 7, 7}, 3))
			other := tensor.Must(tensor.FromSlice([]float64{7, 7, 7}, 3))
			// The second root is computable; neither destination is written.
			err := exec.Assign(exec.To(dst, externalOf(c.e, a)), exec.To(other, a.AddScalar(1)))
			require.Error(t, err)
			assert.EqualError(t, err, c.want)
			if c.e != failing {
				var ee *exec.ExternalError
				assert.ErrorAs(t, err, &ee)
			}
			assert.Equal(t, []float64{7, 7, 7}, dst.Values())
			assert.Equal(t, []float64{7, 7, 7}, other.Values())
		})
	}
}

func TestExternalConstruction(t *testing.T) {
	a := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2, 3}, 3)))
	n := expr.Apply(&expr.External{Name: "x"}, dtype.Float64, a.Shape(), a)
	var ae *tensor.ArgError
	require.ErrorAs(t, n.Err(), &ae)
	assert.Contains(t, ae.Error(), "no Eval function")
	n = expr.Apply(&expr.External{Eval: func([]tensor.Any) (tensor.Any, error) { return nil, nil }}, dtype.Float64, a.Shape(), a)
	require.ErrorAs(t, n.Err(), &ae)
	assert.Contains(t, ae.Error(), "no name")
	// An operand's error is the node's.
	bad := a.Reshape(2)
	n = expr.Apply(cumsumOp(new(atomic.Int64), ""), dtype.Float64, a.Shape(), bad)
	assert.Equal(t, bad.Err(), n.Err())
	// Printed by its own name.
	var calls atomic.Int64
	y := externalOf(cumsumOp(&calls, ""), a)
	assert.Contains(t, expr.Format(y), "= test_cumsum %0")
	var buf bytes.Buffer
	_, err := exec.EvalWith(exec.New(exec.Debug(&buf)), y.AddScalar(1))
	require.NoError(t, err)
	assert.Contains(t, buf.String(), "external")
	assert.Contains(t, buf.String(), "test_cumsum(")
}
