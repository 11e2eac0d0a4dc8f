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

// viewOps are the ops of ops_shape.json that are views (issue 23); the
// file's other ops are tested with their own implementations.
var viewOps = map[string]bool{"flip": true, "moveaxis": true, "swapaxes": true, "broadcast_to": true,
	"diagonal": true, "split": true, "array_split": true}

// TestViewVectors runs every view case of ops_shape.json twice: as the
// tensor method (a view of the input) and as the lazy expression,
// evaluated.
func TestViewVectors(t *testing.T) {
	f := vectors.Load[vectors.OpCase](t, "ops_shape.json")
	ran := 0
	for _, c := range f.Cases {
		if !viewOps[c.Op] {
			continue
		}
		ran++
		t.Run(c.ID+"/"+c.Op, func(t *testing.T) {
			forInputDType(t, c, 0, runViewCase[float64], runViewCase[float32], runViewCase[int64], runViewCase[int32], runViewCase[int16])
		})
	}
	assert.Equal(t, 13, ran, "view cases in ops_shape.json")
}

func param(c vectors.OpCase, k string) int { return int(c.Params[k].(float64)) }

// viewOf applies c's op to x as tensor methods and as expressions.
func viewOf[T dtype.Elem](c vectors.OpCase, x *tensor.Tensor[T]) ([]*tensor.Tensor[T], []expr.Expr[T], error) {
	e := expr.Of(x)
	one := func(v *tensor.Tensor[T], err error, ev expr.Expr[T]) ([]*tensor.Tensor[T], []expr.Expr[T], error) {
		if err != nil {
			return nil, []expr.Expr[T]{ev}, err
		}
		return []*tensor.Tensor[T]{v}, []expr.Expr[T]{ev}, nil
	}
	switch c.Op {
	case "flip":
		axes := intList(c.Params["axis"])
		v, err := x.Flip(axes...)
		return one(v, err, e.Flip(axes...))
	case "moveaxis":
		src, dst := intList(c.Params["source"]), intList(c.Params["destination"])
		v, err := x.MoveAxis(src, dst)
		return one(v, err, e.MoveAxis(src, dst))
	case "swapaxes":
		v, err := x.SwapAxes(param(c, "axis1"), param(c, "axis2"))
		return one(v, err, e.SwapAxes(param(c, "axis1"), param(c, "axis2")))
	case "broadcast_to":
		shape := intList(c.Params["shape"])
		v, err := x.BroadcastTo(shape...)
		return one(v, err, e.BroadcastTo(shape...))
	case "diagonal":
		v, err := x.Diagonal(param(c, "offset"), param(c, "axis1"), param(c, "axis2"))
		return one(v, err, e.Diagonal(param(c, "offset"), param(c, "axis1"), param(c, "axis2")))
	case "split", "array_split":
		axis := param(c, "axis")
		var vs []*tensor.Tensor[T]
		var es []expr.Expr[T]
		var err error
		switch {
		case c.Params["indices"] != nil:
			idx := intList(c.Params["indices"])
			vs, err = x.SplitAt(idx, axis)
			es = e.SplitAt(idx, axis)
		case c.Op == "split":
			vs, err = x.Split(param(c, "sections"), axis)
			es = e.Split(param(c, "sections"), axis)
		default:
			vs, err = x.ArraySplit(param(c, "sections"), axis)
			es = e.ArraySplit(param(c, "sections"), axis)
		}
		return vs, es, err
	}
	return nil, nil, fmt.Errorf("no op %s", c.Op)
}

func runViewCase[T dtype.Elem](t *testing.T, c vectors.OpCase, x *tensor.Tensor[T]) {
	views, es, err := viewOf(c, x)
	if c.Expect == "error" {
		require.Error(t, err, "%s wants a %s error", c.ID, c.ErrorKind)
		require.Len(t, es, 1, "an error gives one expression")
		assert.Equal(t, err.Error(), es[0].Err().Error(), "tensor and expr report one error")
		var ve *tensor.ViewError
		var ee *tensor.ExpandError
		var ae *tensor.ArgError
		switch c.ErrorKind {
		case "axis":
			require.ErrorAs(t, err, &ve)
			assert.GreaterOrEqual(t, ve.Dim, 0, "names the dimension")
		case "shape":
			assert.True(t, errors.As(err, &ve) || errors.As(err, &ee) || errors.As(err, &ae), "error %T: %v", err, err)
			assert.Contains(t, err.Error(), x.Shape().String(), "names the shape")
		default:
			t.Fatalf("no check for error kind %q", c.ErrorKind)
		}
		return
	}
	require.NoError(t, err)
	outs, tols, err := c.Outputs()
	require.NoError(t, err)
	require.Len(t, views, len(outs))
	require.Len(t, es, len(outs))
	for i, want := range outs {
		vectors.AssertTensor(t, views[i], want, tols[i], fmt.Sprintf("%s tensor view %d", c.ID, i))
		if n := views[i].Numel(); n > 0 {
			assert.True(t, views[i].SameStorage(x), "a view shares its input's storage")
		}
		got, err := exec.Eval(es[i])
		require.NoError(t, err)
		vectors.AssertTensor(t, got, want, tols[i], fmt.Sprintf("%s expr %d", c.ID, i))
	}
}
