package exec_test

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// naiveScan folds each line of the row-major vals (of shape) along axis in
// order, the way the scans are defined, with f(acc, v); the first element
// of a line is first(v).
func naiveScan(vals []float64, shape tensor.Shape, axis int, reverse bool, first func(v float64) float64, f func(acc, v float64) float64) []float64 {
	out := make([]float64, len(vals))
	outer, n, inner := linesOf(shape, axis)
	for o := range outer {
		for i := range inner {
			var acc float64
			for step := range n {
				k := step
				if reverse {
					k = n - 1 - step
				}
				at := o*n*inner + k*inner + i
				if step == 0 {
					acc = first(vals[at])
				} else {
					acc = f(acc, vals[at])
				}
				out[at] = acc
			}
		}
	}
	return out
}

// linesOf is the lines along axis of a row-major shape: outer × inner
// lines of n elements, element k of line (o, i) at o*n*inner + k*inner + i.
func linesOf(shape tensor.Shape, axis int) (outer, n, inner int) {
	outer, n, inner = 1, shape[axis], 1
	for _, d := range shape[:axis] {
		outer *= d
	}
	for _, d := range shape[axis+1:] {
		inner *= d
	}
	return outer, n, inner
}

func itself(v float64) float64 { return v }

type scanOp struct {
	name    string
	build   func(x expr.Expr[float64], axis int) expr.Expr[float64]
	reverse bool
	first   func(float64) float64
	f       func(acc, v float64) float64
	exact   bool
}

func nanTo(v, z float64) float64 {
	if math.IsNaN(v) {
		return z
	}
	return v
}

var scanOps = []scanOp{
	{"cumsum", expr.Expr[float64].CumSum, false, itself, func(a, v float64) float64 { return a + v }, true},
	{"revcumsum", expr.Expr[float64].RevCumSum, true, itself, func(a, v float64) float64 { return a + v }, true},
	{"cumprod", expr.Expr[float64].CumProd, false, itself, func(a, v float64) float64 { return a * v }, true},
	{"cummax", expr.Expr[float64].CumMax, false, itself, func(a, v float64) float64 {
		if math.IsNaN(v) || v >= a {
			return v
		}
		return a
	}, true},
	{"cummin", expr.Expr[float64].CumMin, false, itself, func(a, v float64) float64 {
		if math.IsNaN(v) || v <= a {
			return v
		}
		return a
	}, true},
	{"nancumsum", expr.NanCumSum[float64], false, func(v float64) float64 { return nanTo(v, 0) }, func(a, v float64) float64 { return a + nanTo(v, 0) }, true},
	{"nancumprod", expr.NanCumProd[float64], false, func(v float64) float64 { return nanTo(v, 1) }, func(a, v float64) float64 { return a * nanTo(v, 1) }, true},
	{"logcumsumexp", expr.LogCumSumExp[float64], false, itself, func(a, v float64) float64 { return math.Log(math.Exp(a) + math.Exp(v)) }, false},
}

// scanInput is a graph whose value is a [.., ..] float64 tensor of some
// layout: the scan reads it in place, through strides, or after a copy.
type scanInput struct {
	name string
	make func(t *testing.T) expr.Expr[float64]
}

func scanData(t *testing.T, shape ...int) *tensor.Tensor[float64] {
	x, err := tensor.RandN[float64](7, shape...)
	require.NoError(t, err)
	d := x.Data()
	for i := range d { // some NaNs, ties and zeros, so every rule shows
		switch i % 37 {
		case 5:
			d[i] = math.NaN()
		case 11:
			d[i] = 0
		case 12, 13:
			d[i] = 0.5
		}
	}
	return x
}

var scanInputs = []scanInput{
	{"contiguous [3,4,5]", func(t *testing.T) expr.Expr[float64] { return expr.Of(scanData(t, 3, 4, 5)) }},
	{"transposed [6,7]", func(t *testing.T) expr.Expr[float64] { return expr.Of(scanData(t, 7, 6)).Transpose(0, 1) }},
	{"stepped slice [4,3000]", func(t *testing.T) expr.Expr[float64] { return expr.Of(scanData(t, 4, 6000)).Slice(1, 0, 6000, 2) }},
	{"permuted [2,4,3] (inner axes that do not merge)", func(t *testing.T) expr.Expr[float64] {
		return expr.Of(scanData(t, 2, 3, 4)).Permute(0, 2, 1)
	}},
	{"computed [5,9]", func(t *testing.T) expr.Expr[float64] {
		x := expr.Of(scanData(t, 5, 9))
		return x.Mul(x).AddScalar(-0.5)
	}},
	{"wide [3,1500]", func(t *testing.T) expr.Expr[float64] { return expr.Of(scanData(t, 3, 1500)) }},
}

// TestScansMatchTheirDefinition checks every scan against the fold of its
// definition, over inputs read in place, through strides and after a copy,
// along every axis, on one worker and on three workers with tiny tasks:
// the bits agree everywhere (within rounding for logcumsumexp, whose
// reference is computed another way).
func TestScansMatchTheirDefinition(t *testing.T) {
	xs := []*exec.Executor{exec.New(exec.Workers(1)), exec.New(exec.Workers(3), exec.Grain(1))}
	for _, in := range scanInputs {
		for _, op := range scanOps {
			t.Run(in.name+"/"+op.name, func(t *testing.T) {
				x := in.make(t)
				require.NoError(t, x.Err())
				ref, err := exec.Eval(x)
				require.NoError(t, err)
				for axis := -1; axis < len(x.Shape()); axis++ {
					ax := (axis + len(x.Shape())) % len(x.Shape())
					want := naiveScan(ref.Values(), ref.Shape(), ax, op.reverse, op.first, op.f)
					var first []float64
					for _, ex := range xs {
						got, err := exec.EvalWith(ex, op.build(x, axis))
						require.NoError(t, err)
						require.Equal(t, ref.Shape(), got.Shape())
						if op.exact {
							requireScanBits(t, want, got.Values(), "axis %d", axis)
						} else {
							assert.InDeltaSlice(t, nanless(want), nanless(got.Values()), 1e-9, "axis %d", axis)
						}
						if first == nil {
							first = got.Values()
						} else {
							requireScanBits(t, first, got.Values(), "axis %d: workers", axis)
						}
					}
				}
			})
		}
	}
}

func requireScanBits(t *testing.T, want, got []float64, msg string, args ...any) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		if math.Float64bits(want[i]) != math.Float64bits(got[i]) && !(math.IsNaN(want[i]) && math.IsNaN(got[i])) {
			args = append(args, i, got[i], want[i])
			t.Fatalf(msg+": element %d is %v, want %v", args...)
		}
	}
}

// nanless maps NaN to a sentinel so that InDeltaSlice compares it.
func nanless(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = nanTo(x, -12345)
	}
	return out
}

// TestScanSpecialValues pins the rules for NaN, infinities and -0.0.
func TestScanSpecialValues(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name string
		in   []float64
		e    func(x expr.Expr[float64]) expr.Expr[float64]
		want []float64
	}{
		{"cumsum keeps a first -0", []float64{math.Copysign(0, -1), 1}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.CumSum(0) }, []float64{math.Copysign(0, -1), 1}},
		{"cummax keeps NaN from where it appears", []float64{1, nan, 3, 2}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.CumMax(0) }, []float64{1, nan, nan, nan}},
		{"cummin", []float64{3, 1, 2, -inf, 0}, func(x expr.Expr[float64]) expr.Expr[float64] { return x.CumMin(0) }, []float64{3, 1, 1, -inf, -inf}},
		{"nancumsum of leading NaNs", []float64{nan, nan, 2, nan, 3}, func(x expr.Expr[float64]) expr.Expr[float64] { return expr.NanCumSum(x, 0) }, []float64{0, 0, 2, 2, 5}},
		{"nancumprod", []float64{nan, 2, nan, 3}, func(x expr.Expr[float64]) expr.Expr[float64] { return expr.NanCumProd(x, 0) }, []float64{1, 2, 2, 6}},
		{"logcumsumexp of -inf", []float64{-inf, -inf, 0, -inf}, lcse0, []float64{-inf, -inf, 0, 0}},
		{"logcumsumexp of +inf", []float64{1, inf, inf, 2}, lcse0, []float64{1, inf, inf, inf}},
		{"logcumsumexp of NaN", []float64{1, nan, 2}, lcse0, []float64{1, nan, nan}},
		{"logcumsumexp of equal values", []float64{0, 0}, lcse0, []float64{0, math.Ln2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := tensor.FromSlice(c.in, len(c.in))
			require.NoError(t, err)
			got, err := exec.Eval(c.e(expr.Of(a)))
			require.NoError(t, err)
			requireScanBits(t, c.want, got.Values(), "%s", c.name)
		})
	}
}

func lcse0(x expr.Expr[float64]) expr.Expr[float64] { return expr.LogCumSumExp(x, 0) }

// TestScanDTypes checks the accumulators: Go's wrapping arithmetic in T,
// NumPy's int64 for bool and small integers, conversion from float32.
func TestScanDTypes(t *testing.T) {
	i8, err := tensor.FromSlice([]int8{100, 100, 100, -128}, 4)
	require.NoError(t, err)
	wrapped, err := exec.Eval(expr.Of(i8).CumSum(0))
	require.NoError(t, err)
	assert.Equal(t, []int8{100, -56, 44, -84}, wrapped.Values())
	wide, err := exec.Eval(expr.CumSumAs[int64](expr.Of(i8), 0))
	require.NoError(t, err)
	assert.Equal(t, []int64{100, 200, 300, 172}, wide.Values())

	b, err := tensor.FromSlice([]bool{true, false, true, true, false, true}, 2, 3)
	require.NoError(t, err)
	counts, err := exec.Eval(expr.CumSumAs[int64](expr.Of(b), 0))
	require.NoError(t, err)
	assert.Equal(t, []int64{1, 0, 1, 2, 0, 2}, counts.Values())
	bt, err := exec.Eval(expr.CumSumAs[int64](expr.Of(b).Transpose(0, 1), 1))
	require.NoError(t, err)
	assert.Equal(t, []int64{1, 2, 0, 0, 1, 2}, bt.Values())

	u, err := tensor.FromSlice([]uint16{2, 3, 4}, 3)
	require.NoError(t, err)
	prod, err := exec.Eval(expr.CumProdAs[uint64](expr.Of(u), 0))
	require.NoError(t, err)
	assert.Equal(t, []uint64{2, 6, 24}, prod.Values())

	f, err := tensor.FromSlice([]float32{0.1, 0.2, 0.3}, 3)
	require.NoError(t, err)
	f64, err := exec.Eval(expr.CumSumAs[float64](expr.Of(f), 0))
	require.NoError(t, err)
	want := []float64{float64(float32(0.1)), float64(float32(0.1)) + float64(float32(0.2))}
	want = append(want, want[1]+float64(float32(0.3)))
	assert.Equal(t, want, f64.Values())

	c, err := tensor.FromSlice([]complex128{1i, 1i, 2}, 3)
	require.NoError(t, err)
	cp, err := exec.Eval(expr.Of(c).CumProd(0))
	require.NoError(t, err)
	assert.Equal(t, []complex128{1i, -1, -2}, cp.Values())
}

// TestScanErrors: a bad axis and an op the dtype lacks are typed errors of
// the expression, returned by Eval before anything runs.
func TestScanErrors(t *testing.T) {
	a, err := tensor.Zeros[float64](2, 3)
	require.NoError(t, err)
	e := expr.Of(a).CumSum(2)
	var ae *tensor.AxisError
	require.True(t, errors.As(e.Err(), &ae), "%v", e.Err())
	_, err = exec.Eval(e)
	assert.ErrorAs(t, err, &ae)

	c, err := tensor.Zeros[complex128](2)
	require.NoError(t, err)
	var de *expr.DTypeError
	assert.ErrorAs(t, expr.Of(c).CumMax(0).Err(), &de)
	b, err := tensor.Zeros[bool](2)
	require.NoError(t, err)
	assert.ErrorAs(t, expr.Of(b).CumSum(0).Err(), &de, "bool accumulates with CumSumAs")
	s, err := tensor.FromSlice([]float64{1})
	require.NoError(t, err)
	assert.ErrorAs(t, expr.Of(s).CumSum(0).Err(), &ae, "a 0-d tensor has no axis 0")
}

// TestScanPlan shows the scan as a step of its own, reading a leaf in place
// and a computed operand from its tensor, and a copy only for inner axes
// that do not merge.
func TestScanPlan(t *testing.T) {
	var buf bytes.Buffer
	x := exec.New(exec.Workers(2), exec.Debug(&buf))
	a, err := tensor.Ones[float64](4, 1000)
	require.NoError(t, err)
	_, err = exec.EvalWith(x, expr.Of(a).Exp().CumSum(0).MulScalar(2))
	require.NoError(t, err)
	assert.Contains(t, buf.String(), "scan v2:f64[4, 1000](temp) = cumsum v1:f64[4, 1000](temp) along axis 0 of [4, 1000]: 1 x 1000 lines of 4, in blocks of 512")
	assert.Contains(t, buf.String(), "exec plan: 5 values, 3 steps") // exp, scan, mul

	buf.Reset()
	b, err := tensor.Ones[float64](2, 3, 4)
	require.NoError(t, err)
	_, err = exec.EvalWith(x, expr.Of(b).Permute(0, 2, 1).CumSum(0))
	require.NoError(t, err)
	assert.Contains(t, buf.String(), "copies v1 for a scan", buf.String())
}

func TestNanCumSumOfIntegersIsCumSum(t *testing.T) {
	a, err := tensor.FromSlice([]int32{1, 2, 3}, 3)
	require.NoError(t, err)
	assert.Equal(t, expr.OpCumSum, expr.NanCumSum(expr.Of(a), 0).Node().Op())
	assert.Equal(t, dtype.Int32, expr.NanCumSum(expr.Of(a), 0).Node().DType())
}

// TestScansOfEmptyTensors checks every scan over tensors with an extent
// of 0, along each axis, on several workers: an empty result of the
// input's shape (an empty outer extent once divided the planner by zero).
func TestScansOfEmptyTensors(t *testing.T) {
	x := exec.New(exec.Workers(3))
	for _, shape := range [][]int{{0, 4}, {3, 0}, {2, 0, 5}} {
		a := expr.Of(tensor.Must(tensor.Zeros[float64](shape...)))
		for _, op := range scanOps {
			for axis := range shape {
				got, err := exec.EvalWith(x, op.build(a, axis))
				require.NoError(t, err, "%s of %v along %d", op.name, shape, axis)
				assert.Equal(t, tensor.Shape(shape), got.Shape())
			}
		}
	}
}

// TestScanAllocations checks that a scan step's run allocates nothing:
// its tasks are a struct the step keeps and their line buffers come from
// the step's pool, so evaluating a prebuilt cumsum or softmax into a
// destination makes no allocation (cumsum along rows on 2 workers once
// made 69 a run, one buffer per task, and then 2, its tasks' closure and
// its boxed loops).
func TestScanAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	x := exec.New(exec.Workers(2))
	defer x.Close()
	a := tensor.Must(tensor.RandN[float32](1, 512, 1024))
	out := tensor.Must(tensor.New[float32](512, 1024))
	for _, c := range []struct {
		name string
		e    expr.Expr[float32]
	}{
		{"cumsum along rows", expr.Of(a).CumSum(1)},
		{"cumsum along columns", expr.Of(a).CumSum(0)},
		{"reverse cumsum along rows", expr.Of(a).RevCumSum(1)},
		{"cumprod of a transposed view", expr.Of(tensor.Must(a.T())).CumProd(0)},
		{"softmax along rows", expr.Softmax(expr.Of(a), 1)},
		{"softmax along columns", expr.Softmax(expr.Of(a), 0)},
	} {
		t.Run(c.name, func(t *testing.T) {
			dst := out
			if !slices.Equal(c.e.Shape(), out.Shape()) {
				dst = tensor.Must(tensor.New[float32](c.e.Shape()...))
			}
			require.NoError(t, exec.EvalToWith(x, dst, c.e))
			assert.Zero(t, testing.AllocsPerRun(20, func() { require.NoError(t, exec.EvalToWith(x, dst, c.e)) }))
		})
	}
}
