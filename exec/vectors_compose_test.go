package exec_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

// composeOps are the ops of ops_shape.json that build values from pieces
// (the views of that file have a test of their own).
var composeOps = map[string]bool{
	"concatenate": true, "stack": true, "tile": true, "repeat": true, "roll": true,
	"pad": true, "eye": true, "tril": true, "triu": true, "trace": true,
}

// TestComposeVectors runs every case of ops_shape.json for the ops above
// against NumPy 1.24, on one worker and on two with tiny blocks.
func TestComposeVectors(t *testing.T) {
	f := vectors.Load[opCase](t, "ops_shape.json")
	ran := 0
	for _, c := range f.Cases {
		if !composeOps[c.Op] {
			continue
		}
		ran++
		t.Run(c.ID+"_"+c.Op, func(t *testing.T) {
			var e expr.Any
			switch c.Op {
			case "concatenate":
				xs := make([]expr.Any, len(c.Inputs))
				for i := range xs {
					xs[i] = anyInput(t, c, i)
				}
				axis, _ := intParam(c, "axis")
				e = expr.ConcatenateAny(axis, xs...)
			case "eye":
				n, _ := intParam(c, "n")
				m, ok := intParam(c, "m")
				if !ok {
					m = n
				}
				k, _ := intParam(c, "k")
				require.Equal(t, "float64", c.Params["dtype"])
				e = expr.Eye[float64](n, m, k)
			default:
				forInputDType(t, c, 0, runCompose[float64], runCompose[float32], runCompose[int16], runCompose[int32], runCompose[complex128])
				return
			}
			checkAny(t, c, e)
		})
	}
	assert.Equal(t, 30, ran, "cases of the compose ops")
}

// runCompose checks the op of c over inputs of their own dtype T.
func runCompose[T dtype.Elem](t *testing.T, c opCase, _ *tensor.Tensor[T]) {
	checkAny(t, c, composeOf(t, c, leaves[T](t, c)))
}

func leaves[T dtype.Elem](t *testing.T, c opCase) []expr.Expr[T] {
	xs := make([]expr.Expr[T], len(c.Inputs))
	for i := range xs {
		xs[i] = expr.Of(opInput[T](t, c, i))
	}
	return xs
}

// intList decodes a number or a list of numbers.
func intList(v any) []int {
	switch v := v.(type) {
	case float64:
		return []int{int(v)}
	case []any:
		out := make([]int, len(v))
		for i, x := range v {
			out[i] = int(x.(float64))
		}
		return out
	}
	return nil
}

func composeOf[T dtype.Elem](t *testing.T, c opCase, xs []expr.Expr[T]) expr.Any {
	x := xs[0]
	switch c.Op {
	case "stack":
		axis, _ := intParam(c, "axis")
		return expr.Stack(axis, xs...)
	case "tile":
		return x.Tile(intList(c.Params["reps"])...)
	case "repeat":
		return x.Repeat(intList(c.Params["repeats"]), intList(c.Params["axis"])...)
	case "roll":
		shifts, axes := intList(c.Params["shift"]), intList(c.Params["axis"])
		if axes == nil {
			return x.Roll(shifts[0])
		}
		if len(shifts) == 1 {
			return x.Roll(shifts[0], axes...)
		}
		return x.RollAxes(shifts, axes)
	case "pad":
		var widths [][2]int
		for _, w := range c.Params["pad_width"].([]any) {
			p := intList(w)
			widths = append(widths, [2]int{p[0], p[1]})
		}
		modes := map[string]expr.PadMode{"constant": expr.PadConstant, "edge": expr.PadEdge,
			"reflect": expr.PadReflect, "symmetric": expr.PadSymmetric, "wrap": expr.PadWrap}
		mode, ok := modes[c.Params["mode"].(string)]
		require.True(t, ok, "mode %v", c.Params["mode"])
		if v, ok := c.Params["constant_value"].(float64); ok {
			vs, err := vectors.Values[T]([]byte("[" + strconv.FormatFloat(v, 'g', -1, 64) + "]"))
			require.NoError(t, err)
			return x.PadWith(vs[0], widths...)
		}
		return x.Pad(mode, widths...)
	case "tril":
		k, _ := intParam(c, "k")
		return x.Tril(k)
	case "triu":
		k, _ := intParam(c, "k")
		return x.Triu(k)
	case "trace":
		off, _ := intParam(c, "offset")
		a1, _ := intParam(c, "axis1")
		a2, _ := intParam(c, "axis2")
		return x.Trace(off, a1, a2)
	}
	t.Fatalf("no op %s", c.Op)
	return nil
}

// checkAny evaluates e and compares it with c's expected tensor, or checks
// c's error kind.
func checkAny(t *testing.T, c opCase, e expr.Any) {
	t.Helper()
	n := e.Node()
	if c.Expect == "error" {
		err := n.Err()
		if err == nil {
			_, err = exec.Default.Run([]*expr.Node{n}, nil)
		}
		require.Error(t, err, "%s wants a %s error", c.ID, c.ErrorKind)
		var je *expr.JoinError
		var se *expr.ShapeOpError
		var ae *tensor.AxisError
		switch c.ErrorKind {
		case "shape":
			assert.True(t, errors.As(err, &je) || errors.As(err, &se), "%s: %v is not a *expr.JoinError or *expr.ShapeOpError", c.ID, err)
		case "value":
			assert.True(t, errors.As(err, &se), "%s: %v is not an *expr.ShapeOpError", c.ID, err)
		case "axis":
			assert.True(t, errors.As(err, &ae), "%s: %v is not a *tensor.AxisError", c.ID, err)
		default:
			t.Fatalf("%s: no check for error kind %q", c.ID, c.ErrorKind)
		}
		return
	}
	require.NoError(t, n.Err())
	outs, tols := expectedOf(t, c)
	for _, x := range executors() {
		got, err := x.Run([]*expr.Node{n}, nil)
		require.NoError(t, err)
		vectors.AssertAnyTensor(t, got[0], outs[0], tols[0], c.ID)
	}
}
