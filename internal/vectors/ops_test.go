package vectors

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParams decodes params as the ops_*.json files write them: numbers,
// "inf"-style strings, lists, null and absent ones.
func TestParams(t *testing.T) {
	var c OpCase
	require.NoError(t, json.Unmarshal([]byte(`{"id": "p1", "params": {"ord": "-inf", "q": [0.25, 0.5], "ddof": 1, "axis": null, "method": "lower"}}`), &c))

	var qs []float64
	ok, err := c.Param("q", &qs)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, []float64{0.25, 0.5}, qs)

	var ddof int
	ok, err = c.Param("ddof", &ddof)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, 1, ddof)

	for _, name := range []string{"axis", "absent"} {
		ok, err = c.Param(name, &ddof)
		require.NoError(t, err)
		assert.False(t, ok, name)
	}

	_, err = c.Param("method", &ddof)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "vectors: p1: param method")

	v, ok, err := c.FloatParam("ord")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.True(t, math.IsInf(v, -1), "ord = %v", v)
	v, ok, err = c.FloatParam("ddof")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, 1.0, v)
	_, ok, err = c.FloatParam("axis")
	require.NoError(t, err)
	assert.False(t, ok)
	_, _, err = c.FloatParam("method")
	assert.Error(t, err)
}
