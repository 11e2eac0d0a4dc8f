//go:build linux

package npy_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

// mapFixtures checks that every NumPy fixture of T that can be mapped maps
// to the tensor Load reads: same shape, strides and values, zero-copy.
func mapFixtures[T dtype.Elem](t *testing.T) {
	name := dtype.Of[T]().String()
	for _, suffix := range []string{"", "_f", "_0d", "_empty"} {
		t.Run(name+suffix, func(t *testing.T) {
			path := filepath.Join("testdata", name+suffix+".npy")
			want, err := npy.Load[T](path)
			require.NoError(t, err)
			m, err := npy.OpenMapped[T](path, npy.ReadOnly)
			require.NoError(t, err)
			defer func() { assert.NoError(t, m.Close()) }()
			got := m.Tensor()
			assert.Equal(t, want.Shape(), got.Shape())
			assert.Equal(t, want.Strides(), got.Strides())
			assert.Equal(t, want.Values(), got.Values())
			assert.Equal(t, suffix == "_f", m.Header().Fortran)
			require.NotNil(t, got.Backing())
			assert.True(t, got.Backing().ReadOnly())
		})
	}
}

func TestOpenMappedFixtures(t *testing.T) {
	mapFixtures[int8](t)
	mapFixtures[int16](t)
	mapFixtures[int32](t)
	mapFixtures[int64](t)
	mapFixtures[int](t)
	mapFixtures[uint8](t)
	mapFixtures[uint16](t)
	mapFixtures[uint32](t)
	mapFixtures[uint64](t)
	mapFixtures[float32](t)
	mapFixtures[float64](t)
	mapFixtures[complex64](t)
	mapFixtures[complex128](t)
	t.Run("f8_3d_f", func(t *testing.T) {
		want, err := npy.Load[float64]("testdata/f8_3d_f.npy")
		require.NoError(t, err)
		m, err := npy.OpenMapped[float64]("testdata/f8_3d_f.npy", npy.ReadOnly)
		require.NoError(t, err)
		defer m.Close()
		assert.Equal(t, want.Strides(), m.Tensor().Strides())
		assert.Equal(t, want.Values(), m.Tensor().Values())
	})
}

// corrupt writes b to a new file and returns its path.
func corrupt(t *testing.T, b []byte) string {
	path := filepath.Join(t.TempDir(), "x.npy")
	require.NoError(t, os.WriteFile(path, b, 0o644))
	return path
}

func TestOpenMappedErrors(t *testing.T) {
	good, err := os.ReadFile("testdata/float64.npy") // (2, 3) float64, 48 data bytes
	require.NoError(t, err)
	hdr := len(good) - 48
	// A version 1.0 header padded so that the data starts at byte 84: not
	// a multiple of 8.
	misaligned := append([]byte(nil), "\x93NUMPY\x01\x00"...)
	dict := "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }"
	for len(dict)+1 < 84-10 {
		dict += " "
	}
	misaligned = binary.LittleEndian.AppendUint16(misaligned, uint16(len(dict)+1))
	misaligned = append(append(misaligned, dict...), '\n')
	misaligned = append(misaligned, make([]byte, 16)...)
	tests := []struct {
		name string
		path string
		open func(string) error
		as   any
		msg  string
	}{
		{"truncated data", corrupt(t, good[:len(good)-8]), openF64, &npy.TruncatedError{}, "npy: truncated data: need 48 bytes, got 40"},
		{"data past the array", corrupt(t, append(append([]byte(nil), good...), 1, 2, 3)), openF64, &npy.LengthError{}, "npy: data does not match the header: shape [2, 3] of float64 is 48 bytes, data has 51"},
		{"truncated header", corrupt(t, good[:hdr-5]), openF64, &npy.TruncatedError{}, "npy: truncated header"},
		{"empty file", corrupt(t, nil), openF64, &npy.TruncatedError{}, "npy: truncated header: need 10 bytes, got 0"},
		{"not npy", corrupt(t, []byte("hello world")), openF64, &npy.MagicError{}, "npy: not a .npy file"},
		{"wrong dtype", "testdata/float64.npy", func(p string) error { _, err := npy.OpenMapped[float32](p, npy.ReadOnly); return err }, &npy.DTypeError{}, "npy: file holds float64, cannot read it into a Tensor[float32]"},
		{"big-endian", "testdata/float64_be.npy", openF64, &npy.HeaderError{}, "npy: header field descr '>f8': data in the other byte order than this machine's cannot be mapped (Load converts it)"},
		{"bool", "testdata/bool.npy", func(p string) error { _, err := npy.OpenMapped[bool](p, npy.ReadOnly); return err }, &npy.HeaderError{}, "npy: header field descr '|b1': bool arrays cannot be mapped"},
		{"misaligned", corrupt(t, misaligned), openF64, &npy.HeaderError{}, "the data starts at byte 84, not aligned to its 8-byte elements"},
		{"bad mode", "testdata/float64.npy", func(p string) error { _, err := npy.OpenMapped[float64](p, npy.MapMode(7)); return err }, &tensor.ArgError{}, "npy.OpenMapped: unknown mode MapMode(7)"},
		{"missing", filepath.Join(t.TempDir(), "none.npy"), openF64, &os.PathError{}, "no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.open(tc.path)
			require.Error(t, err)
			assert.ErrorAs(t, err, &tc.as)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
	t.Run("create", func(t *testing.T) {
		_, err := npy.CreateMapped[float64](filepath.Join(t.TempDir(), "x.npy"), 2, -1)
		var se *tensor.ShapeError
		assert.ErrorAs(t, err, &se)
		_, err = npy.CreateMapped[bool](filepath.Join(t.TempDir(), "x.npy"), 2)
		var he *npy.HeaderError
		assert.ErrorAs(t, err, &he)
		_, err = npy.CreateMapped[float64](filepath.Join(t.TempDir(), "no", "dir", "x.npy"), 2)
		assert.ErrorIs(t, err, os.ErrNotExist)
	})
}

func openF64(p string) error {
	m, err := npy.OpenMapped[float64](p, npy.ReadOnly)
	if err == nil {
		m.Close()
	}
	return err
}

func TestMappedReadOnlyRefusesWrites(t *testing.T) {
	m, err := npy.OpenMapped[float64]("testdata/float64.npy", npy.ReadOnly)
	require.NoError(t, err)
	defer m.Close()
	x := m.Tensor()
	var ro *tensor.ReadOnlyError
	err = x.Set(1, 0, 0)
	require.ErrorAs(t, err, &ro)
	assert.EqualError(t, err, "Set: the tensor of shape [2, 3] is read-only (a file mapped for reading; map it writable to write it)")
	// Views keep the backing, and the executor refuses them as destinations.
	row, err := x.Index(0, 1)
	require.NoError(t, err)
	assert.ErrorAs(t, row.Set(1, 0), &ro)
	err = exec.EvalTo(row, expr.Of(row).AddScalar(1))
	require.ErrorAs(t, err, &ro)
	assert.EqualError(t, err, "exec: the tensor of shape [3] is read-only (a file mapped for reading; map it writable to write it)")
	assert.ErrorAs(t, exec.AddTo(x, x), &ro)
	want, _ := npy.Load[float64]("testdata/float64.npy")
	assert.Equal(t, want.Values(), x.Values(), "nothing written")
}

func TestMappedReadWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rw.npy")
	src, err := tensor.FromSlice([]float32{1, 2, 3, 4, 5, 6}, 3, 2)
	require.NoError(t, err)
	require.NoError(t, npy.Save(path, src))
	m, err := npy.OpenMapped[float32](path, npy.ReadWrite)
	require.NoError(t, err)
	x := m.Tensor()
	require.NoError(t, exec.EvalTo(x, expr.Of(x).MulScalar(10)))
	require.NoError(t, x.Set(-1, 2, 1))
	require.NoError(t, m.Flush())
	got, err := npy.Load[float32](path)
	require.NoError(t, err)
	assert.Equal(t, []float32{10, 20, 30, 40, 50, -1}, got.Values(), "writes reach the file before Close")
	require.NoError(t, m.Close())
	assert.NoError(t, m.Close(), "closing twice")
	err = m.Flush()
	assert.ErrorIs(t, err, os.ErrClosed)
	assert.Contains(t, err.Error(), "npy: flush "+path)
}

func TestCreateMapped(t *testing.T) {
	for _, shape := range [][]int{{4, 3}, {}, {0, 5}, {1000, 700}} {
		t.Run(tensor.Shape(shape).String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.npy")
			m, err := npy.CreateMapped[float64](path, shape...)
			require.NoError(t, err)
			x := m.Tensor()
			assert.Equal(t, tensor.Shape(shape), x.Shape())
			n := x.Numel()
			for i, v := range x.Values() {
				require.Zero(t, v, "element %d of a new file", i)
			}
			a, err := tensor.Arange[float64](0, float64(n), 1)
			require.NoError(t, err)
			a, err = a.Reshape(shape...)
			require.NoError(t, err)
			require.NoError(t, exec.EvalTo(x, expr.Of(a).MulScalar(0.5)))
			require.NoError(t, m.Close())
			got, err := npy.Load[float64](path)
			require.NoError(t, err)
			assert.Equal(t, tensor.Shape(shape), got.Shape())
			want, err := exec.Eval(expr.Of(a).MulScalar(0.5))
			require.NoError(t, err)
			assert.Equal(t, want.Values(), got.Values())
			h, err := npy.LoadHeader(path)
			require.NoError(t, err)
			assert.Equal(t, binary.LittleEndian, h.ByteOrder)
		})
	}
}

func TestMappedReleaseKeepsValues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rel.npy")
	m, err := npy.CreateMapped[int32](path, 1<<20)
	require.NoError(t, err)
	x := m.Tensor()
	data := x.Data()
	for i := range data {
		data[i] = int32(i * 3)
	}
	r, ok := x.Backing().(exec.RangeReleaser)
	require.True(t, ok, "a mapping is a RangeReleaser")
	r.ReleaseRange(100, 1<<19) // dirty pages: written back, then dropped
	r.ReleaseRange(-1, 5)      // ignored
	r.ReleaseRange(0, 0)
	for i := range data {
		if data[i] != int32(i*3) {
			t.Fatalf("element %d is %d after release, want %d", i, data[i], i*3)
		}
	}
	require.NoError(t, m.Close())
	ro, err := npy.OpenMapped[int32](path, npy.ReadOnly)
	require.NoError(t, err)
	defer ro.Close()
	ro.Tensor().Backing().(exec.RangeReleaser).ReleaseRange(0, 1<<20)
	v, err := ro.Tensor().At(1<<20 - 1)
	require.NoError(t, err)
	assert.Equal(t, int32((1<<20-1)*3), v)
	assert.NoError(t, ro.Flush())
}

func TestMapModeString(t *testing.T) {
	assert.Equal(t, "ReadOnly", npy.ReadOnly.String())
	assert.Equal(t, "ReadWrite", npy.ReadWrite.String())
	assert.Equal(t, "MapMode(7)", npy.MapMode(7).String())
}
