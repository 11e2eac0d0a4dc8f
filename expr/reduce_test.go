package expr_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// redPlace is a (2, 3, 4) float64 placeholder: construction needs no data.
func redPlace() expr.Expr[float64] { return expr.Placeholder[float64]("x", 2, 3, 4) }

// TestReduceShapes checks the shape and dtype every reduction infers when it
// is built, for positive, negative and repeated-order axes, with and
// without keepdim.
func TestReduceShapes(t *testing.T) {
	x := redPlace()
	tests := []struct {
		name  string
		e     expr.Any
		shape string
		dt    dtype.DType
	}{
		{"sum all", x.Sum(), "[]", dtype.Float64},
		{"sum 0", x.Sum(0), "[3, 4]", dtype.Float64},
		{"sum -1", x.Sum(-1), "[2, 3]", dtype.Float64},
		{"sum 2,0", x.Sum(2, 0), "[3]", dtype.Float64},
		{"sum -3,-1", x.Sum(-3, -1), "[3]", dtype.Float64},
		{"sum 0,1,2", x.Sum(0, 1, 2), "[]", dtype.Float64},
		{"sum keepdim all", x.SumKeepDims(), "[1, 1, 1]", dtype.Float64},
		{"sum keepdim 1", x.SumKeepDims(1), "[2, 1, 4]", dtype.Float64},
		{"sum keepdim -1,0", x.SumKeepDims(-1, 0), "[1, 3, 1]", dtype.Float64},
		{"mean 1", x.Mean(1), "[2, 4]", dtype.Float64},
		{"mean keepdim -2", x.MeanKeepDims(-2), "[2, 1, 4]", dtype.Float64},
		{"prod 0,1", x.Prod(0, 1), "[4]", dtype.Float64},
		{"prod keepdim 0,1", x.ProdKeepDims(0, 1), "[1, 1, 4]", dtype.Float64},
		{"max -1", x.Max(-1), "[2, 3]", dtype.Float64},
		{"max keepdim", x.MaxKeepDims(1, 2), "[2, 1, 1]", dtype.Float64},
		{"min all", x.Min(), "[]", dtype.Float64},
		{"min keepdim 0", x.MinKeepDims(0), "[1, 3, 4]", dtype.Float64},
		{"argmax 1", x.ArgMax(1), "[2, 4]", dtype.Int64},
		{"argmin -1", x.ArgMin(-1), "[2, 3]", dtype.Int64},
		{"any 0", x.Gt(x).Any(0), "[3, 4]", dtype.Bool},
		{"all", x.Gt(x).All(), "[]", dtype.Bool},
		{"MeanAs int", expr.MeanAs[float64](expr.Placeholder[int32]("i", 5, 6), 1), "[5]", dtype.Float64},
		{"MeanAs float32 of uint8", expr.MeanAs[float32](expr.Placeholder[uint8]("u", 5, 6)), "[]", dtype.Float32},
		{"sum of 0-d", expr.Scalar(2.5).Sum(), "[]", dtype.Float64},
		{"sum of empty axis", expr.Placeholder[float64]("e", 3, 0).Sum(1), "[3]", dtype.Float64},
		{"max over the non-empty axis of an empty tensor", expr.Placeholder[float64]("e", 0, 3).Max(1), "[0]", dtype.Float64},
		{"SumTo [3, 4]", x.SumTo(3, 4), "[3, 4]", dtype.Float64},
		{"SumTo [3, 1]", x.SumTo(3, 1), "[3, 1]", dtype.Float64},
		{"SumTo [2, 1, 4]", x.SumTo(2, 1, 4), "[2, 1, 4]", dtype.Float64},
		{"SumTo []", x.SumTo(), "[]", dtype.Float64},
		{"SumTo own shape", x.SumTo(2, 3, 4), "[2, 3, 4]", dtype.Float64},
		{"SumTo [1]", x.SumTo(1), "[1]", dtype.Float64},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.e.Node()
			require.NoError(t, n.Err())
			assert.Equal(t, tc.shape, n.Shape().String())
			assert.Equal(t, tc.dt, n.DType())
		})
	}
}

// TestReduceErrors checks the errors reductions report when they are built:
// typed, matched with errors.As, worded as PyTorch words them, naming the
// axis; and sticky through later ops.
func TestReduceErrors(t *testing.T) {
	x := redPlace()
	empty := expr.Placeholder[float64]("e", 3, 0)
	tests := []struct {
		name string
		err  error
		as   any // a pointer to the error type errors.As must find
		text string
	}{
		{"axis out of range", x.Sum(3).Err(), new(*tensor.AxisError), "Dimension out of range (expected to be in range of [-3, 2], but got 3)"},
		{"negative axis out of range", x.Max(-4).Err(), new(*tensor.AxisError), "Dimension out of range (expected to be in range of [-3, 2], but got -4)"},
		{"argmax axis out of range", x.ArgMax(5).Err(), new(*tensor.AxisError), "but got 5"},
		{"mean keepdim axis out of range", x.MeanKeepDims(0, 3).Err(), new(*tensor.AxisError), "but got 3"},
		{"axis of a 0-d tensor", expr.Scalar(1.0).Sum(0).Err(), new(*tensor.AxisError), "Dimension specified as 0 but tensor has no dimensions"},
		{"repeated axis", x.Sum(1, 1).Err(), new(*expr.ShapeOpError), "dim 1 appears multiple times in the list of dims"},
		{"repeated axis via a negative", x.Prod(0, -3).Err(), new(*expr.ShapeOpError), "appears multiple times in the list of dims"},
		{"max of an empty axis", empty.Max(1).Err(), new(*expr.ShapeOpError), "max: Expected reduction dim 1 to have non-zero size"},
		{"min of an empty axis, negative", empty.Min(-1).Err(), new(*expr.ShapeOpError), "min: Expected reduction dim 1 to have non-zero size"},
		{"max of every axis, one empty", empty.Max().Err(), new(*expr.ShapeOpError), "Expected reduction dim 1 to have non-zero size"},
		{"argmax of an empty axis", empty.ArgMax(1).Err(), new(*expr.ShapeOpError), "argmax: Expected reduction dim 1 to have non-zero size"},
		{"argmin of an empty axis", expr.Placeholder[int8]("e", 0, 2).ArgMin(0).Err(), new(*expr.ShapeOpError), "argmin: Expected reduction dim 0 to have non-zero size"},
		{"mean of integers", expr.Placeholder[int32]("i", 3).Mean().Err(), new(*expr.DTypeError), "mean is not defined for int32 (use expr.MeanAs[float64]"},
		{"sum of bool", expr.Placeholder[bool]("b", 3).Sum().Err(), new(*expr.DTypeError), "sum is not defined for bool"},
		{"prod of bool", expr.Placeholder[bool]("b", 3).Prod().Err(), new(*expr.DTypeError), "prod is not defined for bool"},
		{"max of complex", expr.Placeholder[complex64]("c", 3).Max().Err(), new(*expr.DTypeError), "max is not defined for complex64"},
		{"min of bool", expr.Placeholder[bool]("b", 3).Min().Err(), new(*expr.DTypeError), "min is not defined for bool"},
		{"argmax of complex", expr.Placeholder[complex128]("c", 3).ArgMax(0).Err(), new(*expr.DTypeError), "argmax is not defined for complex128"},
		{"any of float", x.Any().Err(), new(*expr.DTypeError), "any is not defined for float64"},
		{"all of int", expr.Placeholder[int64]("i", 2).All(0).Err(), new(*expr.DTypeError), "all is not defined for int64"},
		{"SumTo a larger extent", x.SumTo(5, 4).Err(), new(*expr.ShapeOpError), "size [5, 4] is not expandable to size [2, 3, 4]"},
		{"SumTo more axes", x.SumTo(1, 2, 3, 4).Err(), new(*expr.ShapeOpError), "size [1, 2, 3, 4] is not expandable to size [2, 3, 4]"},
		{"SumTo an axis x has as 1", expr.Placeholder[float64]("y", 2, 1).SumTo(2, 3).Err(), new(*expr.ShapeOpError), "size [2, 3] is not expandable to size [2, 1]"},
		{"SumTo a 0 where x has 3", expr.Placeholder[float64]("y", 2, 3).SumTo(0).Err(), new(*expr.ShapeOpError), "size [0] is not expandable to size [2, 3]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Error(t, tc.err)
			assert.ErrorAs(t, tc.err, tc.as)
			assert.Contains(t, tc.err.Error(), tc.text)
		})
	}

	t.Run("PyTorch names a repeated axis by its wrapped index", func(t *testing.T) {
		t.Skip("known bug: x.Sum(2, -1) on [2, 3, 4] says \"dim -1 appears multiple times in the list of dims\"; torch says \"dim 2 appears multiple times in the list of dims\"")
		assert.Contains(t, x.Sum(2, -1).Err().Error(), "dim 2 appears multiple times in the list of dims")
	})

	t.Run("sticky", func(t *testing.T) {
		bad := x.Reshape(7)
		first := bad.Err()
		require.Error(t, first)
		for _, e := range []expr.Any{bad.Sum(0), bad.Mean(), bad.Max(-1), bad.ArgMax(0), bad.SumTo(1), bad.Sum(9).Exp(), bad.MatMul(x)} {
			assert.Same(t, first, e.Node().Err(), "%v", e.Node().Op())
		}
		// The first error wins over the reduction's own.
		badAxis := x.Sum(5)
		assert.True(t, errors.Is(badAxis.Mean(9).Err(), badAxis.Err()))
	})
}
