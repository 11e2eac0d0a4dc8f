package tensor_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestIdxAdvancedVectors runs the cases of ops_index.json that are a
// subscript: take with mode "raise" (a[:, …, idx] along the axis, or the
// flattened a[idx]) and mask_select (a[mask]).
func TestIdxAdvancedVectors(t *testing.T) {
	f := vectors.Load[vectors.OpCase](t, "ops_index.json")
	ran := 0
	for _, c := range f.Cases {
		if mode, _ := c.Params["mode"].(string); !(c.Op == "take" && mode == "raise") && c.Op != "mask_select" {
			continue
		}
		ran++
		t.Run(c.ID+"_"+c.Op, func(t *testing.T) {
			dt, err := c.InputDType(0)
			require.NoError(t, err)
			switch dt {
			case "float64":
				runSubscriptCase[float64](t, c)
			case "float32":
				runSubscriptCase[float32](t, c)
			case "int64":
				runSubscriptCase[int64](t, c)
			case "int32":
				runSubscriptCase[int32](t, c)
			default:
				t.Fatalf("no runner for dtype %s", dt)
			}
		})
	}
	assert.Equal(t, 9, ran, "take (raise) and mask_select cases")
}

func runSubscriptCase[T dtype.Elem](t *testing.T, c vectors.OpCase) {
	a, err := vectors.OpInput[T](c, 0)
	require.NoError(t, err)
	var idx tensor.Indexer
	switch dt, _ := c.InputDType(1); dt {
	case "int64":
		idx, err = vectors.OpInput[int64](c, 1)
	case "bool":
		idx, err = vectors.OpInput[bool](c, 1)
	case "float64":
		idx, err = vectors.OpInput[float64](c, 1)
	default:
		t.Fatalf("no index of dtype %s", dt)
	}
	require.NoError(t, err)
	var items []tensor.IndexItem
	if axis, ok := c.Params["axis"].(float64); ok {
		for d := 0; d < int(axis); d++ {
			items = append(items, tensor.All)
		}
	} else if c.Op == "take" {
		a = tensor.Must(a.Reshape(-1))
	}
	got, err := a.Idx(append(items, tensor.At(idx))...)
	if c.Expect == "error" {
		require.Error(t, err)
		var ve *tensor.ViewError
		assert.True(t, errors.As(err, &ve), "%T", err)
		switch c.ErrorKind {
		case "out_of_range":
			assert.True(t, errors.As(err, new(*tensor.IndexError)), "%v", err)
		case "shape":
			assert.True(t, errors.As(err, new(*tensor.ShapeError)), "%v", err)
		case "dtype":
			assert.True(t, errors.As(err, new(*tensor.ArgError)), "%v", err)
		default:
			t.Fatalf("error kind %s", c.ErrorKind)
		}
		return
	}
	require.NoError(t, err)
	outs, tols, err := c.Outputs()
	require.NoError(t, err)
	vectors.AssertTensor(t, got, outs[0], tols[0], c.ID)
}
