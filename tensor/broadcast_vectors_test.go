package tensor_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

type broadcastShapesCase struct {
	ID           string `json:"id"`
	Note         string `json:"note"`
	A            []int  `json:"a"`
	B            []int  `json:"b"`
	Broadcasting bool   `json:"broadcastable"`
	Result       []int  `json:"result"`
	MismatchDims []int  `json:"mismatch_dims"`
	ReportedDim  *int   `json:"reported_dim"`
	TorchOpError string `json:"torch_op_error"`
}

func TestBroadcastShapesVectors(t *testing.T) {
	f := vectors.Load[broadcastShapesCase](t, "broadcast_shapes.json")
	for _, c := range f.Cases {
		t.Run(c.ID, func(t *testing.T) {
			a, b := tensor.Shape(c.A), tensor.Shape(c.B)
			got, err := tensor.BroadcastShapes(a, b)
			assert.Equal(t, c.Broadcasting, tensor.Broadcastable(a, b), c.Note)
			assert.Equal(t, c.Broadcasting, tensor.CheckBroadcastShape(a, b), c.Note)
			assert.Equal(t, c.Broadcasting, tensor.CheckBroadcastShape(b, a), c.Note)
			if c.Broadcasting {
				require.NoError(t, err, c.Note)
				assert.Equal(t, tensor.Shape(c.Result), got, c.Note)
				return
			}
			var be *tensor.BroadcastError
			require.ErrorAs(t, err, &be, c.Note)
			assert.Equal(t, c.TorchOpError, err.Error(), c.Note)
			require.NotNil(t, c.ReportedDim)
			assert.Equal(t, *c.ReportedDim, be.Dim)
			assert.Contains(t, c.MismatchDims, be.Dim)
			assert.Equal(t, a, be.A)
			assert.Equal(t, b, be.B)
		})
	}
}

type checkBroadcastCase struct {
	ID    string `json:"id"`
	Note  string `json:"note"`
	Self  []int  `json:"self"`
	Other []int  `json:"other"`
	Check bool   `json:"check_broadcast_shape"`
	Infer struct {
		OK    bool   `json:"ok"`
		Shape []int  `json:"shape"`
		Error string `json:"error_message"`
	} `json:"broadcast_infer_shape"`
}

func TestCheckBroadcastVectors(t *testing.T) {
	f := vectors.Load[checkBroadcastCase](t, "checkbroadcast.json")
	for _, c := range f.Cases {
		t.Run(c.ID, func(t *testing.T) {
			a, b := tensor.Shape(c.Self), tensor.Shape(c.Other)
			assert.Equal(t, c.Check, tensor.CheckBroadcastShape(a, b), c.Note)
			assert.Equal(t, c.Check, tensor.CheckBroadcastShape(b, a), "symmetric: "+c.Note)
			got, err := tensor.BroadcastInferShape(a, b)
			if c.Infer.OK {
				require.NoError(t, err, c.Note)
				assert.Equal(t, tensor.Shape(c.Infer.Shape), got, c.Note)
				return
			}
			var ce *tensor.BroadcastConditionError
			require.ErrorAs(t, err, &ce, c.Note)
			assert.Equal(t, c.Infer.Error, err.Error())
			var be *tensor.BroadcastError
			assert.ErrorAs(t, err, &be, "wraps the PyTorch-style error")
		})
	}
}

type cannCase struct {
	ID          string `json:"id"`
	Note        string `json:"note"`
	A           []int  `json:"a"`
	B           []int  `json:"b"`
	Broadcast   bool   `json:"broadcastable"`
	MergedShape []int  `json:"merged_shape"`
	MergedRank  *int   `json:"merged_rank"`
}

func TestMergedBroadcastShapeVectors(t *testing.T) {
	f := vectors.Load[cannCase](t, "cann_restriction.json")
	for _, c := range f.Cases {
		t.Run(c.ID, func(t *testing.T) {
			got, err := tensor.MergedBroadcastShape(c.A, c.B)
			if !c.Broadcast {
				var be *tensor.BroadcastError
				assert.ErrorAs(t, err, &be, c.Note)
				return
			}
			require.NoError(t, err, c.Note)
			assert.Equal(t, tensor.Shape(c.MergedShape), got, c.Note)
			require.NotNil(t, c.MergedRank)
			assert.Equal(t, *c.MergedRank, got.Rank(), c.Note)
		})
	}
}

func TestMergedBroadcastShape(t *testing.T) {
	tests := []struct {
		name string
		a, b tensor.Shape
		want tensor.Shape
	}{
		{"seed error example", tensor.Shape{5, 1, 5, 1, 5, 1}, tensor.Shape{5, 5, 5, 5, 5, 5}, tensor.Shape{5, 5, 5, 5, 5, 5}},
		{"seed ok example", tensor.Shape{5, 1, 5, 5, 1, 1}, tensor.Shape{5, 5, 5, 5, 5, 5}, tensor.Shape{5, 5, 25, 25}},
		{"identical", tensor.Shape{2, 3, 4}, tensor.Shape{2, 3, 4}, tensor.Shape{24}},
		{"identical scalars", tensor.Shape{}, tensor.Shape{}, tensor.Shape{1}},
		{"identical empty", tensor.Shape{2, 0}, tensor.Shape{2, 0}, tensor.Shape{0}},
		{"all ones", tensor.Shape{1, 1}, tensor.Shape{1}, tensor.Shape{1}},
		{"skip does not break a run", tensor.Shape{2, 1, 3, 1}, tensor.Shape{2, 1, 3, 5}, tensor.Shape{6, 5}},
		{"padding stretches a", tensor.Shape{3}, tensor.Shape{2, 3}, tensor.Shape{2, 3}},
		{"y one", tensor.Shape{4, 3}, tensor.Shape{1, 3}, tensor.Shape{4, 3}},
		{"both directions", tensor.Shape{4, 1}, tensor.Shape{1, 5}, tensor.Shape{4, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tensor.MergedBroadcastShape(tt.a, tt.b)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	t.Run("errors", func(t *testing.T) {
		_, err := tensor.MergedBroadcastShape(tensor.Shape{2}, tensor.Shape{3})
		var be *tensor.BroadcastError
		assert.ErrorAs(t, err, &be)
		_, err = tensor.MergedBroadcastShape(tensor.Shape{-1}, tensor.Shape{3})
		var se *tensor.ShapeError
		assert.ErrorAs(t, err, &se)
		const big = 1 << (strconv.IntSize/2 + 8) // 1<<40 on 64-bit, 1<<24 on 32-bit: big*big overflows
		_, err = tensor.MergedBroadcastShape(tensor.Shape{big, 1}, tensor.Shape{1, big})
		assert.ErrorAs(t, err, &se, "the broadcast's element count overflows")
	})
}

func TestBroadcastShapes(t *testing.T) {
	tests := []struct {
		name   string
		shapes []tensor.Shape
		want   tensor.Shape
		errMsg string
	}{
		{"none", nil, tensor.Shape{}, ""},
		{"one", []tensor.Shape{{2, 3}}, tensor.Shape{2, 3}, ""},
		{"spec: trailing alignment", []tensor.Shape{{5, 1, 4, 1}, {3, 1, 1}}, tensor.Shape{5, 3, 4, 1}, ""},
		{"spec: 1 vs (3,1,7)", []tensor.Shape{{1}, {3, 1, 7}}, tensor.Shape{3, 1, 7}, ""},
		{"spec: 2 != 3", []tensor.Shape{{5, 2, 4, 1}, {3, 1, 1}}, nil,
			"The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"},
		{"zero matches one", []tensor.Shape{{0}, {1}}, tensor.Shape{0}, ""},
		{"zero does not match 2", []tensor.Shape{{0}, {2, 2}}, nil,
			"The size of tensor a (0) must match the size of tensor b (2) at non-singleton dimension 1"},
		{"three shapes", []tensor.Shape{{4, 1, 1}, {1, 3, 1}, {2}}, tensor.Shape{4, 3, 2}, ""},
		{"three shapes, third conflicts with first", []tensor.Shape{{4, 1}, {1, 3}, {5, 1}}, nil,
			"The size of tensor a (4) must match the size of tensor b (5) at non-singleton dimension 0"},
		{"three shapes, third conflicts with the second", []tensor.Shape{{1, 1}, {1, 3}, {2}}, nil,
			"The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tensor.BroadcastShapes(tt.shapes...)
			if tt.errMsg != "" {
				var be *tensor.BroadcastError
				require.ErrorAs(t, err, &be)
				assert.EqualError(t, err, tt.errMsg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	t.Run("negative extent", func(t *testing.T) {
		_, err := tensor.BroadcastShapes(tensor.Shape{2}, tensor.Shape{-3})
		var se *tensor.ShapeError
		require.ErrorAs(t, err, &se)
		assert.Equal(t, 0, se.Axis)
		assert.EqualError(t, err, "invalid shape [-3] at dimension 0: negative extent -3")
	})
}

func TestBroadcastInferShapeNegative(t *testing.T) {
	assert.False(t, tensor.CheckBroadcastShape(tensor.Shape{-1}, tensor.Shape{-1}))
	assert.False(t, tensor.CheckBroadcastShape(tensor.Shape{1}, tensor.Shape{-2, 3}))
	_, err := tensor.BroadcastInferShape(tensor.Shape{-1}, tensor.Shape{-1})
	var ce *tensor.BroadcastConditionError
	require.ErrorAs(t, err, &ce)
	assert.EqualError(t, err, "The tensor whose shape is [-1] and the tensor whose shape is [-1] do not meet the broadcast condition")
	var se *tensor.ShapeError
	assert.True(t, errors.As(err, &se), "unwraps to the shape error")
}

func TestBroadcastStrides(t *testing.T) {
	got, err := tensor.BroadcastStrides(tensor.Shape{3, 1}, []int{1, 1}, tensor.Shape{2, 3, 4})
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 0}, got)

	_, err = tensor.BroadcastStrides(tensor.Shape{1, 3, 1}, []int{3, 1, 1}, tensor.Shape{3, 3, 7}[:3])
	require.NoError(t, err)
	_, err = tensor.BroadcastStrides(tensor.Shape{3, 1, 7}, []int{7, 7, 1}, tensor.Shape{1, 3, 1})
	var ee *tensor.ExpandError
	require.ErrorAs(t, err, &ee)
	assert.EqualError(t, err, "The expanded size of the tensor (1) must match the existing size (7) at non-singleton dimension 2.  Target sizes: [1, 3, 1].  Tensor sizes: [3, 1, 7]")

	var se *tensor.ShapeError
	_, err = tensor.BroadcastStrides(tensor.Shape{2, 3}, []int{3, 1}, tensor.Shape{3})
	assert.ErrorAs(t, err, &se, "more dimensions than the target")
	_, err = tensor.BroadcastStrides(tensor.Shape{2, 3}, []int{1}, tensor.Shape{2, 3})
	assert.ErrorAs(t, err, &se, "strides of the wrong length")
}
