package tensor

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSameStorage checks overlap by address range: views of one array,
// slices of it with other bounds and capacities, and separate arrays.
func TestSameStorage(t *testing.T) {
	buf := make([]float64, 2000)
	a := Must(FromSlice(buf[1:1001], 1000))
	b := Must(FromSlice(buf[0:1000:1000], 1000))
	c := Must(FromSlice(buf[1000:2000], 1000))
	d := Must(FromSlice(buf[1001:2000], 999))
	other := Must(FromSlice(make([]float64, 1000), 1000))
	assert.True(t, a.SameStorage(b), "overlapping slices with different capacities")
	assert.True(t, b.SameStorage(a), "symmetric")
	assert.True(t, a.SameStorage(c), "a ends at buf[1000], c starts there")
	assert.False(t, b.SameStorage(d), "b ends before d starts")
	assert.False(t, a.SameStorage(other), "separate arrays")
	v, err := a.Slice(0, 500, 1000, 1)
	assert.NoError(t, err)
	assert.True(t, v.SameStorage(a), "a view shares its base's storage")
	var ints *Tensor[int64] = Must(FromSlice(make([]int64, 3), 3))
	assert.False(t, a.SameStorage(ints), "another element type")
}
