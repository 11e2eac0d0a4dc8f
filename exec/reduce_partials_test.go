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

// A reduction whose result fits in memory but whose chunk partials do not
// returns the *tensor.AllocError instead of dying out of memory.
func TestReducePartialsChecked(t *testing.T) {
	x := tensor.Must(tensor.FromSlice(make([]float64, 1<<22), 1<<16, 64))
	e := expr.Of(x).Sum(0)
	ex := exec.New(exec.Workers(2))
	defer ex.Close()

	tensor.SetMemoryLimit(4 << 10) // the 512-byte result fits, its partials do not
	t.Cleanup(func() { tensor.SetMemoryLimit(0) })
	_, err := exec.EvalWith(ex, e)
	var ae *tensor.AllocError
	require.True(t, errors.As(err, &ae), "got %v", err)
	assert.Equal(t, int64(4<<10), ae.Limit)
	assert.Greater(t, ae.Bytes, int64(4<<10))

	tensor.SetMemoryLimit(0)
	out, err := exec.EvalWith(ex, e)
	require.NoError(t, err, "with the machine's limit, on the same executor")
	assert.Equal(t, tensor.Shape{64}, out.Shape())
}
