package exec_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestAllocErrorsReturned checks that a result, temporary or staging
// tensor that cannot be allocated makes Eval return tensor.New's error for
// its shape: the error used to be dropped, and the run then dereferenced
// a nil tensor (or returned (nil, nil)), often on a worker goroutine.
func TestAllocErrorsReturned(t *testing.T) {
	one := tensor.Must(tensor.Full(1.0))
	col := tensor.Must(tensor.FromSlice([]float64{1, 2}, 2, 1))
	huge := tensor.Must(one.Expand(1<<40, 1<<20)) // 2^60 elements of 8 bytes, from 8 bytes
	wide := tensor.Must(col.Expand(2, 1<<59))     // its reshape to 1-D needs a copy
	cases := []struct {
		name  string
		e     expr.Expr[float64]
		shape []int // of the tensor that cannot be allocated
	}{
		{"result", expr.Of(huge).AddScalar(1), []int{1 << 40, 1 << 20}},
		{"result of a reduction", expr.Of(tensor.Must(one.Expand(1<<40, 1<<20, 2))).Sum(2), []int{1 << 40, 1 << 20}},
		{"temporary copy for a reshape", expr.Of(wide).Reshape(1 << 60).Sum(), []int{2, 1 << 59}},
	}
	for _, c := range cases {
		for _, x := range testExecutors {
			t.Run(c.name+"/"+x.name, func(t *testing.T) {
				require.NoError(t, c.e.Err())
				_, want := tensor.New[float64](c.shape...)
				require.Error(t, want)
				out, err := exec.EvalWith(x.x, c.e)
				assert.Nil(t, out)
				require.Error(t, err)
				assert.IsType(t, want, err)
				assert.Equal(t, want.Error(), err.Error())
			})
		}
	}
}

// TestAllocOverflowingResult is the case: the sum over the empty
// axis of [0, 2^40, 2^40] has 2^80 elements. Eval returned (nil, nil); now
// it is an error, at construction or at evaluation.
func TestAllocOverflowingResult(t *testing.T) {
	z := tensor.Must(tensor.New[float64](0, 1<<40, 1<<40))
	out, err := exec.Eval(expr.Of(z).Sum(0))
	assert.Nil(t, out)
	require.Error(t, err)
	var ie *exec.InternalError
	assert.False(t, errors.As(err, &ie), "%v", err)
	assert.Contains(t, err.Error(), "[1099511627776, 1099511627776]")
}

// TestAllocLargerThanMemory: an 800 GB result from 8 bytes of input ends
// with tensor.New's error, when tensor's limit refuses such a request on
// this machine, not with "fatal error: runtime: out of memory".
func TestAllocLargerThanMemory(t *testing.T) {
	_, want := tensor.New[float64](1e11)
	if want == nil {
		t.Skip("tensor.New allows 800 GB here; evaluating would exhaust memory")
	}
	one := tensor.Must(tensor.Full(1.0))
	out, err := exec.Eval(expr.Of(tensor.Must(one.Expand(1e11))).AddScalar(1))
	assert.Nil(t, out)
	assert.IsType(t, want, err)
	assert.Equal(t, want.Error(), err.Error())
}
