package tensor_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

type elementwiseCase struct {
	ID     string         `json:"id"`
	DType  string         `json:"dtype"`
	Inputs []vectors.View `json:"inputs"`
}

type inplaceCase struct {
	ID    string       `json:"id"`
	DType string       `json:"dtype"`
	Self  vectors.View `json:"self"`
	Other vectors.View `json:"other"`
}

// TestViewRecipesElementwise replays every input view of elementwise.json
// with the view methods and checks the layout torch reported.
func TestViewRecipesElementwise(t *testing.T) {
	f := vectors.Load[elementwiseCase](t, "elementwise.json")
	for _, c := range f.Cases {
		for i, in := range c.Inputs {
			bt, ok, err := in.BaseTensor()
			require.NoError(t, err)
			require.True(t, ok, "elementwise inputs have their own base")
			t.Run(c.ID+"/"+string(rune('a'+i)), func(t *testing.T) {
				replayByDType(t, bt.DType, in)
			})
		}
	}
}

// TestViewRecipesInplace does the same for inplace.json; an operand whose
// base is "self.base" is replayed on the storage of self's base.
func TestViewRecipesInplace(t *testing.T) {
	f := vectors.Load[inplaceCase](t, "inplace.json")
	for _, c := range f.Cases {
		t.Run(c.ID, func(t *testing.T) {
			switch c.DType {
			case "float32":
				replayPair[float32](t, c.Self, c.Other)
			case "float64":
				replayPair[float64](t, c.Self, c.Other)
			case "int32":
				replayPair[int32](t, c.Self, c.Other)
			case "int64":
				replayPair[int64](t, c.Self, c.Other)
			case "int16":
				replayPair[int16](t, c.Self, c.Other)
			case "uint8":
				replayPair[uint8](t, c.Self, c.Other)
			case "complex64":
				replayPair[complex64](t, c.Self, c.Other)
			case "complex128":
				replayPair[complex128](t, c.Self, c.Other)
			case "bool":
				replayPair[bool](t, c.Self, c.Other)
			default:
				t.Fatalf("dtype %q not wired into the test", c.DType)
			}
		})
	}
}

// replayByDType replays one view with the Go type of dt.
func replayByDType(t *testing.T, dt string, v vectors.View) {
	t.Helper()
	switch dt {
	case "float32":
		replayView[float32](t, v, nil)
	case "float64":
		replayView[float64](t, v, nil)
	case "int16":
		replayView[int16](t, v, nil)
	case "int32":
		replayView[int32](t, v, nil)
	case "int64":
		replayView[int64](t, v, nil)
	case "uint8":
		replayView[uint8](t, v, nil)
	case "complex64":
		replayView[complex64](t, v, nil)
	case "complex128":
		replayView[complex128](t, v, nil)
	case "bool":
		replayView[bool](t, v, nil)
	default:
		t.Fatalf("unknown dtype %q", dt)
	}
}

// replayPair replays self, then other (on self's base when other's base is
// "self.base").
func replayPair[T dtype.Elem](t *testing.T, self, other vectors.View) {
	t.Helper()
	_, selfBase := replayView[T](t, self, nil)
	_, otherBase := replayView(t, other, selfBase)
	if _, own, _ := other.BaseTensor(); !own {
		assert.Same(t, selfBase, otherBase, "other is built on self's base")
	}
}

// replayView rebuilds view v by its recipe and checks it against the layout
// and values torch reported, and against AsStrided of the same layout.
func replayView[T dtype.Elem](t *testing.T, v vectors.View, selfBase *tensor.Tensor[T]) (view, base *tensor.Tensor[T]) {
	t.Helper()
	view, base, err := vectors.ReplayView(v, selfBase)
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape(v.Shape), view.Shape(), "shape")
	if view.Numel() > 0 {
		// Strides and storage of an empty tensor are meaningless; torch
		// reports stride 0 for a fresh (0,) tensor where row-major gives 1.
		assert.Equal(t, v.Strides, view.Strides(), "strides")
		assert.True(t, view.SameStorage(base), "a view shares its base's storage")
	}
	assert.Equal(t, v.Offset, view.Offset(), "offset")
	assert.Equal(t, v.Contiguous, view.IsContiguous(), "contiguous")
	want, err := vectors.Values[T](v.Values)
	require.NoError(t, err)
	exact := vectors.Tolerance{Exact: true} // NaN matches NaN
	vectors.AssertClose(t, view.Values(), want, exact, "values")

	as, err := tensor.AsStrided(base.Data(), v.Shape, v.Strides, v.Offset)
	require.NoError(t, err)
	vectors.AssertClose(t, as.Values(), want, exact, "as_strided values")
	return view, base
}
