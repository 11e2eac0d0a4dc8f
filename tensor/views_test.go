package tensor_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/tensor"
)

// iota64 returns 0, 1, … as a row-major int64 tensor of shape.
func iota64(t *testing.T, shape ...int) *tensor.Tensor[int64] {
	t.Helper()
	n := 1
	for _, d := range shape {
		n *= d
	}
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(i)
	}
	x, err := tensor.FromSlice(v, shape...)
	require.NoError(t, err)
	return x
}

// checkLayout asserts that v's layout is one AsStrided accepts on its
// storage (every element inside it).
func checkLayout[T int64 | float64](t *testing.T, v *tensor.Tensor[T]) {
	t.Helper()
	_, err := tensor.AsStrided(v.Data(), v.Shape(), v.Strides(), v.Offset())
	assert.NoError(t, err, "shape %v strides %v offset %d", v.Shape(), v.Strides(), v.Offset())
}

// Expected values are NumPy 1.24's for the same subscripts.
func TestNegativeStepSlices(t *testing.T) {
	a := iota64(t, 10)
	cases := []struct {
		name              string
		start, stop, step int
		want              []int64
	}{
		{"::-1", math.MaxInt, math.MinInt, -1, []int64{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
		{"5:1:-2", 5, 1, -2, []int64{5, 3}},
		{"-1:-11:-3", -1, -11, -3, []int64{9, 6, 3, 0}},
		{"8::-3", 8, math.MinInt, -3, []int64{8, 5, 2}},
		{":3:-1", math.MaxInt, 3, -1, []int64{9, 8, 7, 6, 5, 4}},
		{"100:-100:-1", 100, -100, -1, []int64{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
		{"2:5:-1", 2, 5, -1, []int64{}},
		{"-20::-1", -20, math.MinInt, -1, []int64{}},
		{"::-100", math.MaxInt, math.MinInt, -100, []int64{9}},
		{"::MinInt", math.MaxInt, math.MinInt, math.MinInt, []int64{9}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := a.Slice(0, c.start, c.stop, c.step)
			require.NoError(t, err)
			assert.Equal(t, c.want, v.Values())
			checkLayout(t, v)
			if len(c.want) > 1 {
				assert.Equal(t, []int{c.step}, v.Strides())
			}
		})
	}
	_, err := a.Slice(0, 0, 5, 0)
	var ae *tensor.ArgError
	require.ErrorAs(t, err, &ae)
	assert.EqualError(t, err, "Slice: slice step cannot be zero")
}

func TestFlip(t *testing.T) {
	a := iota64(t, 2, 3)
	cases := []struct {
		axes    []int
		want    []int64
		strides []int
	}{
		{nil, []int64{5, 4, 3, 2, 1, 0}, []int{-3, -1}},
		{[]int{0}, []int64{3, 4, 5, 0, 1, 2}, []int{-3, 1}},
		{[]int{-1}, []int64{2, 1, 0, 5, 4, 3}, []int{3, -1}},
		{[]int{1, 0}, []int64{5, 4, 3, 2, 1, 0}, []int{-3, -1}},
	}
	for _, c := range cases {
		v, err := a.Flip(c.axes...)
		require.NoError(t, err)
		assert.Equal(t, c.want, v.Values(), "axes %v", c.axes)
		assert.Equal(t, c.strides, v.Strides(), "axes %v", c.axes)
		assert.False(t, v.IsContiguous())
		checkLayout(t, v)
		// Flipping back is the original layout.
		w, err := v.Flip(c.axes...)
		require.NoError(t, err)
		assert.Equal(t, a.Strides(), w.Strides())
		assert.Equal(t, a.Offset(), w.Offset())
	}
	// A view: writes land in t's storage.
	v, _ := a.Flip()
	require.NoError(t, v.Set(-1, 0, 0))
	got, err := a.At(1, 2)
	require.NoError(t, err)
	assert.Equal(t, int64(-1), got)

	s := tensor.Must(tensor.FromSlice([]float64{7}))
	f, err := s.Flip()
	require.NoError(t, err)
	assert.Equal(t, []float64{7}, f.Values())

	_, err = a.Flip(0, -2)
	var ve *tensor.ViewError
	require.ErrorAs(t, err, &ve)
	assert.EqualError(t, err, "Flip of shape [2, 3] at dimension 0: repeated axis in [0 -2]")
	_, err = a.Flip(2)
	var axe *tensor.AxisError
	require.ErrorAs(t, err, &axe)
	assert.EqualError(t, err, "Flip of shape [2, 3]: Dimension out of range (expected to be in range of [-2, 1], but got 2)")
}

// A reversed view is copied, cloned, printed and encoded in its logical
// order.
func TestFlippedConsumers(t *testing.T) {
	a := tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	v := tensor.Must(a.Flip())
	c := v.Contiguous()
	assert.True(t, c.IsContiguous())
	assert.Equal(t, []float64{6, 5, 4, 3, 2, 1}, c.Values())
	assert.Equal(t, "[[6. 5. 4.]\n [3. 2. 1.]]", v.String())
	b, err := v.MarshalBinary()
	require.NoError(t, err)
	var back tensor.Tensor[float64]
	require.NoError(t, back.UnmarshalBinary(b))
	assert.Equal(t, []float64{6, 5, 4, 3, 2, 1}, back.Values())
	// A reversed, transposed view (the tile path of copyStrided).
	big := iota64(t, 40, 50)
	tv := tensor.Must(tensor.Must(big.T()).Flip(1))
	want := make([]int64, 0, 2000)
	for j := range 50 {
		for i := 39; i >= 0; i-- {
			want = append(want, int64(i*50+j))
		}
	}
	assert.Equal(t, want, tv.Values())
	assert.True(t, v.MayOverlap(a))
	h := tensor.Must(a.Slice(1, 0, 1, 1))
	assert.True(t, tensor.Must(h.Flip()).MayOverlap(a))
}

func TestAsStridedNegative(t *testing.T) {
	data := []int64{0, 1, 2, 3, 4, 5}
	v, err := tensor.AsStrided(data, tensor.Shape{2, 3}, []int{-3, -1}, 5)
	require.NoError(t, err)
	assert.Equal(t, []int64{5, 4, 3, 2, 1, 0}, v.Values())
	_, err = tensor.AsStrided(data, tensor.Shape{2, 3}, []int{-3, -1}, 4)
	var se *tensor.ShapeError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 1, se.Axis)
	_, err = tensor.AsStrided(data, tensor.Shape{2}, []int{math.MinInt}, 5)
	require.ErrorAs(t, err, &se)
	_, err = tensor.AsStrided(data, tensor.Shape{2}, []int{-math.MaxInt}, 5)
	require.ErrorAs(t, err, &se)
}

func TestIdx(t *testing.T) {
	u := iota64(t, 4, 5)
	x := iota64(t, 2, 3, 4)
	cases := []struct {
		name  string
		of    *tensor.Tensor[int64]
		items []tensor.IndexItem
		shape tensor.Shape
		want  []int64
	}{
		{"u[1:-1, 1:-1]", u, []tensor.IndexItem{tensor.S(1, -1), tensor.S(1, -1)}, tensor.Shape{2, 3}, []int64{6, 7, 8, 11, 12, 13}},
		{"x[..., None, ::2]", x, []tensor.IndexItem{tensor.Ellipsis, tensor.NewAxis, tensor.Step(2)}, tensor.Shape{2, 3, 1, 2},
			[]int64{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}},
		{"x[-1, ::-1, 1]", x, []tensor.IndexItem{tensor.I(-1), tensor.Step(-1), tensor.I(1)}, tensor.Shape{3}, []int64{21, 17, 13}},
		{"x[:, None, -2:0:-1]", x, []tensor.IndexItem{tensor.All, tensor.NewAxis, tensor.S(-2, 0).Step(-1)}, tensor.Shape{2, 1, 1, 4},
			[]int64{4, 5, 6, 7, 16, 17, 18, 19}},
		{"u[2]", u, []tensor.IndexItem{tensor.I(2)}, tensor.Shape{5}, []int64{10, 11, 12, 13, 14}},
		{"u[1, 3]", u, []tensor.IndexItem{tensor.I(1), tensor.I(3)}, tensor.Shape{}, []int64{8}},
		{"u[...]", u, []tensor.IndexItem{tensor.Ellipsis}, tensor.Shape{4, 5}, u.Values()},
		{"u[]", u, nil, tensor.Shape{4, 5}, u.Values()},
		{"u[None, ..., None]", u, []tensor.IndexItem{tensor.NewAxis, tensor.Ellipsis, tensor.NewAxis}, tensor.Shape{1, 4, 5, 1}, u.Values()},
		{"u[3:, :2]", u, []tensor.IndexItem{tensor.From(3), tensor.To(2)}, tensor.Shape{1, 2}, []int64{15, 16}},
		{"u[:2:-1]", u, []tensor.IndexItem{tensor.To(2).Step(-1)}, tensor.Shape{1, 5}, []int64{15, 16, 17, 18, 19}},
		{"u[5:, 1]", u, []tensor.IndexItem{tensor.From(5), tensor.I(1)}, tensor.Shape{0}, []int64{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := c.of.Idx(c.items...)
			require.NoError(t, err)
			assert.Equal(t, c.shape, v.Shape())
			assert.Equal(t, c.want, v.Values())
			checkLayout(t, v)
		})
	}
	// A view: u[1:-1, 1:-1] shares u's storage.
	v := tensor.Must(u.Idx(tensor.S(1, -1), tensor.S(1, -1)))
	require.NoError(t, v.Set(-7, 0, 0))
	got, err := u.At(1, 1)
	require.NoError(t, err)
	assert.Equal(t, int64(-7), got)
}

func TestIdxErrors(t *testing.T) {
	u := iota64(t, 4, 5)
	cases := []struct {
		name  string
		items []tensor.IndexItem
		text  string
		inner any // the wrapped error's type, or nil
	}{
		{"too many", []tensor.IndexItem{tensor.I(0), tensor.I(0), tensor.I(0)},
			"Idx[0, 0, 0] of shape [4, 5]: too many indices: 3 for 2 dimensions", nil},
		{"two ellipses", []tensor.IndexItem{tensor.Ellipsis, tensor.Ellipsis},
			"Idx[..., ...] of shape [4, 5]: an index can only have a single ellipsis", nil},
		{"out of range", []tensor.IndexItem{tensor.All, tensor.I(5)},
			"Idx[:, 5] of shape [4, 5] at dimension 1: index 5 is out of bounds for dimension 1 with size 5", new(*tensor.IndexError)},
		{"negative out of range", []tensor.IndexItem{tensor.I(-5)},
			"Idx[-5] of shape [4, 5] at dimension 0: index -5 is out of bounds for dimension 0 with size 4", new(*tensor.IndexError)},
		{"zero step", []tensor.IndexItem{tensor.Ellipsis, tensor.Step(0)},
			"Idx[..., ::0] of shape [4, 5] at dimension 1: Slice: slice step cannot be zero", new(*tensor.ArgError)},
		{"step of an integer", []tensor.IndexItem{tensor.I(1).Step(2)},
			"Idx[<Step(2) of a non-slice>] of shape [4, 5]: item 0: Step applies to slices only", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := u.Idx(c.items...)
			assert.Nil(t, v)
			var ve *tensor.ViewError
			require.ErrorAs(t, err, &ve)
			assert.EqualError(t, err, c.text)
			if c.inner != nil {
				assert.ErrorAs(t, err, c.inner)
			} else {
				assert.Nil(t, errors.Unwrap(err))
			}
		})
	}
}

func TestDiagonal(t *testing.T) {
	u := iota64(t, 4, 5)
	x := iota64(t, 2, 3, 4)
	cases := []struct {
		name              string
		of                *tensor.Tensor[int64]
		off, axis1, axis2 int
		shape             tensor.Shape
		want              []int64
	}{
		{"main", u, 0, 0, 1, tensor.Shape{4}, []int64{0, 6, 12, 18}},
		{"below", u, -2, 0, 1, tensor.Shape{2}, []int64{10, 16}},
		{"above", u, 3, 0, 1, tensor.Shape{2}, []int64{3, 9}},
		{"past the edge", u, 5, 0, 1, tensor.Shape{0}, []int64{}},
		{"far below", u, math.MinInt, 0, 1, tensor.Shape{0}, []int64{}},
		{"axes 0, 2", x, 1, 0, 2, tensor.Shape{3, 2}, []int64{1, 14, 5, 18, 9, 22}},
		{"axes 2, 1", x, -1, 2, 1, tensor.Shape{2, 3}, []int64{1, 6, 11, 13, 18, 23}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := c.of.Diagonal(c.off, c.axis1, c.axis2)
			require.NoError(t, err)
			assert.Equal(t, c.shape, v.Shape())
			assert.Equal(t, c.want, v.Values())
			checkLayout(t, v)
		})
	}
	_, err := u.Diagonal(0, 1, -1)
	assert.EqualError(t, err, "Diagonal of shape [4, 5] at dimension 1: axis1 and axis2 cannot be the same (both 1)")
	_, err = u.Diagonal(0, 0, 2)
	var axe *tensor.AxisError
	assert.ErrorAs(t, err, &axe)
}

func TestMoveAxisSwapAxes(t *testing.T) {
	x := iota64(t, 2, 3, 4)
	v, err := x.MoveAxis([]int{0, 1}, []int{-1, 0})
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{3, 4, 2}, v.Shape())
	assert.Equal(t, []int64{0, 12, 1, 13, 2, 14, 3, 15, 4, 16, 5, 17, 6, 18, 7, 19, 8, 20, 9, 21, 10, 22, 11, 23}, v.Values())
	_, err = x.MoveAxis([]int{0, 0}, []int{1, 2})
	var ve *tensor.ViewError
	require.ErrorAs(t, err, &ve)
	assert.EqualError(t, err, "MoveAxis of shape [2, 3, 4] at dimension 0: repeated axis in source [0 0]")
	_, err = x.MoveAxis([]int{0}, []int{1, 2})
	assert.ErrorAs(t, err, &ve)
	_, err = x.MoveAxis([]int{3}, []int{1})
	assert.ErrorAs(t, err, &ve)

	s, err := x.SwapAxes(0, -1)
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{4, 3, 2}, s.Shape())
	assert.Equal(t, []int{1, 4, 12}, s.Strides())
	_, err = x.SwapAxes(0, 3)
	assert.EqualError(t, err, "SwapAxes of shape [2, 3, 4]: Dimension out of range (expected to be in range of [-3, 2], but got 3)")
}

func TestSplits(t *testing.T) {
	values := func(ps []*tensor.Tensor[int64]) [][]int64 {
		out := make([][]int64, len(ps))
		for i, p := range ps {
			out[i] = p.Values()
		}
		return out
	}
	ps, err := iota64(t, 5).SplitAt([]int{3, 1}, 0)
	require.NoError(t, err)
	assert.Equal(t, [][]int64{{0, 1, 2}, {}, {1, 2, 3, 4}}, values(ps))
	ps, err = iota64(t, 6).SplitAt([]int{-2, 10}, -1)
	require.NoError(t, err)
	assert.Equal(t, [][]int64{{0, 1, 2, 3}, {4, 5}, {}}, values(ps))
	ps, err = iota64(t, 7).ArraySplit(3, 0)
	require.NoError(t, err)
	assert.Equal(t, [][]int64{{0, 1, 2}, {3, 4}, {5, 6}}, values(ps))
	ps, err = iota64(t, 2, 6).Split(3, 1)
	require.NoError(t, err)
	assert.Equal(t, [][]int64{{0, 1, 6, 7}, {2, 3, 8, 9}, {4, 5, 10, 11}}, values(ps))
	_, err = iota64(t, 7).Split(3, 0)
	assert.EqualError(t, err, "Split of shape [7] at dimension 0: extent 7 does not divide into 3 equal sections")
	_, err = iota64(t, 7).ArraySplit(0, 0)
	assert.EqualError(t, err, "ArraySplit of shape [7] at dimension 0: number of sections must be larger than 0, got 0")
	_, err = iota64(t, 7).Split(1, 1)
	var axe *tensor.AxisError
	assert.ErrorAs(t, err, &axe)
}
