package tensor_test

import (
	"bytes"
	"encoding/gob"
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

func TestAtSetItem(t *testing.T) {
	x := grid(t, 2, 3)
	tests := []struct {
		idx  []int
		want float64
	}{
		{[]int{0, 0}, 0},
		{[]int{1, 2}, 5},
		{[]int{-1, -1}, 5},
		{[]int{-2, 1}, 1},
	}
	for _, tt := range tests {
		got, err := x.At(tt.idx...)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "At%v", tt.idx)
	}

	require.NoError(t, x.Set(42, -1, 0))
	v, err := x.At(1, 0)
	require.NoError(t, err)
	assert.Equal(t, 42.0, v)

	s, err := tensor.Full(3.5)
	require.NoError(t, err)
	v, err = s.At()
	require.NoError(t, err)
	assert.Equal(t, 3.5, v)
	v, err = s.Item()
	require.NoError(t, err)
	assert.Equal(t, 3.5, v)

	one, err := x.Slice(0, 1, 2, 1)
	require.NoError(t, err)
	one, err = one.Slice(1, 2, 3, 1)
	require.NoError(t, err)
	v, err = one.Item()
	require.NoError(t, err)
	assert.Equal(t, 5.0, v, "Item reads a [1, 1] view")
}

func TestAccessErrors(t *testing.T) {
	var (
		ae *tensor.ArgError
		ie *tensor.IndexError
		oe *tensor.InternalOverlapError
	)
	x := grid(t, 2, 3)
	e, err := grid(t, 1, 3).Expand(2, 3)
	require.NoError(t, err)
	tests := []struct {
		name   string
		call   func() error
		target any
		msg    string
	}{
		{"At too few indices", func() error { _, err := x.At(1); return err },
			&ae, "At: 1 indices for a tensor of rank 2 (shape [2, 3])"},
		{"At too many indices", func() error { _, err := x.At(1, 1, 1); return err },
			&ae, "At: 3 indices for a tensor of rank 2 (shape [2, 3])"},
		{"At out of range", func() error { _, err := x.At(0, 3); return err },
			&ie, "index 3 is out of bounds for dimension 1 with size 3"},
		{"At negative out of range", func() error { _, err := x.At(-3, 0); return err },
			&ie, "index -3 is out of bounds for dimension 0 with size 2"},
		{"Set out of range", func() error { return x.Set(1, 2, 0) },
			&ie, "index 2 is out of bounds for dimension 0 with size 2"},
		{"Set wrong rank", func() error { return x.Set(1) },
			&ae, "Set: 0 indices for a tensor of rank 2 (shape [2, 3])"},
		{"Set through an expanded view", func() error { return e.Set(1, 0, 0) },
			&oe, "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation."},
		{"Item of many", func() error { _, err := x.Item(); return err },
			&ae, "Item: a tensor with 6 elements (shape [2, 3]) cannot be converted to a scalar"},
		{"Item of none", func() error { _, err := tensor.Must(tensor.Zeros[int](0)).Item(); return err },
			&ae, "Item: a tensor with 0 elements (shape [0]) cannot be converted to a scalar"},
		{"At on a zero Tensor", func() error { var z tensor.Tensor[int]; _, err := z.At(); return err },
			&ae, "At: 0 indices for a tensor of rank 1 (shape [0])"},
		{"At(0) on a zero Tensor", func() error { var z tensor.Tensor[int]; _, err := z.At(0); return err },
			&ie, "index 0 is out of bounds for dimension 0 with size 0"},
		{"Item on a zero Tensor", func() error { var z tensor.Tensor[int]; _, err := z.Item(); return err },
			&ae, "Item: a tensor with 0 elements (shape [0]) cannot be converted to a scalar"},
		{"At on an empty axis", func() error { _, err := tensor.Must(tensor.Zeros[int](0)).At(0); return err },
			&ie, "index 0 is out of bounds for dimension 0 with size 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			require.Error(t, err)
			assert.True(t, errors.As(err, tt.target), "error type %T", err)
			assert.EqualError(t, err, tt.msg)
		})
	}
	v, err := x.At(1, 0)
	require.NoError(t, err)
	assert.Equal(t, 3.0, v, "failed Sets wrote nothing")
	assert.Equal(t, []float64{0, 1, 2, 0, 1, 2}, e.Values())
}

func TestContiguousClone(t *testing.T) {
	x := grid(t, 2, 3)
	assert.Same(t, x, x.Contiguous(), "a contiguous tensor is its own Contiguous")
	xt := tensor.Must(x.T())
	c := xt.Contiguous()
	assert.NotSame(t, xt, c)
	assert.True(t, c.IsContiguous())
	assert.Equal(t, xt.Values(), c.Values())
	cl := x.Clone()
	require.NoError(t, cl.Set(-1, 0, 0))
	v, _ := x.At(0, 0)
	assert.Equal(t, 0.0, v, "Clone shares no memory")
}

func roundTrip[T dtype.Elem](t *testing.T, x *tensor.Tensor[T]) {
	t.Helper()
	b, err := x.MarshalBinary()
	require.NoError(t, err)
	var y tensor.Tensor[T]
	require.NoError(t, y.UnmarshalBinary(b))
	assert.Equal(t, x.Shape(), y.Shape())
	assert.True(t, y.IsContiguous())
	vectors.AssertClose(t, y.Values(), x.Values(), vectors.Tolerance{Exact: true}, "values")
	b2, err := y.MarshalBinary()
	require.NoError(t, err)
	assert.Equal(t, b, b2, "bit-exact")
}

func TestBinaryRoundTrip(t *testing.T) {
	roundTrip(t, grid(t, 2, 3))
	roundTrip(t, tensor.Must(grid(t, 2, 3).T()))
	roundTrip(t, tensor.Must(tensor.FromSlice([]float32{float32(math.Inf(-1)), 1.5, float32(math.NaN())}, 3)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]complex64{1 + 2i, -3i}, 2)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]complex128{1 + 2i, -3i}, 2, 1)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]bool{true, false, true}, 3)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]int8{-128, 127}, 2)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]int16{-300, 300}, 2)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]int32{-1 << 30}, 1)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]int64{math.MinInt64}, 1)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]int{-5, 5}, 1, 2)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]uint8{255}, 1)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]uint16{65535}, 1)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]uint32{1 << 31}, 1)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]uint64{math.MaxUint64}, 1)))
	roundTrip(t, tensor.Must(tensor.FromSlice([]uint{7}, 1)))
	roundTrip(t, tensor.Must(tensor.Zeros[float64](2, 0, 3)))
	roundTrip(t, tensor.Must(tensor.Full(9.0)))
	roundTrip(t, tensor.Must(tensor.Must(tensor.FromSlice([]float64{1, 2}, 2, 1)).Expand(2, 3)))
}

func TestGob(t *testing.T) {
	x := grid(t, 3, 2)
	var buf bytes.Buffer
	require.NoError(t, gob.NewEncoder(&buf).Encode(x))
	var y *tensor.Tensor[float64]
	require.NoError(t, gob.NewDecoder(&buf).Decode(&y))
	assert.Equal(t, x.Shape(), y.Shape())
	assert.Equal(t, x.Values(), y.Values())
}

func TestUnmarshalErrors(t *testing.T) {
	good, err := grid(t, 2, 2).MarshalBinary()
	require.NoError(t, err)
	tests := []struct {
		name string
		data []byte
		msg  string
	}{
		{"empty", nil, "UnmarshalBinary: not an encoded tensor"},
		{"bad magic", []byte("XXXXfloat64"), "UnmarshalBinary: not an encoded tensor"},
		{"truncated dtype", good[:6], "UnmarshalBinary: truncated dtype"},
		{"truncated rank", good[:12], "UnmarshalBinary: bad rank"},
		{"truncated extent", good[:14], "UnmarshalBinary: bad extent at dimension 1"},
		{"truncated data", good[:len(good)-1], "UnmarshalBinary: shape [2, 2] needs 32 bytes of elements, have 31"},
		{"trailing data", append(append([]byte{}, good...), 0), "UnmarshalBinary: shape [2, 2] needs 32 bytes of elements, have 33"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var y tensor.Tensor[float64]
			err := y.UnmarshalBinary(tt.data)
			var ae *tensor.ArgError
			require.ErrorAs(t, err, &ae)
			assert.EqualError(t, err, tt.msg)
			assert.True(t, y.IsZero(), "a failed decode leaves the tensor unchanged")
		})
	}
	var f tensor.Tensor[float32]
	assert.EqualError(t, f.UnmarshalBinary(good), "UnmarshalBinary: data holds float64, not float32")

	// A huge claimed shape is rejected without allocating.
	huge := append([]byte("TPT\x01\x07float64\x02"), 0xff, 0xff, 0xff, 0xff, 0x0f, 0xff, 0xff, 0xff, 0xff, 0x0f)
	var h tensor.Tensor[float64]
	assert.Error(t, h.UnmarshalBinary(huge))

	type celsius float64
	_, err = tensor.Must(tensor.Full[celsius](1, 2)).MarshalBinary()
	assert.EqualError(t, err, "MarshalBinary: element type has no dtype")
}
