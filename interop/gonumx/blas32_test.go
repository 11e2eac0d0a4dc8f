package gonumx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"

	"github.com/tensorplay/tensorplay/interop/gonumx"
	"github.com/tensorplay/tensorplay/tensor"
)

func view32(t *testing.T, data []float32, shape tensor.Shape, strides []int, off int) *tensor.Tensor[float32] {
	x, err := tensor.AsStrided(data, shape, strides, off)
	require.NoError(t, err)
	return x
}

func seq32(n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(i)
	}
	return s
}

func TestGeneral32(t *testing.T) {
	cases := []struct {
		name   string
		tensor *tensor.Tensor[float32]
		shared bool
		stride int
	}{
		{"row-major", view32(t, seq32(6), tensor.Shape{2, 3}, []int{3, 1}, 0), true, 3},
		{"padded rows", view32(t, seq32(10), tensor.Shape{2, 3}, []int{5, 1}, 2), true, 5},
		{"column-major", view32(t, seq32(6), tensor.Shape{2, 3}, []int{1, 2}, 0), false, 3},
		{"broadcast", view32(t, seq32(3), tensor.Shape{2, 3}, []int{0, 1}, 0), false, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, err := gonumx.General32(c.tensor)
			require.NoError(t, err)
			assert.Equal(t, 2, g.Rows)
			assert.Equal(t, 3, g.Cols)
			assert.Equal(t, c.stride, g.Stride)
			g.Data[g.Stride+2] = -1 // element (1, 2)
			assert.Equal(t, c.shared, c.tensor.Values()[5] == -1)

			back, err := gonumx.FromGeneral32(g)
			require.NoError(t, err)
			assert.Equal(t, []int{c.stride, 1}, back.Strides())
			assert.Equal(t, float32(-1), back.Values()[5])
		})
	}
	_, err := gonumx.General32(view32(t, seq32(3), tensor.Shape{3}, []int{1}, 0))
	var e *tensor.ShapeError
	assert.ErrorAs(t, err, &e)
}

func TestGemm32(t *testing.T) {
	// C = A·B through gonum's float32 BLAS, straight on tensor storage.
	a := view32(t, []float32{1, 2, 3, 4, 5, 6}, tensor.Shape{2, 3}, []int{3, 1}, 0)
	b := view32(t, []float32{1, 0, 0, 1, 1, 1}, tensor.Shape{3, 2}, []int{2, 1}, 0)
	c, err := tensor.New[float32](2, 2)
	require.NoError(t, err)
	ga, err := gonumx.General32(a)
	require.NoError(t, err)
	gb, err := gonumx.General32(b)
	require.NoError(t, err)
	gc, err := gonumx.General32(c)
	require.NoError(t, err)
	blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, ga, gb, 0, gc)
	assert.Equal(t, []float32{4, 5, 10, 11}, c.Values())
}

func TestFromGeneral32Errors(t *testing.T) {
	cases := []struct {
		name string
		g    blas32.General
	}{
		{"stride below cols", blas32.General{Rows: 2, Cols: 3, Stride: 2, Data: seq32(6)}},
		{"data too short", blas32.General{Rows: 2, Cols: 3, Stride: 3, Data: seq32(5)}},
		{"negative rows", blas32.General{Rows: -1, Cols: 3, Stride: 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := gonumx.FromGeneral32(c.g)
			var e *tensor.ShapeError
			assert.ErrorAs(t, err, &e)
		})
	}
	x, err := gonumx.FromGeneral32(blas32.General{Rows: 1, Cols: 3, Stride: 0, Data: seq32(3)})
	require.NoError(t, err, "one row needs no stride")
	assert.Equal(t, []float32{0, 1, 2}, x.Values())
}

func TestVector32(t *testing.T) {
	data := seq32(7)
	x := view32(t, data, tensor.Shape{3}, []int{3}, 0)
	v, err := gonumx.Vector32(x)
	require.NoError(t, err)
	assert.Equal(t, blas32.Vector{N: 3, Inc: 3, Data: data}, v)
	assert.Equal(t, float32(0+3+6), blas32.Asum(v))

	back, err := gonumx.FromVector32(v)
	require.NoError(t, err)
	assert.Equal(t, x.Values(), back.Values())

	bc, err := gonumx.Vector32(view32(t, data, tensor.Shape{3}, []int{0}, 1))
	require.NoError(t, err)
	assert.Equal(t, blas32.Vector{N: 3, Inc: 1, Data: []float32{1, 1, 1}}, bc, "broadcast copies")

	_, err = gonumx.FromVector32(blas32.Vector{N: 2, Inc: 0, Data: data})
	var e *tensor.ShapeError
	assert.ErrorAs(t, err, &e)
}
