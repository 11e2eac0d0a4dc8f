package tensor_test

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/tensor"
)

// grid returns arange(n) reshaped to shape, as float64.
func grid(t *testing.T, shape ...int) *tensor.Tensor[float64] {
	t.Helper()
	n, err := tensor.Shape(shape).Numel()
	require.NoError(t, err)
	x, err := tensor.Arange(0.0, float64(n), 1)
	require.NoError(t, err)
	x, err = x.Reshape(shape...)
	require.NoError(t, err)
	return x
}

type viewWant struct {
	shape   tensor.Shape
	strides []int
	offset  int
	values  []float64
}

func checkView(t *testing.T, got *tensor.Tensor[float64], want viewWant) {
	t.Helper()
	assert.Equal(t, want.shape, got.Shape(), "shape")
	if want.strides != nil {
		assert.Equal(t, want.strides, got.Strides(), "strides")
	}
	assert.Equal(t, want.offset, got.Offset(), "offset")
	assert.Equal(t, want.values, got.Values(), "values")
}

func TestViews(t *testing.T) {
	tests := []struct {
		name string
		view func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error)
		want viewWant
	}{
		{"reshape contiguous", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Reshape(3, 2) },
			viewWant{tensor.Shape{3, 2}, []int{2, 1}, 0, []float64{0, 1, 2, 3, 4, 5}}},
		{"reshape infers -1", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Reshape(-1, 1, 3) },
			viewWant{tensor.Shape{2, 1, 3}, []int{3, 3, 1}, 0, []float64{0, 1, 2, 3, 4, 5}}},
		{"reshape to scalar shape", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) {
			y, err := x.Slice(1, 2, 3, 1)
			if err != nil {
				return nil, err
			}
			y, err = y.Slice(0, 1, 2, 1)
			if err != nil {
				return nil, err
			}
			return y.Reshape()
		}, viewWant{tensor.Shape{}, []int{}, 5, []float64{5}}},
		{"permute", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Permute(1, 0) },
			viewWant{tensor.Shape{3, 2}, []int{1, 3}, 0, []float64{0, 3, 1, 4, 2, 5}}},
		{"permute negative axes", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Permute(-1, -2) },
			viewWant{tensor.Shape{3, 2}, []int{1, 3}, 0, []float64{0, 3, 1, 4, 2, 5}}},
		{"transpose", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Transpose(0, -1) },
			viewWant{tensor.Shape{3, 2}, []int{1, 3}, 0, []float64{0, 3, 1, 4, 2, 5}}},
		{"T", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.T() },
			viewWant{tensor.Shape{3, 2}, []int{1, 3}, 0, []float64{0, 3, 1, 4, 2, 5}}},
		{"slice", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Slice(1, 1, 3, 1) },
			viewWant{tensor.Shape{2, 2}, []int{3, 1}, 1, []float64{1, 2, 4, 5}}},
		{"slice step", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Slice(1, 0, 3, 2) },
			viewWant{tensor.Shape{2, 2}, []int{3, 2}, 0, []float64{0, 2, 3, 5}}},
		{"slice negative bounds", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Slice(-1, -2, -1, 1) },
			viewWant{tensor.Shape{2, 1}, []int{3, 1}, 1, []float64{1, 4}}},
		{"slice clamps", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Slice(1, -100, 100, 1) },
			viewWant{tensor.Shape{2, 3}, []int{3, 1}, 0, []float64{0, 1, 2, 3, 4, 5}}},
		{"slice to the end", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Slice(0, 1, math.MaxInt, 1) },
			viewWant{tensor.Shape{1, 3}, []int{3, 1}, 3, []float64{3, 4, 5}}},
		{"slice empty", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Slice(1, 2, 1, 1) },
			viewWant{tensor.Shape{2, 0}, []int{3, 1}, 2, []float64{}}},
		{"slice empty past the end", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Slice(0, 5, 9, 1) },
			viewWant{tensor.Shape{0, 3}, []int{3, 1}, 6, []float64{}}},
		{"index", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Index(0, 1) },
			viewWant{tensor.Shape{3}, []int{1}, 3, []float64{3, 4, 5}}},
		{"index negative", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Index(1, -1) },
			viewWant{tensor.Shape{2}, []int{3}, 2, []float64{2, 5}}},
		{"expand new axis", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Expand(2, -1, 3) },
			viewWant{tensor.Shape{2, 2, 3}, []int{0, 3, 1}, 0, []float64{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}}},
		{"unsqueeze front", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Unsqueeze(0) },
			viewWant{tensor.Shape{1, 2, 3}, []int{6, 3, 1}, 0, []float64{0, 1, 2, 3, 4, 5}}},
		{"unsqueeze back", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Unsqueeze(-1) },
			viewWant{tensor.Shape{2, 3, 1}, []int{3, 1, 1}, 0, []float64{0, 1, 2, 3, 4, 5}}},
		{"unsqueeze middle", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Unsqueeze(1) },
			viewWant{tensor.Shape{2, 1, 3}, []int{3, 3, 1}, 0, []float64{0, 1, 2, 3, 4, 5}}},
		{"flatten", func(x *tensor.Tensor[float64]) (*tensor.Tensor[float64], error) { return x.Flatten() },
			viewWant{tensor.Shape{6}, []int{1}, 0, []float64{0, 1, 2, 3, 4, 5}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := grid(t, 2, 3)
			got, err := tt.view(x)
			require.NoError(t, err)
			checkView(t, got, tt.want)
			if got.Numel() > 0 {
				assert.True(t, got.SameStorage(x), "a view shares storage")
			}
		})
	}
}

func TestSqueezeExpand(t *testing.T) {
	x := grid(t, 1, 3, 1)
	s, err := x.Squeeze()
	require.NoError(t, err)
	checkView(t, s, viewWant{tensor.Shape{3}, []int{1}, 0, []float64{0, 1, 2}})
	s, err = x.Squeeze(-1)
	require.NoError(t, err)
	checkView(t, s, viewWant{tensor.Shape{1, 3}, []int{3, 1}, 0, []float64{0, 1, 2}})
	s, err = x.Squeeze(0, 2)
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{3}, s.Shape())

	e, err := x.Expand(2, 3, 4)
	require.NoError(t, err)
	checkView(t, e, viewWant{tensor.Shape{2, 3, 4}, []int{0, 1, 0}, 0,
		[]float64{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}})
	assert.True(t, e.HasInternalOverlap())
	assert.False(t, e.IsContiguous())

	b, err := x.BroadcastTo(4, 1, 3, 2)
	require.NoError(t, err)
	assert.Equal(t, []int{0, 3, 1, 0}, b.Strides())

	z, err := x.Expand(1, 3, 0)
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{1, 3, 0}, z.Shape())
	assert.Empty(t, z.Values())

	sc, err := tensor.FromSlice([]float64{7})
	require.NoError(t, err)
	se, err := sc.Expand(2, 2)
	require.NoError(t, err)
	checkView(t, se, viewWant{tensor.Shape{2, 2}, []int{0, 0}, 0, []float64{7, 7, 7, 7}})
}

func TestSliceHugeStep(t *testing.T) {
	x, err := grid(t, 10).Slice(0, 1, 10, 2)
	require.NoError(t, err)
	y, err := x.Slice(0, 0, math.MaxInt, math.MaxInt)
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{1}, y.Shape())
	assert.GreaterOrEqual(t, y.Strides()[0], 0, "the stride does not overflow")
	assert.Equal(t, []float64{1}, y.Values())
}

func TestTVectorAndScalar(t *testing.T) {
	v := grid(t, 3)
	vt, err := v.T()
	require.NoError(t, err)
	checkView(t, vt, viewWant{tensor.Shape{3}, []int{1}, 0, []float64{0, 1, 2}})
	s := grid(t)
	st, err := s.T()
	require.NoError(t, err)
	checkView(t, st, viewWant{tensor.Shape{}, []int{}, 0, []float64{0}})
}

func TestViewsShareStorage(t *testing.T) {
	x := grid(t, 2, 3)
	col, err := x.Index(1, 2)
	require.NoError(t, err)
	require.NoError(t, col.Set(-1, 0))
	v, err := x.At(0, 2)
	require.NoError(t, err)
	assert.Equal(t, -1.0, v, "a write through a view lands in the base")

	xt, err := x.T()
	require.NoError(t, err)
	require.NoError(t, xt.Set(-2, 1, 1))
	v, err = x.At(1, 1)
	require.NoError(t, err)
	assert.Equal(t, -2.0, v)
}

func TestReshapeCopiesOnlyWhenNeeded(t *testing.T) {
	x := grid(t, 2, 3)
	xt, err := x.T()
	require.NoError(t, err)

	flat, err := xt.Reshape(6)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 3, 1, 4, 2, 5}, flat.Values())
	assert.False(t, flat.SameStorage(x), "a transposed matrix cannot be flattened in place: Reshape copies")
	assert.True(t, flat.IsContiguous())

	_, err = xt.ReshapeView(6)
	var re *tensor.ReshapeError
	require.ErrorAs(t, err, &re)
	assert.True(t, re.NotView)
	assert.Equal(t, "view size is not compatible with input tensor's size and stride (at least one dimension spans across two contiguous subspaces): cannot view shape [3, 2] as [6]; use Reshape, which copies", err.Error())

	// Splitting an axis of a transposed matrix needs no copy.
	split, err := xt.ReshapeView(3, 2, 1)
	require.NoError(t, err)
	assert.Equal(t, []int{1, 3, 3}, split.Strides())
	assert.True(t, split.SameStorage(x))

	// A sliced row-major tensor keeps viewable chunks.
	s, err := grid(t, 4, 6).Slice(1, 0, 4, 1)
	require.NoError(t, err)
	v, err := s.ReshapeView(2, 2, 2, 2)
	require.NoError(t, err)
	assert.Equal(t, []int{12, 6, 2, 1}, v.Strides())
	_, err = s.ReshapeView(16)
	assert.ErrorAs(t, err, &re)

	// Expanded tensors cannot be viewed flat; Reshape copies.
	e, err := grid(t, 1, 3).Expand(2, 3)
	require.NoError(t, err)
	f, err := e.Reshape(-1)
	require.NoError(t, err)
	assert.Equal(t, []float64{0, 1, 2, 0, 1, 2}, f.Values())
	g, err := e.ReshapeView(2, 1, 3)
	require.NoError(t, err, "size-1 axes can be inserted into an expanded view")
	assert.Equal(t, []int{0, 3, 1}, g.Strides())

	// Empty tensors reshape freely.
	z, err := tensor.Zeros[float64](0, 3)
	require.NoError(t, err)
	zr, err := z.ReshapeView(3, 0, 5)
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{3, 0, 5}, zr.Shape())
}

func TestViewErrors(t *testing.T) {
	var (
		ae  *tensor.ArgError
		axe *tensor.AxisError
		ie  *tensor.IndexError
		ee  *tensor.ExpandError
		re  *tensor.ReshapeError
		se  *tensor.ShapeError
	)
	x := grid(t, 2, 3)
	const big = 1 << (strconv.IntSize/2 + 8) // 1<<40 on 64-bit, 1<<24 on 32-bit: big*big overflows
	tests := []struct {
		name   string
		call   func() (*tensor.Tensor[float64], error)
		target any
		msg    string
	}{
		{"reshape size", func() (*tensor.Tensor[float64], error) { return x.Reshape(4, 2) },
			&re, "shape '[4, 2]' is invalid for input of size 6"},
		{"reshape -1 does not divide", func() (*tensor.Tensor[float64], error) { return x.Reshape(-1, 4) },
			&re, "shape '[-1, 4]' is invalid for input of size 6"},
		{"reshape two -1", func() (*tensor.Tensor[float64], error) { return x.Reshape(-1, -1) },
			&re, "shape '[-1, -1]' is invalid for input of shape [2, 3]: only one dimension can be inferred"},
		{"reshape negative", func() (*tensor.Tensor[float64], error) { return x.Reshape(-2, -3) },
			&re, "shape '[-2, -3]' is invalid for input of shape [2, 3]: invalid shape dimension -2"},
		{"reshape zero with -1", func() (*tensor.Tensor[float64], error) { return x.Reshape(0, -1) },
			&re, "shape '[0, -1]' is invalid for input of size 6"},
		{"reshape overflow", func() (*tensor.Tensor[float64], error) { return x.Reshape(big, big) },
			&se, fmt.Sprintf("invalid shape [%d, %d] at dimension 1: number of elements overflows int", big, big)},
		{"view size", func() (*tensor.Tensor[float64], error) { return x.ReshapeView(7) },
			&re, "shape '[7]' is invalid for input of size 6"},
		{"permute count", func() (*tensor.Tensor[float64], error) { return x.Permute(0) },
			&ae, "Permute: 1 axes [0] for a tensor of rank 2 (shape [2, 3])"},
		{"permute repeated", func() (*tensor.Tensor[float64], error) { return x.Permute(1, -1) },
			&ae, "Permute: repeated axis 1 in [1 -1]"},
		{"permute bad axis", func() (*tensor.Tensor[float64], error) { return x.Permute(0, 2) },
			&axe, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
		{"transpose bad axis", func() (*tensor.Tensor[float64], error) { return x.Transpose(0, -3) },
			&axe, "Dimension out of range (expected to be in range of [-2, 1], but got -3)"},
		{"T of rank 3", func() (*tensor.Tensor[float64], error) { return grid(t, 1, 2, 3).T() },
			&ae, "T: tensor of rank 3 (shape [1, 2, 3]) is not a matrix; use Transpose or Permute"},
		{"slice step zero", func() (*tensor.Tensor[float64], error) { return x.Slice(0, 0, 2, 0) },
			&ae, "Slice: slice step cannot be zero"},
		{"slice bad axis", func() (*tensor.Tensor[float64], error) { return x.Slice(2, 0, 1, 1) },
			&axe, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
		{"index out of range", func() (*tensor.Tensor[float64], error) { return x.Index(0, 2) },
			&ie, "index 2 is out of bounds for dimension 0 with size 2"},
		{"index negative out of range", func() (*tensor.Tensor[float64], error) { return x.Index(1, -4) },
			&ie, "index -4 is out of bounds for dimension 1 with size 3"},
		{"index of a scalar", func() (*tensor.Tensor[float64], error) { return grid(t).Index(0, 0) },
			&axe, "Dimension specified as 0 but tensor has no dimensions"},
		{"negative index of a scalar", func() (*tensor.Tensor[float64], error) { return grid(t).Slice(-1, 0, 1, 1) },
			&axe, "Dimension specified as -1 but tensor has no dimensions"},
		{"expand non-1", func() (*tensor.Tensor[float64], error) { return x.Expand(4, 3) },
			&ee, "The expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 0.  Target sizes: [4, 3].  Tensor sizes: [2, 3]"},
		{"expand fewer sizes", func() (*tensor.Tensor[float64], error) { return x.Expand(3) },
			&ae, "Expand: the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)"},
		{"expand -1 leading", func() (*tensor.Tensor[float64], error) { return x.Expand(-1, 2, 3) },
			&ae, "Expand: the expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0"},
		{"expand negative", func() (*tensor.Tensor[float64], error) { return x.Expand(2, -3) },
			&se, "invalid shape [2, -3] at dimension 1: negative extent -3"},
		{"broadcast to smaller rank", func() (*tensor.Tensor[float64], error) { return x.BroadcastTo(3) },
			&ae, "BroadcastTo: cannot broadcast shape [2, 3] to [3], which has fewer dimensions"},
		{"broadcast to mismatch", func() (*tensor.Tensor[float64], error) { return x.BroadcastTo(5, 2, 4) },
			&ee, "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 2.  Target sizes: [5, 2, 4].  Tensor sizes: [2, 3]"},
		{"squeeze non-1", func() (*tensor.Tensor[float64], error) { return x.Squeeze(1) },
			&ae, "Squeeze: cannot squeeze axis 1 of shape [2, 3]: extent 3 is not 1"},
		{"squeeze repeated", func() (*tensor.Tensor[float64], error) { return grid(t, 1, 2).Squeeze(0, -2) },
			&ae, "Squeeze: repeated axis 0 in [0 -2]"},
		{"squeeze bad axis", func() (*tensor.Tensor[float64], error) { return x.Squeeze(5) },
			&axe, "Dimension out of range (expected to be in range of [-2, 1], but got 5)"},
		{"unsqueeze bad axis", func() (*tensor.Tensor[float64], error) { return x.Unsqueeze(4) },
			&axe, "Dimension out of range (expected to be in range of [-3, 2], but got 4)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.call()
			require.Error(t, err)
			assert.Nil(t, got)
			assert.True(t, errors.As(err, tt.target), "error type %T", err)
			assert.EqualError(t, err, tt.msg)
		})
	}
}

// TestAxisErrorText checks tensor.Axis's errors in PyTorch's words: the
// range for a tensor with axes, and "no dimensions" for a 0-d tensor,
// whose range [0, -1] would be empty.
func TestAxisErrorText(t *testing.T) {
	tests := []struct {
		axis, rank int
		want       string
	}{
		{2, 2, "Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
		{-3, 2, "Dimension out of range (expected to be in range of [-2, 1], but got -3)"},
		{0, 0, "Dimension specified as 0 but tensor has no dimensions"},
		{-1, 0, "Dimension specified as -1 but tensor has no dimensions"},
		{math.MinInt, 1, fmt.Sprintf("Dimension out of range (expected to be in range of [-1, 0], but got %d)", math.MinInt)},
		{math.MaxInt, 3, fmt.Sprintf("Dimension out of range (expected to be in range of [-3, 2], but got %d)", math.MaxInt)},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			_, err := tensor.Axis(tc.axis, tc.rank)
			var ae *tensor.AxisError
			require.ErrorAs(t, err, &ae)
			assert.EqualError(t, err, tc.want)
		})
	}
}
