package exec_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestIntegerPowNegativeExponent checks that an integer pow whose tensor
// exponent holds a negative value is refused when evaluated, as NumPy
// refuses it ("Integers to negative integer powers are not allowed."; it
// returned 0), with the *expr.IntegerPowerError expr gives a negative
// scalar exponent, and that nothing is written: Eval returns no tensor,
// EvalTo, PowTo and Run leave every destination as it was, whether the
// exponent is a vector, a 0-d tensor, a computed value or read inside a
// reduction, and whether the negative value is in the first block or the
// last of a parallel run.
func TestIntegerPowNegativeExponent(t *testing.T) {
	negPowCases[int8](t)
	negPowCases[int16](t)
	negPowCases[int32](t)
	negPowCases[int64](t)
}

func negPowCases[T int8 | int16 | int32 | int64](t *testing.T) {
	dt := dtype.Of[T]()
	const n = 3000 // several tasks of tiled blocks
	text := "expr: pow of " + dt.String() + ": Integers to negative integer powers are not allowed."
	ramp := func(neg int) *tensor.Tensor[T] { // 0, 1, 2, 0, … with -1 at neg
		v := make([]T, n)
		for i := range v {
			v[i] = T(i % 3)
		}
		if neg >= 0 {
			v[neg] = -1
		}
		return tensor.Must(tensor.FromSlice(v, n))
	}
	minusOne := tensor.Must(tensor.Full(T(-1)))
	cases := []struct {
		name string
		exp  func(x expr.Expr[T]) expr.Expr[T] // the exponent, given the base
	}{
		{"first element", func(expr.Expr[T]) expr.Expr[T] { return expr.Of(ramp(0)) }},
		{"last element", func(expr.Expr[T]) expr.Expr[T] { return expr.Of(ramp(n - 1)) }},
		{"0-d tensor", func(expr.Expr[T]) expr.Expr[T] { return expr.Of(minusOne) }},
		{"computed", func(x expr.Expr[T]) expr.Expr[T] { return x.Sub(expr.Of(ramp(-1))).SubScalar(1) }},
	}
	for _, c := range cases {
		for _, ex := range []struct {
			name string
			x    *exec.Executor
		}{{"serial", serial}, {"tiled", tiled}, {"wide", wide}} {
			t.Run(dt.String()+"/"+c.name+"/"+ex.name, func(t *testing.T) {
				check := func(t *testing.T, err error) {
					t.Helper()
					var pe *expr.IntegerPowerError
					require.ErrorAs(t, err, &pe)
					assert.Equal(t, dt, pe.DType)
					assert.Equal(t, text, err.Error())
				}
				base := ramp(-1)
				before := base.Clone().Values()
				x := expr.Of(base)
				e := x.Pow(c.exp(x))
				require.NoError(t, e.Err(), "a tensor exponent is checked when evaluated")

				out, err := exec.EvalWith(ex.x, e)
				check(t, err)
				assert.Nil(t, out)
				s, err := exec.EvalWith(ex.x, e.Sum())
				check(t, err)
				assert.Nil(t, s)

				dst := tensor.Must(tensor.Full(T(7), n))
				check(t, exec.EvalToWith(ex.x, dst, e))
				assert.Equal(t, tensor.Must(tensor.Full(T(7), n)).Values(), dst.Values(), "EvalTo wrote nothing")
				check(t, exec.EvalToWith(ex.x, base, e))
				assert.Equal(t, before, base.Values(), "EvalTo into the base wrote nothing")

				sum := tensor.Must(tensor.Full(T(7)))
				other := tensor.Must(tensor.Full(T(7), n))
				_, err = ex.x.Run([]*expr.Node{x.AddScalar(1).Node(), e.Sum().Node(), e.Node()}, []tensor.Any{other, sum, nil})
				check(t, err)
				assert.Equal(t, T(7), sum.Values()[0], "Run wrote no destination")
				assert.Equal(t, T(7), other.Values()[n-1], "Run wrote no destination")
			})
		}
	}
	t.Run(dt.String()+"/PowTo", func(t *testing.T) {
		x := ramp(-1)
		before := x.Clone().Values()
		err := exec.PowTo(x, ramp(n-1))
		var pe *expr.IntegerPowerError
		require.ErrorAs(t, err, &pe)
		assert.Equal(t, text, err.Error())
		assert.Equal(t, before, x.Values(), "PowTo wrote nothing")
	})
}

// TestIntegerPowStaged checks the results of integer pows that do not
// fail, now that their destinations are written through a copy: in place,
// into another tensor, and unsigned (never refused).
func TestIntegerPowStaged(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]int32{2, 3, -2, 5}, 4))
	y := tensor.Must(tensor.FromSlice([]int32{3, 0, 3, 1}, 4))
	for _, ex := range testExecutors {
		t.Run(ex.name, func(t *testing.T) {
			a := x.Clone()
			require.NoError(t, exec.EvalToWith(ex.x, a, expr.Of(a).Pow(expr.Of(y))))
			assert.Equal(t, []int32{8, 1, -8, 5}, a.Values())
			d := tensor.Must(tensor.New[int32](4))
			require.NoError(t, exec.EvalToWith(ex.x, d, expr.Of(x).Pow(expr.Of(y)).AddScalar(1)))
			assert.Equal(t, []int32{9, 2, -7, 6}, d.Values())
			u := tensor.Must(tensor.FromSlice([]uint8{2, 3, 255}, 3))
			require.NoError(t, exec.PowTo(u, tensor.Must(tensor.FromSlice([]uint8{7, 5, 2}, 3))))
			assert.Equal(t, []uint8{128, 243, 1}, u.Values())
			m := tensor.Must(tensor.FromSlice([]int64{math.MaxInt64}, 1))
			require.NoError(t, exec.PowTo(m, tensor.Must(tensor.FromSlice([]int64{1}, 1))))
			assert.Equal(t, []int64{math.MaxInt64}, m.Values())
		})
	}
}
