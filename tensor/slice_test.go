package tensor_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/tensor"
)

// TestSliceRange checks the resolution of Python slices at the extremes of
// int, where start+k*step and stop-start would overflow.
func TestSliceRange(t *testing.T) {
	tests := []struct {
		name                      string
		extent, start, stop, step int
		begin, end, length        int
	}{
		{"plain", 5, 1, 4, 1, 1, 4, 3},
		{"step past the end", 5, 1, 4, 2, 1, 4, 2},
		{"empty axis, MaxInt step", 0, 0, 1, math.MaxInt, 0, 0, 0},
		{"MaxInt step", 3, 0, 1, math.MaxInt, 0, 1, 1},
		{"MinInt to MaxInt by MaxInt", 5, math.MinInt, math.MaxInt, math.MaxInt, 0, 5, 1},
		{"MinInt to MaxInt on a MaxInt axis", math.MaxInt, math.MinInt, math.MaxInt, 1, 0, math.MaxInt, math.MaxInt},
		{"by 2 on a MaxInt axis", math.MaxInt, 0, math.MaxInt, 2, 0, math.MaxInt, math.MaxInt/2 + 1},
		{"by MaxInt on a MaxInt axis", math.MaxInt, 1, math.MaxInt, math.MaxInt, 1, math.MaxInt, 1},
		{"negative bounds", 5, -3, -1, 1, 2, 4, 2},
		{"stop before start", 4, -1, math.MinInt, 1, 3, 3, 0},
		{"start past the end", 4, math.MaxInt, math.MaxInt, 3, 4, 4, 0},
		{"reversed", 5, math.MaxInt, math.MinInt, -1, 4, -1, 5},
		{"reversed by MinInt", 5, math.MaxInt, math.MinInt, math.MinInt, 4, -1, 1},
		{"reversed MaxInt axis", math.MaxInt, math.MaxInt, math.MinInt, -1, math.MaxInt - 1, -1, math.MaxInt},
		{"reversed by 2 on a MaxInt axis", math.MaxInt, -1, math.MinInt, -2, math.MaxInt - 1, -1, math.MaxInt/2 + 1},
		{"reversed, stop after start", 5, 1, 3, -1, 1, 1, 0},
		{"reversed on an empty axis", 0, math.MaxInt, math.MinInt, -1, -1, -1, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			begin, end, length, err := tensor.SliceRange(tc.extent, tc.start, tc.stop, tc.step)
			require.NoError(t, err)
			assert.Equal(t, []int{tc.begin, tc.end, tc.length}, []int{begin, end, length})
		})
	}
}

// TestSliceRangeErrors checks the typed errors of SliceRange.
func TestSliceRangeErrors(t *testing.T) {
	tests := []struct {
		name                      string
		extent, start, stop, step int
		target                    any
		text                      string
	}{
		{"zero step", 3, 0, 3, 0, new(*tensor.ArgError), "Slice: slice step cannot be zero"},
		{"negative extent", -1, 0, 3, 1, new(*tensor.ShapeError), "invalid shape [-1] at dimension 0: negative extent -1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, err := tensor.SliceRange(tc.extent, tc.start, tc.stop, tc.step)
			require.Error(t, err)
			assert.True(t, errors.As(err, tc.target), "error %T", err)
			assert.EqualError(t, err, tc.text)
		})
	}
}

// TestSliceMatchesSliceRange checks that Tensor.Slice takes the elements
// SliceRange names, for small axes and for the huge axes of zero-size
// tensors, with the extreme arguments of issue 19.
func TestSliceMatchesSliceRange(t *testing.T) {
	args := [][3]int{
		{0, 1, math.MaxInt}, {math.MinInt, math.MaxInt, math.MaxInt}, {0, math.MaxInt, 1},
		{-2, math.MaxInt, 2}, {math.MinInt, -1, 3}, {1, 1, 1}, {math.MaxInt, math.MinInt, 1},
	}
	for _, extent := range []int{0, 1, 3, 7} {
		x := tensor.Must(tensor.Arange(0.0, float64(extent), 1))
		for _, a := range args {
			begin, _, length, err := tensor.SliceRange(extent, a[0], a[1], a[2])
			require.NoError(t, err)
			y, err := x.Slice(0, a[0], a[1], a[2])
			require.NoError(t, err)
			want := []float64{}
			for k := range length {
				want = append(want, float64(begin+k*a[2]))
			}
			assert.Equal(t, want, y.Values(), "extent %d, slice %v", extent, a)
		}
	}
	for _, extent := range []int{math.MaxInt, huge} {
		x := tensor.Must(tensor.New[float64](0, extent))
		for _, a := range args {
			_, _, length, err := tensor.SliceRange(extent, a[0], a[1], a[2])
			require.NoError(t, err)
			y, err := x.Slice(1, a[0], a[1], a[2])
			require.NoError(t, err)
			assert.Equal(t, tensor.Shape{0, length}, y.Shape(), "extent %d, slice %v", extent, a)
		}
	}
}
