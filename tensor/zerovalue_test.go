package tensor_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/tensor"
)

// TestZeroValue checks that the zero Tensor reads as the empty 1-D tensor
// FromSlice(nil, 0) through every method: the same layout, the same
// values, the same views, the same errors, and no panics.
func TestZeroValue(t *testing.T) {
	var z tensor.Tensor[float64]
	empty := tensor.Must(tensor.FromSlice[float64](nil, 0))
	require.True(t, z.IsZero())
	require.False(t, empty.IsZero(), "a constructed empty tensor is not the zero Tensor")
	var nilTensor *tensor.Tensor[float64]
	assert.False(t, nilTensor.IsZero(), "nil is not the zero Tensor")
	var a tensor.Any = &z
	assert.True(t, a.IsZero(), "through Any")
	scalar := tensor.Must(tensor.FromSlice([]float64{3}))
	assert.False(t, scalar.IsZero(), "a 0-d tensor has storage")
	assert.False(t, tensor.Must(tensor.Must(tensor.Arange(0.0, 3, 1)).Index(0, 1)).IsZero(), "a 0-d view has storage")

	tests := []struct {
		name string
		call func(x *tensor.Tensor[float64]) any
	}{
		{"Shape", func(x *tensor.Tensor[float64]) any { return x.Shape() }},
		{"Strides", func(x *tensor.Tensor[float64]) any { return x.Strides() }},
		{"Offset", func(x *tensor.Tensor[float64]) any { return x.Offset() }},
		{"Rank", func(x *tensor.Tensor[float64]) any { return x.Rank() }},
		{"Numel", func(x *tensor.Tensor[float64]) any { return x.Numel() }},
		{"Dim", func(x *tensor.Tensor[float64]) any { return pair(x.Dim(0)) }},
		{"StorageLen", func(x *tensor.Tensor[float64]) any { return x.StorageLen() }},
		{"IsContiguous", func(x *tensor.Tensor[float64]) any { return x.IsContiguous() }},
		{"HasInternalOverlap", func(x *tensor.Tensor[float64]) any { return x.HasInternalOverlap() }},
		{"Values", func(x *tensor.Tensor[float64]) any { return x.Values() }},
		{"Clone", func(x *tensor.Tensor[float64]) any { return layout(x.Clone(), nil) }},
		{"Contiguous", func(x *tensor.Tensor[float64]) any { return layout(x.Contiguous(), nil) }},
		{"At", func(x *tensor.Tensor[float64]) any { return pair(x.At(0)) }},
		{"Set", func(x *tensor.Tensor[float64]) any { return fmt.Sprint(x.Set(1, 0)) }},
		{"Item", func(x *tensor.Tensor[float64]) any { return pair(x.Item()) }},
		{"String", func(x *tensor.Tensor[float64]) any { return x.String() }},
		{"repr", func(x *tensor.Tensor[float64]) any { return fmt.Sprintf("%+v", x) }},
		{"precision", func(x *tensor.Tensor[float64]) any { return fmt.Sprintf("%.3v", x) }},
		{"MarshalBinary", func(x *tensor.Tensor[float64]) any { return pair(x.MarshalBinary()) }},
		{"MayOverlap", func(x *tensor.Tensor[float64]) any { return x.MayOverlap(empty) }},
		{"Slice", func(x *tensor.Tensor[float64]) any { return layout(x.Slice(0, 0, 5, 1)) }},
		{"Index", func(x *tensor.Tensor[float64]) any { return layout(x.Index(0, 0)) }},
		{"Permute", func(x *tensor.Tensor[float64]) any { return layout(x.Permute(0)) }},
		{"Transpose", func(x *tensor.Tensor[float64]) any { return layout(x.Transpose(0, -1)) }},
		{"T", func(x *tensor.Tensor[float64]) any { return layout(x.T()) }},
		{"Squeeze", func(x *tensor.Tensor[float64]) any { return layout(x.Squeeze()) }},
		{"Squeeze(0)", func(x *tensor.Tensor[float64]) any { return layout(x.Squeeze(0)) }},
		{"Unsqueeze", func(x *tensor.Tensor[float64]) any { return layout(x.Unsqueeze(0)) }},
		{"Expand", func(x *tensor.Tensor[float64]) any { return layout(x.Expand(3, -1)) }},
		{"Expand to 3", func(x *tensor.Tensor[float64]) any { return layout(x.Expand(3)) }},
		{"BroadcastTo", func(x *tensor.Tensor[float64]) any { return layout(x.BroadcastTo(2, 0)) }},
		{"Reshape", func(x *tensor.Tensor[float64]) any { return layout(x.Reshape(2, 0, 3)) }},
		{"Reshape -1", func(x *tensor.Tensor[float64]) any { return layout(x.Reshape(-1)) }},
		{"ReshapeView", func(x *tensor.Tensor[float64]) any { return layout(x.ReshapeView(0, 1)) }},
		{"Flatten", func(x *tensor.Tensor[float64]) any { return layout(x.Flatten()) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got any
			require.NotPanics(t, func() { got = tc.call(&z) })
			assert.Equal(t, tc.call(empty), got)
		})
	}
	t.Run("round trip", func(t *testing.T) {
		b, err := z.MarshalBinary()
		require.NoError(t, err)
		var y tensor.Tensor[float64]
		require.NoError(t, y.UnmarshalBinary(b))
		assert.Equal(t, tensor.Shape{0}, y.Shape())
		assert.False(t, y.IsZero())
	})
}

// pair renders a (value, error) result for comparison.
func pair[V any](v V, err error) string { return fmt.Sprintf("%v, %v", v, err) }

// layout renders a view's layout and values, or its error.
func layout(x *tensor.Tensor[float64], err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("shape %v strides %v offset %d values %v", x.Shape(), x.Strides(), x.Offset(), x.Values())
}
