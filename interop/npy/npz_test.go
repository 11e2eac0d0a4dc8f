package npy_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

func TestNPZFixtures(t *testing.T) {
	for _, file := range []string{"arrays.npz", "arrays_z.npz"} {
		t.Run(file, func(t *testing.T) {
			a, err := npy.OpenNPZ(filepath.Join("testdata", file))
			require.NoError(t, err)
			defer a.Close()
			assert.Equal(t, []string{"a", "b", "c"}, a.Names())

			x, err := npy.ReadNPZ[int32](a, "a")
			require.NoError(t, err)
			assert.Equal(t, tensor.Shape{2, 3}, x.Shape())
			assert.Equal(t, sample[int32](), x.Values())

			b, err := npy.ReadNPZ[float64](a, "b")
			require.NoError(t, err)
			assert.Equal(t, tensor.Shape{}, b.Shape())
			assert.Equal(t, []float64{1.5}, b.Values())

			c, err := a.ReadAny("c")
			require.NoError(t, err)
			assert.Equal(t, dtype.Complex64, c.DType())
			assert.Equal(t, tensor.Shape{0}, c.Shape())

			conv, err := npy.ReadNPZConvert[float64](a, "a")
			require.NoError(t, err)
			assert.Equal(t, 42.0, conv.Values()[3])
		})
	}
}

func TestNPZErrors(t *testing.T) {
	a, err := npy.OpenNPZ(filepath.Join("testdata", "arrays.npz"))
	require.NoError(t, err)
	defer a.Close()

	t.Run("missing entry", func(t *testing.T) {
		_, err := npy.ReadNPZ[float64](a, "nope")
		var e *npy.ArchiveError
		require.ErrorAs(t, err, &e)
		assert.Equal(t, "nope", e.Name)
		assert.ErrorIs(t, err, fs.ErrNotExist)
	})
	t.Run("dtype mismatch", func(t *testing.T) {
		_, err := npy.ReadNPZ[float64](a, "a")
		var e *npy.DTypeError
		require.ErrorAs(t, err, &e, "the entry's error is wrapped")
		assert.Equal(t, dtype.Int32, e.File)
		assert.EqualError(t, err, `npy: npz entry "a": npy: file holds int32, cannot read it into a Tensor[float64] of float64 (ReadConvert converts)`)
	})
	t.Run("not a zip", func(t *testing.T) {
		_, err := npy.OpenNPZ(filepath.Join("testdata", "float64.npy"))
		var e *npy.ArchiveError
		require.ErrorAs(t, err, &e)
		_, err = npy.LoadNPZ(filepath.Join("testdata", "float64.npy"))
		require.ErrorAs(t, err, &e)
	})
	t.Run("missing file", func(t *testing.T) {
		_, err := npy.OpenNPZ(filepath.Join("testdata", "nope.npz"))
		assert.ErrorIs(t, err, fs.ErrNotExist)
	})
	t.Run("bad entry", func(t *testing.T) {
		var buf bytes.Buffer
		w := npy.NewNPZWriter(&buf)
		require.NoError(t, w.Add("x", sampleTensor[float32](t)))
		require.NoError(t, w.Close())
		raw := buf.Bytes()
		// Corrupt the entry's descr: "<f4" becomes "<f2".
		i := bytes.Index(raw, []byte("'<f4'"))
		require.Positive(t, i)
		raw[i+3] = '2'
		b, err := npy.NewNPZ(bytes.NewReader(raw), int64(len(raw)))
		require.NoError(t, err)
		_, err = b.ReadAny("x")
		var e *npy.HeaderError
		require.ErrorAs(t, err, &e)
		assert.Equal(t, "descr", e.Field)
	})
	t.Run("writer", func(t *testing.T) {
		var buf bytes.Buffer
		w := npy.NewNPZWriter(&buf)
		x := sampleTensor[int8](t)
		require.NoError(t, w.Add("x", x))
		assert.ErrorIs(t, w.Add("x", x), fs.ErrExist, "duplicate name")
		assert.Error(t, w.Add("", x), "empty name")
		var e *npy.DTypeError
		assert.ErrorAs(t, w.Add("c", tensorOf(t, []celsius{1})), &e)
		require.NoError(t, w.Close())
		assert.Error(t, w.Add("y", x), "closed")
		assert.NoError(t, w.Close(), "Close twice")
	})
}

func TestNPZRoundTrip(t *testing.T) {
	arrays := map[string]tensor.Any{
		"row":    sampleTensor[complex128](t),
		"col":    columnMajor[uint16](t),
		"scalar": tensorOf(t, []bool{true}),
		"ints":   tensorOf(t, []int{1, -2}),
	}
	check := func(t *testing.T, got map[string]tensor.Any) {
		require.Len(t, got, len(arrays))
		for name, want := range arrays {
			require.Contains(t, got, name)
			assert.Equal(t, want.Shape(), got[name].Shape(), name)
			assert.Equal(t, want.DType(), got[name].DType(), name)
		}
		assert.Equal(t, []int{1, 2}, got["col"].Strides(), "Fortran order kept")
		assert.Equal(t, []int64{1, -2}, got["ints"].(*tensor.Tensor[int64]).Values())
	}
	for _, c := range []struct {
		name string
		save func(string, map[string]tensor.Any) error
	}{{"stored", npy.SaveNPZ}, {"compressed", npy.SaveNPZCompressed}} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.npz")
			require.NoError(t, c.save(path, arrays))
			got, err := npy.LoadNPZ(path)
			require.NoError(t, err)
			check(t, got)
		})
	}
	t.Run("writer to memory", func(t *testing.T) {
		var buf bytes.Buffer
		w := npy.NewNPZWriter(&buf)
		w.Compressed = true
		for name, x := range arrays {
			require.NoError(t, w.Add(name, x))
		}
		require.NoError(t, w.Close())
		a, err := npy.NewNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		require.NoError(t, err)
		got := map[string]tensor.Any{}
		for _, name := range a.Names() {
			got[name], err = a.ReadAny(name)
			require.NoError(t, err)
		}
		check(t, got)
		assert.NoError(t, a.Close())
	})
}

func TestSaveIsAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.npz")
	require.NoError(t, os.WriteFile(path, []byte("previous"), 0o600))

	// "b" fails after "a" was written to the archive.
	err := npy.SaveNPZ(path, map[string]tensor.Any{
		"a": sampleTensor[float64](t),
		"b": tensorOf(t, []celsius{1}),
	})
	var e *npy.DTypeError
	require.ErrorAs(t, err, &e)
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "previous", string(got), "the old file is untouched")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left behind")

	// A failed first save leaves no file at all.
	fresh := filepath.Join(dir, "fresh.npy")
	require.Error(t, npy.Save(fresh, tensorOf(t, []celsius{1})))
	assert.NoFileExists(t, fresh)

	// A successful save replaces the file and keeps its mode.
	require.NoError(t, npy.SaveNPZ(path, map[string]tensor.Any{"a": sampleTensor[float64](t)}))
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())
	_, err = npy.LoadNPZ(path)
	assert.NoError(t, err)

	// Saving into a missing directory fails cleanly.
	assert.Error(t, npy.Save(filepath.Join(dir, "no", "such", "x.npy"), sampleTensor[float64](t)))
}
