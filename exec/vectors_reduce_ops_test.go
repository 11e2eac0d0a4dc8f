package exec_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestOpsReduceVectors evaluates every case of ops_reduce.json.
func TestOpsReduceVectors(t *testing.T) {
	f := vectors.Load[opCase](t, "ops_reduce.json")
	require.Equal(t, 45, len(f.Cases))
	for _, c := range f.Cases {
		t.Run(c.ID+"_"+c.Op, func(t *testing.T) {
			forInputDType(t, c, 0, reduceRuns...)
		})
	}
}

// caseAxes decodes params.axis: null is every axis (nil), an int or a list.
func caseAxes(c opCase) []int { return intList(c.Params["axis"]) }

func keepDims(t *testing.T, c opCase) bool {
	var k bool
	decodeParam(t, c, "keepdims", &k)
	return k
}

// reduceRuns are runReduceOp for every element type.
var reduceRuns = []any{runReduceOp[bool], runReduceOp[int8], runReduceOp[int16], runReduceOp[int32], runReduceOp[int64],
	runReduceOp[uint8], runReduceOp[uint16], runReduceOp[uint32], runReduceOp[uint64],
	runReduceOp[float32], runReduceOp[float64], runReduceOp[complex64], runReduceOp[complex128]}

func runReduceOp[T dtype.Elem](t *testing.T, c opCase, in *tensor.Tensor[T]) {
	x := expr.Of(in)
	axes, keep := caseAxes(c), keepDims(t, c)
	d := dtype.Of[T]()
	switch c.Op {
	case "all":
		checkOp(t, c, expr.AllTrue(x, keep, axes...))
		return
	case "any":
		checkOp(t, c, expr.AnyTrue(x, keep, axes...))
		return
	case "cumsum", "cumprod":
		checkScanCase(t, c, x, axes)
		return
	case "median", "quantile":
		switch e := any(x).(type) {
		case expr.Expr[float64]:
			checkOrderStat(t, c, e, axes, keep)
		case expr.Expr[int32]:
			checkOrderStat(t, c, e, axes, keep)
		case expr.Expr[int64]:
			checkOrderStat(t, c, e, axes, keep)
		default:
			t.Fatalf("%s: %s on %s", c.ID, c.Op, d)
		}
		return
	case "count_nonzero":
		checkOp(t, c, expr.CountNonzero(x, keep, axes...))
		return
	case "argmax", "argmin":
		require.Len(t, axes, 1, "%s: one axis", c.ID)
		switch {
		case c.Op == "argmax" && keep:
			checkOp(t, c, x.ArgMaxKeepDim(axes[0]))
		case c.Op == "argmax":
			checkOp(t, c, x.ArgMax(axes[0]))
		case keep:
			checkOp(t, c, x.ArgMinKeepDim(axes[0]))
		default:
			checkOp(t, c, x.ArgMin(axes[0]))
		}
		return
	case "sum", "nansum":
		switch dtype.SumFor(d) {
		case dtype.Int64:
			checkOp(t, c, sumKeep(expr.Cast[int64](x), keep, axes))
			return
		case dtype.Uint64:
			checkOp(t, c, sumKeep(expr.Cast[uint64](x), keep, axes))
			return
		}
	case "ptp":
		switch e := any(x).(type) {
		case expr.Expr[int8]:
			checkOp(t, c, expr.Ptp(e, keep, axes...))
		case expr.Expr[float64]:
			checkOp(t, c, expr.Ptp(e, keep, axes...))
		default:
			t.Fatalf("%s: ptp on %s", c.ID, d)
		}
		return
	case "var", "std":
		var ddof int
		decodeParam(t, c, "ddof", &ddof)
		if e, ok := any(x).(expr.Expr[complex128]); ok && c.Op == "var" {
			checkOp(t, c, expr.ComplexVar[float64](e, ddof, keep, axes...))
			return
		}
	}
	// The float reductions: NumPy computes integers in float64.
	switch e := any(x).(type) {
	case expr.Expr[float32]:
		floatReduce(t, c, e, axes, keep)
	case expr.Expr[float64]:
		floatReduce(t, c, e, axes, keep)
	default:
		if !d.IsInteger() {
			t.Fatalf("%s: %s on %s", c.ID, c.Op, d)
		}
		floatReduce(t, c, expr.Cast[float64](x), axes, keep)
	}
}

func sumKeep[U dtype.Elem](x expr.Expr[U], keep bool, axes []int) expr.Expr[U] {
	if keep {
		return x.SumKeepDims(axes...)
	}
	return x.Sum(axes...)
}

func floatReduce[F dtype.Float](t *testing.T, c opCase, x expr.Expr[F], axes []int, keep bool) {
	var ddof int
	decodeParam(t, c, "ddof", &ddof)
	switch c.Op {
	case "var":
		checkOp(t, c, expr.Var(x, ddof, keep, axes...))
	case "std":
		checkOp(t, c, expr.Std(x, ddof, keep, axes...))
	case "mean":
		if keep {
			checkOp(t, c, x.MeanKeepDims(axes...))
		} else {
			checkOp(t, c, x.Mean(axes...))
		}
	case "sum":
		checkOp(t, c, sumKeep(x, keep, axes))
	case "norm":
		ord := 2.0
		if v, ok := floatParam(t, c, "ord"); ok {
			ord = v
		}
		checkOp(t, c, expr.Norm(x, ord, keep, axes...))
	case "logsumexp":
		checkOp(t, c, expr.LogSumExp(x, keep, axes...))
	case "softmax", "log_softmax":
		require.Len(t, axes, 1, "%s: one axis", c.ID)
		if c.Op == "softmax" {
			checkOp(t, c, expr.Softmax(x, axes[0]))
		} else {
			checkOp(t, c, expr.LogSoftmax(x, axes[0]))
		}
	case "nansum":
		checkOp(t, c, expr.NanSum(x, keep, axes...))
	case "nanmean":
		checkOp(t, c, expr.NanMean(x, keep, axes...))
	case "nanmax":
		checkOp(t, c, expr.NanMax(x, keep, axes...))
	case "nanmin":
		checkOp(t, c, expr.NanMin(x, keep, axes...))
	default:
		t.Fatalf("%s: unknown op %s", c.ID, c.Op)
	}
}

// checkScanCase runs a cumsum or cumprod case: NumPy accumulates in
// params.dtype, by default in int64 for bool and signed integers and in
// uint64 for unsigned ones; axis null scans the flattened input.
func checkScanCase[T dtype.Elem](t *testing.T, c opCase, x expr.Expr[T], axes []int) {
	axis := 0
	if axes == nil {
		x = x.Reshape(-1)
	} else {
		require.Len(t, axes, 1, "%s: one axis", c.ID)
		axis = axes[0]
	}
	acc := dtype.SumFor(dtype.Of[T]())
	var name string
	if decodeParam(t, c, "dtype", &name) {
		acc = dtype.Of[T]()
		require.Equal(t, acc.String(), name, "%s: params.dtype other than the input's", c.ID)
	}
	prod := c.Op == "cumprod"
	switch {
	case acc == dtype.Of[T]() && prod:
		checkOp(t, c, x.CumProd(axis))
	case acc == dtype.Of[T]():
		checkOp(t, c, x.CumSum(axis))
	case acc == dtype.Int64 && prod:
		checkOp(t, c, expr.CumProdAs[int64](x, axis))
	case acc == dtype.Int64:
		checkOp(t, c, expr.CumSumAs[int64](x, axis))
	case acc == dtype.Uint64 && prod:
		checkOp(t, c, expr.CumProdAs[uint64](x, axis))
	default:
		checkOp(t, c, expr.CumSumAs[uint64](x, axis))
	}
}

// checkOrderStat runs a median or quantile case (exec.Median, exec.Quantile
// and exec.Quantiles evaluate; they are not expressions) on both executors.
func checkOrderStat[T dtype.Real](t *testing.T, c opCase, x expr.Expr[T], axes []int, keep bool) {
	for _, ex := range executors() {
		opts := []exec.SortOption{exec.Using(ex)}
		if axes != nil {
			require.Len(t, axes, 1, "%s: one axis", c.ID)
			opts = append(opts, exec.OverAxis(axes[0]))
		}
		if keep {
			opts = append(opts, exec.KeepDims())
		}
		var method string
		if decodeParam(t, c, "method", &method) {
			m, ok := map[string]exec.QuantileMethod{"linear": exec.Linear, "lower": exec.Lower, "higher": exec.Higher,
				"nearest": exec.Nearest, "midpoint": exec.Midpoint}[method]
			require.True(t, ok, "%s: method %q", c.ID, method)
			opts = append(opts, exec.Method(m))
		}
		var got *tensor.Tensor[float64]
		var err error
		var qs []float64
		switch _, isList := c.Params["q"].([]any); {
		case c.Op == "median":
			got, err = exec.Median[float64](x, opts...)
		case isList:
			decodeParam(t, c, "q", &qs)
			got, err = exec.Quantiles[float64](x, qs, opts...)
		default:
			one, ok := floatParam(t, c, "q")
			require.True(t, ok, "%s: quantile without q", c.ID)
			got, err = exec.Quantile[float64](x, one, opts...)
		}
		if c.Expect == "error" {
			require.Error(t, err, "%s wants a %s error", c.ID, c.ErrorKind)
			checkErrorKind(t, c, err)
			continue
		}
		require.NoError(t, err)
		want, tols := expectedOf(t, c)
		require.Len(t, want, 1)
		assertTensor(t, got, want[0], tols[0], c.ID+" "+c.Note)
	}
}
