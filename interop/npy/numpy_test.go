package npy_test

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

// pythonWithNumPy returns a Python interpreter that can import numpy, or "".
func pythonWithNumPy() string {
	for _, p := range []string{"python3", "/usr/bin/python3", "python"} {
		path, err := exec.LookPath(p)
		if err != nil {
			continue
		}
		if exec.Command(path, "-c", "import numpy").Run() == nil {
			return path
		}
	}
	return ""
}

// TestNumPyLoadsOurFiles writes the fixture set from Go and has NumPy check
// every file against testdata/gen.py's expectations (testdata/check.py).
func TestNumPyLoadsOurFiles(t *testing.T) {
	py := pythonWithNumPy()
	if py == "" {
		t.Skip("no python3 with numpy on this machine (Debian: apt-get install python3-numpy); NumPy compatibility of written files not checked")
	}
	dir := t.TempDir()
	for _, s := range suites {
		s.writeAll(t, dir)
	}
	arrays := npzArrays(t)
	require.NoError(t, npy.SaveNPZ(filepath.Join(dir, "arrays.npz"), arrays))
	require.NoError(t, npy.SaveNPZCompressed(filepath.Join(dir, "arrays_z.npz"), arrays))

	out, err := exec.Command(py, filepath.Join("testdata", "check.py"), dir).CombinedOutput()
	assert.NoError(t, err, "check.py:\n%s", out)
	t.Logf("numpy: %s", out)
}

// writeNumPyChecks writes T's arrays under the fixture names check.py knows.
func writeNumPyChecks[T dtype.Elem](t *testing.T, dir string) {
	name := dtype.Of[T]().String()
	v := sample[T]()
	scalar, err := tensor.AsStrided(v, tensor.Shape{}, nil, 1)
	require.NoError(t, err)
	empty, err := tensor.New[T](0, 3)
	require.NoError(t, err)
	files := map[string]*tensor.Tensor[T]{
		name + ".npy":       sampleTensor[T](t),
		name + "_f.npy":     columnMajor[T](t),
		name + "_0d.npy":    scalar,
		name + "_empty.npy": empty,
	}
	for f, x := range files {
		require.NoError(t, npy.Save(filepath.Join(dir, f), x))
	}
	if dtype.Of[T]().Size() > 1 {
		f, err := os.Create(filepath.Join(dir, name+"_be.npy"))
		require.NoError(t, err)
		defer f.Close()
		require.NoError(t, npy.WriteOrder(f, sampleTensor[T](t), binary.BigEndian))
	}
}

// npzArrays is testdata/gen.py's npz_arrays().
func npzArrays(t *testing.T) map[string]tensor.Any {
	a := sampleTensor[int32](t)
	b, err := tensor.FromSlice([]float64{1.5})
	require.NoError(t, err)
	c, err := tensor.New[complex64](0)
	require.NoError(t, err)
	return map[string]tensor.Any{"a": a, "b": b, "c": c}
}
