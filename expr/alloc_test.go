package expr_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestBuildAllocations pins what building a node allocates: the node, and
// at most one slice for its shape and attributes; a scalar leaf is its
// node (with its value) and its tensor. A broadcast whose result
// is one operand's shape shares it; a reduction's shape and axis list, a
// permutation and its shape, a product's shape are one allocation each.
func TestBuildAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	xt := tensor.Must(tensor.New[float32](2, 8, 4))
	x := expr.Of(xt)
	col := expr.Of(tensor.Must(tensor.New[float32](2, 8, 1)))
	row := expr.Of(tensor.Must(tensor.New[float32](4)))
	sq := expr.Of(tensor.Must(tensor.New[float32](2, 4, 4)))
	cases := []struct {
		name  string
		want  float64
		build func() expr.Expr[float32]
	}{
		{"leaf", 1, func() expr.Expr[float32] { return expr.Of(xt) }},
		{"scalar: node and value, tensor", 2, func() expr.Expr[float32] { return expr.Scalar[float32](0.5) }},
		{"times a scalar", 3, func() expr.Expr[float32] { return x.MulScalar(0.5) }},
		{"unary", 1, func() expr.Expr[float32] { return x.Exp() }},
		{"same shapes", 1, func() expr.Expr[float32] { return x.Add(x) }},
		{"column broadcast", 1, func() expr.Expr[float32] { return x.Sub(col) }},
		{"column first", 1, func() expr.Expr[float32] { return col.Sub(x) }},
		{"row broadcast", 1, func() expr.Expr[float32] { return x.Mul(row) }},
		{"both broadcast", 2, func() expr.Expr[float32] { return col.Add(row) }},
		{"reduce kept", 2, func() expr.Expr[float32] { return x.MaxKeepDims(-1) }},
		{"reduce dropped", 2, func() expr.Expr[float32] { return x.Sum(0, 2) }},
		{"reduce all", 2, func() expr.Expr[float32] { return x.Mean() }},
		{"transpose", 2, func() expr.Expr[float32] { return x.Transpose(1, 2) }},
		{"permute", 2, func() expr.Expr[float32] { return x.Permute(2, 0, 1) }},
		{"batched matmul", 2, func() expr.Expr[float32] { return x.MatMul(sq) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, c.build().Err())
			assert.Equal(t, c.want, testing.AllocsPerRun(50, func() { _ = c.build() }))
		})
	}
}

// TestSharedShapes checks the results whose shape is shared or packed
// with other attributes against their definitions.
func TestSharedShapes(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.New[float32](2, 8, 4)))
	col := expr.Of(tensor.Must(tensor.New[float32](2, 8, 1)))
	row := expr.Of(tensor.Must(tensor.New[float32](4)))
	sq := expr.Of(tensor.Must(tensor.New[float32](1, 4, 3)))
	cases := []struct {
		name string
		e    expr.Expr[float32]
		want tensor.Shape
	}{
		{"column broadcast", x.Sub(col), tensor.Shape{2, 8, 4}},
		{"column first", col.Sub(x), tensor.Shape{2, 8, 4}},
		{"both broadcast", col.Add(row), tensor.Shape{2, 8, 4}},
		{"reduce kept", x.MaxKeepDims(0, -1), tensor.Shape{1, 8, 1}},
		{"reduce dropped", x.Sum(0, 2), tensor.Shape{8}},
		{"reduce all", x.Mean(), tensor.Shape{}},
		{"transpose", x.Transpose(0, 2), tensor.Shape{4, 8, 2}},
		{"permute", x.Permute(2, 0, 1), tensor.Shape{4, 2, 8}},
		{"matmul broadcast batch", x.MatMul(sq), tensor.Shape{2, 8, 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, c.e.Err())
			assert.Equal(t, c.want, c.e.Shape())
		})
	}
	assert.Equal(t, []int{0, 2}, x.Sum(0, 2).Node().Axes())
	assert.Equal(t, []int{2, 0, 1}, x.Permute(2, 0, 1).Node().Axes())
	assert.Empty(t, x.Sum(0, 2).Node().Axes()[2:], "the axis list ends where its allocation does")
	s := x.Sum(0, 2).Node()
	assert.Equal(t, len(s.Axes()), cap(s.Axes()), "appending to an axis list cannot reach the shape")
	p := x.Permute(2, 0, 1).Node()
	assert.Equal(t, len(p.Axes()), cap(p.Axes()), "appending to a permutation cannot reach its shape")
	assert.Equal(t, len(s.Shape()), cap(s.Shape()), "appending to a reduction's shape cannot reach its axes")
	_, err := tensor.BroadcastShapes(tensor.Shape{2, 3}, tensor.Shape{4})
	var be *tensor.BroadcastError
	require.ErrorAs(t, err, &be)
	assert.ErrorAs(t, x.Add(expr.Of(tensor.Must(tensor.New[float32](3)))).Err(), &be, "a mismatch is still a broadcast error")
}
