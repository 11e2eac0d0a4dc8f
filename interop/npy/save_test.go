package npy_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestSaveErrorNamesTarget checks that a save that fails in the file system
// names the file asked for, not the temporary file it writes first, and
// keeps the cause for errors.Is.
func TestSaveErrorNamesTarget(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no", "such")
	x := sampleTensor[float64](t)
	blocker := filepath.Join(dir, "dir.npy")
	require.NoError(t, os.Mkdir(blocker, 0o755))
	cases := []struct {
		name   string
		path   string
		save   func(path string) error
		target error
	}{
		{"Save missing directory", filepath.Join(missing, "x.npy"), func(p string) error { return npy.Save(p, x) }, fs.ErrNotExist},
		{"SaveNPZ missing directory", filepath.Join(missing, "x.npz"), func(p string) error {
			return npy.SaveNPZ(p, map[string]tensor.Any{"x": x})
		}, fs.ErrNotExist},
		{"SaveNPZCompressed missing directory", filepath.Join(missing, "x.npz"), func(p string) error {
			return npy.SaveNPZCompressed(p, map[string]tensor.Any{"x": x})
		}, fs.ErrNotExist},
		{"Save over a directory", blocker, func(p string) error { return npy.Save(p, x) }, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.save(c.path)
			require.Error(t, err)
			if c.target != nil {
				assert.ErrorIs(t, err, c.target)
			}
			assert.Contains(t, err.Error(), "npy: save "+c.path+": ")
			assert.NotContains(t, err.Error(), ".tmp", "the temporary file is not named")
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			assert.Len(t, entries, 1, "no temporary file left behind")
		})
	}
}
