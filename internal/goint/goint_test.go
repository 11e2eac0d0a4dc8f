package goint_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/internal/goint"
	"github.com/tensorplay/tensorplay/tensor"
)

func TestSizedSharesStorageAndLayout(t *testing.T) {
	base := tensor.Must(tensor.FromSlice([]int{0, 1, 2, 3, 4, 5}, 2, 3))
	col := tensor.Must(base.Slice(1, 1, 3, 1)) // offset 1, strides [3 1]
	s, ok := goint.Sized(col).(*tensor.Tensor[int64])
	require.True(t, ok)
	assert.Equal(t, col.Shape(), s.Shape())
	assert.Equal(t, col.Strides(), s.Strides())
	assert.Equal(t, col.Offset(), s.Offset())
	assert.Equal(t, []int64{1, 2, 4, 5}, s.Values())
	s.Data()[0] = -7
	assert.Equal(t, -7, base.Data()[0], "one storage")

	back := goint.Typed[int](s)
	require.NotNil(t, back)
	assert.Equal(t, []int{1, 2, 4, 5}, back.Values())

	u := tensor.Must(tensor.FromSlice([]uint{1 << 63, 2}, 2))
	su, ok := goint.SizedAny(u).(*tensor.Tensor[uint64])
	require.True(t, ok)
	assert.Equal(t, []uint64{1 << 63, 2}, su.Values())
	assert.Equal(t, []uint{1 << 63, 2}, goint.Typed[uint](su).Values())
}

func TestOtherTypesPassThrough(t *testing.T) {
	f := tensor.Must(tensor.FromSlice([]float64{1}, 1))
	assert.Same(t, f, goint.Sized(f))
	assert.Same(t, f, goint.Typed[float64](f))
	assert.Nil(t, goint.Typed[int](f), "a float64 tensor is no int tensor")
	assert.Nil(t, goint.Sized[int](nil))
	z := goint.Sized(&tensor.Tensor[int]{}).(*tensor.Tensor[int64])
	assert.True(t, z.IsZero())
	assert.True(t, goint.Is[int]())
	assert.True(t, goint.Is[uint]())
	assert.False(t, goint.Is[int64]())
}
