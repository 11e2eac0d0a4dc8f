package exec_test

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestSIMDMatchesGoLoops evaluates every form the executor hands to the
// AVX2 loops (the four ops with vector and scalar operands, each fused pair
// with either side and a scalar inner operand, the unary ops), over
// broadcast, transposed and 0-d operands, into new, transposed and in-place
// destinations, in blocks of several sizes and with several workers, with
// the loops and without them, and requires the same bits. (The Go loops are
// checked against reference loops by the other tests.)
func TestSIMDMatchesGoLoops(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no AVX2 loops on this machine")
	}
	t.Run("float64", testSIMDMatchesGoLoops[float64])
	t.Run("float32", testSIMDMatchesGoLoops[float32])
}

// withSubnormals returns a random R×C tensor with some subnormal values.
func withSubnormals[T dtype.Float](t *testing.T, seed uint64, R, C int) *tensor.Tensor[T] {
	x := randomTensor[T](t, newRand(seed), R, C)
	tiny := T(math.SmallestNonzeroFloat32)
	if dtype.Of[T]() == dtype.Float64 {
		tiny = T(math.SmallestNonzeroFloat64)
	}
	d := x.Data()
	for i := 0; i < len(d); i += 7 {
		d[i] = tiny * T(i%5-2)
	}
	return x
}

func testSIMDMatchesGoLoops[T dtype.Float](t *testing.T) {
	const R, C = 37, 41 // rows that end in every loop's tail
	aData := withSubnormals[T](t, 1, R, C)
	b, c := expr.Of(withSubnormals[T](t, 2, R, C)), expr.Of(withSubnormals[T](t, 3, R, C))
	operands := map[string]expr.Expr[T]{
		"row":        expr.Of(withSubnormals[T](t, 4, 1, C)),
		"column":     expr.Of(withSubnormals[T](t, 5, R, 1)),
		"transposed": expr.Of(tensor.Must(withSubnormals[T](t, 6, C, R).T())),
		"0-d":        expr.Of(tensor.Must(tensor.Full(T(0.75)))),
		"scalar":     expr.Scalar(T(1.75)),
	}
	ops := map[string]func(x, y expr.Expr[T]) expr.Expr[T]{
		"add": expr.Expr[T].Add, "sub": expr.Expr[T].Sub, "mul": expr.Expr[T].Mul, "div": expr.Expr[T].Div,
	}
	// Each case builds its expression from a, so that it can also be
	// evaluated in place into a copy of a.
	type build = func(a expr.Expr[T]) expr.Expr[T]
	cases := map[string]build{
		"neg": expr.Expr[T].Neg, "abs": expr.Expr[T].Abs, "sqrt": expr.Expr[T].Sqrt, "square": expr.Expr[T].Square,
		"W3": func(a expr.Expr[T]) expr.Expr[T] { return a.Mul(b).Add(c).Mul(a.Sub(b)).Div(c.AddScalar(1.5)) },
	}
	for name, op := range ops {
		cases[name] = func(a expr.Expr[T]) expr.Expr[T] { return op(a, b) }
		for oName, o := range operands {
			cases[name+" "+oName+" right"] = func(a expr.Expr[T]) expr.Expr[T] { return op(a, o) }
			cases[name+" "+oName+" left"] = func(a expr.Expr[T]) expr.Expr[T] { return op(o, a) }
		}
		for inName, inner := range ops {
			if inName == "div" {
				continue // never an inner op
			}
			s, tr := operands["scalar"], operands["transposed"]
			cases[name+"∘"+inName+" left"] = func(a expr.Expr[T]) expr.Expr[T] { return op(inner(a, b), c) }
			cases[name+"∘"+inName+" right"] = func(a expr.Expr[T]) expr.Expr[T] { return op(c, inner(a, b)) }
			cases[name+"∘"+inName+" scalar left"] = func(a expr.Expr[T]) expr.Expr[T] { return op(inner(a, s), c) }
			cases[name+"∘"+inName+" scalar right"] = func(a expr.Expr[T]) expr.Expr[T] { return op(c, inner(a, s)) }
			cases[name+"∘"+inName+" transposed"] = func(a expr.Expr[T]) expr.Expr[T] { return op(inner(tr, a), c) }
		}
	}
	executors := []func() *exec.Executor{
		func() *exec.Executor { return exec.New() },
		func() *exec.Executor { return exec.New(exec.BlockSize(16), exec.Workers(3), exec.Grain(1)) },
		func() *exec.Executor { return exec.New(exec.BlockSize(130), exec.Workers(2), exec.Grain(1)) },
	}
	// into evaluates the case into a new tensor, into a transposed view, and
	// in place into a copy of a, returning the three results.
	into := func(x *exec.Executor, name string, f build) [][]T {
		fresh, err := exec.EvalWith(x, f(expr.Of(aData)))
		require.NoError(t, err, name)
		store := tensor.Must(tensor.New[T](C, R))
		require.NoError(t, exec.EvalToWith(x, tensor.Must(store.T()), f(expr.Of(aData))), name)
		own := aData.Clone()
		require.NoError(t, exec.EvalToWith(x, own, f(expr.Of(own))), name)
		return [][]T{fresh.Values(), tensor.Must(store.T()).Values(), own.Values()}
	}
	eval := func(useSIMD bool, newExec func() *exec.Executor, name string, f build) [][]T {
		saved := simd.Enabled
		defer func() { simd.Enabled = saved }()
		simd.Enabled = useSIMD
		x := newExec() // a fresh executor looks its kernels up again
		defer x.Close()
		return into(x, name, f)
	}
	for name, f := range cases {
		for k, newExec := range executors {
			want, got := eval(false, newExec, name, f), eval(true, newExec, name, f)
			for dst := range want {
				what := fmt.Sprintf("%s, executor %d, destination %d", name, k, dst)
				require.Len(t, got[dst], len(want[dst]), what)
				for i := range want[dst] {
					if !sameValue(want[dst][i], got[dst][i]) {
						t.Fatalf("%s: element %d: %v with the AVX2 loops, %v without", what, i, got[dst][i], want[dst][i])
					}
				}
			}
		}
	}
}

// TestSIMDToggleKeepsCachedPlans: a plan made with the AVX2 loops fuses a
// float64 division; with the loops turned off and the region's pooled
// states gone, the cached plan still runs, with Go kernels.
func TestSIMDToggleKeepsCachedPlans(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no AVX2 loops on this machine")
	}
	saved := simd.Enabled
	t.Cleanup(func() { simd.Enabled = saved })
	a := expr.Of(tensor.Must(tensor.Arange[float64](1, 101, 1)))
	e := a.Mul(a).Div(a.AddScalar(1))
	x := exec.New(exec.Workers(1))
	defer x.Close()
	want, err := exec.EvalWith(x, e)
	require.NoError(t, err)
	simd.Enabled = false
	runtime.GC()
	runtime.GC() // empties the region's state pool
	got, err := exec.EvalWith(x, e)
	require.NoError(t, err)
	require.Equal(t, want.Values(), got.Values())
}
