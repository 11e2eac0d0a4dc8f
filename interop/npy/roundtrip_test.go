package npy_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

func TestRoundTrip(t *testing.T) {
	require.Len(t, suites, len(dtype.All))
	for _, s := range suites {
		t.Run(s.name, s.roundTrip)
	}
}

// layouts returns tensors of sample[T] values in every layout a writer meets.
func layouts[T dtype.Elem](t *testing.T) map[string]*tensor.Tensor[T] {
	v := sample[T]()
	mk := func(data []T, shape tensor.Shape, strides []int, off int) *tensor.Tensor[T] {
		x, err := tensor.AsStrided(data, shape, strides, off)
		require.NoError(t, err)
		return x
	}
	// 3x4 storage; the view takes rows 1..2 and columns 0, 2: not dense.
	grid := append(append([]T{}, v...), v...)
	return map[string]*tensor.Tensor[T]{
		"row-major":    sampleTensor[T](t),
		"column-major": columnMajor[T](t),
		"1-d":          mk(v, tensor.Shape{6}, []int{1}, 0),
		"0-d":          mk(v, tensor.Shape{}, []int{}, 1),
		"zero-size":    mk(v[:0], tensor.Shape{0, 3}, []int{3, 1}, 0),
		"zero-size-3d": mk(v[:0], tensor.Shape{3, 0, 2}, []int{0, 2, 1}, 0),
		"strided":      mk(grid, tensor.Shape{2, 2}, []int{4, 2}, 4),
		"broadcast":    mk(v, tensor.Shape{4, 3}, []int{0, 1}, 2),
		"offset":       mk(v, tensor.Shape{5}, []int{1}, 1),
	}
}

// testRoundTrip writes T tensors in every layout and byte order and reads
// them back.
func testRoundTrip[T dtype.Elem](t *testing.T) {
	for name, x := range layouts[T](t) {
		for _, order := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
			t.Run(name+"/"+order.String(), func(t *testing.T) {
				var buf bytes.Buffer
				require.NoError(t, npy.WriteOrder(&buf, x, order))
				got, err := npy.Read[T](&buf)
				require.NoError(t, err)
				assert.Equal(t, x.Shape(), got.Shape())
				assert.Equal(t, x.Values(), got.Values())
				assert.Zero(t, buf.Len(), "Read consumes exactly one array")
			})
		}
	}
	t.Run("file", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "x.npy")
		x := columnMajor[T](t)
		require.NoError(t, npy.Save(path, x))
		got, err := npy.Load[T](path)
		require.NoError(t, err)
		assert.Equal(t, x.Strides(), got.Strides(), "Fortran order survives")
		assert.Equal(t, x.Values(), got.Values())
	})
}

func TestRoundTripGoIntTypes(t *testing.T) {
	// Go's int and uint are written as int64 and uint64 and read back into
	// either.
	ints := []int{-3, 0, 7}
	x, err := tensor.FromSlice(ints, 3)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, npy.Write(&buf, x))
	raw := buf.Bytes()

	got, err := npy.Read[int](bytes.NewReader(raw))
	require.NoError(t, err)
	assert.Equal(t, ints, got.Values())
	wide, err := npy.Read[int64](bytes.NewReader(raw))
	require.NoError(t, err)
	assert.Equal(t, []int64{-3, 0, 7}, wide.Values())

	const top = 1 << (strconv.IntSize - 1) // uint's top bit: 1<<63 on 64-bit
	u, err := tensor.FromSlice([]uint{1, top}, 2)
	require.NoError(t, err)
	buf.Reset()
	require.NoError(t, npy.Write(&buf, u))
	gotU, err := npy.Read[uint](&buf)
	require.NoError(t, err)
	assert.Equal(t, []uint{1, top}, gotU.Values())
}

func TestStream(t *testing.T) {
	// Arrays written one after another are read back one by one, then io.EOF.
	var buf bytes.Buffer
	a := sampleTensor[float32](t)
	b := columnMajor[int16](t)
	require.NoError(t, npy.Write(&buf, a))
	require.NoError(t, npy.Write(&buf, b))
	r := io.MultiReader(&buf) // not seekable: exercises the buffered path

	gotA, err := npy.Read[float32](r)
	require.NoError(t, err)
	assert.Equal(t, a.Values(), gotA.Values())
	gotB, err := npy.ReadAny(r)
	require.NoError(t, err)
	require.IsType(t, &tensor.Tensor[int16]{}, gotB)
	assert.Equal(t, b.Values(), gotB.(*tensor.Tensor[int16]).Values())
	_, err = npy.Read[float32](r)
	assert.ErrorIs(t, err, io.EOF)
}

func TestWriteLongHeader(t *testing.T) {
	// A shape whose header does not fit version 1.0's 16-bit length is
	// written as version 2.0.
	shape := make(tensor.Shape, 25000)
	for i := range shape {
		shape[i] = 1
	}
	x, err := tensor.New[uint8](shape...)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, npy.Write(&buf, x))
	assert.Equal(t, byte(2), buf.Bytes()[6], "major version")
	assert.Zero(t, (buf.Len()-1)%64, "data starts 64-byte aligned")
	got, err := npy.Read[uint8](&buf)
	require.NoError(t, err)
	assert.Equal(t, shape, got.Shape())
}
