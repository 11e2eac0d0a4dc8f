package expr_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestComposeErrors checks that the compose ops refuse bad arguments at
// construction with typed errors naming the shapes and the dimension.
func TestComposeErrors(t *testing.T) {
	x := expr.From(tensor.New[float64](2, 3))
	y := expr.From(tensor.New[float64](2, 4))
	var je *expr.JoinError
	var se *expr.ShapeOpError
	var ae *tensor.AxisError

	err := expr.Concatenate(0, x, y).Err()
	require.ErrorAs(t, err, &je)
	assert.Equal(t, 1, je.Dim)
	assert.Equal(t, 1, je.Index)
	assert.Contains(t, err.Error(), "[2, 3]")
	assert.Contains(t, err.Error(), "[2, 4]")
	assert.NoError(t, expr.Concatenate(1, x, y).Err())
	assert.Equal(t, tensor.Shape{2, 7}, expr.Concatenate(-1, x, y).Shape())

	err = expr.Concatenate(0, x, expr.From(tensor.New[float64](3))).Err()
	require.ErrorAs(t, err, &je)
	assert.Equal(t, -1, je.Dim)
	assert.ErrorAs(t, expr.Concatenate(2, x, x).Err(), &ae)
	assert.ErrorAs(t, expr.Concatenate[float64](0).Err(), &se)
	assert.ErrorAs(t, expr.Stack(0, x, y).Err(), &je)
	assert.ErrorAs(t, expr.Stack(3, x, x).Err(), &ae)
	assert.Equal(t, tensor.Shape{2, 3, 2}, expr.Stack(-1, x, x).Shape())

	assert.ErrorAs(t, x.Roll(1, 2).Err(), &ae)
	assert.ErrorAs(t, x.RollAxes([]int{1, 2}, []int{0}).Err(), &se)
	assert.ErrorAs(t, x.Pad(expr.PadEdge, [2]int{1, 1}, [2]int{1, 1}, [2]int{1, 1}).Err(), &se)
	assert.ErrorAs(t, x.Pad(expr.PadEdge, [2]int{-1, 1}).Err(), &se)
	empty := expr.From(tensor.New[float64](0, 3))
	err = empty.Pad(expr.PadReflect, [2]int{1, 1}).Err()
	require.ErrorAs(t, err, &se)
	assert.Contains(t, err.Error(), "dimension 0")
	assert.Equal(t, tensor.Shape{2, 5}, empty.Pad(expr.PadConstant, [2]int{1, 1}).Shape())
	assert.ErrorAs(t, x.Repeat([]int{1, 2}, 1).Err(), &se)
	assert.ErrorAs(t, x.Repeat([]int{-1}, 1).Err(), &se)
	assert.ErrorAs(t, x.Repeat([]int{2}, 5).Err(), &ae)
	assert.ErrorAs(t, x.Tile(-1).Err(), &se)
	v := expr.From(tensor.New[float64](3))
	assert.ErrorAs(t, v.Tril(0).Err(), &se)
	assert.ErrorAs(t, x.Trace(0, 1, 1).Err(), &se)
	assert.ErrorAs(t, x.Trace(0, 0, 2).Err(), &ae)
	assert.ErrorAs(t, expr.Eye[float64](-1, 2, 0).Err(), &se)

	// Errors stick: an invalid piece makes the whole result invalid.
	bad := x.Reshape(7)
	assert.Equal(t, bad.Err(), expr.Concatenate(0, x, bad).Err())
	assert.Equal(t, bad.Err(), bad.Pad(expr.PadWrap, [2]int{1, 1}).Err())
	assert.True(t, errors.Is(expr.Stack(0, bad, x).Err(), bad.Err()))
}

// TestAssembleChecksPieces checks that Assemble refuses pieces that leave
// the result or their operand, overlap, or leave elements uncovered.
func TestAssembleChecksPieces(t *testing.T) {
	x := expr.From(tensor.New[float64](2, 3))
	cases := []struct {
		name   string
		pieces []expr.Piece
	}{
		{"outside the result", []expr.Piece{{Arg: 0, At: []int{1, 0}, Size: []int{2, 3}}}},
		{"uncovered", []expr.Piece{{Arg: 0, At: []int{0, 0}, Size: []int{1, 3}, From: []int{0, 0}}}},
		{"overlapping", []expr.Piece{{Arg: 0, At: []int{0, 0}, Size: []int{2, 3}}, {Arg: 0, At: []int{0, 0}, Size: []int{1, 3}, From: []int{0, 0}}}},
		{"outside the operand", []expr.Piece{{Arg: 0, At: []int{0, 0}, Size: []int{2, 3}, From: []int{1, 0}}}},
		{"no such operand", []expr.Piece{{Arg: 1, At: []int{0, 0}, Size: []int{2, 3}}}},
		{"wrong size", []expr.Piece{{Arg: 0, At: []int{0, 0}, Size: []int{3, 2}}}},
	}
	for _, c := range cases {
		var se *expr.ShapeOpError
		assert.ErrorAs(t, expr.Assemble([]int{2, 3}, c.pieces, x).Err(), &se, c.name)
	}
	ok := expr.Assemble([]int{2, 3}, []expr.Piece{{Arg: 0, At: []int{0, 0}, Size: []int{2, 3}}}, x)
	assert.NoError(t, ok.Err())
}
