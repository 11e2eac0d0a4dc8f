package exec_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestDestinationCheckOrder runs the copy_ error cases of inplace.json
// (ip-012, ip-018, ip-024, ip-030 and the others) through every path that
// writes a destination: CopyTo, EvalTo of the tensor and of an expression
// of it, EvalToWith a tiled executor, and Run with one and two roots. All
// follow docs/inplace.md's order and give PyTorch's error, of one type and
// one text, and leave the storage untouched. (EvalTo(x, Of(y)) with a y
// that does not broadcast to x returned an *tensor.ExpandError where
// CopyTo(x, y) returned a *tensor.BroadcastError.) The not_broadcastable
// cases of the other ops go through EvalTo(x, x op y) too.
func TestDestinationCheckOrder(t *testing.T) {
	f := vectors.Load[inplaceCase](t, "inplace.json")
	n := 0
	for _, c := range f.Cases {
		if c.Expect != "error" || c.ErrorKind == "partial_overlap" || c.Op != "copy_" && c.ErrorKind != "not_broadcastable" {
			continue
		}
		n++
		t.Run(c.ID+"_"+c.Op+"_"+c.DType, func(t *testing.T) {
			switch c.DType {
			case "float32":
				checkOrder[float32](t, c)
			case "float64":
				checkOrder[float64](t, c)
			case "int16":
				checkOrder[int16](t, c)
			case "int32":
				checkOrder[int32](t, c)
			case "int64":
				checkOrder[int64](t, c)
			case "uint8":
				checkOrder[uint8](t, c)
			case "complex64":
				checkOrder[complex64](t, c)
			case "complex128":
				checkOrder[complex128](t, c)
			default:
				t.Fatalf("no runner for %s", c.DType)
			}
		})
	}
	require.GreaterOrEqual(t, n, 4, "ip-012, ip-018, ip-024 and ip-030 at least")
}

// wantError returns a check of the error a case expects: its type and text.
func wantError(c inplaceCase) (kind string, text string, is func(error) bool) {
	switch {
	case c.ErrorKind == "not_broadcastable":
		return "*tensor.BroadcastError", c.TorchError, func(err error) bool { var e *tensor.BroadcastError; return errors.As(err, &e) }
	case c.ErrorKind == "internal_overlap":
		return "*exec.OverlapError", c.TorchError, func(err error) bool { var e *exec.OverlapError; return errors.As(err, &e) }
	case len(c.LegacyExpand) > 0 && c.LegacyExpand[:3] == "The":
		return "*tensor.ExpandError", c.LegacyExpand, func(err error) bool { var e *tensor.ExpandError; return errors.As(err, &e) }
	}
	return "*exec.InplaceError", c.TorchError, func(err error) bool { var e *exec.InplaceError; return errors.As(err, &e) }
}

func checkOrder[T dtype.Numeric](t *testing.T, c inplaceCase) {
	self, base, err := vectors.BuildView[T](c.Self)
	require.NoError(t, err)
	var other *tensor.Tensor[T]
	if c.OtherAliasesSelf {
		other, err = tensor.AsStrided(base.Data(), c.Other.Shape, c.Other.Strides, c.Other.Offset)
	} else {
		other, _, err = vectors.BuildView[T](c.Other)
	}
	require.NoError(t, err)
	before := base.Clone().Values()
	kind, text, is := wantError(c)
	y := expr.Of(other)
	value := y // the value written, an expression of y
	if c.Op != "copy_" {
		x := expr.Of(self)
		value = map[string]func(expr.Expr[T]) expr.Expr[T]{
			"add_": x.Add, "sub_": x.Sub, "mul_": x.Mul, "div_": x.Div, "pow_": x.Pow,
		}[c.Op](y)
	}
	paths := []struct {
		name string
		run  func() error
	}{
		{"short form", func() error { return inplaceOp[T](c.Op)(self, other) }},
		{"EvalTo", func() error { return exec.EvalTo(self, value) }},
		{"EvalToWith tiled", func() error { return exec.EvalToWith(tiled, self, value) }},
		{"Run", func() error { _, err := exec.Default.Run([]*expr.Node{value.Node()}, []tensor.Any{self}); return err }},
		{"Run with a second root", func() error {
			_, err := tiled.Run([]*expr.Node{y.Node(), value.Node()}, []tensor.Any{nil, self})
			return err
		}},
	}
	if c.Op == "copy_" {
		paths = append(paths, struct {
			name string
			run  func() error
		}{"EvalTo of y+0", func() error { return exec.EvalTo(self, y.Add(expr.Scalar[T](0))) }})
	}
	for _, p := range paths {
		t.Run(p.name, func(t *testing.T) {
			err := p.run()
			require.Error(t, err)
			assert.True(t, is(err), "want %s, got %s", kind, fmt.Sprintf("%T", err))
			assert.Equal(t, text, err.Error())
			assert.Equal(t, before, base.Values(), "the storage is untouched")
		})
	}
}
