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
