package npy_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/interop/npy"
)

// FuzzRead feeds arbitrary bytes to the reader: it must never panic, and
// must fail only with this package's typed errors. Seeds: the NumPy fixtures
// and testdata/fuzz/FuzzRead. Run with go test -fuzz FuzzRead ./interop/npy.
func FuzzRead(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.npy"))
	require.NoError(f, err)
	for _, file := range files {
		b, err := os.ReadFile(file)
		require.NoError(f, err)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := npy.ReadAny(bytes.NewReader(data))
		_, streamErr := npy.ReadAny(io.MultiReader(bytes.NewReader(data)))
		assert.Equal(t, err == nil, streamErr == nil, "seekable and stream readers agree")
		if err != nil {
			assert.True(t, isTyped(err) || (len(data) == 0 && errors.Is(err, io.EOF)), "untyped error %T: %v", err, err)
			return
		}
		y, err := npy.ReadConvert[complex128](bytes.NewReader(data))
		require.NoError(t, err, "every dtype converts to complex128")
		assert.Equal(t, x.Shape(), y.Shape())
	})
}

// isTyped reports whether err is one of the package's typed read errors.
func isTyped(err error) bool {
	var (
		magic     *npy.MagicError
		header    *npy.HeaderError
		truncated *npy.TruncatedError
		length    *npy.LengthError
		dt        *npy.DTypeError
	)
	return errors.As(err, &magic) || errors.As(err, &header) || errors.As(err, &truncated) ||
		errors.As(err, &length) || errors.As(err, &dt)
}
