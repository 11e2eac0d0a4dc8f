package exec_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
)

// TestSIMDMatchesGoLoops evaluates every form the executor hands to the
// AVX2 loops (the four ops with vector and scalar operands, each fused pair
// with either side and a scalar inner operand, the unary ops) with the loops
// and without them, and requires the same bits.
func TestSIMDMatchesGoLoops(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no AVX2 loops on this machine")
	}
	t.Run("float64", testSIMDMatchesGoLoops[float64])
	t.Run("float32", testSIMDMatchesGoLoops[float32])
}

func testSIMDMatchesGoLoops[T dtype.Float](t *testing.T) {
	r := newRand(11)
	const R, C = 37, 41 // rows that end in every loop's tail
	a, b, c := expr.Of(randomTensor[T](t, r, R, C)), expr.Of(randomTensor[T](t, r, R, C)), expr.Of(randomTensor[T](t, r, R, C))
	row := expr.Of(randomTensor[T](t, r, 1, C))
	s := expr.Scalar(T(1.75))
	ops := map[string]func(x, y expr.Expr[T]) expr.Expr[T]{
		"add": expr.Expr[T].Add, "sub": expr.Expr[T].Sub, "mul": expr.Expr[T].Mul, "div": expr.Expr[T].Div,
	}
	cases := map[string]expr.Expr[T]{
		"neg": a.Neg(), "abs": a.Abs(), "sqrt": a.Sqrt(), "square": a.Square(),
		"W3": a.Mul(b).Add(c).Mul(a.Sub(b)).Div(c.AddScalar(1.5)),
	}
	for name, op := range ops {
		cases[name+" vv"] = op(a, b)
		cases[name+" vs"] = op(a, s)
		cases[name+" sv"] = op(s, b)
		cases[name+" row"] = op(a, row)
		for inName, inner := range ops {
			if inName == "div" {
				continue // never an inner op
			}
			cases[name+"∘"+inName+" left"] = op(inner(a, b), c)
			cases[name+"∘"+inName+" right"] = op(c, inner(a, b))
			cases[name+"∘"+inName+" scalar left"] = op(inner(a, s), c)
			cases[name+"∘"+inName+" scalar right"] = op(c, inner(a, s))
		}
	}
	eval := func(e expr.Expr[T], useSIMD bool) []T {
		saved := simd.Enabled
		defer func() { simd.Enabled = saved }()
		simd.Enabled = useSIMD
		x := exec.New() // a fresh executor looks its kernels up again
		defer x.Close()
		out, err := exec.EvalWith(x, e)
		require.NoError(t, err)
		return out.Values()
	}
	for name, e := range cases {
		want, got := eval(e, false), eval(e, true)
		require.Len(t, got, len(want), name)
		for i := range want {
			if !sameValue(want[i], got[i]) {
				t.Fatalf("%s: element %d: %v with the AVX2 loops, %v without", name, i, got[i], want[i])
			}
		}
	}
}
