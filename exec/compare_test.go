package exec_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/tensor"
)

func TestAllCloseAndArrayEqual(t *testing.T) {
	vec := func(v ...float64) *tensor.Tensor[float64] { return tensor.Must(tensor.FromSlice(v, len(v))) }
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name           string
		a, b           *tensor.Tensor[float64]
		close, closeEq bool // default, equal_nan
		equal          bool
	}{
		{"equal", vec(1, 2, 3), vec(1, 2, 3), true, true, true},
		{"within rtol", vec(1, 2, 3), vec(1, 2, 3+2e-5), true, true, false},
		{"beyond rtol", vec(1, 2, 3), vec(1, 2, 3+1e-4), false, false, false},
		{"within atol at 0", vec(0), vec(5e-9), true, true, false},
		{"nan", vec(nan, 1), vec(nan, 1), false, true, false},
		{"inf", vec(inf, -inf), vec(inf, -inf), true, true, true},
		{"inf sign", vec(inf), vec(-inf), false, false, false},
		{"broadcast", vec(2, 2, 2), vec(2), true, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := exec.AllClose(c.a, c.b)
			require.NoError(t, err)
			assert.Equal(t, c.close, got, "allclose")
			got, err = exec.AllCloseTol(c.a, c.b, exec.DefaultRTol, exec.DefaultATol, true)
			require.NoError(t, err)
			assert.Equal(t, c.closeEq, got, "allclose equal_nan")
			got, err = exec.ArrayEqual(c.a, c.b)
			require.NoError(t, err)
			assert.Equal(t, c.equal, got, "array_equal")
		})
	}
	t.Run("isclose", func(t *testing.T) {
		got, err := exec.IsClose(vec(1, nan, 3), vec(1, nan, 4))
		require.NoError(t, err)
		assert.Equal(t, []bool{true, false, false}, got.Values())
	})
	t.Run("errors", func(t *testing.T) {
		_, err := exec.AllClose(vec(1, 2), vec(1, 2, 3))
		var be *tensor.BroadcastError
		assert.True(t, errors.As(err, &be), "%v", err)
		_, err = exec.ArrayEqual(nil, vec(1))
		var ae *tensor.ArgError
		assert.True(t, errors.As(err, &ae), "%v", err)
	})
}
