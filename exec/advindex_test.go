package exec_test

// Advanced indexing on expressions (expr's Idx with tensor.At): the lazy
// gather gives what Tensor.Idx gives (which tensor/advindex_test.go
// checks against NumPy), on contiguous, transposed and reversed operands,
// with tensor and computed indices; indices are checked before anything
// is written; the gather fuses into its consumer.

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

func idx64(t *testing.T, v []int64, shape ...int) *tensor.Tensor[int64] {
	t.Helper()
	if v == nil {
		v = []int64{}
	}
	return tensor.Must(tensor.FromSlice(v, shape...))
}

func TestIdxAdvancedLazy(t *testing.T) {
	i2 := idx64(t, []int64{1, -2}, 2)
	i3 := idx64(t, []int64{2, -1, 0}, 3)
	col := idx64(t, []int64{0, 2}, 2, 1)
	row := idx64(t, []int64{3, 0, 1}, 3)
	sq := idx64(t, []int64{0, 3, 3, 0}, 2, 2)
	i32 := tensor.Must(tensor.FromSlice([]int32{-1, 0, 3}, 3))
	cases := []struct {
		name  string
		items []tensor.IndexItem
		shape tensor.Shape
	}{
		{"one array, axis 0", []tensor.IndexItem{tensor.At(i2)}, tensor.Shape{2, 3, 4}},
		{"middle axis", []tensor.IndexItem{tensor.All, tensor.At(i3)}, tensor.Shape{2, 3, 4}},
		{"int32 on the last axis", []tensor.IndexItem{tensor.Ellipsis, tensor.At(i32)}, tensor.Shape{2, 3, 3}},
		{"two adjacent", []tensor.IndexItem{tensor.At(i2), tensor.At(i2)}, tensor.Shape{2, 4}},
		{"adjacent broadcast", []tensor.IndexItem{tensor.All, tensor.At(col), tensor.At(row)}, tensor.Shape{2, 2, 3}},
		{"three adjacent", []tensor.IndexItem{tensor.At(idx64(t, []int64{-1}, 1)), tensor.At(col), tensor.At(row)}, tensor.Shape{2, 3}},
		{"separated go first", []tensor.IndexItem{tensor.At(idx64(t, []int64{1, 0, 1}, 3)), tensor.All, tensor.At(row)}, tensor.Shape{3, 3}},
		{"integer separated", []tensor.IndexItem{tensor.I(1), tensor.All, tensor.At(row)}, tensor.Shape{3, 3}},
		{"integer adjacent", []tensor.IndexItem{tensor.All, tensor.I(-1), tensor.At(row)}, tensor.Shape{2, 3}},
		{"new axis separates", []tensor.IndexItem{tensor.At(i2), tensor.NewAxis, tensor.At(col)}, tensor.Shape{2, 2, 1, 4}},
		{"empty ellipsis separates", []tensor.IndexItem{tensor.All, tensor.At(i3), tensor.Ellipsis, tensor.At(row)}, tensor.Shape{3, 2}},
		{"with a reversed slice", []tensor.IndexItem{tensor.Step(-1), tensor.At(i3), tensor.S(1, 3)}, tensor.Shape{2, 3, 2}},
		{"2-D index", []tensor.IndexItem{tensor.S(0, 2), tensor.All, tensor.At(sq)}, tensor.Shape{2, 3, 2, 2}},
		{"empty index", []tensor.IndexItem{tensor.All, tensor.At(idx64(t, nil, 0))}, tensor.Shape{2, 0, 4}},
		{"0-d index", []tensor.IndexItem{tensor.All, tensor.All, tensor.At(idx64(t, []int64{2}))}, tensor.Shape{2, 3}},
	}
	base := tensor.Must(tensor.Must(tensor.Arange[float64](0, 24, 1)).Reshape(2, 3, 4))
	r := tensor.Must(base.Idx(tensor.Step(-1), tensor.All, tensor.Step(-1)))
	s := tensor.Must(r.Permute(2, 1, 0)).Contiguous()
	rev := tensor.Must(tensor.Must(s.Permute(2, 1, 0)).Flip(0, 2)) // base's values, strides [-1, 2, -6]
	layouts := map[string]expr.Expr[float64]{
		"contiguous": expr.Of(base),
		"reversed":   expr.Of(rev),
		"computed":   expr.Of(base).MulScalar(2).SubScalar(1),
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want, err := base.Idx(c.items...)
			require.NoError(t, err)
			require.Equal(t, c.shape, want.Shape())
			for name, x := range layouts {
				e := x.Idx(c.items...)
				require.NoError(t, e.Err(), name)
				assert.Equal(t, c.shape, e.Shape(), name)
				for _, ex := range []*exec.Executor{exec.Default, odd} {
					got, err := exec.EvalWith(ex, e)
					require.NoError(t, err, name)
					w := want.Values()
					if name == "computed" {
						for i := range w {
							w[i] = 2*w[i] - 1
						}
					}
					assert.Equal(t, w, got.Values(), name)
				}
			}
		})
	}
}

// TestIdxAdvancedComputedIndex: an index that is an expression, computed
// in the same graph, and the gradient-free int paths.
func TestIdxAdvancedComputedIndex(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.Must(tensor.Arange[float64](0, 12, 1)).Reshape(3, 4)))
	i := expr.Of(idx64(t, []int64{0, 1, 2}, 3)).MulScalar(2).SubScalar(1) // -1, 1, 3
	got, err := exec.Eval(x.Idx(tensor.At(expr.Of(idx64(t, []int64{2, 0, 1}, 3))), tensor.At(i)))
	require.NoError(t, err)
	assert.Equal(t, []float64{11, 1, 7}, got.Values())
}

func TestIdxAdvancedLazyErrors(t *testing.T) {
	x := tensor.Must(tensor.Must(tensor.Arange[float64](0, 12, 1)).Reshape(3, 4))
	t.Run("index past its axis, nothing written", func(t *testing.T) {
		for _, items := range [][]tensor.IndexItem{
			{tensor.All, tensor.At(idx64(t, []int64{0, 4}, 2))},
			{tensor.At(idx64(t, []int64{0, -4}, 2))},
			// 3 is past axis 0 but 3*4+0 would be inside the flat axis.
			{tensor.At(idx64(t, []int64{0, 3}, 2)), tensor.At(idx64(t, []int64{0, 0}, 2))},
			{tensor.At(idx64(t, []int64{0, 1}, 2)), tensor.At(idx64(t, []int64{0, 4}, 2))},
		} {
			dst := tensor.Must(tensor.Full[float64](7, 2, 2))
			e := expr.Of(x).Idx(items...)
			require.NoError(t, e.Err())
			_, err := exec.Eval(e)
			var ie *tensor.IndexError
			require.True(t, errors.As(err, &ie), "%v", err)
			err = exec.EvalTo(dst, e.Reshape(2, -1).Expand(2, 2))
			require.Error(t, err)
			assert.Equal(t, []float64{7, 7, 7, 7}, dst.Values(), "nothing written")
		}
	})
	t.Run("built", func(t *testing.T) {
		mask := tensor.Must(tensor.FromSlice([]bool{true, false, true}, 3))
		fl := tensor.Must(tensor.FromSlice([]float64{0}, 1))
		for _, c := range []struct {
			items []tensor.IndexItem
			as    any
			text  string
		}{
			{[]tensor.IndexItem{tensor.At(mask)}, new(*tensor.ArgError), "boolean mask"},
			{[]tensor.IndexItem{tensor.At(fl)}, new(*tensor.ArgError), "integer type or bool, not float64"},
			{[]tensor.IndexItem{tensor.At(expr.Of(fl))}, new(*tensor.ArgError), "integer type or bool, not float64"},
			{[]tensor.IndexItem{tensor.At(idx64(t, []int64{0, 1}, 2)), tensor.At(idx64(t, []int64{0, 1, 2}, 3))}, new(*tensor.BroadcastError), "could not be broadcast together with shapes [2] [3]"},
			{[]tensor.IndexItem{tensor.At(idx64(t, []int64{0}, 1)), tensor.I(4)}, new(*tensor.IndexError), "index 4 is out of bounds for dimension 1 with size 4"},
		} {
			e := expr.Of(x).Idx(c.items...)
			require.Error(t, e.Err())
			assert.Contains(t, e.Err().Error(), c.text)
			assert.True(t, errors.As(e.Err(), c.as), "%v", e.Err())
			var ve *tensor.ViewError
			assert.True(t, errors.As(e.Err(), &ve), "%T", e.Err())
		}
	})
}

// TestIdxAdvancedFuses: x[arange, labels] inside a sum reads x through
// the index (no temporary for the gather).
func TestIdxAdvancedFuses(t *testing.T) {
	logp := tensor.Must(tensor.Must(tensor.Arange[float64](0, 12, 1)).Reshape(3, 4))
	rows := idx64(t, []int64{0, 1, 2}, 3)
	labels := idx64(t, []int64{3, 0, 2}, 3)
	var plan bytes.Buffer
	x := exec.New(exec.Debug(&plan))
	defer x.Close()
	got, err := exec.EvalWith(x, expr.Of(logp).Idx(tensor.At(rows), tensor.At(labels)).Neg().Sum())
	require.NoError(t, err)
	v, _ := got.Item()
	assert.Equal(t, -(3.0 + 4 + 10), v)
	assert.Contains(t, plan.String(), "indexed by")
	assert.NotContains(t, plan.String(), "f64[3](temp)", "the gathered values are not a tensor of their own")
}

// TestIdxAdvancedLazyIndexErrors: the lazy gather refuses an index tensor's
// value outside its axis with the *tensor.IndexError Tensor.Idx gives
// (NumPy's axis, value and extent), whichever index tensor holds it and
// wherever NumPy moves the broadcast axes, for leaf and computed indices;
// negative indices wrap, and an empty broadcast checks nothing.
func TestIdxAdvancedLazyIndexErrors(t *testing.T) {
	at := func(v ...int64) tensor.IndexItem { return tensor.At(idx64(t, v, len(v))) }
	plus3 := func(v ...int64) tensor.IndexItem { // computed in the graph: v+3
		return tensor.At(expr.Of(idx64(t, v, len(v))).AddScalar(3))
	}
	type ie = tensor.IndexError
	cases := []struct {
		name  string
		shape tensor.Shape
		items []tensor.IndexItem
		err   *ie
		same  []tensor.IndexItem // items with tensor indices, for Tensor.Idx
	}{
		{"second of two", tensor.Shape{3, 4}, []tensor.IndexItem{at(0, 1), at(0, 4)}, &ie{Index: 4, Axis: 1, Size: 4}, nil},
		{"first of two", tensor.Shape{3, 4}, []tensor.IndexItem{at(0, 3), at(0, 0)}, &ie{Index: 3, Axis: 0, Size: 3}, nil},
		{"second of three", tensor.Shape{2, 3, 4}, []tensor.IndexItem{at(0), at(5), at(0)}, &ie{Index: 5, Axis: 1, Size: 3}, nil},
		{"separated, moved first", tensor.Shape{2, 3, 4}, []tensor.IndexItem{at(0), tensor.All, at(7)}, &ie{Index: 7, Axis: 2, Size: 4}, nil},
		{"after a new axis", tensor.Shape{3, 4}, []tensor.IndexItem{tensor.NewAxis, at(3)}, &ie{Index: 3, Axis: 0, Size: 3}, nil},
		{"after a new axis, second", tensor.Shape{3, 4}, []tensor.IndexItem{tensor.NewAxis, at(0), at(-5)}, &ie{Index: -5, Axis: 1, Size: 4}, nil},
		{"computed second", tensor.Shape{3, 4}, []tensor.IndexItem{at(0, 1), plus3(0, 1)}, &ie{Index: 4, Axis: 1, Size: 4}, nil},
		{"computed after a slice", tensor.Shape{2, 3, 4}, []tensor.IndexItem{tensor.All, at(2), plus3(2)}, &ie{Index: 5, Axis: 2, Size: 4}, nil},
		{"negatives wrap", tensor.Shape{3, 4}, []tensor.IndexItem{at(-1, -3), at(-4, -1)}, nil, nil},
		{"negative and computed", tensor.Shape{2, 3, 4}, []tensor.IndexItem{at(-2), tensor.All, plus3(-7, 0)}, nil, []tensor.IndexItem{at(-2), tensor.All, at(-4, 3)}},
		{"both empty", tensor.Shape{3, 4}, []tensor.IndexItem{at(), at()}, nil, nil},
		{"empty broadcast checks nothing", tensor.Shape{3, 4}, []tensor.IndexItem{at(), at(5)}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, _ := c.shape.Numel()
			x := tensor.Must(tensor.Must(tensor.Arange[float64](0, float64(n), 1)).Reshape(c.shape...))
			e := expr.Of(x).Idx(c.items...)
			require.NoError(t, e.Err())
			for _, ex := range []*exec.Executor{exec.Default, odd} {
				got, err := exec.EvalWith(ex, e)
				if c.err != nil {
					var bad *tensor.IndexError
					require.True(t, errors.As(err, &bad), "%v", err)
					assert.Equal(t, *c.err, *bad)
					assert.Equal(t, c.err.Error(), err.Error())
					continue
				}
				require.NoError(t, err)
				items := c.items
				if c.same != nil {
					items = c.same
				}
				want, err := x.Idx(items...)
				require.NoError(t, err)
				assert.Equal(t, want.Shape(), got.Shape())
				assert.Equal(t, want.Values(), got.Values())
			}
		})
	}
}

// TestIndexLeafMergedByCSE: an index leaf read through a view (Take along
// axis 1 reshapes its index to [1, k]) that CSE merged into an equal leaf
// used elsewhere is checked as that leaf's value; it used to be looked up
// as a value of its own, which it has not, and the check read value 0 (x:
// "tensor.Any is *tensor.Tensor[float64], not *tensor.Tensor[int64]").
func TestIndexLeafMergedByCSE(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.Must(tensor.Arange[float64](0, 6, 1)).Reshape(2, 3)))
	i := idx64(t, []int64{2, -3}, 2)
	bad := idx64(t, []int64{2, 3}, 2)
	for name, c := range map[string]struct {
		e    expr.Expr[float64]
		want []float64
		err  *tensor.IndexError
	}{
		"index used first": {expr.Cast[float64](expr.Of(i)).Add(expr.Take(x, expr.Of(i), 1)), []float64{4, -3, 7, 0}, nil},
		"take first":       {expr.Take(x, expr.Of(i), 1).Add(expr.Cast[float64](expr.Of(i))), []float64{4, -3, 7, 0}, nil},
		"refused":          {expr.Cast[float64](expr.Of(bad)).Add(expr.Take(x, expr.Of(bad), 1)), nil, &tensor.IndexError{Index: 3, Axis: 1, Size: 3}},
		"two takes":        {expr.Take(x, expr.Of(i), 1).Mul(expr.Take(x.AddScalar(1), expr.Of(i), 1)), []float64{6, 0, 30, 12}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := exec.Eval(c.e)
			if c.err != nil {
				var ie *tensor.IndexError
				require.True(t, errors.As(err, &ie), "%v", err)
				assert.Equal(t, *c.err, *ie)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got.Values())
		})
	}
}
