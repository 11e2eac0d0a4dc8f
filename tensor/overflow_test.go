package tensor_test

import (
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/tensor"
)

// big*big overflows int (2^40 on 64-bit, 2^24 on 32-bit); huge*huge*... too.
const (
	big  = 1 << (strconv.IntSize/2 + 8)
	huge = 1 << (strconv.IntSize - 2)
)

// assertShapeError checks that err is a *ShapeError with the given text.
func assertShapeError(t *testing.T, err error, text string) {
	t.Helper()
	var se *tensor.ShapeError
	require.ErrorAs(t, err, &se)
	assert.EqualError(t, err, text)
}

// TestNumelRule checks Shape.Numel's rule: 0 when an extent is 0, wherever
// it stands and whatever the others multiply to; else the product, which
// must fit int.
func TestNumelRule(t *testing.T) {
	tests := []struct {
		name  string
		shape tensor.Shape
		want  int
		err   string
	}{
		{"scalar", tensor.Shape{}, 1, ""},
		{"zero first", tensor.Shape{0, huge, huge}, 0, ""},
		{"zero last", tensor.Shape{huge, huge, 0}, 0, ""},
		{"zero between", tensor.Shape{big, 0, big}, 0, ""},
		{"fits", tensor.Shape{big, 3}, 3 * big, ""},
		{"overflow", tensor.Shape{big, big}, 0, fmt.Sprintf("invalid shape [%d, %d] at dimension 1: number of elements overflows int", big, big)},
		{"negative after an overflow", tensor.Shape{huge, huge, -1}, 0, fmt.Sprintf("invalid shape [%d, %d, -1] at dimension 2: negative extent -1", huge, huge)},
		{"negative beside a zero", tensor.Shape{0, -2}, 0, "invalid shape [0, -2] at dimension 1: negative extent -2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := tc.shape.Numel()
			if tc.err != "" {
				assertShapeError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, n)
		})
	}
}

// TestShapeFunctionsOverflow checks that every function that produces a
// shape reports a result whose element count overflows int as a
// *ShapeError, and accepts a huge shape that holds an extent of 0.
func TestShapeFunctionsOverflow(t *testing.T) {
	over := fmt.Sprintf("invalid shape [%d, %d] at dimension 1: number of elements overflows int", big, big)
	one := tensor.Must(tensor.Full(1.0, 1))
	six := tensor.Must(tensor.Arange[float64](0, 6, 1))
	empty := tensor.Must(tensor.New[float64](0))
	tests := []struct {
		name string
		call func() (tensor.Shape, error)
		want tensor.Shape // nil: want the error
		err  string
	}{
		{"BroadcastShapes", func() (tensor.Shape, error) {
			return tensor.BroadcastShapes(tensor.Shape{big}, tensor.Shape{big, 1})
		}, nil, over},
		{"BroadcastShapes of three", func() (tensor.Shape, error) {
			return tensor.BroadcastShapes(tensor.Shape{1}, tensor.Shape{big}, tensor.Shape{big, 1})
		}, nil, over},
		{"BroadcastShapes with a zero", func() (tensor.Shape, error) {
			return tensor.BroadcastShapes(tensor.Shape{big, 1, 0}, tensor.Shape{big, 1})
		}, tensor.Shape{big, big, 0}, ""},
		{"BroadcastShapes of an overflowing operand", func() (tensor.Shape, error) {
			return tensor.BroadcastShapes(tensor.Shape{big, big, 1}, tensor.Shape{0})
		}, nil, fmt.Sprintf("invalid shape [%d, %d, 1] at dimension 1: number of elements overflows int", big, big)},
		{"BroadcastInferShape", func() (tensor.Shape, error) {
			return tensor.BroadcastInferShape(tensor.Shape{big}, tensor.Shape{big, 1})
		}, nil, over},
		{"MergedBroadcastShape", func() (tensor.Shape, error) {
			return tensor.MergedBroadcastShape(tensor.Shape{big}, tensor.Shape{big, 1})
		}, nil, over},
		{"MergedBroadcastShape merged extent", func() (tensor.Shape, error) {
			return tensor.MergedBroadcastShape(tensor.Shape{big, big, 0, 1}, tensor.Shape{big, big, 1, 0})
		}, nil, fmt.Sprintf("invalid shape [%d, %d, 0, 0] at dimension 1: merged extent overflows int", big, big)},
		{"MergedBroadcastShape with a zero", func() (tensor.Shape, error) {
			return tensor.MergedBroadcastShape(tensor.Shape{big, 0}, tensor.Shape{big, 1})
		}, tensor.Shape{big, 0}, ""},
		{"Expand", func() (tensor.Shape, error) {
			v, err := one.Expand(big, big)
			return shapeOf(v), err
		}, nil, over},
		{"BroadcastTo", func() (tensor.Shape, error) {
			v, err := one.BroadcastTo(big, big)
			return shapeOf(v), err
		}, nil, over},
		{"Reshape", func() (tensor.Shape, error) {
			v, err := six.Reshape(big, big)
			return shapeOf(v), err
		}, nil, over},
		{"Reshape an empty tensor, zero last", func() (tensor.Shape, error) {
			v, err := empty.Reshape(huge, huge, 0)
			return shapeOf(v), err
		}, tensor.Shape{huge, huge, 0}, ""},
		{"ReshapeView an empty tensor, zero first", func() (tensor.Shape, error) {
			v, err := empty.ReshapeView(0, huge, huge)
			return shapeOf(v), err
		}, tensor.Shape{0, huge, huge}, ""},
		{"New, zero last", func() (tensor.Shape, error) {
			v, err := tensor.New[float64](huge, huge, 0)
			return shapeOf(v), err
		}, tensor.Shape{huge, huge, 0}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.call()
			if tc.want == nil {
				assertShapeError(t, err, tc.err)
				var ce *tensor.BroadcastConditionError
				assert.False(t, errors.As(err, &ce), "the shapes meet the broadcast condition")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestCheckBroadcastShapeOverflow checks that CheckBroadcastShape is true
// exactly when BroadcastShapes succeeds, also at the edges of int.
func TestCheckBroadcastShapeOverflow(t *testing.T) {
	tests := []struct {
		name string
		a, b tensor.Shape
		want bool
	}{
		{"result overflows", tensor.Shape{big}, tensor.Shape{big, 1}, false},
		{"operand overflows", tensor.Shape{big, big, 1}, tensor.Shape{0}, false},
		{"zero result", tensor.Shape{big, 1, 0}, tensor.Shape{big, 1}, true},
		{"huge but fits", tensor.Shape{huge}, tensor.Shape{1, 1}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tensor.BroadcastShapes(tc.a, tc.b)
			assert.Equal(t, tc.want, err == nil)
			assert.Equal(t, tc.want, tensor.CheckBroadcastShape(tc.a, tc.b))
			assert.Equal(t, tc.want, tensor.CheckBroadcastShape(tc.b, tc.a))
		})
	}
}

func shapeOf(t *tensor.Tensor[float64]) tensor.Shape {
	if t == nil {
		return nil
	}
	return t.Shape()
}
