package gonumx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"

	"github.com/tensorplay/tensorplay/interop/gonumx"
	"github.com/tensorplay/tensorplay/tensor"
)

// view builds a float64 tensor on data with the given layout.
func view(t *testing.T, data []float64, shape tensor.Shape, strides []int, off int) *tensor.Tensor[float64] {
	x, err := tensor.AsStrided(data, shape, strides, off)
	require.NoError(t, err)
	return x
}

func seq(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = float64(i)
	}
	return s
}

func TestDense(t *testing.T) {
	cases := []struct {
		name   string
		tensor func() *tensor.Tensor[float64]
		shared bool
	}{
		{"row-major", func() *tensor.Tensor[float64] { return view(t, seq(6), tensor.Shape{2, 3}, []int{3, 1}, 0) }, true},
		{"rows of a wider matrix", func() *tensor.Tensor[float64] { return view(t, seq(20), tensor.Shape{3, 2}, []int{5, 1}, 1) }, true},
		{"one row, any stride", func() *tensor.Tensor[float64] { return view(t, seq(6), tensor.Shape{1, 3}, []int{0, 1}, 2) }, true},
		{"one column, any stride", func() *tensor.Tensor[float64] { return view(t, seq(9), tensor.Shape{3, 1}, []int{4, 7}, 0) }, true},
		{"column-major", func() *tensor.Tensor[float64] { return view(t, seq(6), tensor.Shape{2, 3}, []int{1, 2}, 0) }, false},
		{"every other column", func() *tensor.Tensor[float64] { return view(t, seq(12), tensor.Shape{3, 2}, []int{4, 2}, 0) }, false},
		{"broadcast rows", func() *tensor.Tensor[float64] { return view(t, seq(3), tensor.Shape{4, 3}, []int{0, 1}, 0) }, false},
		{"overlapping rows", func() *tensor.Tensor[float64] { return view(t, seq(6), tensor.Shape{3, 3}, []int{1, 1}, 0) }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := c.tensor()
			want := x.Values()
			d, err := gonumx.Dense(x)
			require.NoError(t, err)
			r, cols := d.Dims()
			require.Equal(t, []int{r, cols}, []int(x.Shape()))
			assert.Equal(t, want, denseValues(d))

			d.Set(r-1, cols-1, -1)
			got := x.Values()[len(want)-1]
			if c.shared {
				assert.Equal(t, -1.0, got, "writes through the matrix reach the tensor")
			} else {
				assert.Equal(t, want[len(want)-1], got, "a copy leaves the tensor alone")
			}
		})
	}
}

func TestDenseSharesBothWays(t *testing.T) {
	data := seq(6)
	x := view(t, data, tensor.Shape{2, 3}, []int{3, 1}, 0)
	d, err := gonumx.Dense(x)
	require.NoError(t, err)
	data[4] = 40
	assert.Equal(t, 40.0, d.At(1, 1), "tensor writes reach the matrix")

	// A gonum op writing into d writes into the tensor.
	d.Scale(2, d)
	assert.Equal(t, []float64{0, 2, 4, 6, 80, 10}, x.Values())

	// Reusing d for a bigger result must not write past the view.
	full := seq(12) // capacity for the 3x3 result if the view were not capped
	y := view(t, full, tensor.Shape{2, 3}, []int{3, 1}, 0)
	e, err := gonumx.Dense(y)
	require.NoError(t, err)
	e.Reset()
	e.Mul(mat.NewDense(3, 1, []float64{1, 1, 1}), mat.NewDense(1, 3, []float64{9, 9, 9}))
	assert.Equal(t, 6.0, full[6], "storage past the view is untouched")
	assert.Equal(t, 7.0, full[7])
}

func TestMatrix(t *testing.T) {
	t.Run("column-major shares as a transpose", func(t *testing.T) {
		data := seq(6)
		x := view(t, data, tensor.Shape{2, 3}, []int{1, 2}, 0)
		m, err := gonumx.Matrix(x)
		require.NoError(t, err)
		require.IsType(t, mat.Transpose{}, m)
		assert.Equal(t, x.Values(), denseValues(mat.DenseCopyOf(m)))
		data[5] = 50
		assert.Equal(t, 50.0, m.At(1, 2))
	})
	t.Run("row-major is a Dense", func(t *testing.T) {
		m, err := gonumx.Matrix(view(t, seq(6), tensor.Shape{3, 2}, []int{2, 1}, 0))
		require.NoError(t, err)
		assert.IsType(t, &mat.Dense{}, m)
	})
	t.Run("other layouts copy", func(t *testing.T) {
		data := seq(12)
		x := view(t, data, tensor.Shape{2, 2}, []int{6, 2}, 0)
		m, err := gonumx.Matrix(x)
		require.NoError(t, err)
		data[0] = 99
		assert.Equal(t, 0.0, m.At(0, 0))
	})
}

func TestShapeErrors(t *testing.T) {
	cases := []struct {
		name string
		call func() error
	}{
		{"Dense of 1-D", func() error { _, err := gonumx.Dense(view(t, seq(3), tensor.Shape{3}, []int{1}, 0)); return err }},
		{"Dense of 3-D", func() error {
			_, err := gonumx.Dense(view(t, seq(8), tensor.Shape{2, 2, 2}, []int{4, 2, 1}, 0))
			return err
		}},
		{"Dense with no rows", func() error { _, err := gonumx.Dense(view(t, nil, tensor.Shape{0, 3}, []int{3, 1}, 0)); return err }},
		{"Matrix with no columns", func() error { _, err := gonumx.Matrix(view(t, nil, tensor.Shape{2, 0}, []int{0, 1}, 0)); return err }},
		{"VecDense of 2-D", func() error {
			_, err := gonumx.VecDense(view(t, seq(4), tensor.Shape{2, 2}, []int{2, 1}, 0))
			return err
		}},
		{"VecDense empty", func() error { _, err := gonumx.VecDense(view(t, nil, tensor.Shape{0}, []int{1}, 0)); return err }},
		{"VecDense of 0-d", func() error { _, err := gonumx.VecDense(view(t, seq(1), tensor.Shape{}, nil, 0)); return err }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var e *tensor.ShapeError
			assert.ErrorAs(t, c.call(), &e)
		})
	}
	_, err := gonumx.Dense(nil)
	assert.Error(t, err)
	_, err = gonumx.VecDense(nil)
	assert.Error(t, err)
}

func TestVecDense(t *testing.T) {
	cases := []struct {
		name   string
		tensor *tensor.Tensor[float64]
		shared bool
	}{
		{"contiguous", view(t, seq(4), tensor.Shape{4}, []int{1}, 0), true},
		{"strided", view(t, seq(9), tensor.Shape{3}, []int{3}, 1), true},
		{"single element", view(t, seq(3), tensor.Shape{1}, []int{0}, 2), true},
		{"broadcast", view(t, seq(1), tensor.Shape{3}, []int{0}, 0), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := c.tensor.Values()
			v, err := gonumx.VecDense(c.tensor)
			require.NoError(t, err)
			require.Equal(t, len(want), v.Len())
			assert.Equal(t, want, mat.Col(nil, 0, v))
			v.SetVec(0, -1)
			assert.Equal(t, c.shared, c.tensor.Values()[0] == -1)
		})
	}
}

func TestFromMatrix(t *testing.T) {
	d := mat.NewDense(3, 4, seq(12))
	cases := []struct {
		name    string
		m       mat.Matrix
		strides []int // nil when the result is a copy
	}{
		{"Dense", d, []int{4, 1}},
		{"Dense slice", d.Slice(1, 3, 1, 3), []int{4, 1}},
		{"transpose", d.T(), []int{1, 4}},
		{"VecDense column", mat.NewVecDense(3, seq(3)), []int{1, 1}},
		{"VecDense strided", d.ColView(2), []int{4, 1}},
		{"VecDense transposed", mat.NewVecDense(3, seq(3)).T(), []int{1, 1}},
		{"symmetric", mat.NewSymDense(2, []float64{1, 2, 2, 3}), nil},
		{"diagonal", mat.NewDiagDense(3, []float64{1, 2, 3}), nil},
		{"triangular transposed", mat.NewTriDense(2, mat.Upper, []float64{1, 2, 0, 3}).T(), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, err := gonumx.FromMatrix(c.m)
			require.NoError(t, err)
			r, cols := c.m.Dims()
			require.Equal(t, tensor.Shape{r, cols}, x.Shape())
			assert.Equal(t, denseValues(mat.DenseCopyOf(c.m)), x.Values())
			if c.strides == nil {
				assert.True(t, x.IsContiguous(), "a copy is row-major")
				return
			}
			assert.Equal(t, c.strides, x.Strides())
			// Shared: a write to the tensor shows in the matrix.
			x.Data()[x.Offset()] = -5
			assert.Equal(t, -5.0, c.m.At(0, 0))
		})
	}
	t.Run("empty Dense", func(t *testing.T) {
		x, err := gonumx.FromMatrix(&mat.Dense{})
		require.NoError(t, err)
		assert.Equal(t, tensor.Shape{0, 0}, x.Shape())
	})
}

// plainVector is a mat.Vector with no raw storage.
type plainVector []float64

func (v plainVector) At(i, j int) float64 { return v[i] }
func (v plainVector) Dims() (int, int)    { return len(v), 1 }
func (v plainVector) T() mat.Matrix       { return mat.Transpose{Matrix: v} }
func (v plainVector) AtVec(i int) float64 { return v[i] }
func (v plainVector) Len() int            { return len(v) }

func TestFromVector(t *testing.T) {
	d := mat.NewDense(3, 3, seq(9))
	t.Run("VecDense shares", func(t *testing.T) {
		v := d.ColView(1).(*mat.VecDense)
		x, err := gonumx.FromVector(v)
		require.NoError(t, err)
		assert.Equal(t, []int{3}, x.Strides())
		assert.Equal(t, []float64{1, 4, 7}, x.Values())
		v.SetVec(2, 70)
		assert.Equal(t, 70.0, x.Values()[2])
	})
	t.Run("other vectors copy", func(t *testing.T) {
		v := plainVector{1, 2}
		x, err := gonumx.FromVector(v)
		require.NoError(t, err)
		assert.Equal(t, []float64{1, 2}, x.Values())
		v[0] = 10
		assert.Equal(t, 1.0, x.Values()[0])

		m, err := gonumx.FromMatrix(v)
		require.NoError(t, err)
		assert.Equal(t, tensor.Shape{2, 1}, m.Shape())
	})
}

// denseValues returns m's elements in row-major order.
func denseValues(m *mat.Dense) []float64 {
	r, c := m.Dims()
	out := make([]float64, 0, r*c)
	for i := range r {
		out = append(out, mat.Row(nil, i, m)...)
	}
	return out
}
