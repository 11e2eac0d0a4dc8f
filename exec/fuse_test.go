package exec_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Fusion must not change results: a random program of elementwise ops
// evaluated as one fused graph, as several outputs of one plan, and one op
// at a time (each intermediate evaluated into its own tensor) gives the same
// bits, with every executor configuration.

// program is a random DAG of elementwise ops over some leaves: value i is
// leaf i for i < len(leaves), else the result of instrs[i-len(leaves)].
type program struct {
	instrs []instr
}

type instr struct {
	op   string
	args []int
}

// opSet is the ops a program of element type T may use, with their arity.
type opSet[T dtype.Elem] struct {
	arity map[string]int
	names []string
	apply func(op string, args []expr.Expr[T]) expr.Expr[T]
}

func realOps[T dtype.Real](inexact bool) opSet[T] {
	s := opSet[T]{arity: map[string]int{"add": 2, "sub": 2, "mul": 2, "max": 2, "min": 2, "neg": 1, "square": 1,
		"relu": 1, "where": 2, "addscalar": 1, "floordiv": 2}}
	if inexact {
		for op, n := range map[string]int{"div": 2, "exp": 1, "sin": 1, "sqrt": 1, "abs": 1, "round": 1} {
			s.arity[op] = n
		}
	} else {
		s.arity["abs"] = 1
	}
	s.apply = func(op string, a []expr.Expr[T]) expr.Expr[T] {
		switch op {
		case "add":
			return a[0].Add(a[1])
		case "sub":
			return a[0].Sub(a[1])
		case "mul":
			return a[0].Mul(a[1])
		case "div":
			return a[0].Div(a[1])
		case "floordiv":
			return a[0].DivFloor(a[1])
		case "max":
			return a[0].Maximum(a[1])
		case "min":
			return a[0].Minimum(a[1])
		case "neg":
			return a[0].Neg()
		case "square":
			return a[0].Square()
		case "relu":
			return a[0].Relu()
		case "abs":
			return a[0].Abs()
		case "exp":
			return a[0].Exp()
		case "sin":
			return a[0].Sin()
		case "sqrt":
			return a[0].Sqrt()
		case "round":
			return a[0].Round()
		case "where":
			return expr.Where(a[0].Gt(a[1]), a[0], a[1])
		case "addscalar":
			return a[0].AddScalar(3)
		}
		panic(op)
	}
	s.sortNames()
	return s
}

func complexOps[T dtype.Complex]() opSet[T] {
	s := opSet[T]{arity: map[string]int{"add": 2, "sub": 2, "mul": 2, "div": 2, "neg": 1, "square": 1, "exp": 1, "conj": 1, "where": 2}}
	s.apply = func(op string, a []expr.Expr[T]) expr.Expr[T] {
		switch op {
		case "add":
			return a[0].Add(a[1])
		case "sub":
			return a[0].Sub(a[1])
		case "mul":
			return a[0].Mul(a[1])
		case "div":
			return a[0].Div(a[1])
		case "neg":
			return a[0].Neg()
		case "square":
			return a[0].Square()
		case "exp":
			return a[0].Exp()
		case "conj":
			return a[0].Conj()
		case "where":
			return expr.Where(a[0].Eq(a[1]), a[1], a[0].MulScalar(2))
		}
		panic(op)
	}
	s.sortNames()
	return s
}

func (s *opSet[T]) sortNames() {
	for op := range s.arity {
		s.names = append(s.names, op)
	}
	// Map order is random; programs must depend on the seed alone.
	for i := range s.names {
		for j := i + 1; j < len(s.names); j++ {
			if s.names[j] < s.names[i] {
				s.names[i], s.names[j] = s.names[j], s.names[i]
			}
		}
	}
}

func randomProgram[T dtype.Elem](r *rand.Rand, ops opSet[T], leaves, n int) program {
	var p program
	for i := 0; i < n; i++ {
		op := ops.names[r.IntN(len(ops.names))]
		in := instr{op: op}
		for k := 0; k < ops.arity[op]; k++ {
			// Prefer recent values so that chains get deep.
			avail := leaves + i
			j := avail - 1 - min(avail-1, int(r.ExpFloat64()*2))
			if r.IntN(3) == 0 {
				j = r.IntN(avail)
			}
			in.args = append(in.args, j)
		}
		p.instrs = append(p.instrs, in)
	}
	return p
}

func buildAll[T dtype.Elem](p program, ops opSet[T], leaves []expr.Expr[T]) []expr.Expr[T] {
	vals := append([]expr.Expr[T](nil), leaves...)
	for _, in := range p.instrs {
		args := make([]expr.Expr[T], len(in.args))
		for k, a := range in.args {
			args[k] = vals[a]
		}
		vals = append(vals, ops.apply(in.op, args))
	}
	return vals[len(leaves):]
}

// opByOp evaluates p one instruction at a time, each into its own tensor.
func opByOp[T dtype.Elem](t *testing.T, x *exec.Executor, p program, ops opSet[T], leaves []*tensor.Tensor[T]) []*tensor.Tensor[T] {
	vals := append([]*tensor.Tensor[T](nil), leaves...)
	for _, in := range p.instrs {
		args := make([]expr.Expr[T], len(in.args))
		for k, a := range in.args {
			args[k] = expr.Of(vals[a])
		}
		vals = append(vals, evalWith(t, x, ops.apply(in.op, args)))
	}
	return vals[len(leaves):]
}

func (p program) String() string {
	var b strings.Builder
	for i, in := range p.instrs {
		fmt.Fprintf(&b, "v%d=%s%v ", i, in.op, in.args)
	}
	return b.String()
}

// fusionLeaves returns operands of several layouts that broadcast to [r, c].
func fusionLeaves[T dtype.Elem](t testing.TB, rnd *rand.Rand, r, c int) []*tensor.Tensor[T] {
	return []*tensor.Tensor[T]{
		randomTensor[T](t, rnd, r, c),
		tensor.Must(randomTensor[T](t, rnd, c, r).T()),
		randomTensor[T](t, rnd, 1, c),
		randomTensor[T](t, rnd, r, 1),
		randomTensor[T](t, rnd),
		tensor.Must(randomTensor[T](t, rnd, r, 2*c).Slice(1, 1, 2*c, 2)),
	}
}

func checkFusion[T dtype.Elem](t *testing.T, seed uint64, ops opSet[T]) {
	r := newRand(seed)
	trials := 40
	if testing.Short() {
		trials = 10
	}
	for trial := range trials {
		leaves := fusionLeaves[T](t, r, 29, 41)
		p := randomProgram(r, ops, len(leaves), 4+r.IntN(8))
		lx := make([]expr.Expr[T], len(leaves))
		for i, l := range leaves {
			lx[i] = expr.Of(l)
		}
		all := buildAll(p, ops, lx)
		want := opByOp(t, serial, p, ops, leaves)
		last := len(all) - 1

		// The last value alone, fused, with every executor.
		for _, x := range []struct {
			name string
			x    *exec.Executor
		}{{"serial", serial}, {"default", exec.Default}, {"tiled", tiled}, {"wide", wide}, {"odd", odd}} {
			got := evalWith(t, x.x, all[last])
			if !assertBits(t, want[last].Values(), got.Values(), "trial %d %s executor: %v", trial, x.name, p) {
				return
			}
		}
		// Every value as an output of one plan (shared subexpressions).
		roots := make([]*expr.Node, len(all))
		for i, e := range all {
			roots[i] = e.Node()
		}
		outs, err := tiled.Run(roots, nil)
		require.NoError(t, err)
		for i, o := range outs {
			if !assertBits(t, want[i].Values(), o.(*tensor.Tensor[T]).Values(), "trial %d value %d of a multi-output plan: %v", trial, i, p) {
				return
			}
		}
	}
}

func TestFusedEqualsOpByOp(t *testing.T) {
	t.Run("float64", func(t *testing.T) { checkFusion(t, 1, realOps[float64](true)) })
	t.Run("float32", func(t *testing.T) { checkFusion(t, 2, realOps[float32](true)) })
	t.Run("int32", func(t *testing.T) { checkFusion(t, 3, realOps[int32](false)) })
	t.Run("uint8", func(t *testing.T) { checkFusion(t, 4, realOps[uint8](false)) })
	t.Run("complex128", func(t *testing.T) { checkFusion(t, 5, complexOps[complex128]()) })
}

// TestFusedMixedDTypes fuses casts, comparisons and complex parts with
// arithmetic, and compares with op-by-op evaluation.
func TestFusedMixedDTypes(t *testing.T) {
	r := newRand(7)
	a := randomTensor[int32](t, r, 23, 31)
	b := tensor.Must(randomTensor[float32](t, r, 31, 23).T())
	z := randomTensor[complex128](t, r, 1, 31)

	af := expr.Cast[float32](expr.Of(a))
	m := expr.Where(af.Gt(expr.Of(b)), af, expr.Of(b).Sqrt())
	re := expr.Cast[float32](expr.Real[float64](expr.Of(z)))
	fused := expr.Cast[float64](m.Mul(re)).Add(expr.CAbs[float64](expr.Of(z)))

	step := func(e expr.Expr[float32]) *tensor.Tensor[float32] { return evalWith(t, serial, e) }
	afT := step(af)
	mT := step(expr.Where(expr.Of(afT).Gt(expr.Of(b)), expr.Of(afT), expr.Of(step(expr.Of(b).Sqrt()))))
	reT := step(expr.Cast[float32](expr.Of(evalWith(t, serial, expr.Real[float64](expr.Of(z))))))
	prod := step(expr.Of(mT).Mul(expr.Of(reT)))
	want := evalWith(t, serial, expr.Cast[float64](expr.Of(prod)).Add(expr.Of(evalWith(t, serial, expr.CAbs[float64](expr.Of(z))))))
	for _, x := range []*exec.Executor{serial, tiled, wide, odd, exec.Default} {
		assertBits(t, want.Values(), evalWith(t, x, fused).Values(), "mixed dtypes")
	}
}

// TestWorkersBitIdentical evaluates the workloads of the benchmarks on odd
// sizes with 1, 2 and 8 workers and several block sizes.
func TestWorkersBitIdentical(t *testing.T) {
	r := newRand(8)
	const R, C = 157, 211
	a, b, c := randomTensor[float64](t, r, R, C), randomTensor[float64](t, r, R, C), randomTensor[float64](t, r, R, C)
	row, col := randomTensor[float64](t, r, 1, C), randomTensor[float64](t, r, R, 1)
	bt := tensor.Must(randomTensor[float64](t, r, C, R).T())
	x, y, z := expr.Of(a), expr.Of(b), expr.Of(c)
	exprs := map[string]expr.Expr[float64]{
		"W1": x.Add(y),
		"W2": x.Mul(y).Add(z),
		"W3": x.Mul(y).Add(z).Mul(x.Sub(y)).Div(z.AddScalar(1.5)),
		"W4": x.Exp().Mul(y.Sin()).Add(z.Abs().Sqrt()),
		"W5": x.Add(expr.Of(row)),
		"W6": x.Add(expr.Of(col)),
		"W7": expr.Of(col).Mul(expr.Of(row)),
		"W9": x.Add(expr.Of(bt)),
	}
	executors := []*exec.Executor{
		exec.New(exec.Workers(2), exec.Grain(1), exec.BlockSize(64)),
		exec.New(exec.Workers(8), exec.Grain(1), exec.BlockSize(16)),
		exec.New(exec.Workers(8), exec.Grain(1), exec.BlockSize(1000)),
		wide, tiled, odd, exec.Default,
	}
	for name, e := range exprs {
		want := evalWith(t, serial, e).Values()
		for i, x := range executors {
			assertBits(t, want, evalWith(t, x, e).Values(), "%s, executor %d", name, i)
		}
	}
}

// TestZeroDim evaluates 0-d operands alone and broadcast against others.
func TestZeroDim(t *testing.T) {
	a := fromValues(t, []float64{2})
	b := fromValues(t, []float64{-3})
	v := fromValues(t, []float64{1, 2, 3}, 3)
	for _, x := range testExecutors {
		got := evalWith(t, x.x, expr.Of(a).Mul(expr.Of(b)).Exp())
		require.Equal(t, tensor.Shape{}, got.Shape(), x.name)
		assertBits(t, []float64{math.Exp(-6)}, got.Values(), "0-d")

		got = evalWith(t, x.x, expr.Of(a).Sub(expr.Of(v)))
		require.Equal(t, tensor.Shape{3}, got.Shape())
		assertBits(t, []float64{1, 0, -1}, got.Values(), "0-d - [3]")

		dst := fromValues(t, []float64{0})
		require.NoError(t, exec.EvalToWith(x.x, dst, expr.Of(a).AddScalar(1)))
		assertBits(t, []float64{3}, dst.Values(), "EvalTo 0-d")

		c := evalWith(t, x.x, expr.Cast[int8](expr.Of(b)))
		require.Equal(t, []int8{-3}, c.Values())
	}
	// A 0-d view of a larger tensor (Index twice) reads its own element.
	m := fromValues(t, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	e := tensor.Must(tensor.Must(m.Index(0, 1)).Index(0, 2))
	got := evalWith(t, tiled, expr.Of(e).MulScalar(10))
	assertBits(t, []float64{60}, got.Values(), "0-d view")
}

// TestEmpty evaluates zero-size shapes: nothing is computed, shapes follow
// the broadcasting rules (a 0 matches only 0 or 1).
func TestEmpty(t *testing.T) {
	e0 := fromValues(t, []float64{}, 0)
	one := fromValues(t, []float64{7}, 1)
	e35 := fromValues(t, []float64{}, 3, 0)
	col := fromValues(t, []float64{1, 2, 3}, 3, 1)
	e05 := fromValues(t, []float64{}, 0, 5)
	row := fromValues(t, []float64{1, 2, 3, 4, 5}, 5)
	cases := []struct {
		name  string
		e     expr.Expr[float64]
		shape tensor.Shape
		bug   string
	}{
		{"[0]+[0]", expr.Of(e0).Add(expr.Of(e0)), tensor.Shape{0}, ""},
		{"[0]+[1]", expr.Of(e0).Add(expr.Of(one)), tensor.Shape{0}, ""},
		{"[1]*[0]", expr.Of(one).Mul(expr.Of(e0)), tensor.Shape{0}, ""},
		{"[3,0]*[3,1]", expr.Of(e35).Mul(expr.Of(col)), tensor.Shape{3, 0}, ""},
		{"[0,5]+[5]", expr.Of(e05).Add(expr.Of(row)).Exp(), tensor.Shape{0, 5}, ""},
		{"[0,5].T", expr.Of(tensor.Must(e05.T())).Neg(), tensor.Shape{5, 0}, ""},
		{"0-d+[0]", expr.Scalar(1.0).Add(expr.Of(e0)), tensor.Shape{0}, ""},
		{"where", expr.Where(expr.Of(e05).Gt(expr.Of(row)), expr.Of(e05), expr.Scalar(0.0)), tensor.Shape{0, 5}, ""},
		{"slice to empty", expr.Of(row).Slice(0, 3, 3, 1).MulScalar(2), tensor.Shape{0}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.bug != "" {
				t.Skip(c.bug)
			}
			require.NoError(t, c.e.Err())
			require.Equal(t, c.shape, c.e.Shape())
			for _, x := range testExecutors {
				got := evalNoPanic(t, x.x, c.e)
				assert.Equal(t, c.shape, got.Shape())
				assert.Equal(t, 0, got.Numel())
			}
		})
	}
	t.Run("EvalTo an empty destination", func(t *testing.T) {
		dst := tensor.Must(tensor.New[float64](3, 0))
		require.NoError(t, exec.EvalTo(dst, expr.Of(e35).Add(expr.Of(col))))
	})
	t.Run("EvalTo an empty row", func(t *testing.T) {
		dst := tensor.Must(tensor.New[float64](0, 5))
		require.NoError(t, exec.EvalTo(dst, expr.Of(e05).Add(expr.Of(row))))
	})
	ci := evalWith(t, tiled, expr.Cast[int16](expr.Of(e05)))
	assert.Equal(t, tensor.Shape{0, 5}, ci.Shape())

	// (0,) does not broadcast with (2, 2).
	bad := expr.Of(e0).Add(expr.Of(fromValues(t, []float64{1, 2, 3, 4}, 2, 2)))
	var be *tensor.BroadcastError
	require.ErrorAs(t, bad.Err(), &be)
	assert.EqualError(t, bad.Err(), "The size of tensor a (0) must match the size of tensor b (2) at non-singleton dimension 1")
}

// TestLarge evaluates a*b+c on 1e6 elements with the default executor (the
// pool and the grain in play) against a plain loop, and checks that the
// fused graph allocates its output and nothing else large. The bound leaves
// 1 MiB for pooled scratch that a garbage collection during the runs may
// have dropped (sync.Pool is emptied by GC); one full-size temporary is 8 MB.
func TestLarge(t *testing.T) {
	const n = 1_000_000
	r := newRand(9)
	a, b, c := randomTensor[float64](t, r, n), randomTensor[float64](t, r, n), randomTensor[float64](t, r, n)
	e := expr.Of(a).Mul(expr.Of(b)).Add(expr.Of(c)).Mul(expr.Of(a).Sub(expr.Of(c)))
	av, bv, cv := a.Data(), b.Data(), c.Data()
	want := make([]float64, n)
	for i := range want {
		want[i] = float64(float64(av[i]*bv[i])+cv[i]) * (av[i] - cv[i]) // rounded as the kernels round: no FMA
	}
	got := evalWith(t, exec.Default, e)
	assertValues(t, want, got.Values(), "1e6 elements")

	const runs = 3
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	for range runs {
		_, err := exec.Eval(e)
		require.NoError(t, err)
	}
	runtime.ReadMemStats(&m1)
	bytes := int64(m1.TotalAlloc-m0.TotalAlloc) / runs
	assert.LessOrEqual(t, bytes, int64(8*n+1<<20), "bytes allocated per Eval of a fused 1e6-element graph (output: %d)", 8*n)

	// Reshaped and transposed views of the same storage, 2-D.
	m := tensor.Must(a.Reshape(1000, 1000))
	mt := tensor.Must(m.T())
	got2 := evalWith(t, exec.Default, expr.Of(m).Add(expr.Of(mt)))
	want2 := make([]float64, n)
	for i := 0; i < 1000; i++ {
		for j := 0; j < 1000; j++ {
			want2[i*1000+j] = av[i*1000+j] + av[j*1000+i]
		}
	}
	assertValues(t, want2, got2.Values(), "m + m.T")
}

// TestEvalN evaluates several roots that share subexpressions in one plan.
func TestEvalN(t *testing.T) {
	r := newRand(10)
	a, b := randomTensor[float64](t, r, 6, 7), randomTensor[float64](t, r, 6, 7)
	c := randomTensor[float64](t, r, 1, 7)
	s := expr.Of(a).Mul(expr.Of(b))
	outs, err := exec.EvalN(s.Add(expr.Of(c)), s.Sub(expr.Of(c)), s, s.Exp(), expr.Of(c).MulScalar(2))
	require.NoError(t, err)
	require.Len(t, outs, 5)
	av, bv, cv := a.Values(), b.Values(), broadcastValues(t, c, tensor.Shape{6, 7})
	want := make([][]float64, 4)
	for i := range av {
		p := av[i] * bv[i]
		want[0] = append(want[0], p+cv[i])
		want[1] = append(want[1], p-cv[i])
		want[2] = append(want[2], p)
		want[3] = append(want[3], math.Exp(p))
	}
	for i := range 3 {
		assertValues(t, want[i], outs[i].Values(), "output %d", i)
	}
	assertWith(t, withinULPs[float64](2), want[3], outs[3].Values(), "exp output (vmath's, within 2 ulp of math.Exp)")
	assertValues(t, []float64{2 * c.Data()[0], 2 * c.Data()[1], 2 * c.Data()[2], 2 * c.Data()[3], 2 * c.Data()[4], 2 * c.Data()[5], 2 * c.Data()[6]}, outs[4].Values(), "output of another shape")
	assert.Equal(t, tensor.Shape{1, 7}, outs[4].Shape())

	t.Run("same root twice", func(t *testing.T) {
		e := expr.Of(a).AddScalar(1)
		outs, err := exec.EvalN(e, e)
		require.NoError(t, err)
		assertValues(t, outs[0].Values(), outs[1].Values(), "e, e")
		assert.False(t, outs[0].SameStorage(outs[1]), "two results must not share storage")
	})
	t.Run("leaf root is copied", func(t *testing.T) {
		outs, err := exec.EvalN(expr.Of(a), expr.Of(a).Permute(1, 0))
		require.NoError(t, err)
		assertValues(t, a.Values(), outs[0].Values(), "a")
		assert.False(t, outs[0].SameStorage(a), "a leaf must be returned as a new tensor")
		assert.False(t, outs[1].SameStorage(a), "a view must be returned as a new tensor")
		assertValues(t, tensor.Must(a.T()).Values(), outs[1].Values(), "a.T")
	})
	t.Run("error root", func(t *testing.T) {
		bad := expr.Of(a).Add(expr.Of(randomTensor[float64](t, r, 7, 6)))
		_, err := exec.EvalN(s, bad)
		var be *tensor.BroadcastError
		require.ErrorAs(t, err, &be)
		assert.Same(t, bad.Err(), err)
	})
	t.Run("one fused kernel", func(t *testing.T) {
		p := planOf(t, s.Add(expr.Of(c)).Node(), s.Sub(expr.Of(c)).Node(), s.Exp().Node())
		require.Len(t, p.regions, 1, p.text)
		assert.Equal(t, 3, p.regions[0].outputs, p.text)
		assert.Equal(t, 4, p.regions[0].kernels, "the shared product is computed once:\n%s", p.text)
	})
}

// TestPlaceholders binds tensors to placeholders at evaluation.
func TestPlaceholders(t *testing.T) {
	p := expr.Placeholder[float64]("x", 2, 3)
	q := expr.Placeholder[float64]("y", 3)
	e := p.MulScalar(2).Add(q)
	require.NoError(t, e.Err())
	require.Equal(t, tensor.Shape{2, 3}, e.Shape())

	x1 := fromValues(t, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	y1 := fromValues(t, []float64{10, 20, 30}, 3)
	got, err := exec.Eval(e, exec.Bind(p, x1), exec.Bind(q, y1))
	require.NoError(t, err)
	assert.Equal(t, []float64{12, 24, 36, 18, 30, 42}, got.Values())

	// Rebinding: the same graph on other data, a transposed view included.
	x2 := tensor.Must(fromValues(t, []float64{1, 2, 3, 4, 5, 6}, 3, 2).T())
	got, err = exec.EvalWith(tiled, e, exec.Bind(p, x2), exec.Bind(q, y1))
	require.NoError(t, err)
	assert.Equal(t, []float64{12, 26, 40, 14, 28, 42}, got.Values())

	t.Run("unbound", func(t *testing.T) {
		_, err := exec.Eval(e, exec.Bind(p, x1))
		var be *exec.BindError
		require.ErrorAs(t, err, &be)
		assert.Equal(t, "y", be.Name)
		assert.Contains(t, err.Error(), `"y"`)
	})
	t.Run("wrong shape", func(t *testing.T) {
		_, err := exec.Eval(e, exec.Bind(p, x1), exec.Bind(q, fromValues(t, []float64{1, 2}, 2)))
		var be *exec.BindError
		require.ErrorAs(t, err, &be)
		assert.Equal(t, "y", be.Name)
		assert.Contains(t, err.Error(), "[2]")
		_, err = exec.Eval(e, exec.Bind(p, tensor.Must(x1.T())), exec.Bind(q, y1))
		require.ErrorAs(t, err, &be)
		assert.Equal(t, "x", be.Name)
	})
	t.Run("shared placeholder", func(t *testing.T) {
		got, err := exec.Eval(p.Mul(p).Sub(p), exec.Bind(p, x1))
		require.NoError(t, err)
		assert.Equal(t, []float64{0, 2, 6, 12, 20, 30}, got.Values())
	})
	t.Run("placeholder in EvalTo", func(t *testing.T) {
		dst := tensor.Must(tensor.New[float64](2, 3))
		require.NoError(t, exec.EvalTo(dst, e, exec.Bind(p, x1), exec.Bind(q, y1)))
		assert.Equal(t, []float64{12, 24, 36, 18, 30, 42}, dst.Values())
	})
}
