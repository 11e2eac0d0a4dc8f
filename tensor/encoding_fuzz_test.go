package tensor_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// FuzzUnmarshalBinary feeds arbitrary bytes to UnmarshalBinary for several
// element types. It must never panic; a failure is a *tensor.ArgError (or
// the shape's own error) and leaves the destination as it was; a success
// round trips: the tensor re-encodes to bytes that decode to the same
// shape and encode to the same bytes again (the first encoding may differ
// from the input: uvarints and bools have several spellings). Seeds: an
// encoding of every dtype below (0-d, empty, 2-D) and truncations of them.
func FuzzUnmarshalBinary(f *testing.F) {
	seeds := [][]byte{
		encoded(f, tensor.Must(tensor.FromSlice([]float64{1, -2, 3.5, 0, 5, 6}, 2, 3))),
		encoded(f, tensor.Must(tensor.Full[float32](1.5))),
		encoded(f, tensor.Must(tensor.New[int8](0, 3))),
		encoded(f, tensor.Must(tensor.FromSlice([]bool{true, false, true}, 3))),
		encoded(f, tensor.Must(tensor.FromSlice([]uint16{1, 65535}, 2, 1))),
		encoded(f, tensor.Must(tensor.FromSlice([]complex128{1 + 2i, -3i}, 2))),
	}
	for _, b := range seeds {
		f.Add(b)
		for _, n := range []int{3, 5, 9, len(b) - 1} {
			f.Add(b[:max(0, min(n, len(b)))])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode[float64](t, data)
		checkDecode[float32](t, data)
		checkDecode[int8](t, data)
		checkDecode[bool](t, data)
		checkDecode[uint16](t, data)
		checkDecode[complex128](t, data)
	})
}

// checkDecode decodes data into a Tensor[T] holding a sentinel and checks
// the invariants of FuzzUnmarshalBinary.
func checkDecode[T dtype.Elem](t *testing.T, data []byte) {
	x := tensor.Must(tensor.New[T](1))
	err := x.UnmarshalBinary(data)
	if err != nil {
		var ae *tensor.ArgError
		var se *tensor.ShapeError
		assert.True(t, errors.As(err, &ae) || errors.As(err, &se), "untyped error %T: %v", err, err)
		assert.Equal(t, tensor.Shape{1}, x.Shape(), "a failed decode leaves the tensor unchanged")
		return
	}
	once, err := x.MarshalBinary()
	require.NoError(t, err)
	y := tensor.Must(tensor.New[T](1))
	require.NoError(t, y.UnmarshalBinary(once), "an encoded tensor decodes")
	assert.Equal(t, x.Shape(), y.Shape())
	twice, err := y.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, once, twice, "encode(decode(encode(x))) == encode(x)")
}

func encoded[T dtype.Elem](f *testing.F, x *tensor.Tensor[T]) []byte {
	b, err := x.MarshalBinary()
	require.NoError(f, err)
	return b
}
