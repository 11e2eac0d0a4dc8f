package exec_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// Reversed operands (negative strides, issue 23) on every executor path.
// The reference for each result is the same graph over a contiguous copy
// of the reversed view: elementwise kernels and reductions give bits that
// depend on the logical values alone (docs/executor.md, Determinism), so
// the two must agree bit for bit, and so must one worker and two.

// flipCases are the reversed views of one tensor of each shape: every
// single axis, all axes, and a reversed stepped slice.
func flipCases(t *testing.T, shape ...int) map[string]*tensor.Tensor[float64] {
	n := 1
	for _, d := range shape {
		n *= d
	}
	base := fromValues(t, randomValues[float64](newRand(uint64(n)), n), shape...)
	out := map[string]*tensor.Tensor[float64]{}
	for ax := range shape {
		out[fmt.Sprintf("flip(%d)", ax)] = tensor.Must(base.Flip(ax))
	}
	out["flip()"] = tensor.Must(base.Flip())
	if len(shape) >= 2 {
		tr := tensor.Must(base.Transpose(0, len(shape)-1))
		out["T.flip(0)"] = tensor.Must(tr.Flip(0))
	}
	last := len(shape) - 1
	out["[..., ::-2]"] = tensor.Must(base.Slice(last, -1, -shape[last]-1, -2))
	return out
}

// twoWorkers splits even small kernels between two workers.
var twoWorkers = exec.New(exec.Workers(2), exec.Grain(1))

// evalBoth evaluates e on one worker and on two, asserts the two agree
// bit for bit and returns the result.
func evalBoth(t *testing.T, e expr.Expr[float64]) *tensor.Tensor[float64] {
	t.Helper()
	one := evalWith(t, serial, e)
	two := evalWith(t, twoWorkers, e)
	assertBits(t, one.Values(), two.Values(), "1 vs 2 workers")
	return one
}

func TestReversedOperands(t *testing.T) {
	shapes := [][]int{{1000}, {37, 53}, {300, 700}, {4, 33, 65}}
	for _, shape := range shapes {
		for name, v := range flipCases(t, shape...) {
			t.Run(fmt.Sprintf("%v %s", shape, name), func(t *testing.T) {
				c := v.Clone()
				b := fromValues(t, randomValues[float64](newRand(5), v.Numel()), v.Shape()...)
				row := fromValues(t, randomValues[float64](newRand(6), v.Shape()[v.Rank()-1]), v.Shape()[v.Rank()-1])
				graphs := map[string]func(x expr.Expr[float64]) expr.Expr[float64]{
					"x*b+row":  func(x expr.Expr[float64]) expr.Expr[float64] { return x.Mul(expr.Of(b)).Add(expr.Of(row)) },
					"exp(x)-x": func(x expr.Expr[float64]) expr.Expr[float64] { return x.Exp().Sub(x) },
					"(x+1)*x":  func(x expr.Expr[float64]) expr.Expr[float64] { return x.AddScalar(1).Mul(x) },
					"sum all":  func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum() },
					"max all":  func(x expr.Expr[float64]) expr.Expr[float64] { return x.Max() },
				}
				for ax := range v.Rank() {
					graphs[fmt.Sprintf("sum(%d)", ax)] = func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum(ax) }
					graphs[fmt.Sprintf("sum(x*b, %d)", ax)] = func(x expr.Expr[float64]) expr.Expr[float64] { return x.Mul(expr.Of(b)).Sum(ax) }
					graphs[fmt.Sprintf("argmax(%d)", ax)] = func(x expr.Expr[float64]) expr.Expr[float64] {
						return expr.Cast[float64](x.ArgMax(ax))
					}
				}
				for gname, f := range graphs {
					got := evalBoth(t, f(expr.Of(v)))
					want := evalWith(t, serial, f(expr.Of(c)))
					assertBits(t, want.Values(), got.Values(), "%s", gname)
				}
			})
		}
	}
}

// A lazy Flip of a computed value (the view of a temporary) and of a leaf
// inside one fused graph.
func TestLazyFlip(t *testing.T) {
	a := fromValues(t, randomValues[float64](newRand(1), 600), 20, 30)
	x := expr.Of(a)
	got := evalBoth(t, x.Exp().Flip(1).Add(x.Flip(0)).Idx(tensor.S(1, -1), tensor.Step(-3)))
	want := make([]float64, 0, 18*10)
	av := func(i, j int) float64 { return tensor.Must(a.Idx(tensor.I(i), tensor.I(j))).Values()[0] }
	for i := 1; i < 19; i++ {
		for j := 29; j > 0; j -= 3 {
			e := evalWith(t, serial, expr.Scalar(av(i, 29-j)).Exp().AddScalar(av(19-i, j)))
			want = append(want, e.Values()[0])
		}
	}
	assert.Equal(t, tensor.Shape{18, 10}, got.Shape())
	assertBits(t, want, got.Values(), "exp(x)[:, ::-1] + x[::-1] then [1:-1, ::-3]")
}

// internal/matmul packs operands of non-negative strides: a reversed
// operand is copied first, and the product is that of the copy.
func TestMatMulReversedOperand(t *testing.T) {
	a := fromValues(t, randomValues[float64](newRand(2), 48*64), 48, 64)
	b := fromValues(t, randomValues[float64](newRand(3), 64*40), 64, 40)
	for _, c := range []struct {
		name string
		x, y *tensor.Tensor[float64]
	}{
		{"rows of a reversed", tensor.Must(a.Flip(0)), b},
		{"columns of b reversed", a, tensor.Must(b.Flip(1))},
		{"both reversed along k", tensor.Must(a.Flip(1)), tensor.Must(b.Flip(0))},
		{"a.T reversed", tensor.Must(tensor.Must(a.T()).Flip()), tensor.Must(tensor.Must(a.Slice(1, 0, 40, 1)).Flip(0))},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := evalBoth(t, expr.Of(c.x).MatMul(expr.Of(c.y)))
			want := evalWith(t, serial, expr.Of(c.x.Clone()).MatMul(expr.Of(c.y.Clone())))
			assertBits(t, want.Values(), got.Values(), "%s", c.name)
		})
	}
	var buf bytes.Buffer
	x := exec.New(exec.Debug(&buf))
	defer x.Close()
	_, err := exec.EvalWith(x, expr.Of(tensor.Must(a.Flip(0))).MatMul(expr.Of(b)))
	require.NoError(t, err)
	assert.Contains(t, buf.String(), "matmul reads operands of non-negative strides")
}

// In-place updates whose input is a reversed view of the destination are
// staged: the result is the one computed from the old values.
func TestInPlaceReversedOverlap(t *testing.T) {
	vals := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i + 1)
		}
		return v
	}
	t.Run("EvalTo(a, a.Flip())", func(t *testing.T) {
		a := fromValues(t, vals(6), 2, 3)
		var buf bytes.Buffer
		x := exec.New(exec.Debug(&buf))
		defer x.Close()
		require.NoError(t, exec.EvalToWith(x, a, expr.Of(a).Flip()))
		assert.Equal(t, []float64{6, 5, 4, 3, 2, 1}, a.Values())
		assert.Contains(t, buf.String(), "stages the old values")
	})
	t.Run("EvalTo(a, view a[::-1])", func(t *testing.T) {
		a := fromValues(t, vals(1000), 1000)
		require.NoError(t, exec.EvalTo(a, expr.Of(tensor.Must(a.Flip())).MulScalar(2)))
		want := make([]float64, 1000)
		for i := range want {
			want[i] = float64(2 * (1000 - i))
		}
		assert.Equal(t, want, a.Values())
	})
	t.Run("AddTo(a, a[::-1])", func(t *testing.T) {
		a := fromValues(t, vals(6), 6)
		require.NoError(t, exec.AddTo(a, tensor.Must(a.Flip())))
		assert.Equal(t, []float64{7, 7, 7, 7, 7, 7}, a.Values())
	})
	t.Run("into a reversed destination", func(t *testing.T) {
		a := fromValues(t, vals(6), 2, 3)
		require.NoError(t, exec.EvalTo(tensor.Must(a.Flip()), expr.Of(a).AddScalar(10)))
		assert.Equal(t, []float64{16, 15, 14, 13, 12, 11}, a.Values())
	})
	t.Run("reversed half onto the other half", func(t *testing.T) {
		a := fromValues(t, vals(8), 8)
		lo := tensor.Must(a.Slice(0, 0, 4, 1))
		hi := tensor.Must(a.Idx(tensor.S(-1, 3).Step(-1))) // 8, 7, 6, 5
		require.NoError(t, exec.CopyTo(lo, hi))
		assert.Equal(t, []float64{8, 7, 6, 5, 5, 6, 7, 8}, a.Values())
	})
	t.Run("exactly itself, reversed twice", func(t *testing.T) {
		a := fromValues(t, vals(6), 6)
		r := tensor.Must(a.Flip())
		require.NoError(t, exec.MulTo(r, r))
		assert.Equal(t, []float64{1, 4, 9, 16, 25, 36}, a.Values())
	})
}

// A reversed operand is never direct: a row walked backwards is the
// reversed kind (copied by one loop per row), and so is a flipped block
// whose runs cross rows; rows reversed but each walked forward are read
// in place where a run is one row (long rows), gathered by strides where
// a run crosses rows (short rows).
func TestReversedAccessKind(t *testing.T) {
	cases := []struct {
		name       string
		rows, cols int
		flip       []int
		tile       string
		kind       string // the flipped input's
	}{
		{"row reversed", 16, 1024, []int{1}, "long rows", "reversed"},
		{"rows reversed, long rows", 16, 1024, []int{0}, "bufferless rows", "direct"},
		{"rows reversed, short rows", 64, 64, []int{0}, "short rows", "strided"},
		{"flipped: one reversed run", 64, 64, nil, "long rows", "reversed"},
		{"row reversed, short rows", 64, 64, []int{1}, "short rows", "strided"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := make([]float64, c.rows*c.cols) // no NaN: compared with Equal
			for i := range v {
				v[i] = float64(i%97) - 40
			}
			a := fromValues(t, v, c.rows, c.cols)
			var buf bytes.Buffer
			x := exec.New(exec.Debug(&buf))
			defer x.Close()
			f := tensor.Must(a.Flip(c.flip...))
			got, err := exec.EvalWith(x, expr.Of(f).Add(expr.Of(a)))
			require.NoError(t, err)
			fv, av := f.Values(), a.Values()
			for i := range av {
				av[i] += fv[i]
			}
			assert.Equal(t, av, got.Values())
			plan := buf.String()
			tile := c.tile
			if tile == "bufferless rows" && !simd.Enabled {
				tile = "long rows" // without AVX2 kernels no region runs bufferless
			}
			assert.Contains(t, plan, tile)
			assert.Contains(t, plan, "in  s0 <- v0:f64["+fmt.Sprint(c.rows)+", "+fmt.Sprint(c.cols)+"](fixed) ("+c.kind+")", plan)
		})
	}
}

// Sorting and selection read a reversed input in its logical order.
func TestSortReversed(t *testing.T) {
	a := fromValues(t, []float64{3, 1, 2, 9, 7, 8}, 2, 3)
	v := tensor.Must(a.Flip())
	s, err := exec.Sort(expr.Of(v), 1)
	require.NoError(t, err)
	assert.Equal(t, []float64{7, 8, 9, 1, 2, 3}, s.Values())
	i, err := exec.ArgSort(expr.Of(v), 0)
	require.NoError(t, err)
	assert.Equal(t, []int64{1, 1, 1, 0, 0, 0}, i.Values())
	k, ki, err := exec.TopK(expr.Of(v), 1, -1)
	require.NoError(t, err)
	assert.Equal(t, []float64{9, 3}, k.Values())
	assert.Equal(t, []int64{2, 2}, ki.Values())
}
