package npy_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestMissingArguments calls every entry point that takes an interface or
// a pointer with nil and typed-nil values: each is a *tensor.ArgError
// naming the function and the argument (wrapped in a *npy.ArchiveError for
// an archive entry), never a panic.
func TestMissingArguments(t *testing.T) {
	x := sampleTensor[float64](t)
	var nilT *tensor.Tensor[float64]
	var nilNPZ *npy.NPZ
	var nilW *npy.NPZWriter
	dir := t.TempDir()
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"Read nil", func() error { _, err := npy.Read[float64](nil); return err }, "npy.Read: r is nil"},
		{"Read typed nil", func() error { _, err := npy.Read[float64]((*bytes.Reader)(nil)); return err }, "npy.Read: r is nil"},
		{"ReadConvert nil", func() error { _, err := npy.ReadConvert[float64](nil); return err }, "npy.ReadConvert: r is nil"},
		{"ReadAny nil", func() error { _, err := npy.ReadAny((*bytes.Buffer)(nil)); return err }, "npy.ReadAny: r is nil"},
		{"Write nil writer", func() error { return npy.Write(nil, x) }, "npy.Write: w is nil"},
		{"Write typed nil writer", func() error { return npy.Write((*bytes.Buffer)(nil), x) }, "npy.Write: w is nil"},
		{"Write nil tensor", func() error { return npy.Write(io.Discard, nilT) }, "npy.Write: t is nil"},
		{"WriteOrder nil order", func() error { return npy.WriteOrder(io.Discard, x, nil) }, "npy.WriteOrder: byte order <nil>"},
		{"WriteOrder nil tensor", func() error { return npy.WriteOrder(io.Discard, nilT, binary.BigEndian) }, "npy.WriteOrder: t is nil"},
		{"Save nil tensor", func() error { return npy.Save(filepath.Join(dir, "a.npy"), nilT) }, "npy.Save: t is nil"},
		{"NewNPZ nil", func() error { _, err := npy.NewNPZ(nil, 0); return err }, "npy.NewNPZ: r is nil"},
		{"NewNPZ typed nil", func() error { _, err := npy.NewNPZ((*bytes.Reader)(nil), 100); return err }, "npy.NewNPZ: r is nil"},
		{"ReadNPZ nil", func() error { _, err := npy.ReadNPZ[float64](nil, "a"); return err }, "npy.ReadNPZ: a is nil"},
		{"ReadNPZConvert nil", func() error { _, err := npy.ReadNPZConvert[float64](nil, "a"); return err }, "npy.ReadNPZConvert: a is nil"},
		{"NPZ.ReadAny nil", func() error { _, err := nilNPZ.ReadAny("a"); return err }, "npy.NPZ.ReadAny: nil *NPZ"},
		{"NPZ.Header nil", func() error { _, err := nilNPZ.Header("a"); return err }, "npy.NPZ.Header: nil *NPZ"},
		{"NPZ.Close nil", func() error { return nilNPZ.Close() }, "npy.NPZ.Close: nil *NPZ"},
		{"NPZWriter nil writer Add", func() error { return npy.NewNPZWriter(nil).Add("a", x) }, "npy.NewNPZWriter: w is nil"},
		{"NPZWriter nil writer Close", func() error { return npy.NewNPZWriter(nil).Close() }, "npy.NewNPZWriter: w is nil"},
		{"NPZWriter.Add nil", func() error { return nilW.Add("a", x) }, "npy.NPZWriter.Add: nil *NPZWriter"},
		{"NPZWriter.Close nil", func() error { return nilW.Close() }, "npy.NPZWriter.Close: nil *NPZWriter"},
		{"NPZWriter zero", func() error { return new(npy.NPZWriter).Add("a", x) }, "npy.NPZWriter.Add: zero NPZWriter"},
		{"NPZWriter.Add nil tensor", func() error { return npy.NewNPZWriter(io.Discard).Add("a", nil) }, `npz entry "a": npy.Write: t is nil`},
		{"NPZWriter.Add typed nil tensor", func() error { return npy.NewNPZWriter(io.Discard).Add("a", nilT) }, `npz entry "a": npy.Write: t is nil`},
		{"SaveNPZ nil tensor", func() error {
			return npy.SaveNPZ(filepath.Join(dir, "a.npz"), map[string]tensor.Any{"a": nil})
		}, `npz entry "a": npy.Write: t is nil`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = c.call() })
			var ae *tensor.ArgError
			require.ErrorAs(t, err, &ae)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestZeroValues checks the zero values of the package's types and of a
// tensor: none panics.
func TestZeroValues(t *testing.T) {
	t.Run("NPZ is an empty archive", func(t *testing.T) {
		var a npy.NPZ
		assert.Empty(t, a.Names())
		_, err := a.ReadAny("a")
		var ae *npy.ArchiveError
		require.ErrorAs(t, err, &ae)
		assert.ErrorIs(t, err, fs.ErrNotExist)
		assert.NoError(t, a.Close())
	})
	t.Run("nil NPZ has no names", func(t *testing.T) {
		var a *npy.NPZ
		assert.Empty(t, a.Names())
	})
	t.Run("zero tensor", func(t *testing.T) {
		// What a zero tensor.Tensor is belongs to package tensor; writing one
		// is either an error or a file that reads back to its shape.
		var b bytes.Buffer
		var err error
		require.NotPanics(t, func() { err = npy.Write(&b, &tensor.Tensor[float64]{}) })
		if err != nil {
			var ae *tensor.ArgError
			assert.True(t, errors.As(err, &ae), "error %T: %v", err, err)
			return
		}
		y, err := npy.Read[float64](&b)
		require.NoError(t, err)
		assert.Equal(t, (&tensor.Tensor[float64]{}).Shape(), y.Shape())
	})
}
