package npy_test

import (
	"bytes"
	"encoding/binary"
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

// The fixtures in testdata were written by NumPy (testdata/gen.py).

func TestFixtures(t *testing.T) {
	require.Len(t, suites, len(dtype.All))
	for _, s := range suites {
		t.Run(s.name, s.fixtures)
	}
}

// testFixtures loads every fixture NumPy wrote for T's dtype.
func testFixtures[T dtype.Elem](t *testing.T) {
	name := dtype.Of[T]().String()
	v := sample[T]()
	cases := []struct {
		file    string
		shape   tensor.Shape
		values  []T
		strides []int
	}{
		{name + ".npy", tensor.Shape{2, 3}, v, []int{3, 1}},
		{name + "_f.npy", tensor.Shape{2, 3}, v, []int{1, 2}},
		{name + "_be.npy", tensor.Shape{2, 3}, v, []int{3, 1}},
		{name + "_0d.npy", tensor.Shape{}, v[1:2], []int{}},
		{name + "_empty.npy", tensor.Shape{0, 3}, []T{}, []int{3, 1}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			if dtype.Of[T]().Size() == 1 && c.file == name+"_be.npy" {
				t.Skip("one-byte dtypes have no byte order")
			}
			path := filepath.Join("testdata", c.file)
			x, err := npy.Load[T](path)
			require.NoError(t, err)
			assert.Equal(t, c.shape, x.Shape())
			assert.Equal(t, c.strides, x.Strides())
			assert.Equal(t, c.values, x.Values())

			// Writing what we read gives NumPy's bytes back.
			order := binary.ByteOrder(binary.LittleEndian)
			if c.file == name+"_be.npy" {
				order = binary.BigEndian
			}
			var buf bytes.Buffer
			require.NoError(t, npy.WriteOrder(&buf, x, order))
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.Equal(t, want, buf.Bytes())
		})
	}
}

func TestFixturesOther(t *testing.T) {
	row := sample[float64]()
	arange := make([]float64, 24)
	for i := range arange {
		arange[i] = float64(i)
	}
	cases := []struct {
		file    string
		shape   tensor.Shape
		strides []int
		values  []float64
	}{
		{"f8_3d_f.npy", tensor.Shape{2, 3, 4}, []int{1, 2, 6}, arange},
		{"f8_v2.npy", tensor.Shape{2, 3}, []int{3, 1}, row},
		{"f8_v3.npy", tensor.Shape{2, 3}, []int{3, 1}, row},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			x, err := npy.Load[float64](filepath.Join("testdata", c.file))
			require.NoError(t, err)
			assert.Equal(t, c.shape, x.Shape())
			assert.Equal(t, c.strides, x.Strides())
			assert.Equal(t, c.values, x.Values())
		})
	}
}

func TestLoadAnyFixtures(t *testing.T) {
	for _, d := range dtype.All {
		t.Run(d.String(), func(t *testing.T) {
			x, err := npy.LoadAny(filepath.Join("testdata", d.String()+".npy"))
			require.NoError(t, err)
			assert.Equal(t, d, x.DType())
			assert.Equal(t, tensor.Shape{2, 3}, x.Shape())
		})
	}
}

func TestLoadHeader(t *testing.T) {
	cases := []struct {
		file string
		want npy.Header
	}{
		{"float64.npy", npy.Header{DType: dtype.Float64, Shape: tensor.Shape{2, 3}, ByteOrder: binary.LittleEndian}},
		{"int16_be.npy", npy.Header{DType: dtype.Int16, Shape: tensor.Shape{2, 3}, ByteOrder: binary.BigEndian}},
		{"uint8_f.npy", npy.Header{DType: dtype.Uint8, Shape: tensor.Shape{2, 3}, Fortran: true, ByteOrder: binary.LittleEndian}},
		{"bool_0d.npy", npy.Header{DType: dtype.Bool, Shape: tensor.Shape{}, ByteOrder: binary.LittleEndian}},
		{"complex64_empty.npy", npy.Header{DType: dtype.Complex64, Shape: tensor.Shape{0, 3}, ByteOrder: binary.LittleEndian}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			h, err := npy.LoadHeader(filepath.Join("testdata", c.file))
			require.NoError(t, err)
			assert.Equal(t, c.want, h)
		})
	}
	_, err := npy.LoadHeader(filepath.Join("testdata", "arrays.npz"))
	var e *npy.MagicError
	assert.ErrorAs(t, err, &e)

	a, err := npy.OpenNPZ(filepath.Join("testdata", "arrays_z.npz"))
	require.NoError(t, err)
	defer a.Close()
	h, err := a.Header("a")
	require.NoError(t, err)
	assert.Equal(t, npy.Header{DType: dtype.Int32, Shape: tensor.Shape{2, 3}, ByteOrder: binary.LittleEndian}, h)
	_, err = a.Header("zz")
	assert.ErrorIs(t, err, fs.ErrNotExist)
}
