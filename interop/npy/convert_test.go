package npy_test

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

func TestReadConvert(t *testing.T) {
	npyOf := func(t *testing.T, write func(*bytes.Buffer) error) []byte {
		var buf bytes.Buffer
		require.NoError(t, write(&buf))
		return buf.Bytes()
	}
	ints := func(t *testing.T) []byte {
		return npyOf(t, func(b *bytes.Buffer) error { return npy.Write(b, tensorOf(t, []int16{-2, 0, 300})) })
	}
	floats := func(t *testing.T) []byte {
		return npyOf(t, func(b *bytes.Buffer) error { return npy.Write(b, tensorOf(t, []float64{-1.75, 0, 2.5})) })
	}
	cplx := func(t *testing.T) []byte {
		return npyOf(t, func(b *bytes.Buffer) error { return npy.Write(b, tensorOf(t, []complex64{1 + 2i, 0, -3i})) })
	}
	bools := func(t *testing.T) []byte {
		return npyOf(t, func(b *bytes.Buffer) error { return npy.Write(b, tensorOf(t, []bool{true, false, true})) })
	}
	cases := []struct {
		name string
		file func(t *testing.T) []byte
		read func(r *bytes.Reader) (any, error)
		want any
	}{
		{"int16 to float64", ints, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[float64](r); return values(x), err }, []float64{-2, 0, 300}},
		{"int16 to int8 wraps", ints, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[int8](r); return values(x), err }, []int8{-2, 0, 44}},
		{"int16 to uint16 wraps", ints, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[uint16](r); return values(x), err }, []uint16{65534, 0, 300}},
		{"int16 to bool", ints, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[bool](r); return values(x), err }, []bool{true, false, true}},
		{"int16 to Go int", ints, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[int](r); return values(x), err }, []int{-2, 0, 300}},
		{"int16 to complex128", ints, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[complex128](r); return values(x), err }, []complex128{-2, 0, 300}},
		{"float64 to int32 truncates", floats, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[int32](r); return values(x), err }, []int32{-1, 0, 2}},
		{"float64 to float32", floats, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[float32](r); return values(x), err }, []float32{-1.75, 0, 2.5}},
		{"float64 to complex64", floats, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[complex64](r); return values(x), err }, []complex64{-1.75, 0, 2.5}},
		{"float64 to float64", floats, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[float64](r); return values(x), err }, []float64{-1.75, 0, 2.5}},
		{"complex64 to float64 drops imag", cplx, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[float64](r); return values(x), err }, []float64{1, 0, 0}},
		{"complex64 to complex128", cplx, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[complex128](r); return values(x), err }, []complex128{1 + 2i, 0, -3i}},
		{"complex64 to bool", cplx, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[bool](r); return values(x), err }, []bool{true, false, true}},
		{"bool to uint8", bools, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[uint8](r); return values(x), err }, []uint8{1, 0, 1}},
		{"bool to complex64", bools, func(r *bytes.Reader) (any, error) { x, err := npy.ReadConvert[complex64](r); return values(x), err }, []complex64{1, 0, 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.read(bytes.NewReader(c.file(t)))
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestLoadConvertKeepsLayout(t *testing.T) {
	x, err := npy.LoadConvert[float32](filepath.Join("testdata", "int64_f.npy"))
	require.NoError(t, err)
	assert.Equal(t, []int{1, 2}, x.Strides(), "a Fortran file converts into a column-major view")
	want := make([]float32, 6)
	for i, v := range sample[int64]() {
		want[i] = float32(v)
	}
	assert.Equal(t, want, x.Values())
}

// values returns x's elements, or nil for a nil tensor.
func values[T dtype.Elem](x *tensor.Tensor[T]) any {
	if x == nil {
		return nil
	}
	return x.Values()
}
