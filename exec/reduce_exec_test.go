package exec_test

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Reductions in the executor: sum_to_size, the same bits for every worker
// count, float32 accuracy, block edges, large views, reductions inside
// graphs and EvalTo, odd producers and concurrent use.

// TestSumTo checks PyTorch's sum_to_size: the leading axes the target lacks
// and every axis where it has 1 (and x does not) are summed, the result has
// the target's shape exactly.
func TestSumTo(t *testing.T) {
	tests := []struct {
		x      []int
		target []int
	}{
		{[]int{2, 3, 4}, []int{3, 4}},
		{[]int{2, 3, 4}, []int{4}},
		{[]int{2, 3, 4}, []int{3, 1}},
		{[]int{2, 3, 4}, []int{1, 3, 1}},
		{[]int{2, 3, 4}, []int{2, 1, 4}},
		{[]int{2, 3, 4}, []int{1, 1, 1}},
		{[]int{2, 3, 4}, []int{1}},
		{[]int{2, 3, 4}, []int{}},
		{[]int{2, 3, 4}, []int{2, 3, 4}},
		{[]int{2, 1, 4}, []int{1, 4}},
		{[]int{2, 1, 4}, []int{1, 1, 4}},
		{[]int{5}, []int{1}},
		{[]int{5, 1}, []int{5, 1}},
		{[]int{3, 0}, []int{1, 0}},
		{[]int{0, 3}, []int{3}},
		{[]int{4, 5, 6, 7}, []int{5, 1, 7}},
	}
	r := rdRand(9)
	for i, tc := range tests {
		kind := rdViewKinds[i%len(rdViewKinds)]
		for _, ex := range rdExecs {
			t.Run(fmt.Sprintf("%v_to_%v/%s/%s", tc.x, tc.target, kind.name, ex.name), func(t *testing.T) {
				x := rdView(t, r, kind, tc.x, func(n int) []float64 { return rdValues[float64](r, n, rdSumVals) })
				pad := len(tc.x) - len(tc.target)
				red := make([]bool, len(tc.x))
				for j, d := range tc.x {
					red[j] = j < pad || (tc.target[j-pad] == 1 && d != 1)
				}
				want := rdRef(x.Values(), tc.x, red, 0.0, func(a, v float64, _ int) float64 { return a + v })
				e := expr.Of(x).SumTo(tc.target...)
				require.NoError(t, e.Err())
				got, err := exec.EvalWith(ex.x, e)
				require.NoError(t, err)
				assert.Equal(t, tensor.Shape(tc.target).String(), got.Shape().String())
				rdCompare(t, rdSame[float64], want, got.Values(), "SumTo %v of %v", tc.target, tc.x)
			})
		}
	}
	t.Run("int64 with a fused producer", func(t *testing.T) {
		x := tensor.Must(tensor.FromSlice([]int64{1, 2, 3, 4, 5, 6}, 2, 3))
		got := rdEval(t, exec.Default, expr.Of(x).MulScalar(10).SumTo(1, 3))
		assert.Equal(t, []int64{50, 70, 90}, got)
	})
}

// rdWorkerExecs returns executors with 1, 2, 4, 8 and 16 workers, each with
// grain 1 (every reduction split over the pool) and the default grain.
func rdWorkerExecs() []rdExec {
	var xs []rdExec
	for _, n := range []int{1, 2, 4, 8, 16} {
		xs = append(xs,
			rdExec{fmt.Sprintf("workers=%d,grain=1", n), exec.New(exec.Workers(n), exec.Grain(1))},
			rdExec{fmt.Sprintf("workers=%d", n), exec.New(exec.Workers(n))})
	}
	return xs
}

var rdChunksRE = regexp.MustCompile(`(\d+) chunks x (\d+) groups`)

// TestReduceDeterministicAcrossWorkers checks that inner-axis, outer-axis
// and full reductions of data big enough to be split into several chunks
// give the same bits for 1, 2, 4, 8 and 16 workers and from run to run.
func TestReduceDeterministicAcrossWorkers(t *testing.T) {
	rows, cols, flat := 300, 5000, 1_000_000
	if testing.Short() {
		rows, cols, flat = 300, 1000, 300_000
	}
	execs := rdWorkerExecs()
	t.Run("float64", func(t *testing.T) { rdDeterminism[float64](t, execs, rows, cols, flat) })
	t.Run("float32", func(t *testing.T) { rdDeterminism[float32](t, execs, rows, cols, flat) })
}

func rdDeterminism[T dtype.Float](t *testing.T, execs []rdExec, rows, cols, flat int) {
	m := tensor.Must(tensor.RandN[T](1, rows, cols))
	w := tensor.Must(tensor.RandN[T](2, rows, cols))
	v := tensor.Must(tensor.RandN[T](3, flat))
	// Offsets make the partial sums large and the rounding order matter.
	M, W := expr.Of(m).AddScalar(3), expr.Of(w)
	tests := []struct {
		name   string
		e      expr.Expr[T]
		split  bool // the plan must cut each output's sequence into chunks
		groups bool // or spread the outputs over several tasks
	}{
		{name: "inner sum(x, -1)", e: M.Sum(-1), groups: true},
		{name: "outer sum(x, 0)", e: M.Sum(0), split: true},
		{name: "full sum(x)", e: M.Sum(), split: true},
		{name: "flat sum(v)", e: expr.Of(v).AddScalar(1).Sum(), split: true},
		{name: "few long rows sum(v as 4 rows, 1)", e: expr.Of(v).AddScalar(1).Reshape(4, -1).Sum(1), split: true},
		{name: "outer mean(x, 0)", e: M.Mean(0), split: true},
		{name: "fused sum(x*w, 1)", e: M.Mul(W).Sum(1), groups: true},
		{name: "fused sum(x*w)", e: M.Mul(W).Sum(), split: true},
		{name: "transposed sum(x.T, 1)", e: M.T().Sum(1), split: true},
		{name: "outer max(x, 0)", e: M.Max(0), split: true},
		{name: "outer prod(x/64+1, 0)", e: expr.Of(m).DivScalar(64).AddScalar(1).Prod(0), split: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var plan strings.Builder
			want := rdEval(t, exec.New(exec.Workers(2), exec.Grain(1), exec.Debug(&plan)), tc.e)
			mm := rdChunksRE.FindStringSubmatch(plan.String())
			require.NotNil(t, mm, "plan: %s", plan.String())
			chunks, _ := strconv.Atoi(mm[1])
			groups, _ := strconv.Atoi(mm[2])
			if tc.split {
				require.Greater(t, chunks, 1, "the reduction must be split into chunks: %s", plan.String())
			}
			if tc.groups {
				require.Greater(t, groups, 1, "the outputs must be split into groups: %s", plan.String())
			}
			for _, ex := range execs {
				for run := range 2 {
					got := rdEval(t, ex.x, tc.e)
					if !rdCompare(t, rdBitsEqual[T], want, got, "%s on %s, run %d", tc.name, ex.name, run) {
						return
					}
				}
			}
		})
	}
}

// TestSumFloat32Accuracy checks that float32 sums of 1e7 elements are
// within 1e-5 relative of a float64 reference (a naive float32 loop is off
// by about 1e-3).
func TestSumFloat32Accuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("1e7 elements")
	}
	const n = 10_000_000
	x := tensor.Must(tensor.Rand[float32](11, n))
	data := x.Values()
	var ref float64
	for _, v := range data {
		ref += float64(v)
	}
	cols := make([]float64, 4) // sums of the columns of x as (n/4, 4)
	rowSums := make([]float64, 4)
	for i, v := range data {
		cols[i%4] += float64(v)
		rowSums[i/(n/4)] += float64(v)
	}
	X := expr.Of(x)
	tests := []struct {
		name string
		e    expr.Expr[float32]
		want []float64
	}{
		{"sum of 1e7", X.Sum(), []float64{ref}},
		{"outer: sum((n/4, 4), 0)", X.Reshape(n/4, 4).Sum(0), cols},
		{"inner: sum((4, n/4), 1)", X.Reshape(4, n/4).Sum(1), rowSums},
		{"mean of 1e7", X.Mean(), []float64{ref / n}},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs[:2] {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				got := rdEval(t, ex.x, tc.e)
				require.Len(t, got, len(tc.want))
				for i, w := range tc.want {
					assert.LessOrEqual(t, math.Abs(float64(got[i])-w)/w, 1e-5, "[%d] got %v want %v", i, got[i], w)
				}
			})
		}
	}
}

// TestReduceChunkEdges covers reductions whose partition into chunks of
// equal length needs fewer chunks than the count first chosen: 289 rows in
// 18 chunks of 17 (the last would be empty), and a 16M-element vector in 256
// chunks of 17 blocks of 4096 (the last 15 would be). Over values of one
// sign an empty chunk shows: a max of negatives came out 0.
func TestReduceChunkEdges(t *testing.T) {
	shapes := []struct {
		shape []int
		axes  []int
	}{
		{[]int{289, 3856}, []int{0}},
		{[]int{289, 3856}, nil},
		{[]int{1<<24 + 1}, nil},
	}
	for _, s := range shapes {
		if testing.Short() && s.shape[0] > 1<<20 {
			continue // 16 MiB of int8: fine, but slow under the race detector
		}
		t.Run(fmt.Sprint(s.shape, s.axes), func(t *testing.T) {
			neg := tensor.Must(tensor.Full(int8(-3), s.shape...))
			pos := tensor.Must(tensor.Full(int8(3), s.shape...))
			data := neg.Data()
			data[len(data)/3] = -2 // one larger value, in a middle chunk
			for _, x := range []*exec.Executor{exec.Default, serial} {
				mx, err := exec.EvalWith(x, expr.Of(neg).Max(s.axes...))
				require.NoError(t, err)
				mn, err := exec.EvalWith(x, expr.Of(pos).Min(s.axes...))
				require.NoError(t, err)
				for i, v := range mn.Values() {
					require.Equal(t, int8(3), v, "min of threes, output %d", i)
				}
				wantMax := func(i int) int8 {
					if len(s.axes) == 1 && i == (len(data)/3)%s.shape[1] || len(s.axes) != 1 {
						return -2
					}
					return -3
				}
				for i, v := range mx.Values() {
					require.Equal(t, wantMax(i), v, "max of negatives, output %d", i)
				}
			}
		})
	}
}

// TestReduceLargeViews checks, exactly, the paths that split work (outputs
// cut into chunks, or spread over groups of tasks) on strided inputs:
// transposed, sliced with a step, and expanded both ways.
func TestReduceLargeViews(t *testing.T) {
	const rows, cols = 64, 3000
	r := rdRand(21)
	halves := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.IntN(33)-16) / 2
		}
		return v
	}
	signs := func(n int) []float64 { // products of ±1 stay exact
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(1 - 2*r.IntN(2))
		}
		return v
	}
	views := []struct {
		name string
		make func(gen func(int) []float64) *tensor.Tensor[float64]
	}{
		{"contiguous", func(g func(int) []float64) *tensor.Tensor[float64] {
			return tensor.Must(tensor.FromSlice(g(rows*cols), rows, cols))
		}},
		{"transposed", func(g func(int) []float64) *tensor.Tensor[float64] {
			return tensor.Must(tensor.Must(tensor.FromSlice(g(rows*cols), cols, rows)).T())
		}},
		{"sliced", func(g func(int) []float64) *tensor.Tensor[float64] {
			return tensor.Must(tensor.Must(tensor.FromSlice(g(rows*(2*cols+1)), rows, 2*cols+1)).Slice(1, 1, math.MaxInt, 2))
		}},
		{"expanded rows", func(g func(int) []float64) *tensor.Tensor[float64] {
			return tensor.Must(tensor.Must(tensor.FromSlice(g(cols), 1, cols)).Expand(rows, cols))
		}},
		{"expanded columns", func(g func(int) []float64) *tensor.Tensor[float64] {
			return tensor.Must(tensor.Must(tensor.FromSlice(g(rows), rows, 1)).Expand(rows, cols))
		}},
	}
	ops := append(rdNumericOps[float64](), rdMeanOp(rdFloatDiv[float64]))
	ops = append(ops, rdRealOps[float64](rdOrderVals)...)
	execs := append([]rdExec{{"workers=4,grain=1", exec.New(exec.Workers(4), exec.Grain(1))}}, rdExecs...)
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			x, sx := v.make(halves), v.make(signs)
			xv, sxv := x.Values(), sx.Values()
			for _, op := range ops {
				in, vals := x, xv
				if op.name == "prod" {
					in, vals = sx, sxv
				}
				for i, axes := range [][]int{{0}, {1}, {-1, 0}, nil} {
					_, red := rdAxes(r, 2, rdMaskOf(axes, 2))
					ex := execs[i%len(execs)]
					got := rdEval(t, ex.x, op.build(expr.Of(in), false, axes...))
					rdCompare(t, op.eq, op.ref(vals, []int{rows, cols}, red), got, "%s axes %v on %s", op.name, axes, ex.name)
				}
			}
			for ax := range 2 {
				red := []bool{ax == 0, ax == 1}
				ex := execs[ax]
				am := rdEval(t, ex.x, expr.Of(x).ArgMax(ax))
				rdCompare(t, rdSame[int64], rdArgRef(xv, []int{rows, cols}, red, true), am, "argmax %d on %s", ax, ex.name)
				an := rdEval(t, ex.x, expr.Of(x).ArgMin(ax-2))
				rdCompare(t, rdSame[int64], rdArgRef(xv, []int{rows, cols}, red, false), an, "argmin %d on %s", ax-2, ex.name)
			}
		})
	}
}

// rdMaskOf is the axis mask of axes (0 for none: every axis).
func rdMaskOf(axes []int, rank int) int {
	m := 0
	for _, a := range axes {
		m |= 1 << ((a + rank) % rank)
	}
	return m
}

// TestReduceInGraphs checks reductions between other ops: a reduction
// broadcast back into an elementwise op (softmax, centering), reductions of
// reductions and of matmuls, several reductions in one plan, and graphs
// rebuilt over other scalars, tensors and bindings (plan reuse).
func TestReduceInGraphs(t *testing.T) {
	const rows, cols = 5, 70
	r := rdRand(31)
	vals := make([]float64, rows*cols)
	for i := range vals {
		vals[i] = float64(r.IntN(33)-16) / 4
	}
	x := tensor.Must(tensor.FromSlice(vals, rows, cols))
	X := expr.Of(x)
	near := rdNear[float64](64)
	rowOf := func(i int) []float64 { return vals[i*cols : (i+1)*cols] }

	var softmax, centered []float64
	for i := range rows {
		row := rowOf(i)
		m := math.Inf(-1)
		for _, v := range row {
			m = math.Max(m, v)
		}
		var s float64
		for _, v := range row {
			s += math.Exp(v - m)
		}
		for _, v := range row {
			softmax = append(softmax, math.Exp(v-m)/s)
		}
	}
	colMean := make([]float64, cols)
	for i, v := range vals {
		colMean[i%cols] += v / rows
	}
	for i, v := range vals {
		centered = append(centered, v-colMean[i%cols])
	}
	rowSum := rdRef(vals, []int{rows, cols}, []bool{false, true}, 0.0, func(a, v float64, _ int) float64 { return a + v })
	maxRowSum := rowSum[0]
	for _, v := range rowSum {
		maxRowSum = math.Max(maxRowSum, v)
	}
	gram, _ := mmRef(vals, []int{rows, cols}, tensor.Must(x.T()).Values(), []int{cols, rows})
	gramColSums := rdRef(gram, []int{rows, rows}, []bool{true, false}, 0.0, func(a, v float64, _ int) float64 { return a + v })

	sh := X.Sub(X.MaxKeepDims(1)).Exp()
	tests := []struct {
		name string
		e    expr.Expr[float64]
		want []float64
	}{
		{"softmax(x, 1)", sh.Div(sh.SumKeepDims(1)), softmax},
		{"x - mean(x, 0, keepdim)", X.Sub(X.MeanKeepDims(0)), centered},
		{"max(sum(x, 1))", X.Sum(1).Max(), []float64{maxRowSum}},
		{"sum(x @ x.T, 0)", X.MatMul(X.T()).Sum(0), gramColSums},
		{"sum(x, 0, keepdim) @ x.T", X.SumKeepDims(0).MatMul(X.T()),
			func() []float64 {
				cs := rdRef(vals, []int{rows, cols}, []bool{true, false}, 0.0, func(a, v float64, _ int) float64 { return a + v })
				v, _ := mmRef(cs, []int{1, cols}, tensor.Must(x.T()).Values(), []int{cols, rows})
				return v
			}()},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				rdCompare(t, near, tc.want, rdEval(t, ex.x, tc.e), "%s", tc.name)
			})
		}
	}

	t.Run("EvalN", func(t *testing.T) {
		es := []expr.Expr[float64]{X.Sum(0), X.Sum(1), X.Max(), X.Mul(X).Sum(1), X.Sum(0).Mul(X.Sum(0)).Sum()}
		outs, err := exec.EvalN(es...)
		require.NoError(t, err)
		require.Len(t, outs, len(es))
		for i, e := range es {
			rdCompare(t, rdBitsEqual[float64], rdEval(t, exec.New(), e), outs[i].Values(), "EvalN output %d", i)
		}
	})

	t.Run("rebuilt graphs", func(t *testing.T) {
		ex := exec.New()
		for s := 1.0; s <= 4; s++ {
			fresh := rdEval(t, exec.New(), expr.Of(x).MulScalar(s).Sum(1))
			rdCompare(t, rdBitsEqual[float64], fresh, rdEval(t, ex, expr.Of(x).MulScalar(s).Sum(1)), "scalar %v", s)
		}
		for seed := range uint64(3) {
			y := tensor.Must(tensor.RandN[float64](100+seed, rows, cols))
			fresh := rdEval(t, exec.New(), expr.Of(y).Sum(0))
			rdCompare(t, rdBitsEqual[float64], fresh, rdEval(t, ex, expr.Of(y).Sum(0)), "tensor %d", seed)
			a := tensor.Must(tensor.RandN[float64](200+seed, rows, 8))
			fresh = rdEval(t, exec.New(), expr.Of(a).T().MatMul(expr.Of(y)))
			rdCompare(t, rdBitsEqual[float64], fresh, rdEval(t, ex, expr.Of(a).T().MatMul(expr.Of(y))), "matmul %d", seed)
		}
	})

	t.Run("placeholder bound to other layouts", func(t *testing.T) {
		p := expr.Placeholder[float64]("p", rows, cols)
		e := p.Sum(0)
		mm := p.MatMul(expr.Of(tensor.Must(x.T())))
		for _, kind := range rdViewKinds {
			v := rdView(t, r, kind, []int{rows, cols}, func(n int) []float64 { return rdValues[float64](r, n, rdSumVals) })
			got, err := exec.Eval(e, exec.Bind(p, v))
			require.NoError(t, err)
			want := rdRef(v.Values(), []int{rows, cols}, []bool{true, false}, 0.0, func(a, x float64, _ int) float64 { return a + x })
			rdCompare(t, rdSame[float64], want, got.Values(), "sum of %s", kind.name)
			pv := rdView(t, r, kind, []int{rows, cols}, func(n int) []float64 { return mmValues[float64](r, n) })
			gotM, err := exec.Eval(mm, exec.Bind(p, pv))
			require.NoError(t, err)
			wantM, _ := mmRef(pv.Values(), []int{rows, cols}, tensor.Must(x.T()).Values(), []int{cols, rows})
			rdCompare(t, rdSame[float64], wantM, gotM.Values(), "matmul of %s", kind.name)
		}
	})
}

// TestReduceEvalTo checks reductions and matmuls written into existing
// tensors: strided destinations, destinations that are (part of) an
// operand (computed from the operand's old values), and shape errors that
// leave the destination untouched.
func TestReduceEvalTo(t *testing.T) {
	const rows, cols = 6, 40
	r := rdRand(41)
	fresh := func() *tensor.Tensor[float64] {
		return tensor.Must(tensor.FromSlice(mmValues[float64](rdRand(42), rows*cols), rows, cols))
	}
	x := fresh()
	colSums := rdRef(x.Values(), []int{rows, cols}, []bool{true, false}, 0.0, func(a, v float64, _ int) float64 { return a + v })
	rowMax := rdRef(x.Values(), []int{rows, cols}, []bool{false, true}, 0.0, func(a, v float64, pos int) float64 {
		if pos == 0 {
			return v
		}
		return math.Max(a, v)
	})
	for _, ex := range rdExecs {
		t.Run(ex.name, func(t *testing.T) {
			dst := tensor.Must(tensor.New[float64](cols))
			require.NoError(t, exec.EvalToWith(ex.x, dst, expr.Of(x).Sum(0)))
			assert.Equal(t, colSums, dst.Values(), "contiguous destination")

			grid := tensor.Must(tensor.Full(-7.0, rows, 3))
			col := tensor.Must(grid.Index(1, 1))
			require.NoError(t, exec.EvalToWith(ex.x, col, expr.Of(x).Max(1)))
			assert.Equal(t, rowMax, col.Values(), "strided destination")
			for i, v := range grid.Values() {
				if i%3 != 1 {
					assert.Equal(t, -7.0, v, "grid element %d outside the destination column", i)
				}
			}

			y := fresh()
			row0 := tensor.Must(y.Index(0, 0))
			require.NoError(t, exec.EvalToWith(ex.x, row0, expr.Of(y).Sum(0)))
			assert.Equal(t, colSums, row0.Values(), "destination is row 0 of the operand")
			assert.Equal(t, x.Values()[cols:], y.Values()[cols:], "other rows untouched")

			sq := tensor.Must(tensor.FromSlice(mmValues[float64](r, 9), 3, 3))
			b := tensor.Must(tensor.FromSlice(mmValues[float64](r, 9), 3, 3))
			want, _ := mmRef(sq.Values(), []int{3, 3}, b.Values(), []int{3, 3})
			require.NoError(t, exec.EvalToWith(ex.x, sq, expr.Of(sq).MatMul(expr.Of(b))))
			assert.Equal(t, want, sq.Values(), "a = a @ b")
			sqT := tensor.Must(sq.T())
			want, _ = mmRef(b.Values(), []int{3, 3}, sqT.Values(), []int{3, 3})
			require.NoError(t, exec.EvalToWith(ex.x, sqT, expr.Of(b).MatMul(expr.Of(sqT))))
			assert.Equal(t, want, sqT.Values(), "a.T = b @ a.T")

			bad := tensor.Must(tensor.Full(5.0, cols+1))
			assert.Error(t, exec.EvalToWith(ex.x, bad, expr.Of(x).Sum(0)), "wrong destination shape")
			assert.Equal(t, tensor.Must(tensor.Full(5.0, cols+1)).Values(), bad.Values(), "failed EvalTo leaves dst untouched")
		})
	}
}

// TestReduceOddProducers checks reductions whose producer is a broadcast
// scalar, a where over scalars, a cast of a comparison, or a 0-d tensor.
func TestReduceOddProducers(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float64{1, -2, 3, -4, 5, 0, 7, -8, 9, 10, -11, 12}, 3, 4))
	X := expr.Of(x)
	zero := expr.Scalar(0.0)
	tests := []struct {
		name  string
		e     expr.Expr[float64]
		shape string
		want  []float64
	}{
		{"sum of an expanded scalar", expr.Scalar(2.0).Expand(3, 4).Sum(0), "[4]", []float64{6, 6, 6, 6}},
		{"sum of an expanded scalar, all", expr.Scalar(2.5).Expand(3, 4).Sum(), "[]", []float64{30}},
		{"max of an expanded scalar", expr.Scalar(-1.5).Expand(2, 5).Max(1), "[2]", []float64{-1.5, -1.5}},
		{"sum(where(x > 0, 1, 0), 1)", expr.Where(X.Gt(zero), expr.Scalar(1.0), zero).Sum(1), "[3]", []float64{2, 2, 3}},
		{"sum(cast(x > 0), 1)", expr.Cast[float64](X.Gt(zero)).Sum(1), "[3]", []float64{2, 2, 3}},
		{"prod(where(x > 0, x, 1), 0)", expr.Where(X.Gt(zero), X, expr.Scalar(1.0)).Prod(0), "[4]", []float64{45, 10, 21, 12}},
		{"sum of a 0-d", expr.Scalar(4.0).Sum(), "[]", []float64{4}},
		{"sum keepdim of a 0-d", expr.Scalar(4.0).SumKeepDims(), "[]", []float64{4}},
		{"max of a 0-d", expr.Scalar(-4.0).Max(), "[]", []float64{-4}},
		{"mean of a 0-d", expr.Scalar(4.0).Mean(), "[]", []float64{4}},
		{"sum of a (1, 1)", expr.Of(tensor.Must(tensor.FromSlice([]float64{3}, 1, 1))).Sum(0), "[1]", []float64{3}},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				require.NoError(t, tc.e.Err())
				got, err := exec.EvalWith(ex.x, tc.e)
				require.NoError(t, err)
				assert.Equal(t, tc.shape, got.Shape().String())
				assert.Equal(t, tc.want, got.Values())
			})
		}
	}
	t.Run("argmax of an expanded scalar", func(t *testing.T) {
		assert.Equal(t, []int64{0, 0}, rdEval(t, exec.Default, expr.Scalar(1.0).Expand(2, 5).ArgMax(1)))
	})
	t.Run("int64 count of true", func(t *testing.T) {
		assert.Equal(t, []int64{2, 2, 3}, rdEval(t, exec.Default, expr.Cast[int64](X.Gt(zero)).Sum(-1)))
	})
}

// TestReduceConcurrent evaluates reductions and matmuls on one executor
// from several goroutines at once (run with -race).
func TestReduceConcurrent(t *testing.T) {
	x := tensor.Must(tensor.RandN[float64](51, 300, 700))
	X := expr.Of(x)
	es := []expr.Expr[float64]{X.Sum(0), X.Sum(1), X.Sum(), X.Mul(X).Max(0), X.MatMul(X.T()).Sum(1)}
	want := make([][]float64, len(es))
	for i, e := range es {
		want[i] = rdEval(t, exec.New(exec.Workers(1)), e)
	}
	ex := exec.New(exec.Workers(4), exec.Grain(1))
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for k := range 10 {
				i := (g + k) % len(es)
				got, err := exec.EvalWith(ex, es[i])
				if err == nil {
					for j, v := range got.Values() {
						if !rdBitsEqual(v, want[i][j]) {
							err = fmt.Errorf("goroutine %d, expression %d: element %d is %v, want %v", g, i, j, v, want[i][j])
							break
						}
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		assert.NoError(t, <-errs)
	}
}
