package exec_test

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// w3Kernel is what cmd/tpkernel writes for (a*b+c)*(a-b)/(c+s0).
func w3Kernel[T dtype.Float](name string) exec.CompiledKernel[T] {
	return exec.CompiledKernel[T]{
		Name: name, Inputs: 3, Scalars: 1,
		Expr: func(in, s []expr.Expr[T]) expr.Expr[T] {
			a, b, c := in[0], in[1], in[2]
			return a.Mul(b).Add(c).Mul(a.Sub(b)).Div(c.Add(s[0]))
		},
		Loop: func(d []T, in [][]T, s []T) {
			a, b, c := in[0][:len(d)], in[1][:len(d)], in[2][:len(d)]
			s0 := s[0]
			for i := range d {
				d[i] = T(T(T(T(a[i]*b[i])+c[i])*T(a[i]-b[i])) / T(c[i]+s0))
			}
		},
	}
}

func TestKernelMatchesAndAgrees(t *testing.T) {
	t.Cleanup(func() { exec.UnregisterCompiled("w3-test") })
	require.NoError(t, exec.RegisterCompiled(w3Kernel[float64]("w3-test")))
	require.NoError(t, exec.RegisterCompiled(w3Kernel[float32]("w3-test")))
	t.Run("float64", func(t *testing.T) { testKernel[float64](t) })
	t.Run("float32", func(t *testing.T) { testKernel[float32](t) })
}

func testKernel[T dtype.Float](t *testing.T) {
	r := newRand(41)
	const R, C = 37, 129
	a, b, c := randomTensor[T](t, r, R, C), randomTensor[T](t, r, R, C), randomTensor[T](t, r, R, C)
	row := randomTensor[T](t, r, 1, C)
	bt := tensor.Must(randomTensor[T](t, r, C, R).T())
	w3 := func(a, b, c expr.Expr[T], s T) expr.Expr[T] {
		return a.Mul(b).Add(c).Mul(a.Sub(b)).Div(c.AddScalar(s))
	}
	var plan bytes.Buffer
	// A new executor per graph, so that each plan is built (and printed).
	compiledX := func() *exec.Executor {
		return exec.New(exec.Workers(2), exec.Grain(1), exec.BlockSize(64), exec.Debug(&plan))
	}
	var interpPlan bytes.Buffer
	interp := exec.New(exec.Workers(2), exec.Grain(1), exec.BlockSize(64), exec.UseCompiledKernels(false), exec.Debug(&interpPlan))
	// Long rows next to a column [R,1]: the column is constant within each
	// block (a scalar slot) and is expanded for the kernel's input.
	long, long2, col := randomTensor[T](t, r, 5, 3000), randomTensor[T](t, r, 5, 3000), randomTensor[T](t, r, 5, 1)
	zeroD := randomTensor[T](t, r)

	// The kernel is used for the same graph over any operands and scalar;
	// graphs that differ in any way are interpreted.
	cases := []struct {
		name   string
		e      expr.Expr[T]
		kernel bool
	}{
		{"contiguous", w3(expr.Of(a), expr.Of(b), expr.Of(c), 1.5), true},
		{"another scalar", w3(expr.Of(a), expr.Of(b), expr.Of(c), -7), true},
		{"broadcast row", w3(expr.Of(a), expr.Of(row), expr.Of(c), 2), true},
		{"transposed", w3(expr.Of(a), expr.Of(bt), expr.Of(c), 2), true},
		{"a column beside long rows", w3(expr.Of(long), expr.Of(col), expr.Of(long2), 2), true},
		{"a 0-d tensor for c", w3(expr.Of(a), expr.Of(b), expr.Of(zeroD), 1.5), false},
		{"sub for add", expr.Of(a).Mul(expr.Of(b)).Sub(expr.Of(c)).Mul(expr.Of(a).Sub(expr.Of(b))).Div(expr.Of(c).AddScalar(1.5)), false},
		{"scalar for c", w3(expr.Of(a), expr.Of(b), expr.Scalar[T](3), 1.5), false},
		{"swapped div", expr.Of(c).AddScalar(1.5).Div(expr.Of(a).Mul(expr.Of(b)).Add(expr.Of(c)).Mul(expr.Of(a).Sub(expr.Of(b)))), false},
		{"more ops", w3(expr.Of(a), expr.Of(b), expr.Of(c), 1.5).Add(expr.Of(a).Mul(expr.Of(b))), false},
		// One tensor in two of the kernel's places is one operand here.
		{"one tensor thrice", w3(expr.Of(a), expr.Of(a), expr.Of(a), 2), false},
	}
	for _, c := range cases {
		plan.Reset()
		want := evalWith(t, interp, c.e)
		got := evalWith(t, compiledX(), c.e)
		assertBits(t, want.Values(), got.Values(), "%s: against the interpreter", c.name)
		assert.Equal(t, c.kernel, strings.Contains(plan.String(), "compiled w3-test"), "%s: kernel used", c.name)
	}
	assert.Contains(t, interpPlan.String(), "fused", "the interpreting executor printed its plans")
	assert.NotContains(t, interpPlan.String(), "compiled", "UseCompiledKernels(false) interprets every region")

	// In place: dst is an input of the kernel.
	dst := a.Clone()
	want := evalWith(t, interp, w3(expr.Of(a), expr.Of(b), expr.Of(c), 1.5))
	require.NoError(t, exec.EvalToWith(compiledX(), dst, w3(expr.Of(dst), expr.Of(b), expr.Of(c), 1.5)))
	assertBits(t, want.Values(), dst.Values(), "in place")
}

// named is a float64 under another name, which kernels refuse.
type named float64

func TestRegisterCompiledErrors(t *testing.T) {
	t.Cleanup(func() { exec.UnregisterCompiled("bad") })
	good := w3Kernel[float64]("bad")
	type ex = expr.Expr[float64]
	withExpr := func(f func(in, s []ex) ex) func(k *exec.CompiledKernel[float64]) {
		return func(k *exec.CompiledKernel[float64]) { k.Expr = f }
	}
	cases := []struct {
		name string
		mod  func(k *exec.CompiledKernel[float64])
		want string
	}{
		{"no loop", func(k *exec.CompiledKernel[float64]) { k.Loop = nil }, "Expr and Loop are required"},
		{"no inputs", func(k *exec.CompiledKernel[float64]) { k.Inputs = 0 }, "0 inputs: at least one is required"},
		{"negative scalars", func(k *exec.CompiledKernel[float64]) { k.Scalars = -1 }, "-1 scalars"},
		{"unused input", func(k *exec.CompiledKernel[float64]) { k.Inputs = 4 }, "does not use all 4 inputs and 1 scalars"},
		{"unused scalar", func(k *exec.CompiledKernel[float64]) { k.Scalars = 2 }, "does not use all 3 inputs and 2 scalars"},
		{"more inputs than it says", func(k *exec.CompiledKernel[float64]) { k.Inputs = 2 }, "Expr: panic: runtime error: index out of range [2]"},
		{"a reduction", withExpr(func(in, s []ex) ex { return in[0].Add(in[1]).Add(in[2]).Sum().Add(s[0]) }), "not one elementwise region"},
		{"a shape error", withExpr(func(in, s []ex) ex { return in[0].Reshape(3) }), "shape"},
		{"a foreign tensor", withExpr(func(in, s []ex) ex { return good.Expr(in, s).Add(expr.Of(tensor.Must(tensor.Ones[float64](2)))) }), "neither one of its inputs nor one of its scalars"},
		// A constant of Expr's own would match any value in its place.
		{"its own constant", withExpr(func(in, s []ex) ex { return good.Expr(in, s).AddScalar(1) }), "neither one of its inputs nor one of its scalars"},
		{"a constant of another dtype", withExpr(func(in, s []ex) ex {
			return good.Expr(in, s).Mul(expr.Cast[float64](expr.Scalar[float32](1)))
		}), "neither one of its inputs nor one of its scalars"},
		{"exp", withExpr(func(in, s []ex) ex { return good.Expr(in, s).Exp() }), "exp uses the executor's own block kernel"},
		{"sigmoid", withExpr(func(in, s []ex) ex { return good.Expr(in, s).Sigmoid() }), "sigmoid uses the executor's own block kernel"},
	}
	for _, c := range cases {
		k := good
		c.mod(&k)
		err := exec.RegisterCompiled(k)
		if assert.Error(t, err, c.name) {
			assert.Contains(t, err.Error(), c.want, c.name)
		}
	}

	one := exec.CompiledKernel[float64]{Name: "bad", Inputs: 2,
		Expr: func(in, s []ex) ex { return in[0].Add(in[1]) },
		Loop: func(d []float64, in [][]float64, s []float64) {}}
	assert.ErrorContains(t, exec.RegisterCompiled(one), "has 1 op; a kernel needs two or more")

	n := exec.CompiledKernel[named]{Name: "bad", Inputs: 1,
		Expr: func(in, s []expr.Expr[named]) expr.Expr[named] { return in[0].Add(in[0]).Neg() },
		Loop: func(d []named, in [][]named, s []named) {}}
	assert.ErrorContains(t, exec.RegisterCompiled(n), "must be float32 or float64")

	bad := good
	bad.Inputs = 0
	assert.PanicsWithError(t, `exec: kernel "bad": 0 inputs: at least one is required`, func() { exec.MustRegisterCompiled(bad) })

	// A reviewer's reproducer: a*b+1 with its constant baked into the loop
	// must be refused; had it registered, a*b+100 would have used it.
	plusOne := exec.CompiledKernel[float64]{Name: "bad", Inputs: 2,
		Expr: func(in, s []ex) ex { return in[0].Mul(in[1]).AddScalar(1) },
		Loop: func(d []float64, in [][]float64, s []float64) {
			for i := range d {
				d[i] = float64(in[0][i]*in[1][i]) + 1
			}
		}}
	require.Error(t, exec.RegisterCompiled(plusOne))
	a, b := randomTensor[float64](t, newRand(5), 4), randomTensor[float64](t, newRand(6), 4)
	got := evalWith(t, exec.Default, expr.Of(a).Mul(expr.Of(b)).AddScalar(100))
	want := make([]float64, 4)
	for i := range want {
		want[i] = a.Data()[i]*b.Data()[i] + 100
	}
	assertValues(t, want, got.Values(), "a*b+100")
}

// TestDebugSuggestsKernel checks the cmd/tpkernel expression a debug plan
// prints for regions of three or more interpreted loops. It runs without
// the AVX2 loops, so that every machine prints them (see
// TestDebugHintSkipsAVX2Regions).
func TestDebugSuggestsKernel(t *testing.T) {
	saved := simd.Enabled
	t.Cleanup(func() { simd.Enabled = saved })
	simd.Enabled = false
	r := newRand(43)
	a, b, c := randomTensor[float64](t, r, 8), randomTensor[float64](t, r, 8), randomTensor[float64](t, r, 8)
	x, y, z := expr.Of(a), expr.Of(b), expr.Of(c)
	i := expr.Of(randomTensor[int32](t, r, 8))
	cases := []struct {
		name string
		e    expr.Expr[float64]
		want string // "" for no suggestion
	}{
		{"W3", x.Mul(y).Add(z).Mul(x.Sub(y)).Div(z.AddScalar(-1.5)), "'NAME=((((a*b)+c)*(a-b))/(c+(-1.5)))'"},
		{"functions", z.Abs().Sqrt().Mul(y.Tan()).Add(x.Neg()).Sub(x.Log1p()), "'NAME=(((sqrt(abs(a))*tan(b))+-(c))-log1p(c))'"},
		{"a vector-math function", z.Abs().Sqrt().Mul(y.Sin()).Add(x.Neg()).Sub(x.Log()), ""},
		{"two loops", x.Mul(y).Add(z).Sqrt(), ""},
		{"minus zero", x.Mul(y).Add(z).Mul(x.Sub(y)).Div(z.AddScalar(math.Copysign(0, -1))), "'NAME=((((a*b)+c)*(a-b))/(c+(-0)))'"},
		{"double negation", x.Neg().Neg().Mul(y).Add(z).Sqrt(), "'NAME=sqrt(((-(-(a))*b)+c))'"},
		{"infinity", x.Mul(y).Add(z).Mul(x.Sub(y)).Div(z.AddScalar(math.Inf(1))), ""},
		{"exp", x.Exp().Mul(y).Add(z).Mul(x), ""},
		{"a cast", expr.Cast[float64](i).Mul(y).Add(z).Mul(x.Sub(y)).Div(z), ""},
	}
	for _, c := range cases {
		var plan bytes.Buffer
		_, err := exec.EvalWith(exec.New(exec.Debug(&plan)), c.e)
		require.NoError(t, err, c.name)
		if c.want == "" {
			assert.NotContains(t, plan.String(), "cmd/tpkernel", c.name)
			continue
		}
		assert.Contains(t, plan.String(), "compile them into one: go run github.com/tensorplay/tensorplay/cmd/tpkernel "+c.want, c.name)
	}
}

// TestDebugHintSkipsAVX2Regions: a region whose loops are all AVX2 loops
// gets no suggestion (compiled into one scalar loop it would be no
// faster); one with a loop the AVX2 set lacks (sin, log) still does.
func TestDebugHintSkipsAVX2Regions(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no AVX2 loops on this machine")
	}
	r := newRand(44)
	x, y, z := expr.Of(randomTensor[float64](t, r, 8)), expr.Of(randomTensor[float64](t, r, 8)), expr.Of(randomTensor[float64](t, r, 8))
	for _, c := range []struct {
		name string
		e    expr.Expr[float64]
		hint bool
	}{
		{"W3", x.Mul(y).Add(z).Mul(x.Sub(y)).Div(z.AddScalar(1.5)), false},
		{"abs, sqrt, neg", z.Abs().Sqrt().Mul(y).Add(x.Neg()).Square(), false},
		{"with tan and log1p", z.Abs().Sqrt().Mul(y.Tan()).Add(x.Neg()).Sub(x.Log1p()), true},
		{"with sin and log, which tpkernel leaves to the vector kernels", z.Abs().Sqrt().Mul(y.Sin()).Add(x.Neg()).Sub(x.Log()), false},
	} {
		var plan bytes.Buffer
		_, err := exec.EvalWith(exec.New(exec.Debug(&plan)), c.e)
		require.NoError(t, err, c.name)
		assert.Equal(t, c.hint, strings.Contains(plan.String(), "cmd/tpkernel"), "%s:\n%s", c.name, plan.String())
	}
}

func TestExecutorWith(t *testing.T) {
	var plan bytes.Buffer
	x := exec.New(exec.Workers(3), exec.Debug(&plan))
	y := x.With(exec.UseCompiledKernels(false))
	assert.Equal(t, 3, y.Workers(), "workers carried over")
	_, err := exec.EvalWith(y, expr.Of(randomTensor[float64](t, newRand(1), 5)).AddScalar(1))
	require.NoError(t, err)
	assert.Contains(t, plan.String(), "exec plan", "the Debug writer carried over")
	z := x.With(exec.Workers(1))
	assert.Equal(t, 1, z.Workers(), "options apply on top")
	assert.Equal(t, 3, x.Workers(), "x is unchanged")
}
