package exec_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

type elementwiseCase struct {
	ID        string            `json:"id"`
	Op        string            `json:"op"`
	DType     string            `json:"dtype"`
	Note      string            `json:"note"`
	Inputs    []vectors.View    `json:"inputs"`
	Expected  vectors.Tensor    `json:"expected"`
	Tolerance vectors.Tolerance `json:"tolerance"`
}

// TestElementwiseVectors evaluates every case of elementwise.json (strided,
// permuted and expanded inputs included) and compares with PyTorch.
func TestElementwiseVectors(t *testing.T) {
	f := vectors.Load[elementwiseCase](t, "elementwise.json")
	for _, c := range f.Cases {
		t.Run(c.ID+"_"+c.Op+"_"+c.DType, func(t *testing.T) {
			switch c.DType {
			case "float32":
				runElementwise[float32](t, c)
			case "float64":
				runElementwise[float64](t, c)
			case "int16":
				runElementwise[int16](t, c)
			case "int32":
				runElementwise[int32](t, c)
			case "int64":
				runElementwise[int64](t, c)
			case "uint8":
				runElementwise[uint8](t, c)
			case "complex64":
				runElementwise[complex64](t, c)
			case "complex128":
				runElementwise[complex128](t, c)
			default:
				t.Fatalf("no runner for dtype %s", c.DType)
			}
		})
	}
}

func runElementwise[T dtype.Elem](t *testing.T, c elementwiseCase) {
	if c.Op == "where" {
		cond, _, err := vectors.BuildView[bool](c.Inputs[0])
		require.NoError(t, err)
		a, _, err := vectors.BuildView[T](c.Inputs[1])
		require.NoError(t, err)
		b, _, err := vectors.BuildView[T](c.Inputs[2])
		require.NoError(t, err)
		check(t, c, expr.Where(expr.Of(cond), expr.Of(a), expr.Of(b)))
		return
	}
	a, _, err := vectors.BuildView[T](c.Inputs[0])
	require.NoError(t, err)
	b, _, err := vectors.BuildView[T](c.Inputs[1])
	require.NoError(t, err)
	x, y := expr.Of(a), expr.Of(b)
	switch c.Op {
	case "add":
		check(t, c, x.Add(y))
	case "sub":
		check(t, c, x.Sub(y))
	case "mul":
		check(t, c, x.Mul(y))
	case "div":
		if dtype.Of[T]().IsInteger() {
			require.Equal(t, "float32", c.Expected.DType, "torch divides integers into float32")
			check(t, c, expr.TrueDiv[float32](x, y))
			return
		}
		check(t, c, x.Div(y))
	case "div_trunc":
		check(t, c, x.DivTrunc(y))
	case "div_floor":
		check(t, c, x.DivFloor(y))
	case "maximum":
		check(t, c, x.Maximum(y))
	case "pow":
		check(t, c, x.Pow(y))
	default:
		t.Fatalf("unknown op %s", c.Op)
	}
}

// check evaluates e with 1 and 2 workers (and a tiny block size, so the
// tile machinery is exercised on small inputs) and compares with c.Expected.
func check[U dtype.Elem](t *testing.T, c elementwiseCase, e expr.Expr[U]) {
	t.Helper()
	require.NoError(t, e.Err())
	want, err := vectors.Values[U](c.Expected.Data)
	require.NoError(t, err)
	for _, x := range []*exec.Executor{exec.New(exec.Workers(1)), exec.New(exec.Workers(2), exec.Grain(1), exec.BlockSize(16))} {
		got, err := exec.EvalWith(x, e)
		require.NoError(t, err)
		assert.Equal(t, tensor.Shape(c.Expected.Shape), got.Shape())
		assert.Equal(t, c.Expected.DType, got.DType().String())
		vectors.AssertClose(t, got.Values(), want, c.Tolerance, c.Note)
	}
}
