package exec_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

// indexOps are the ops of ops_index.json built from expr's indexing
// functions (expr/index.go); the ones whose shapes depend on the values
// are in select_test.go.
var indexOps = map[string]bool{"take": true, "take_along_axis": true, "gather": true, "index_select": true,
	"scatter": true, "scatter_add": true, "index_add": true, "put": true, "one_hot": true, "masked_fill": true,
	"where_scalar": true}

// TestIndexVectors runs every case of those ops, on the default executor
// and on one with odd blocks and three workers.
func TestIndexVectors(t *testing.T) {
	f := vectors.Load[opCase](t, "ops_index.json")
	ran := 0
	for _, c := range f.Cases {
		if !indexOps[c.Op] {
			continue
		}
		ran++
		t.Run(c.ID+"_"+c.Op, func(t *testing.T) {
			if c.Op != "one_hot" && c.Op != "where_scalar" {
				forInputDType(t, c, 0, runIndexCase[float64], runIndexCase[float32], runIndexCase[int64], runIndexCase[int32])
				return
			}
			for _, x := range []*exec.Executor{exec.Default, odd} {
				if c.Op == "one_hot" {
					runOneHotCase(t, x, c)
				} else {
					runWhereScalarCase(t, x, c)
				}
			}
		})
	}
	assert.Equal(t, 35, ran, "cases of the eleven ops")
}

// anyInput builds input i of c as a leaf of its own dtype.
func anyInput(t *testing.T, c opCase, i int) expr.Any {
	t.Helper()
	var e expr.Any
	forInputDType(t, c, i, leaf[int64](&e), leaf[int32](&e), leaf[float64](&e), leaf[float32](&e), leaf[bool](&e), leaf[uint8](&e), leaf[uint64](&e))
	return e
}

// leaf is the runner that sets *e to its input as a leaf.
func leaf[T dtype.Elem](e *expr.Any) func(*testing.T, opCase, *tensor.Tensor[T]) {
	return func(_ *testing.T, _ opCase, x *tensor.Tensor[T]) { *e = expr.Of(x) }
}

func runIndexCase[T dtype.Real](t *testing.T, c opCase, in *tensor.Tensor[T]) {
	a := expr.Of(in)
	var e expr.Expr[T]
	dim, _ := intParam(c, "dim")
	switch c.Op {
	case "take":
		mode := map[string]expr.TakeMode{"raise": expr.TakeRaise, "wrap": expr.TakeWrap, "clip": expr.TakeClip}[c.Params["mode"].(string)]
		if axis, ok := intParam(c, "axis"); ok {
			e = expr.Take(a, anyInput(t, c, 1), axis, mode)
		} else {
			e = expr.TakeFlat(a, anyInput(t, c, 1), mode)
		}
	case "take_along_axis":
		axis, _ := intParam(c, "axis")
		e = expr.TakeAlongAxis(a, anyInput(t, c, 1), axis)
	case "gather":
		e = expr.Gather(a, dim, anyInput(t, c, 1))
	case "index_select":
		e = expr.IndexSelect(a, dim, anyInput(t, c, 1))
	case "scatter", "scatter_add":
		var src expr.Expr[T]
		if v, ok := c.Params["value"].(float64); ok {
			src = expr.Scalar(T(v))
		} else {
			src = expr.Of(opInput[T](t, c, 2))
		}
		if c.Op == "scatter" {
			e = expr.Scatter(a, dim, anyInput(t, c, 1), src)
		} else {
			e = expr.ScatterAdd(a, dim, anyInput(t, c, 1), src)
		}
	case "index_add":
		alpha, _ := c.Params["alpha"].(float64)
		e = expr.IndexAdd(a, dim, anyInput(t, c, 1), expr.Of(opInput[T](t, c, 2)), T(alpha))
	case "put":
		require.Equal(t, "raise", c.Params["mode"])
		e = expr.Put(a, anyInput(t, c, 1), expr.Of(opInput[T](t, c, 2)), c.Params["accumulate"].(bool))
	case "masked_fill":
		v := c.Params["value"].(float64)
		e = expr.MaskedFill(a, expr.Of(opInput[bool](t, c, 1)), T(math.Trunc(v)))
		if dtype.Of[T]().Kind() == dtype.KindFloat {
			e = expr.MaskedFill(a, expr.Of(opInput[bool](t, c, 1)), T(v))
		}
	default:
		t.Fatalf("no op %s", c.Op)
	}
	for _, x := range []*exec.Executor{exec.Default, odd} {
		got, err := exec.EvalWith(x, e)
		checkIndexResult(t, c, got, err)
	}
}

// checkIndexResult checks an evaluation against case c: its error kind,
// or its values.
func checkIndexResult[T dtype.Elem](t *testing.T, c opCase, got *tensor.Tensor[T], err error) {
	t.Helper()
	if c.Expect == "error" {
		require.Error(t, err)
		switch c.ErrorKind {
		case "out_of_range":
			var e *tensor.IndexError
			assert.ErrorAs(t, err, &e, "%v", err)
		case "dtype":
			var e *tensor.ArgError
			assert.ErrorAs(t, err, &e, "%v", err)
			assert.Contains(t, err.Error(), "the index must be")
		case "shape":
			var e *expr.ShapeOpError
			assert.ErrorAs(t, err, &e, "%v", err)
		default:
			t.Fatalf("no error kind %s", c.ErrorKind)
		}
		return
	}
	require.NoError(t, err)
	want, tols := expectedOf(t, c)
	require.Len(t, want, 1)
	assertTensor(t, got, want[0], tols[0], c.Op)
}

func runOneHotCase(t *testing.T, x *exec.Executor, c opCase) {
	n, _ := intParam(c, "num_classes")
	got, err := exec.EvalWith(x, expr.OneHot[int64](anyInput(t, c, 0), n))
	checkIndexResult(t, c, got, err)
}

// runWhereScalarCase is where(cond, x, y) with one of x and y a Python
// scalar: the result's dtype is NumPy 1.24's value-based promotion of the
// tensor's with the scalar (a float scalar makes an integer tensor
// float64; an integer one that does not fit widens the integer type).
func runWhereScalarCase(t *testing.T, x *exec.Executor, c opCase) {
	cond := expr.Of(opInput[bool](t, c, 0))
	s := c.Params["scalar"].(float64)
	scalarIsX := c.Params["scalar_is"] == "x"
	switch dt := inputDType(t, c, 1); {
	case dt == "int32" && s != math.Trunc(s): // a float scalar: float64
		got, err := exec.EvalWith(x, whereScalar(cond, expr.Cast[float64](expr.Of(opInput[int32](t, c, 1))), s, scalarIsX))
		checkIndexResult(t, c, got, err)
	case dt == "int8" && s == math.Trunc(s) && (s > math.MaxInt8 || s < math.MinInt8): // int16
		got, err := exec.EvalWith(x, whereScalar(cond, expr.Cast[int16](expr.Of(opInput[int8](t, c, 1))), int16(s), scalarIsX))
		checkIndexResult(t, c, got, err)
	default:
		t.Fatalf("no promotion rule for %v with %s", s, dt)
	}
}

// whereScalar is where(cond, s, v) when scalarIsX, else where(cond, v, s).
func whereScalar[T dtype.Elem](cond expr.Expr[bool], v expr.Expr[T], s T, scalarIsX bool) expr.Expr[T] {
	if scalarIsX {
		return expr.Where(cond, expr.Scalar(s), v)
	}
	return expr.Where(cond, v, expr.Scalar(s))
}

// TestIndexErrorsWriteNothing evaluates a gather with an index out of
// range, a leaf and a computed one, into destinations that already hold
// values: the error is returned and the destinations are unchanged.
func TestIndexErrorsWriteNothing(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	bad := tensor.Must(tensor.FromSlice([]int64{0, 3}, 2, 1))
	for name, idx := range map[string]expr.Expr[int64]{
		"leaf":     expr.Of(bad),
		"computed": expr.Of(bad).AddScalar(0).Mul(expr.Scalar[int64](1)),
	} {
		t.Run(name, func(t *testing.T) {
			d1 := tensor.Must(tensor.Full[float64](7, 2, 3))
			d2 := tensor.Must(tensor.Full[float64](7, 2, 1))
			err := exec.Assign(exec.To(d1, expr.Of(x).MulScalar(2)), exec.To(d2, expr.TakeAlongAxis(expr.Of(x), idx, 1)))
			var ie *tensor.IndexError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, tensor.IndexError{Index: 3, Axis: 1, Size: 3}, *ie)
			assert.Equal(t, "index 3 is out of bounds for dimension 1 with size 3", err.Error())
			for _, v := range d1.Values() {
				assert.Equal(t, 7.0, v)
			}
			for _, v := range d2.Values() {
				assert.Equal(t, 7.0, v)
			}
		})
	}
}
