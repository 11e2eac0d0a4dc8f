package axisrows

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAlong lists every row's elements of a 2×3×4 array along each axis
// and checks them against the row-major positions, and the edge shapes.
func TestAlong(t *testing.T) {
	shape := []int{2, 3, 4}
	strides := []int{12, 4, 1}
	for axis := range shape {
		r := Along(shape, axis)
		assert.Equal(t, 24/shape[axis], r.Count(), "axis %d", axis)
		assert.Equal(t, strides[axis], r.Inner, "axis %d", axis)
		seen := map[int]bool{}
		for row := range r.Count() {
			for j := range r.N {
				at := r.Start(row) + j*r.Inner
				assert.False(t, seen[at], "axis %d: element %d twice", axis, at)
				seen[at] = true
				// at's coordinate along axis is j.
				assert.Equal(t, j, at/strides[axis]%shape[axis], "axis %d row %d", axis, row)
			}
		}
		assert.Len(t, seen, 24, "axis %d covers every element", axis)
	}
	assert.Equal(t, Rows{Outer: 1, N: 5, Inner: 1}, Along([]int{5}, 0))
	assert.Equal(t, 0, Along([]int{3, 0, 2}, 0).Count())
	assert.Equal(t, Rows{Outer: 3, N: 0, Inner: 2}, Along([]int{3, 0, 2}, 1))
}
