package linalg_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/linalg"
	"github.com/tensorplay/tensorplay/tensor"
)

// opCase is a case of the ops_*.json files (see testdata/vectors/README.md).
type opCase = vectors.OpCase

// opInput builds input i of c as an expression.
func opInput[T dtype.Elem](t *testing.T, c opCase, i int) expr.Expr[T] {
	t.Helper()
	x, err := vectors.OpInput[T](c, i)
	require.NoError(t, err)
	return expr.Of(x)
}

// inputDType is the dtype name of input 0.
func inputDType(t *testing.T, c opCase) string {
	dt, err := c.InputDType(0)
	require.NoError(t, err)
	return dt
}

// expectedOf returns c's expected outputs (one or several) and tolerances.
func expectedOf(t *testing.T, c opCase) ([]vectors.Tensor, []vectors.Tolerance) {
	t.Helper()
	outs, tols, err := c.Outputs()
	require.NoError(t, err)
	return outs, tols
}

// assertTensor compares got with the reference tensor want.
func assertTensor[T dtype.Elem](t *testing.T, got *tensor.Tensor[T], want vectors.Tensor, tol vectors.Tolerance, what string) {
	t.Helper()
	vectors.AssertTensor(t, got, want, tol, what)
}

// TestLinalgVectors runs every case of ops_linalg.json against NumPy 1.24,
// on executors of 1, 2 and 8 workers.
func TestLinalgVectors(t *testing.T) {
	f := vectors.Load[opCase](t, "ops_linalg.json")
	require.NotEmpty(t, f.Cases)
	for _, workers := range []int{1, 2, 8} {
		x := exec.New(exec.Workers(workers))
		defer x.Close()
		for _, c := range f.Cases {
			t.Run(fmt.Sprintf("%s_%s/w%d", c.ID, c.Op, workers), func(t *testing.T) {
				switch dt := inputDType(t, c); dt {
				case "float64":
					runCase[float64](t, c, x)
				case "float32":
					runCase[float32](t, c, x)
				case "complex128":
					runContraction[complex128](t, c, x)
				default:
					t.Fatalf("no runner for dtype %s", dt)
				}
			})
		}
	}
}

// ordParam decodes a norm's ord.
func ordParam(t *testing.T, v any) linalg.Ord {
	switch v {
	case "fro", nil:
		return linalg.Fro
	case "nuc":
		return linalg.Nuc
	case 2.0:
		return linalg.Two
	case -2.0:
		return linalg.NegTwo
	case 1.0:
		return linalg.One
	case -1.0:
		return linalg.NegOne
	case "inf":
		return linalg.Inf
	case "-inf":
		return linalg.NegInf
	}
	t.Fatalf("no norm order %v", v)
	return 0
}

func runCase[T linalg.Float](t *testing.T, c opCase, x *exec.Executor) {
	use := linalg.Using(x)
	in := func(i int) expr.Expr[T] { return opInput[T](t, c, i) }
	var opts []linalg.Option
	opts = append(opts, use)
	if r, ok := c.Params["rcond"].(float64); ok {
		opts = append(opts, linalg.RCond(r))
	}
	if u, _ := c.Params["uplo"].(string); u == "U" {
		opts = append(opts, linalg.Upper())
	}
	var got []any
	var err error
	one := func(r *tensor.Tensor[T], e error) { got, err = []any{r}, e }
	switch c.Op {
	case "solve":
		one(linalg.Solve(in(0), in(1), opts...))
	case "lstsq":
		one(linalg.Lstsq(in(0), in(1), opts...))
	case "inv":
		one(linalg.Inv(in(0), opts...))
	case "det":
		one(linalg.Det(in(0), opts...))
	case "cholesky":
		one(linalg.Cholesky(in(0), opts...))
	case "pinv":
		one(linalg.Pinv(in(0), opts...))
	case "svdvals":
		one(linalg.SVDVals(in(0), opts...))
	case "slogdet":
		var s, l *tensor.Tensor[T]
		s, l, err = linalg.Slogdet(in(0), opts...)
		got = []any{s, l}
	case "qr":
		var q, r *tensor.Tensor[T]
		q, r, err = linalg.QR(in(0), opts...)
		got = []any{q, r}
	case "eigh":
		var w, v *tensor.Tensor[T]
		w, v, err = linalg.Eigh(in(0), opts...)
		got = []any{w, v}
	case "svd":
		var u, s, vh *tensor.Tensor[T]
		u, s, vh, err = linalg.SVD(in(0), opts...)
		got = []any{u, s, vh}
	case "matrix_rank":
		var r *tensor.Tensor[int64]
		r, err = linalg.MatrixRank(in(0), opts...)
		got = []any{r}
	case "norm":
		require.Nil(t, c.Params["axis"], "matrix norms over the last two axes only")
		kd, _ := c.Params["keepdims"].(bool)
		require.False(t, kd, "no keepdims")
		one(linalg.Norm(in(0), ordParam(t, c.Params["ord"]), opts...))
	default:
		runContraction[T](t, c, x)
		return
	}
	check[T](t, c, got, err)
}

// runContraction runs the lazy ops, evaluated on x.
func runContraction[T dtype.Numeric](t *testing.T, c opCase, x *exec.Executor) {
	in := func(i int) expr.Expr[T] { return opInput[T](t, c, i) }
	var e expr.Expr[T]
	switch c.Op {
	case "einsum":
		ops := make([]expr.Expr[T], len(c.Inputs))
		for i := range ops {
			ops[i] = in(i)
		}
		e = linalg.Einsum(c.Params["subscripts"].(string), ops...)
	case "tensordot":
		switch axes := c.Params["axes"].(type) {
		case float64:
			e = linalg.TensordotN(in(0), in(1), int(axes))
		case []any:
			require.Len(t, axes, 2)
			e = linalg.Tensordot(in(0), in(1), ints(t, axes[0]), ints(t, axes[1]))
		default:
			t.Fatalf("axes %v", axes)
		}
	case "outer":
		e = linalg.Outer(in(0), in(1))
	case "inner":
		e = linalg.Inner(in(0), in(1))
	case "vdot":
		e = linalg.Vdot(in(0), in(1))
	case "kron":
		e = linalg.Kron(in(0), in(1))
	default:
		t.Fatalf("no runner for op %s", c.Op)
	}
	var got *tensor.Tensor[T]
	err := e.Err()
	if err == nil {
		got, err = exec.EvalWith(x, e)
	}
	check[T](t, c, []any{got}, err)
}

func ints(t *testing.T, v any) []int {
	l, ok := v.([]any)
	require.True(t, ok, "axis list %v", v)
	out := make([]int, len(l))
	for i, a := range l {
		out[i] = int(a.(float64))
	}
	return out
}

func check[T dtype.Elem](t *testing.T, c opCase, got []any, err error) {
	if c.Expect == "error" {
		assertErrorKind(t, err, c.ErrorKind)
		return
	}
	require.NoError(t, err)
	want, tols := expectedOf(t, c)
	require.Len(t, got, len(want))
	for k, g := range got {
		what := fmt.Sprintf("output %d", k)
		switch g := g.(type) {
		case *tensor.Tensor[T]:
			assertTensor(t, g, want[k], tols[k], what)
		case *tensor.Tensor[int64]:
			assertTensor(t, g, want[k], tols[k], what)
		default:
			t.Fatalf("%s is %T", what, g)
		}
	}
}

// assertErrorKind checks err against a vectors error_kind by its type.
func assertErrorKind(t *testing.T, err error, kind string) {
	t.Helper()
	require.Error(t, err)
	switch kind {
	case "singular":
		var e *linalg.SingularError
		assert.ErrorAs(t, err, &e)
	case "not_positive_definite":
		var e *linalg.NotPositiveDefiniteError
		assert.ErrorAs(t, err, &e)
	case "shape":
		var e *tensor.ShapeError
		assert.ErrorAs(t, err, &e)
	case "axis":
		var e *tensor.AxisError
		assert.ErrorAs(t, err, &e)
	case "out_of_range", "value":
		var e *tensor.ArgError
		assert.ErrorAs(t, err, &e)
	default:
		t.Fatalf("no check for error kind %q (error %v)", kind, err)
	}
}
