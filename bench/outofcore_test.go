package bench

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

func TestSumSquaresFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.npy")
	// More than one 4 MiB read, and a partial last one.
	x, err := tensor.Arange[float64](0, 600_000, 1)
	require.NoError(t, err)
	require.NoError(t, npy.Save(path, x))
	got, err := sumSquaresFile(path)
	require.NoError(t, err)
	var want float64
	for _, v := range x.Data() {
		want += v * v
	}
	assert.Equal(t, want, got)
	require.NoError(t, dropCache(path))
	_, err = sumSquaresFile(filepath.Join(t.TempDir(), "none.npy"))
	assert.Error(t, err)
}

func TestOutOfCoreSize(t *testing.T) {
	t.Setenv("TPBENCH_OUTOFCORE_GIB", "half")
	_, err := oocSumCase(Params{})
	assert.EqualError(t, err, `TPBENCH_OUTOFCORE_GIB="half": want a whole number of GiB, at least 1`)
}
