package tensor_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/tensor"
)

// TestZeroSizeStrides checks the strides of new zero-size tensors whose
// nonzero extents multiply past math.MaxInt: row-major where that fits,
// math.MaxInt beyond, never negative.
func TestZeroSizeStrides(t *testing.T) {
	tests := []struct {
		shape []int
		want  []int
	}{
		{[]int{0, 3, 4}, []int{12, 4, 1}},
		{[]int{0, 3, huge}, []int{math.MaxInt, huge, 1}},
		{[]int{0, 2, 2, 1, huge}, []int{math.MaxInt, math.MaxInt, huge, huge, 1}},
		{[]int{math.MaxInt, 0, math.MaxInt}, []int{math.MaxInt, math.MaxInt, 1}},
	}
	for _, tc := range tests {
		t.Run(tensor.Shape(tc.shape).String(), func(t *testing.T) {
			x, err := tensor.New[float32](tc.shape...)
			require.NoError(t, err)
			assert.Equal(t, 0, x.Numel())
			assert.Equal(t, tc.want, x.Strides())
			assert.Equal(t, tc.want, tensor.RowMajorStrides(tc.shape))
		})
	}
}

// TestZeroSizeHugeViews applies every view method to zero-size tensors with
// extreme extents: each returns a view or a typed error, never panics, and
// every view has non-negative strides that AsStrided accepts.
func TestZeroSizeHugeViews(t *testing.T) {
	shapes := [][]int{
		{0, 3, huge},
		{0, 2, 2, 1, huge},
		{huge, huge, 0},
		{math.MaxInt, 0, math.MaxInt},
		{0, math.MaxInt},
	}
	ints := []int{0, 1, -1, 2, math.MaxInt, math.MinInt, huge}
	for _, shape := range shapes {
		t.Run(tensor.Shape(shape).String(), func(t *testing.T) {
			x, err := tensor.New[float64](shape...)
			require.NoError(t, err)
			r := x.Rank()
			var views []func() (*tensor.Tensor[float64], error)
			add := func(f func() (*tensor.Tensor[float64], error)) { views = append(views, f) }
			for ax := -r - 1; ax <= r; ax++ {
				add(func() (*tensor.Tensor[float64], error) { return x.Unsqueeze(ax) })
				add(func() (*tensor.Tensor[float64], error) { return x.Squeeze(ax) })
				add(func() (*tensor.Tensor[float64], error) { return x.Transpose(0, ax) })
				for _, a := range ints {
					add(func() (*tensor.Tensor[float64], error) { return x.Index(ax, a) })
					for _, b := range ints {
						for _, c := range ints {
							add(func() (*tensor.Tensor[float64], error) { return x.Slice(ax, a, b, c) })
						}
					}
				}
			}
			perm := make([]int, r)
			for i := range perm {
				perm[i] = r - 1 - i
			}
			grown := append([]int{math.MaxInt}, shape...)
			add(func() (*tensor.Tensor[float64], error) { return x.Permute(perm...) })
			add(func() (*tensor.Tensor[float64], error) { return x.Squeeze() })
			add(func() (*tensor.Tensor[float64], error) { return x.Flatten() })
			add(func() (*tensor.Tensor[float64], error) { return x.Reshape(0, math.MaxInt) })
			add(func() (*tensor.Tensor[float64], error) { return x.ReshapeView(math.MaxInt, math.MaxInt, 0) })
			add(func() (*tensor.Tensor[float64], error) { return x.Reshape(-1, 0) })
			add(func() (*tensor.Tensor[float64], error) { return x.Expand(grown...) })
			add(func() (*tensor.Tensor[float64], error) { return x.BroadcastTo(append([]int{2}, shape...)...) })
			add(func() (*tensor.Tensor[float64], error) {
				return tensor.AsStrided(x.Data(), x.Shape(), x.Strides(), math.MaxInt)
			})
			for i, f := range views {
				var v *tensor.Tensor[float64]
				require.NotPanics(t, func() { v, err = f() }, "view %d", i)
				if err != nil {
					continue
				}
				for _, st := range v.Strides() {
					require.GreaterOrEqual(t, st, 0, "view %d: strides %v of shape %v", i, v.Strides(), v.Shape())
				}
				_, err := tensor.AsStrided(v.Data(), v.Shape(), v.Strides(), v.Offset())
				require.NoError(t, err, "view %d", i)
				require.NotPanics(t, func() { _ = v.Values(); _ = v.String(); _ = v.Contiguous(); _, _ = v.Unsqueeze(0) })
			}
		})
	}
}
