package exec_test

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Reductions against the reference loops of reduce_ref_test.go: every dtype
// and axis subset, argmax/argmin, means, empty inputs, NaN and ties, and
// fused producers against unfused ones.

func TestReduceEveryDTypeEveryAxisSubset(t *testing.T) {
	t.Run("int8", func(t *testing.T) { rdRun(t, append(rdNumericOps[int8](), rdRealOps[int8](rdOrderVals)...)) })
	t.Run("int16", func(t *testing.T) { rdRun(t, append(rdNumericOps[int16](), rdRealOps[int16](rdOrderVals)...)) })
	t.Run("int32", func(t *testing.T) { rdRun(t, append(rdNumericOps[int32](), rdRealOps[int32](rdOrderVals)...)) })
	t.Run("int64", func(t *testing.T) { rdRun(t, append(rdNumericOps[int64](), rdRealOps[int64](rdOrderVals)...)) })
	t.Run("uint8", func(t *testing.T) { rdRun(t, append(rdNumericOps[uint8](), rdRealOps[uint8](rdOrderVals)...)) })
	t.Run("uint16", func(t *testing.T) { rdRun(t, append(rdNumericOps[uint16](), rdRealOps[uint16](rdOrderVals)...)) })
	t.Run("uint32", func(t *testing.T) { rdRun(t, append(rdNumericOps[uint32](), rdRealOps[uint32](rdOrderVals)...)) })
	t.Run("uint64", func(t *testing.T) { rdRun(t, append(rdNumericOps[uint64](), rdRealOps[uint64](rdOrderVals)...)) })
	t.Run("float32", func(t *testing.T) {
		ops := append(rdNumericOps[float32](), rdMeanOp(rdFloatDiv[float32]))
		rdRun(t, append(ops, rdRealOps[float32](rdOrderVals, rdNaNVals)...))
	})
	t.Run("float64", func(t *testing.T) {
		ops := append(rdNumericOps[float64](), rdMeanOp(rdFloatDiv[float64]))
		rdRun(t, append(ops, rdRealOps[float64](rdOrderVals, rdNaNVals)...))
	})
	t.Run("complex64", func(t *testing.T) {
		rdRun(t, append(rdNumericOps[complex64](), rdMeanOp(rdComplexDiv[complex64])))
	})
	t.Run("complex128", func(t *testing.T) {
		rdRun(t, append(rdNumericOps[complex128](), rdMeanOp(rdComplexDiv[complex128])))
	})
	t.Run("bool", func(t *testing.T) { rdRun(t, rdBoolOps()) })
}

// rdArgRef is the reference argmax (max true) or argmin along one axis: the
// first extreme wins ties, the first NaN wins outright.
func rdArgRef[T dtype.Real](vals []T, shape []int, red []bool, isMax bool) []int64 {
	type best struct {
		v T
		i int64
	}
	res := rdRef(vals, shape, red, best{}, func(b best, x T, pos int) best {
		beats := x != x || (isMax && x > b.v) || (!isMax && x < b.v)
		if pos == 0 || (b.v == b.v && beats) {
			return best{x, int64(pos)}
		}
		return b
	})
	out := make([]int64, len(res))
	for i, b := range res {
		out[i] = b.i
	}
	return out
}

// rdArgRun checks ArgMax and ArgMin along every axis (given positive and
// negative) of random tensors of rank 1..4 in every view kind.
func rdArgRun[T dtype.Real](t *testing.T, modes ...rdMode) {
	for mi, mode := range modes {
		for vi, kind := range rdViewKinds {
			t.Run(fmt.Sprintf("mode%d/%s", mode, kind.name), func(t *testing.T) {
				r := rdRand(uint64(100*mi + vi + 7))
				gen := func(n int) []T { return rdValues[T](r, n, mode) }
				for rank := 1; rank <= 4; rank++ {
					shape := rdShape(r, rank)
					x := rdView(t, r, kind, shape, gen)
					vals := x.Values()
					for ax := -rank; ax < rank; ax++ {
						red := make([]bool, rank)
						red[(ax+rank)%rank] = true
						ex := rdExecs[(ax+rank)%len(rdExecs)]
						for _, isMax := range []bool{true, false} {
							e := expr.Of(x).ArgMin(ax)
							if isMax {
								e = expr.Of(x).ArgMax(ax)
							}
							require.NoError(t, e.Err())
							assert.Equal(t, dtype.Int64, e.DType())
							got, err := exec.EvalWith(ex.x, e)
							require.NoError(t, err)
							ctx := fmt.Sprintf("argmax=%v of %v (strides %v) axis %d on %s", isMax, shape, x.Strides(), ax, ex.name)
							assert.Equal(t, rdOutShape(shape, red, false).String(), got.Shape().String(), ctx)
							rdCompare(t, rdSame[int64], rdArgRef(vals, shape, red, isMax), got.Values(), "%s", ctx)
						}
					}
				}
			})
		}
	}
}

func TestArgMaxArgMinEveryDTypeEveryAxis(t *testing.T) {
	t.Run("int8", func(t *testing.T) { rdArgRun[int8](t, rdOrderVals) })
	t.Run("int16", func(t *testing.T) { rdArgRun[int16](t, rdOrderVals) })
	t.Run("int32", func(t *testing.T) { rdArgRun[int32](t, rdOrderVals) })
	t.Run("int64", func(t *testing.T) { rdArgRun[int64](t, rdOrderVals) })
	t.Run("uint8", func(t *testing.T) { rdArgRun[uint8](t, rdOrderVals) })
	t.Run("uint16", func(t *testing.T) { rdArgRun[uint16](t, rdOrderVals) })
	t.Run("uint32", func(t *testing.T) { rdArgRun[uint32](t, rdOrderVals) })
	t.Run("uint64", func(t *testing.T) { rdArgRun[uint64](t, rdOrderVals) })
	t.Run("float32", func(t *testing.T) { rdArgRun[float32](t, rdOrderVals, rdNaNVals) })
	t.Run("float64", func(t *testing.T) { rdArgRun[float64](t, rdOrderVals, rdNaNVals) })
}

// rdMeanAsRun checks MeanAs[float64] (NumPy's mean of integers) over every
// subset of axes, within a rounding bound of the float64 sum.
func rdMeanAsRun[T dtype.Integer](t *testing.T) {
	for vi, kind := range rdViewKinds {
		t.Run(kind.name, func(t *testing.T) {
			r := rdRand(uint64(vi + 77))
			for rank := 1; rank <= 4; rank++ {
				shape := rdShape(r, rank)
				x := rdView(t, r, kind, shape, func(n int) []T { return rdValues[T](r, n, rdSumVals) })
				vals := make([]float64, 0, x.Numel())
				for _, v := range x.Values() {
					vals = append(vals, float64(v))
				}
				for mask := 0; mask < 1<<rank; mask++ {
					axes, red := rdAxes(r, rank, mask)
					e := expr.MeanAs[float64](expr.Of(x), axes...)
					require.NoError(t, e.Err())
					assert.Equal(t, dtype.Float64, e.DType())
					got, err := exec.EvalWith(rdExecs[mask%len(rdExecs)].x, e)
					require.NoError(t, err)
					n := float64(rdCount(shape, red))
					want := rdRef(vals, shape, red, 0.0, func(a, x float64, _ int) float64 { return a + x })
					mag := rdRef(vals, shape, red, 0.0, func(a, x float64, _ int) float64 { return a + math.Abs(x) })
					ctx := fmt.Sprintf("MeanAs[float64] of %s %v axes %v", dtype.Of[T](), shape, axes)
					assert.Equal(t, rdOutShape(shape, red, false).String(), got.Shape().String(), ctx)
					for i, g := range got.Values() {
						assert.InDelta(t, want[i]/n, g, 1e-13*mag[i]/n, "%s [%d]", ctx, i)
					}
				}
			}
		})
	}
}

func TestMeanAsIntegers(t *testing.T) {
	t.Run("int8", rdMeanAsRun[int8])
	t.Run("int16", rdMeanAsRun[int16])
	t.Run("int32", rdMeanAsRun[int32])
	t.Run("int64", rdMeanAsRun[int64])
	t.Run("uint8", rdMeanAsRun[uint8])
	t.Run("uint16", rdMeanAsRun[uint16])
	t.Run("uint32", rdMeanAsRun[uint32])
	t.Run("uint64", rdMeanAsRun[uint64])

	x := tensor.Must(tensor.FromSlice([]int32{1, 2, 3, 4}, 2, 2))
	got, err := exec.Eval(expr.MeanAs[float64](expr.Of(x), 0))
	require.NoError(t, err)
	assert.Equal(t, []float64{2, 3}, got.Values(), "NumPy: np.mean([[1,2],[3,4]], axis=0) is [2., 3.]")
	got, err = exec.Eval(expr.MeanAs[float64](expr.Of(x)))
	require.NoError(t, err)
	assert.Equal(t, []float64{2.5}, got.Values())
}

// TestMeanDividesByCount checks mean = sum / count with one rounding, as
// NumPy computes it: the mean of n copies of v is v.
func TestMeanDividesByCount(t *testing.T) {
	check := func(name string, got, want any) { assert.Equal(t, want, got, name) }
	for n := 1; n <= 60; n++ {
		for _, v := range []float64{1, 3, 7, 0.1} {
			x64 := tensor.Must(tensor.Full(v, n))
			g64, err := exec.Eval(expr.Of(x64).Mean())
			require.NoError(t, err)
			s64, err := exec.Eval(expr.Of(x64).Sum())
			require.NoError(t, err)
			check(fmt.Sprintf("float64 mean of %d x %v", n, v), g64.Values()[0], s64.Values()[0]/float64(n))
			x32 := tensor.Must(tensor.Full(float32(v), n))
			g32, err := exec.Eval(expr.Of(x32).Mean())
			require.NoError(t, err)
			s32, err := exec.Eval(expr.Of(x32).Sum())
			require.NoError(t, err)
			check(fmt.Sprintf("float32 mean of %d x %v", n, v), g32.Values()[0], s32.Values()[0]/float32(n))
		}
	}
}

// TestReduceEmpty checks reductions with zero elements: sum 0, prod 1,
// mean NaN, any false, all true, and results with no elements; and that
// max/min/argmax/argmin over an empty axis fail when built, naming the axis.
func TestReduceEmpty(t *testing.T) {
	nan := math.NaN()
	e30 := tensor.Must(tensor.New[float64](3, 0))
	e03 := tensor.Must(tensor.New[float64](0, 3))
	e0 := tensor.Must(tensor.New[float64](0))
	tests := []struct {
		name  string
		e     expr.Expr[float64]
		shape string
		want  []float64
	}{
		{"sum (3,0) axis 1", expr.Of(e30).Sum(1), "[3]", []float64{0, 0, 0}},
		{"sum (3,0) axis -1 keepdim", expr.Of(e30).SumKeepDims(-1), "[3, 1]", []float64{0, 0, 0}},
		{"sum (3,0) axis 0", expr.Of(e30).Sum(0), "[0]", []float64{}},
		{"sum (3,0) all", expr.Of(e30).Sum(), "[]", []float64{0}},
		{"sum (0,3) axis 0", expr.Of(e03).Sum(0), "[3]", []float64{0, 0, 0}},
		{"sum (0,)", expr.Of(e0).Sum(), "[]", []float64{0}},
		{"prod (3,0) axis 1", expr.Of(e30).Prod(1), "[3]", []float64{1, 1, 1}},
		{"prod (0,3) axis 0", expr.Of(e03).Prod(0), "[3]", []float64{1, 1, 1}},
		{"prod (0,)", expr.Of(e0).Prod(), "[]", []float64{1}},
		{"mean (3,0) axis 1", expr.Of(e30).Mean(1), "[3]", []float64{nan, nan, nan}},
		{"mean (0,3) axis 0", expr.Of(e03).Mean(0), "[3]", []float64{nan, nan, nan}},
		{"mean (0,)", expr.Of(e0).Mean(), "[]", []float64{nan}},
		{"max (0,3) axis 1 (non-empty axis)", expr.Of(e03).Max(1), "[0]", []float64{}},
		{"min (3,0) axis 0 (non-empty axis)", expr.Of(e30).Min(0), "[0]", []float64{}},
		{"fused sum (3,0)*(3,0) axis 1", expr.Of(e30).Mul(expr.Of(e30)).Sum(1), "[3]", []float64{0, 0, 0}},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				require.NoError(t, tc.e.Err())
				got, err := exec.EvalWith(ex.x, tc.e)
				require.NoError(t, err)
				assert.Equal(t, tc.shape, got.Shape().String())
				rdCompare(t, rdSame[float64], tc.want, got.Values(), "%s", tc.name)
			})
		}
	}

	t.Run("complex mean", func(t *testing.T) {
		x := tensor.Must(tensor.New[complex128](2, 0))
		got, err := exec.Eval(expr.Of(x).Mean(1))
		require.NoError(t, err)
		for _, v := range got.Values() {
			assert.True(t, math.IsNaN(real(v)), "real part of %v", v)
		}
	})
	t.Run("integer sum, prod and MeanAs", func(t *testing.T) {
		x := tensor.Must(tensor.New[int32](2, 0))
		s, err := exec.Eval(expr.Of(x).Sum(1))
		require.NoError(t, err)
		assert.Equal(t, []int32{0, 0}, s.Values())
		p, err := exec.Eval(expr.Of(x).Prod(-1))
		require.NoError(t, err)
		assert.Equal(t, []int32{1, 1}, p.Values())
		m, err := exec.Eval(expr.MeanAs[float64](expr.Of(x), 1))
		require.NoError(t, err)
		assert.True(t, math.IsNaN(m.Values()[0]) && math.IsNaN(m.Values()[1]), "MeanAs of empty rows: %v", m.Values())
	})
	t.Run("any and all", func(t *testing.T) {
		x := tensor.Must(tensor.New[bool](2, 0))
		a, err := exec.Eval(expr.Of(x).Any(1))
		require.NoError(t, err)
		assert.Equal(t, []bool{false, false}, a.Values())
		l, err := exec.Eval(expr.Of(x).All(1))
		require.NoError(t, err)
		assert.Equal(t, []bool{true, true}, l.Values())
	})

	errTests := []struct {
		name string
		err  error
		dim  int
	}{
		{"max", expr.Of(e30).Max(1).Err(), 1},
		{"max negative axis", expr.Of(e30).Max(-1).Err(), 1},
		{"max all axes", expr.Of(e30).Max().Err(), 1},
		{"max keepdim", expr.Of(e03).MaxKeepDims(0).Err(), 0},
		{"min", expr.Of(e03).Min(0).Err(), 0},
		{"min all axes", expr.Of(e0).Min().Err(), 0},
		{"argmax", expr.Of(e30).ArgMax(1).Err(), 1},
		{"argmax negative axis", expr.Of(e03).ArgMax(-2).Err(), 0},
		{"argmin", expr.Of(e0).ArgMin(0).Err(), 0},
	}
	for _, tc := range errTests {
		t.Run("error/"+tc.name, func(t *testing.T) {
			require.Error(t, tc.err)
			var se *expr.ShapeOpError
			require.ErrorAs(t, tc.err, &se)
			assert.Contains(t, tc.err.Error(), fmt.Sprintf("Expected reduction dim %d to have non-zero size", tc.dim))
		})
	}
	t.Run("error is returned by Eval", func(t *testing.T) {
		_, err := exec.Eval(expr.Of(e30).Max(1))
		var se *expr.ShapeOpError
		assert.ErrorAs(t, err, &se)
	})
}

// TestReduceNaNAndTies pins NumPy's rules on hand-made rows: max/min give
// NaN when any element is NaN, argmax/argmin pick the first of equal
// extremes and the first NaN; rows are long enough to span several blocks.
func TestReduceNaNAndTies(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	long := func(n int, fill float64, at map[int]float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = fill
		}
		for i, x := range at {
			v[i] = x
		}
		return v
	}
	tests := []struct {
		name           string
		row            []float64
		max, min       float64
		argmax, argmin int64
	}{
		{"nan in the middle", []float64{1, nan, 3}, nan, nan, 1, 1},
		{"nan first", []float64{nan, 5, -5}, nan, nan, 0, 0},
		{"nan last", []float64{1, 2, nan}, nan, nan, 2, 2},
		{"two nans", []float64{1, nan, 3, nan}, nan, nan, 1, 1},
		{"infinities", []float64{-inf, inf, 0, inf, -inf}, inf, -inf, 1, 0},
		{"nan beats inf", []float64{inf, nan, -inf}, nan, nan, 1, 1},
		{"ties", []float64{3, 1, 3, 1}, 3, 1, 0, 1},
		{"all equal", []float64{2, 2, 2}, 2, 2, 0, 0},
		{"all -inf", []float64{-inf, -inf}, -inf, -inf, 0, 0},
		{"single", []float64{4}, 4, 4, 0, 0},
		{"long, nan near the end", long(5000, 1, map[int]float64{4999: nan, 100: 7}), nan, nan, 4999, 4999},
		{"long, nan in a later block", long(5000, 1, map[int]float64{2100: nan, 3000: nan, 9: 0}), nan, nan, 2100, 2100},
		{"long, ties across blocks", long(5000, 0, map[int]float64{2047: 9, 2048: 9, 4000: 9, 10: -1, 4500: -1}), 9, -1, 2047, 10},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				n := len(tc.row)
				row := tensor.Must(tensor.FromSlice(tc.row, n))
				// The same values as a column of an (n, 2) matrix, so the
				// outer (rows into columns) path is taken too.
				colData := make([]float64, 2*n)
				for i, v := range tc.row {
					colData[2*i], colData[2*i+1] = v, -v
				}
				col := tensor.Must(tensor.FromSlice(colData, n, 2))
				for _, c := range []struct {
					name string
					x    expr.Expr[float64]
					axis int
				}{{"row", expr.Of(row), 0}, {"column", expr.Of(col), 0}} {
					first := func(v []float64) float64 { return v[0] }
					mx := rdEval(t, ex.x, c.x.Max(c.axis))
					mn := rdEval(t, ex.x, c.x.Min(c.axis))
					am := rdEval(t, ex.x, c.x.ArgMax(c.axis))
					an := rdEval(t, ex.x, c.x.ArgMin(c.axis))
					assert.True(t, rdSame(tc.max, first(mx)), "%s max: got %v want %v", c.name, first(mx), tc.max)
					assert.True(t, rdSame(tc.min, first(mn)), "%s min: got %v want %v", c.name, first(mn), tc.min)
					assert.Equal(t, tc.argmax, am[0], "%s argmax", c.name)
					assert.Equal(t, tc.argmin, an[0], "%s argmin", c.name)
				}
			})
		}
	}
}

// rdEval evaluates e with x and returns its values.
func rdEval[T dtype.Elem](t testing.TB, x *exec.Executor, e expr.Expr[T]) []T {
	t.Helper()
	require.NoError(t, e.Err())
	out, err := exec.EvalWith(x, e)
	require.NoError(t, err)
	return out.Values()
}

// TestReduceFusedEqualsUnfused evaluates reductions of elementwise
// producers (products, broadcasts, where/compare, permuted operands) in one
// step and in two (the producer materialized first); the results must be
// identical, and the one-step plan must make no temporary for the producer.
func TestReduceFusedEqualsUnfused(t *testing.T) {
	r := rdRand(42)
	a := tensor.Must(tensor.FromSlice(rdValues[float64](r, 37*300, rdOrderVals), 37, 300))
	b := tensor.Must(tensor.FromSlice(rdValues[float64](r, 37*300, rdSumVals), 37, 300))
	c := tensor.Must(tensor.FromSlice(rdValues[float64](r, 300, rdSumVals), 300))
	at, bt := tensor.Must(a.T()), tensor.Must(b.T())
	A, B, C := expr.Of(a), expr.Of(b), expr.Of(c)
	prodAB, prodTT := A.Mul(B), expr.Of(at).Mul(expr.Of(bt))
	where := expr.Where(A.Gt(B), A, B.MulScalar(2))
	whereC := expr.Where(A.Le(C), A.Sub(C), C)
	tests := []struct {
		name     string
		producer expr.Expr[float64]
		reduce   func(expr.Expr[float64]) expr.Expr[float64]
	}{
		{"sum(a*b, 1)", prodAB, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum(1) }},
		{"sum(a*b, 0)", prodAB, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum(0) }},
		{"sum(a*b)", prodAB, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum() }},
		{"sum(a*c) broadcast, -1", A.Mul(C), func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum(-1) }},
		{"sum(a.T*b.T, 0)", prodTT, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum(0) }},
		{"mean(a*b+a, -1)", prodAB.Add(A), func(x expr.Expr[float64]) expr.Expr[float64] { return x.Mean(-1) }},
		{"sum(where(a>b, a, 2b), 1)", where, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum(1) }},
		{"max(where(a>b, a, 2b), 0)", where, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Max(0) }},
		{"min(where(a<=c, a-c, c), 1)", whereC, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Min(1) }},
		{"prod(where(a>b, a, 2b)) keepdim", where, func(x expr.Expr[float64]) expr.Expr[float64] { return x.ProdKeepDims(0, 1) }},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				fused := rdEval(t, ex.x, tc.reduce(tc.producer))
				tmp, err := exec.EvalWith(ex.x, tc.producer)
				require.NoError(t, err)
				unfused := rdEval(t, ex.x, tc.reduce(expr.Of(tmp)))
				rdCompare(t, rdBitsEqual[float64], unfused, fused, "%s fused vs unfused", tc.name)
			})
		}
	}

	t.Run("argmax(a*b-c, 1)", func(t *testing.T) {
		e := prodAB.Sub(C)
		tmp := tensor.Must(exec.Eval(e))
		rdCompare(t, rdSame[int64], rdEval(t, exec.Default, expr.Of(tmp).ArgMax(1)), rdEval(t, exec.Default, e.ArgMax(1)), "argmax")
	})
	t.Run("any(a>b, 1), all(a>=c, 0)", func(t *testing.T) {
		gt, ge := A.Gt(B), A.Ge(C)
		gtT, geT := tensor.Must(exec.Eval(gt)), tensor.Must(exec.Eval(ge))
		rdCompare(t, rdSame[bool], rdEval(t, exec.Default, expr.Of(gtT).Any(1)), rdEval(t, exec.Default, gt.Any(1)), "any")
		rdCompare(t, rdSame[bool], rdEval(t, exec.Default, expr.Of(geT).All(0)), rdEval(t, exec.Default, ge.All(0)), "all")
	})
	t.Run("int32 sum(where(a>0, a, -a) * b, 0)", func(t *testing.T) {
		ai := tensor.Must(tensor.FromSlice(rdValues[int32](r, 50*70, rdOrderVals), 50, 70))
		bi := tensor.Must(tensor.FromSlice(rdValues[int32](r, 70, rdOrderVals), 70))
		Ai, Bi := expr.Of(ai), expr.Of(bi)
		e := expr.Where(Ai.Gt(expr.Scalar[int32](0)), Ai, Ai.Neg()).Mul(Bi)
		tmp := tensor.Must(exec.Eval(e))
		rdCompare(t, rdSame[int32], rdEval(t, exec.Default, expr.Of(tmp).Sum(0)), rdEval(t, exec.Default, e.Sum(0)), "sum")
	})
	t.Run("plan has no producer temporary", func(t *testing.T) {
		var buf strings.Builder
		x := exec.New(exec.Debug(&buf))
		for _, e := range []expr.Expr[float64]{prodAB.Sum(1), where.Sum(0)} {
			_ = rdEval(t, x, e)
		}
		plan := buf.String()
		assert.NotRegexp(t, regexp.MustCompile(`(?m)^\s*fused `), plan, "a fused region outside the reduction is a temporary")
		assert.Regexp(t, `reduce sum .* [1-9]\d* fused kernels`, plan)
	})
}
