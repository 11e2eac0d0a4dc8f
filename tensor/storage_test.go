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

// TestMayOverlap checks overlap by the span of the elements, NumPy's
// may_share_memory: halves of one array do not overlap, interleaved views
// and views into each other's span do.
func TestMayOverlap(t *testing.T) {
	base := Must(Arange[float64](0, 20, 1))
	half := func(lo, hi int) *Tensor[float64] { return Must(base.Slice(0, lo, hi, 1)) }
	m := Must(base.Reshape(4, 5))
	cases := []struct {
		name string
		a, b Any
		want bool
	}{
		{"halves", half(0, 10), half(10, 20), false},
		{"shifted by one", half(0, 10), half(1, 11), true},
		{"itself", base, base, true},
		{"even and odd elements", Must(base.Slice(0, 0, 20, 2)), Must(base.Slice(0, 1, 20, 2)), true},
		{"a row and the next row", Must(m.Slice(0, 0, 1, 1)), Must(m.Slice(0, 1, 2, 1)), false},
		{"a column and a row", Must(m.Slice(1, 2, 3, 1)), Must(m.Slice(0, 3, 4, 1)), true},
		{"the transpose", Must(m.T()), m, true},
		{"empty", half(5, 5), base, false},
		{"separate arrays", base, Must(Arange[float64](0, 20, 1)), false},
		{"another element type", base, Must(Arange[int64](0, 20, 1)), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, c.a.MayOverlap(c.b))
			assert.Equal(t, c.want, c.b.MayOverlap(c.a), "symmetric")
		})
	}
}
