package tensor_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/tensor"
)

// ints returns a function making an int64 index tensor of the shape.
func ints(shape ...int) func(v ...int64) *tensor.Tensor[int64] {
	return func(v ...int64) *tensor.Tensor[int64] {
		if v == nil {
			v = []int64{}
		}
		return tensor.Must(tensor.FromSlice(v, shape...))
	}
}

// bools returns a function making a bool mask of the shape.
func bools(shape ...int) func(v ...bool) *tensor.Tensor[bool] {
	return func(v ...bool) *tensor.Tensor[bool] { return tensor.Must(tensor.FromSlice(v, shape...)) }
}

func items(it ...tensor.IndexItem) []tensor.IndexItem { return it }

// advancedCases index x = arange(24).reshape(2, 3, 4); the results are
// NumPy 1.24's x[...] for the same subscript, pasted. They cover where
// the broadcast index axes go: in place for adjacent advanced items
// (integers count as advanced next to an index tensor), first where a
// slice, a new axis or an ellipsis (even an empty one) separates them.
var advancedCases = []struct {
	name  string
	items []tensor.IndexItem
	shape tensor.Shape
	want  []float64
}{
	{"one array, axis 0", items(tensor.At(ints(2)(1, -2))), tensor.Shape{2, 3, 4}, []float64{12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
	{"array on the middle axis", items(tensor.All, tensor.At(ints(3)(2, -1, 0))), tensor.Shape{2, 3, 4}, []float64{8, 9, 10, 11, 8, 9, 10, 11, 0, 1, 2, 3, 20, 21, 22, 23, 20, 21, 22, 23, 12, 13, 14, 15}},
	{"two adjacent arrays", items(tensor.At(ints(2)(1, 0)), tensor.At(ints(2)(2, 2))), tensor.Shape{2, 4}, []float64{20, 21, 22, 23, 8, 9, 10, 11}},
	{"adjacent arrays broadcast [2,1] with [3]", items(tensor.All, tensor.At(ints(2, 1)(0, 2)), tensor.At(ints(3)(3, 0, 1))), tensor.Shape{2, 2, 3}, []float64{3, 0, 1, 11, 8, 9, 15, 12, 13, 23, 20, 21}},
	{"separated arrays go first", items(tensor.At(ints(3)(1, 0, 1)), tensor.All, tensor.At(ints(3)(0, 3, -1))), tensor.Shape{3, 3}, []float64{12, 16, 20, 3, 7, 11, 15, 19, 23}},
	{"an integer and an array separated go first", items(tensor.I(1), tensor.All, tensor.At(ints(2)(3, 0))), tensor.Shape{2, 3}, []float64{15, 19, 23, 12, 16, 20}},
	{"an integer and an array adjacent stay", items(tensor.All, tensor.I(-1), tensor.At(ints(2)(3, 0))), tensor.Shape{2, 2}, []float64{11, 8, 23, 20}},
	{"a new axis separates", items(tensor.At(ints(2)(0, 1)), tensor.NewAxis, tensor.At(ints(2)(1, 2))), tensor.Shape{2, 1, 4}, []float64{4, 5, 6, 7, 20, 21, 22, 23}},
	{"an empty ellipsis separates", items(tensor.All, tensor.At(ints(1)(2)), tensor.Ellipsis, tensor.At(ints(1)(1))), tensor.Shape{1, 2}, []float64{9, 21}},
	{"ellipsis then array", items(tensor.Ellipsis, tensor.At(ints(2)(-1, 1))), tensor.Shape{2, 3, 2}, []float64{3, 1, 7, 5, 11, 9, 15, 13, 19, 17, 23, 21}},
	{"slice with a step and an array", items(tensor.Step(-1), tensor.At(ints(2)(2, 0)), tensor.S(1, 3)), tensor.Shape{2, 2, 2}, []float64{21, 22, 13, 14, 9, 10, 1, 2}},
	{"2-D array on the last axis", items(tensor.S(0, 2), tensor.All, tensor.At(ints(2, 2)(0, 3, 3, 0))), tensor.Shape{2, 3, 2, 2}, []float64{0, 3, 3, 0, 4, 7, 7, 4, 8, 11, 11, 8, 12, 15, 15, 12, 16, 19, 19, 16, 20, 23, 23, 20}},
	{"2-D mask", items(tensor.At(bools(2, 3)(true, false, true, false, true, true))), tensor.Shape{4, 4}, []float64{0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23}},
	{"1-D mask on the middle axis", items(tensor.All, tensor.At(bools(3)(false, true, true))), tensor.Shape{2, 2, 4}, []float64{4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23}},
	{"mask and array", items(tensor.At(bools(2)(true, true)), tensor.All, tensor.At(ints(2)(0, 1))), tensor.Shape{2, 3}, []float64{0, 4, 8, 13, 17, 21}},
	{"0-d true mask", items(tensor.At(bools()(true))), tensor.Shape{1, 2, 3, 4}, []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}},
	{"0-d false mask", items(tensor.At(bools()(false))), tensor.Shape{0, 2, 3, 4}, []float64{}},
	{"empty index", items(tensor.All, tensor.At(ints(0)())), tensor.Shape{2, 0, 4}, []float64{}},
	{"0-d index drops the axis", items(tensor.All, tensor.All, tensor.At(ints()(2))), tensor.Shape{2, 3}, []float64{2, 6, 10, 14, 18, 22}},
}

func TestIdxAdvanced(t *testing.T) {
	x := tensor.Must(tensor.Arange[float64](0, 24, 1))
	x3 := tensor.Must(x.Reshape(2, 3, 4))
	// The same values through a reversed, transposed layout: the copy
	// follows the view's strides.
	r := tensor.Must(x3.Idx(tensor.Step(-1), tensor.All, tensor.Step(-1)))
	s := tensor.Must(r.Permute(2, 1, 0)).Contiguous()
	rev := tensor.Must(tensor.Must(s.Permute(2, 1, 0)).Flip(0, 2))
	require.Equal(t, x3.Values(), rev.Values())
	for _, c := range advancedCases {
		t.Run(c.name, func(t *testing.T) {
			for _, base := range []*tensor.Tensor[float64]{x3, rev} {
				got, err := base.Idx(c.items...)
				require.NoError(t, err)
				assert.Equal(t, c.shape, got.Shape())
				assert.Equal(t, c.want, got.Values())
				assert.True(t, got.IsContiguous())
				assert.False(t, got.SameStorage(base), "advanced indexing copies")
			}
		})
	}
}

// TestIdxAdvancedDTypes indexes with every integer dtype.
func TestIdxAdvancedDTypes(t *testing.T) {
	x := tensor.Must(tensor.Arange[float64](0, 5, 1))
	want := []float64{4, 0, 2}
	for name, idx := range map[string]tensor.Indexer{
		"int":    tensor.Must(tensor.FromSlice([]int{-1, 0, 2}, 3)),
		"int8":   tensor.Must(tensor.FromSlice([]int8{-1, 0, 2}, 3)),
		"int16":  tensor.Must(tensor.FromSlice([]int16{4, 0, 2}, 3)),
		"int32":  tensor.Must(tensor.FromSlice([]int32{-1, -5, 2}, 3)),
		"uint":   tensor.Must(tensor.FromSlice([]uint{4, 0, 2}, 3)),
		"uint8":  tensor.Must(tensor.FromSlice([]uint8{4, 0, 2}, 3)),
		"uint16": tensor.Must(tensor.FromSlice([]uint16{4, 0, 2}, 3)),
		"uint32": tensor.Must(tensor.FromSlice([]uint32{4, 0, 2}, 3)),
		"uint64": tensor.Must(tensor.FromSlice([]uint64{4, 0, 2}, 3)),
	} {
		t.Run(name, func(t *testing.T) {
			got, err := x.Idx(tensor.At(idx))
			require.NoError(t, err)
			assert.Equal(t, want, got.Values())
		})
	}
}

func TestIdxAdvancedErrors(t *testing.T) {
	x := tensor.Must(tensor.Must(tensor.Arange[float64](0, 24, 1)).Reshape(2, 3, 4))
	floats := tensor.Must(tensor.FromSlice([]float64{0, 1}, 2))
	cases := []struct {
		name  string
		items []tensor.IndexItem
		as    any
		text  string
	}{
		{"index past the axis", items(tensor.All, tensor.At(ints(2)(0, 3))), new(*tensor.IndexError),
			"index 3 is out of bounds for dimension 1 with size 3"},
		{"negative past the axis", items(tensor.At(ints(1)(-3))), new(*tensor.IndexError),
			"index -3 is out of bounds for dimension 0 with size 2"},
		{"integer past the axis next to an array", items(tensor.At(ints(1)(0)), tensor.I(5)), new(*tensor.IndexError),
			"index 5 is out of bounds for dimension 1 with size 3"},
		{"arrays that do not broadcast", items(tensor.At(ints(2)(0, 1)), tensor.At(ints(3)(0, 1, 2))), new(*tensor.BroadcastError),
			"shape mismatch: indexing arrays could not be broadcast together with shapes [2] [3]"},
		{"mask of the wrong shape", items(tensor.All, tensor.At(bools(2)(true, false))), new(*tensor.ShapeError),
			"boolean index did not match indexed array along dimension 1; dimension is 3 but corresponding boolean dimension is 2"},
		{"float index", items(tensor.At(floats)), new(*tensor.ArgError), "an index tensor must be of an integer type or bool, not float64"},
		{"too many indices", items(tensor.At(bools(2, 3, 4, 1)(make([]bool, 24)...))), nil, "too many indices: 4 for 3 dimensions"},
		{"nil index", items(tensor.At(nil)), nil, "item 0: At of a nil index"},
		{"a view error of the basic items", items(tensor.At(ints(1)(0)), tensor.All.Step(0)), nil, "step"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := x.Idx(c.items...)
			require.Error(t, err)
			assert.Nil(t, got)
			var ve *tensor.ViewError
			require.True(t, errors.As(err, &ve), "%T", err)
			assert.Equal(t, tensor.Shape{2, 3, 4}, ve.Shape)
			assert.Contains(t, err.Error(), c.text)
			if c.as != nil {
				assert.True(t, errors.As(err, c.as), "%T does not wrap %T", err, c.as)
			}
		})
	}
}

// TestIndexMapRefusesArrays: the basic map says where index tensors go.
func TestIndexMapRefusesArrays(t *testing.T) {
	_, err := tensor.IndexMap(tensor.Shape{3}, tensor.At(ints(1)(0)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "advanced index")
	assert.True(t, tensor.HasArrays(items(tensor.All, tensor.At(ints(1)(0)))))
	assert.False(t, tensor.HasArrays(items(tensor.All, tensor.I(0))))
	assert.Nil(t, tensor.All.Array())
}

// TestIdxAdvancedIndexErrors: an index tensor's value outside its axis is
// an *IndexError naming that axis of the operand, the value and the
// axis's extent (NumPy 1.24's "index 5 is out of bounds for axis 1 with
// size 3" for the same subscript), whichever index tensor holds it; an
// empty broadcast checks nothing (NumPy checks the broadcast values).
func TestIdxAdvancedIndexErrors(t *testing.T) {
	for _, c := range advancedIndexErrorCases {
		t.Run(c.Name, func(t *testing.T) {
			n, _ := c.Shape.Numel()
			x := tensor.Must(tensor.Must(tensor.Arange[float64](0, float64(n), 1)).Reshape(c.Shape...))
			got, err := x.Idx(c.Items...)
			if c.Err == nil {
				require.NoError(t, err)
				assert.Equal(t, c.Want, got.Values())
				assert.Equal(t, c.WantShape, got.Shape())
				return
			}
			var ie *tensor.IndexError
			require.True(t, errors.As(err, &ie), "%v", err)
			assert.Equal(t, *c.Err, *ie)
		})
	}
}
