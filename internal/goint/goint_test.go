package goint_test

import (
	"testing"
	"unsafe"

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

// TestSizedEveryLayout retypes views of every kind of layout (negative and
// zero strides, offsets, empty views) both ways: each keeps its layout and
// elements, and shares the storage.
func TestSizedEveryLayout(t *testing.T) {
	base := tensor.Must(tensor.FromSlice([]int{0, 1, 2, 3, 4, 5}, 2, 3))
	views := map[string]*tensor.Tensor[int]{
		"base":    base,
		"flipped": tensor.Must(base.Flip(0, 1)),
		"stepped": tensor.Must(base.Slice(1, 2, -4, -2)),
		"expand":  tensor.Must(tensor.Must(base.Slice(0, 1, 2, 1)).Expand(4, 3)),
		"empty":   tensor.Must(tensor.Must(base.Slice(0, 2, 2, 1)).Slice(1, 3, 3, 1)),
		"scalar":  tensor.Must(tensor.Must(base.Index(0, 1)).Index(0, 2)),
	}
	for name, v := range views {
		t.Run(name, func(t *testing.T) {
			s, ok := goint.Sized(v).(*tensor.Tensor[int64])
			require.True(t, ok)
			assert.Equal(t, v.Shape(), s.Shape())
			assert.Equal(t, v.Strides(), s.Strides())
			assert.Equal(t, v.Offset(), s.Offset())
			assert.Equal(t, unsafe.SliceData(v.Data()), (*int)(unsafe.Pointer(unsafe.SliceData(s.Data()))), "one storage")
			back := goint.Typed[int](s)
			require.NotNil(t, back)
			assert.Equal(t, v.Values(), back.Values())
			assert.Equal(t, v.Strides(), back.Strides())
			assert.Equal(t, v.Offset(), back.Offset())
			for i, x := range s.Values() {
				assert.Equal(t, int64(v.Values()[i]), x)
			}
		})
	}
}

type readOnly struct{}

func (readOnly) ReadOnly() bool { return true }

// TestSizedKeepsBacking: the retyped tensor reports the original's backing,
// so the executor still refuses to write an int tensor of a read-only
// mapped file (the int64 view once came without it).
func TestSizedKeepsBacking(t *testing.T) {
	m := tensor.Must(tensor.FromBacking([]int{1, 2, 3, 4}, readOnly{}, 2, 2))
	v := tensor.Must(m.Flip(1))
	s := goint.Sized(v).(*tensor.Tensor[int64])
	assert.Equal(t, readOnly{}, s.Backing())
	assert.Equal(t, readOnly{}, goint.Typed[int](s).Backing())
	assert.Equal(t, []int64{2, 1, 4, 3}, s.Values())
}
