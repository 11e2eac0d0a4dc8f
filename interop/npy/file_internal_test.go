package npy

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteFileAtomicFailsMidway(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.npy")
	boom := errors.New("boom")
	// More than the 64 KiB buffer reaches the temporary file before the failure.
	err := writeFileAtomic(path, func(w io.Writer) error {
		if _, err := w.Write(bytes.Repeat([]byte{1}, 200<<10)); err != nil {
			return err
		}
		return boom
	})
	assert.ErrorIs(t, err, boom)
	assert.NoFileExists(t, path)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "the temporary file is removed")

	require.NoError(t, writeFileAtomic(path, func(w io.Writer) error {
		_, err := io.WriteString(w, "ok")
		return err
	}))
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "ok", string(got))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm())
}
