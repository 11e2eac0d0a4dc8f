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
// AVX2 loops (the four ops with vector and scalar operands on either side,
// each fused pair with either side and a scalar inner operand, the unary
// ops; for the integer types add, sub and mul), over broadcast, transposed
// and 0-d operands, into new, transposed and in-place destinations, in
// blocks of several sizes and with several workers, with the loops and
// without them, and requires the same bits. (The Go loops are checked
// against reference loops by the other tests.) The unsigned types and the
// scalar-first and right-hand forms of add and mul run other forms' loops
// (see internal/simd), which this covers too.
func TestSIMDMatchesGoLoops(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no AVX2 loops on this machine")
	}
	t.Run("float64", testSIMDMatchesGoLoops[float64])
	t.Run("float32", testSIMDMatchesGoLoops[float32])
	t.Run("int64", testSIMDIntMatchesGoLoops[int64])
	t.Run("uint64", testSIMDIntMatchesGoLoops[uint64])
	t.Run("int32", testSIMDIntMatchesGoLoops[int32])
	t.Run("uint32", testSIMDIntMatchesGoLoops[uint32])
	t.Run("int16", testSIMDIntMatchesGoLoops[int16])
	t.Run("uint16", testSIMDIntMatchesGoLoops[uint16])
	t.Run("int8", testSIMDIntMatchesGoLoops[int8])
	t.Run("uint8", testSIMDIntMatchesGoLoops[uint8])
}

// simdR and simdC are the cases' shape: rows that end in every loop's tail.
const simdR, simdC = 37, 41

// simdCase builds an expression from a, so that it can also be evaluated
// in place into a copy of a.
type simdCase[T dtype.Elem] = func(a expr.Expr[T]) expr.Expr[T]

// binaryForms adds to cases each op of ops with b, and with each of
// operands on either side.
func binaryForms[T dtype.Elem](cases map[string]simdCase[T], ops map[string]func(x, y expr.Expr[T]) expr.Expr[T], b expr.Expr[T], operands map[string]expr.Expr[T]) {
	for name, op := range ops {
		cases[name] = func(a expr.Expr[T]) expr.Expr[T] { return op(a, b) }
		cases[name+" reversed"] = func(a expr.Expr[T]) expr.Expr[T] { return op(b, a) }
		for oName, o := range operands {
			cases[name+" "+oName+" right"] = func(a expr.Expr[T]) expr.Expr[T] { return op(a, o) }
			cases[name+" "+oName+" left"] = func(a expr.Expr[T]) expr.Expr[T] { return op(o, a) }
		}
	}
}

// testSIMDIntMatchesGoLoops is TestSIMDMatchesGoLoops for an integer type:
// add and sub (AVX2 loops for every type) and mul (for the 16- and 32-bit
// ones), with values that wrap around; integer pairs fuse into Go loops.
func testSIMDIntMatchesGoLoops[T dtype.Integer](t *testing.T) {
	r := newRand(7)
	aData := randomTensor[T](t, r, simdR, simdC)
	b, c := expr.Of(randomTensor[T](t, r, simdR, simdC)), expr.Of(randomTensor[T](t, r, simdR, simdC))
	operands := map[string]expr.Expr[T]{
		"row":        expr.Of(randomTensor[T](t, r, 1, simdC)),
		"column":     expr.Of(randomTensor[T](t, r, simdR, 1)),
		"transposed": expr.Of(tensor.Must(randomTensor[T](t, r, simdC, simdR).T())),
		"0-d":        expr.Of(tensor.Must(tensor.Full(T(0x75)))),
		"scalar":     expr.Scalar(^T(0) - 2), // -3, or the largest unsigned value but 2
	}
	ops := map[string]func(x, y expr.Expr[T]) expr.Expr[T]{
		"add": expr.Expr[T].Add, "sub": expr.Expr[T].Sub, "mul": expr.Expr[T].Mul,
	}
	cases := map[string]simdCase[T]{
		"a*b+c": func(a expr.Expr[T]) expr.Expr[T] { return a.Mul(b).Add(c) },
		"c-a*b": func(a expr.Expr[T]) expr.Expr[T] { return c.Sub(a.Mul(b)) },
	}
	binaryForms(cases, ops, b, operands)
	matchGoLoops(t, aData, cases)
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
	const R, C = simdR, simdC
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
	cases := map[string]simdCase[T]{
		"neg": expr.Expr[T].Neg, "abs": expr.Expr[T].Abs, "sqrt": expr.Expr[T].Sqrt, "square": expr.Expr[T].Square,
		"W3": func(a expr.Expr[T]) expr.Expr[T] { return a.Mul(b).Add(c).Mul(a.Sub(b)).Div(c.AddScalar(1.5)) },
	}
	binaryForms(cases, ops, b, operands)
	for name, op := range ops {
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
	matchGoLoops(t, aData, cases)
}

// matchGoLoops evaluates each case with and without the AVX2 loops, by
// several executors, into a new tensor, into a transposed view and in
// place into a copy of aData, and requires the same bits.
func matchGoLoops[T dtype.Elem](t *testing.T, aData *tensor.Tensor[T], cases map[string]simdCase[T]) {
	R, C := aData.Shape()[0], aData.Shape()[1]
	type build = simdCase[T]
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
