package linalg_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/autograd/gradcheck"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/linalg"
	"github.com/tensorplay/tensorplay/tensor"
)

type E = expr.Expr[float64]

// wellConditioned is a batch of matrices I*n + noise: invertible, with
// determinants well away from 0.
func wellConditioned(seed uint64, batch, n int) *tensor.Tensor[float64] {
	d := randomData(seed, batch*n*n)
	for b := range batch {
		for i := range n {
			d[b*n*n+i*n+i] += float64(n)
		}
	}
	return tensor.Must(tensor.FromSlice(d, batch, n, n))
}

func param(d []float64, shape ...int) E {
	return expr.Param("p", tensor.Must(tensor.FromSlice(d, shape...)))
}

// spd builds m·mᵀ + n·I from m inside the graph: gradients with respect to
// m see every entry of the symmetric input.
func spd(m E) E {
	n := m.Shape()[len(m.Shape())-1]
	return m.MatMul(m.Transpose(-1, -2)).Add(expr.Of(tensor.Must(tensor.Eye[float64](n))).MulScalar(float64(n)))
}

func TestLazyMatchesEager(t *testing.T) {
	a := expr.Of(wellConditioned(1, 2, 3))
	b := leaf[float64](randomData(2, 6), 2, 3)
	bm := leaf[float64](randomData(3, 12), 1, 3, 4)
	m := leaf[float64](randomData(4, 18), 2, 3, 3)
	cases := []struct {
		name string
		lazy E
		want func() (*tensor.Tensor[float64], error)
	}{
		{"solve vectors", linalg.SolveExpr(a, b), func() (*tensor.Tensor[float64], error) { return linalg.Solve(a, b) }},
		{"solve matrices broadcast", linalg.SolveExpr(a, bm), func() (*tensor.Tensor[float64], error) { return linalg.Solve(a, bm) }},
		{"inv", linalg.InvExpr(a), func() (*tensor.Tensor[float64], error) { return linalg.Inv(a) }},
		{"det", linalg.DetExpr(a), func() (*tensor.Tensor[float64], error) { return linalg.Det(a) }},
		{"slogdet", func() E { _, l := linalg.SlogdetExpr(a); return l }(), func() (*tensor.Tensor[float64], error) {
			_, l, err := linalg.Slogdet(a)
			return l, err
		}},
		{"slogdet sign", func() E { s, _ := linalg.SlogdetExpr(a); return s }(), func() (*tensor.Tensor[float64], error) {
			s, _, err := linalg.Slogdet(a)
			return s, err
		}},
		{"cholesky", linalg.CholeskyExpr(spd(m)), func() (*tensor.Tensor[float64], error) { return linalg.Cholesky(spd(m)) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, c.lazy.Err())
			want, err := c.want()
			require.NoError(t, err)
			got, err := exec.Eval(c.lazy)
			require.NoError(t, err)
			assert.Equal(t, want.Shape(), got.Shape())
			assert.Equal(t, want.Values(), got.Values(), "the same factorization gives the same bits")
		})
	}
}

func TestLazyShapeErrors(t *testing.T) {
	sq := leaf[float64](randomData(1, 9), 3, 3)
	cases := []struct {
		name string
		e    E
		want string
	}{
		{"inv of a vector", linalg.InvExpr(leaf[float64](randomData(1, 3), 3)), "linalg.InvExpr needs at least 2 dimensions"},
		{"det not square", linalg.DetExpr(leaf[float64](randomData(1, 6), 2, 3)), "linalg.DetExpr needs square matrices, got 2×3"},
		{"solve rows", linalg.SolveExpr(sq, leaf[float64](randomData(1, 4), 4)), "b has 4 rows, a (shape [3, 3]) has 3"},
		{"solve batch", linalg.SolveExpr(leaf[float64](randomData(1, 18), 2, 3, 3), leaf[float64](randomData(1, 9*3), 3, 3, 3)), "do not broadcast"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var se *tensor.ShapeError
			require.ErrorAs(t, c.e.Err(), &se)
			assert.Contains(t, se.Error(), c.want)
		})
	}
}

func TestLazySingularIsEvaluationError(t *testing.T) {
	a := leaf[float64]([]float64{1, 2, 2, 4, 1, 0, 0, 1}, 2, 2, 2)
	_, err := exec.Eval(linalg.InvExpr(a).AddScalar(1))
	var se *linalg.SingularError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, []int{0}, se.Batch)
}

func TestLazyGradCheck(t *testing.T) {
	cases := []struct {
		name string
		in   [][]int
		f    func(x []E) E
	}{
		{"solve vectors", [][]int{{2, 3, 3}, {2, 3}}, func(x []E) E { return linalg.SolveExpr(shift(x[0]), x[1]) }},
		{"solve matrices broadcast", [][]int{{3, 3}, {2, 3, 2}}, func(x []E) E { return linalg.SolveExpr(shift(x[0]), x[1]) }},
		{"inv", [][]int{{2, 3, 3}}, func(x []E) E { return linalg.InvExpr(shift(x[0])) }},
		{"det", [][]int{{2, 3, 3}}, func(x []E) E { return linalg.DetExpr(shift(x[0])) }},
		{"slogdet", [][]int{{3, 3}}, func(x []E) E { _, l := linalg.SlogdetExpr(shift(x[0])); return l }},
		{"slogdet sign", [][]int{{3, 3}}, func(x []E) E { s, l := linalg.SlogdetExpr(shift(x[0])); return s.Mul(l) }},
		{"cholesky", [][]int{{2, 3, 3}}, func(x []E) E { return linalg.CholeskyExpr(spd(x[0])) }},
		{"second order", [][]int{{3, 3}}, func(x []E) E {
			a := shift(x[0])
			g, err := autograd.Grad(linalg.DetExpr(a), x[0])
			if err != nil {
				return expr.Wrap[float64](nil)
			}
			return expr.Wrap[float64](g[0]).Square().Sum()
		}},
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			xs := make([]E, len(c.in))
			for i, s := range c.in {
				n := 1
				for _, d := range s {
					n *= d
				}
				xs[i] = param(randomData(uint64(10*ci+i), n), s...)
			}
			y := c.f(xs)
			require.NoError(t, y.Err())
			up := tensor.Must(tensor.FromSlice(randomData(99, numel(y.Shape())), y.Shape()...))
			require.NoError(t, gradcheck.Check(y, xs, &gradcheck.Options{Upstream: up}))
		})
	}
}

// shift adds 3·I: random matrices made well conditioned.
func shift(x E) E {
	n := x.Shape()[len(x.Shape())-1]
	return x.Add(expr.Of(tensor.Must(tensor.Eye[float64](n))).MulScalar(3))
}

func numel(s tensor.Shape) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

func TestLazyNoGradientThroughNonDifferentiable(t *testing.T) {
	// An external op without a rule names itself.
	a := param(randomData(1, 4), 2, 2)
	e := &expr.External{Name: "opaque", Eval: func(args []tensor.Any) (tensor.Any, error) { return args[0], nil }}
	y := expr.Wrap[float64](expr.Apply(e, a.DType(), a.Shape(), a)).Sum()
	_, err := autograd.Grad(y, a)
	var nd *autograd.NotDifferentiableError
	require.ErrorAs(t, err, &nd)
	assert.Contains(t, nd.Error(), "external op opaque has no gradient rule")
}
