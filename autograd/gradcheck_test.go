package autograd_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/autograd/gradcheck"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

type E = expr.Expr[float64]

// input describes a random input: its shape and how its values are drawn.
type input struct {
	shape []int
	draw  func(r *rand.Rand) float64
}

func normal(shape ...int) input {
	return input{shape, func(r *rand.Rand) float64 { return r.NormFloat64() }}
}

// away draws |v| in [lo, lo+1) with a random sign: away from a kink at 0.
func away(lo float64, shape ...int) input {
	return input{shape, func(r *rand.Rand) float64 {
		v := lo + r.Float64()
		if r.IntN(2) == 0 {
			return -v
		}
		return v
	}}
}

// positive draws from [lo, lo+2).
func positive(lo float64, shape ...int) input {
	return input{shape, func(r *rand.Rand) float64 { return lo + 2*r.Float64() }}
}

// offGrid draws k + 0.3 ± 0.1: far from the jumps of floor, ceil and round.
func offGrid(shape ...int) input {
	return input{shape, func(r *rand.Rand) float64 { return float64(r.IntN(7)-3) + 0.2 + 0.2*r.Float64() }}
}

// eighths draws multiples of 1/8 in [-2, 2]: exact in float32, and so are
// steps of 1/64 from them.
func eighths(shape ...int) input {
	return input{shape, func(r *rand.Rand) float64 { return float64(r.IntN(33)-16) / 8 }}
}

func (in input) tensor(r *rand.Rand) *tensor.Tensor[float64] {
	t := tensor.Must(tensor.Zeros[float64](in.shape...))
	d := t.Data()
	for i := range d {
		d[i] = in.draw(r)
	}
	return t
}

// gradCheckCases cover every differentiable op on random float64 data,
// with broadcasting operands wherever the op broadcasts.
var gradCheckCases = []checkCase{
	{"neg", []input{normal(3, 4)}, func(x []E) E { return x[0].Neg() }},
	{"abs", []input{away(0.1, 3, 4)}, func(x []E) E { return x[0].Abs() }},
	{"exp", []input{normal(3, 4)}, func(x []E) E { return x[0].Exp() }},
	{"log", []input{positive(0.2, 3, 4)}, func(x []E) E { return x[0].Log() }},
	{"log1p", []input{positive(-0.5, 3, 4)}, func(x []E) E { return x[0].Log1p() }},
	{"expm1", []input{normal(3, 4)}, func(x []E) E { return x[0].Expm1() }},
	{"sqrt", []input{positive(0.2, 3, 4)}, func(x []E) E { return x[0].Sqrt() }},
	{"square", []input{normal(3, 4)}, func(x []E) E { return x[0].Square() }},
	{"sin", []input{normal(3, 4)}, func(x []E) E { return x[0].Sin() }},
	{"cos", []input{normal(3, 4)}, func(x []E) E { return x[0].Cos() }},
	{"tan", []input{positive(-1, 3, 4)}, func(x []E) E { return x[0].Tan() }},
	{"tanh", []input{normal(3, 4)}, func(x []E) E { return x[0].Tanh() }},
	{"sigmoid", []input{normal(3, 4)}, func(x []E) E { return x[0].Sigmoid() }},
	{"relu", []input{away(0.1, 3, 4)}, func(x []E) E { return x[0].Relu() }},
	{"floor", []input{offGrid(3, 4)}, func(x []E) E { return x[0].Floor().Add(x[0]) }},
	{"ceil", []input{offGrid(3, 4)}, func(x []E) E { return x[0].Ceil().Mul(x[0]) }},
	{"round", []input{offGrid(3, 4)}, func(x []E) E { return x[0].Round().Mul(x[0]) }},
	{"sign", []input{away(0.1, 3, 4)}, func(x []E) E { return x[0].Sign().Mul(x[0].Square()) }},
	{"conj", []input{normal(3, 4)}, func(x []E) E { return x[0].Conj().Mul(x[0]) }},
	{"cast f32", []input{eighths(3, 4)}, func(x []E) E {
		return expr.Cast[float64](expr.Cast[float32](x[0]).MulScalar(3)).Mul(x[0])
	}},

	{"add", []input{normal(3, 1), normal(1, 4)}, func(x []E) E { return x[0].Add(x[1]) }},
	{"sub", []input{normal(2, 3, 4), normal(4)}, func(x []E) E { return x[0].Sub(x[1]) }},
	{"mul", []input{normal(3, 1), normal(2, 1, 4)}, func(x []E) E { return x[0].Mul(x[1]) }},
	{"mul scalar", []input{normal(3, 4), normal()}, func(x []E) E { return x[0].Mul(x[1]) }},
	{"div", []input{normal(3, 4), away(0.5, 4)}, func(x []E) E { return x[0].Div(x[1]) }},
	{"pow", []input{positive(0.5, 3, 1), normal(1, 4)}, func(x []E) E { return x[0].Pow(x[1]) }},
	{"maximum", []input{normal(3, 1), normal(1, 4)}, func(x []E) E { return x[0].Maximum(x[1]) }},
	{"minimum", []input{normal(3, 4), normal(4)}, func(x []E) E { return x[0].Minimum(x[1]) }},
	{"broadcast_add", []input{normal(2, 3, 4, 4), normal(2, 3, 1, 1)}, func(x []E) E { return x[0].BroadcastAdd(x[1]) }},
	{"broadcast_add both", []input{normal(2, 1, 4, 3), normal(2, 3, 1, 1)}, func(x []E) E { return x[0].BroadcastAdd(x[1]) }},
	{"where", []input{normal(3, 4), normal(3, 4), normal(4)}, func(x []E) E {
		return expr.Where(x[0].Gt(expr.Scalar(0.0)), x[1], x[2])
	}},
	{"where self", []input{away(0.1, 3, 4)}, func(x []E) E {
		return expr.Where(x[0].Gt(expr.Scalar(0.0)), x[0].Square(), x[0].Exp())
	}},

	{"sum", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].Sum(1) }},
	{"sum all", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].Sum().Sin() }},
	{"sum keepdim", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].SumKeepDims(0, 2).Mul(x[0]) }},
	{"mean", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].Mean(-1) }},
	{"mean keepdim", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].MeanKeepDims(1).Square() }},
	{"prod", []input{away(0.5, 2, 3, 4)}, func(x []E) E { return x[0].Prod(1) }},
	{"prod all", []input{away(0.5, 2, 3)}, func(x []E) E { return x[0].Prod() }},
	{"max", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].Max(2) }},
	{"max keepdim", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].MaxKeepDims(0, 1) }},
	{"min", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].Min(0) }},
	{"sum_to", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].SumTo(3, 1) }},

	{"matmul", []input{normal(3, 4), normal(4, 5)}, func(x []E) E { return x[0].MatMul(x[1]) }},
	{"matmul vec mat", []input{normal(4), normal(4, 5)}, func(x []E) E { return x[0].MatMul(x[1]) }},
	{"matmul mat vec", []input{normal(3, 4), normal(4)}, func(x []E) E { return x[0].MatMul(x[1]) }},
	{"matmul dot", []input{normal(4), normal(4)}, func(x []E) E { return x[0].MatMul(x[1]) }},
	{"matmul batched", []input{normal(2, 1, 3, 4), normal(3, 4, 2)}, func(x []E) E { return x[0].MatMul(x[1]) }},
	{"matmul vec batch", []input{normal(4), normal(2, 4, 3)}, func(x []E) E { return x[0].MatMul(x[1]) }},
	{"matmul batch vec", []input{normal(2, 3, 4), normal(4)}, func(x []E) E { return x[0].MatMul(x[1]) }},
	{"matmul transposed", []input{normal(4, 3), normal(4, 5)}, func(x []E) E { return x[0].T().MatMul(x[1]) }},

	{"reshape", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].Reshape(4, 6).Mul(expr.Of(ramp(4, 6))) }},
	{"permute", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].Permute(2, 0, 1).Mul(expr.Of(ramp(4, 2, 3))) }},
	{"transpose", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].Transpose(0, 2).Sin() }},
	{"expand", []input{normal(3, 1)}, func(x []E) E { return x[0].Expand(2, 3, 4).Mul(expr.Of(ramp(2, 3, 4))) }},
	{"squeeze", []input{normal(3, 1, 4)}, func(x []E) E { return x[0].Squeeze(1).Exp() }},
	{"unsqueeze", []input{normal(3, 4)}, func(x []E) E { return x[0].Unsqueeze(1).Add(expr.Of(ramp(3, 2, 4))) }},
	{"slice", []input{normal(3, 7)}, func(x []E) E { return x[0].Slice(1, 1, 6, 2).Square() }},
	{"embed", []input{normal(3, 2)}, func(x []E) E { return x[0].Embed(1, 1, 3, 5).Add(expr.Of(ramp(3, 5))).Square() }},

	{"(a*b+c)^2", []input{normal(3, 4), normal(4), normal(3, 1)}, func(x []E) E {
		return x[0].Mul(x[1]).Add(x[2]).Square()
	}},
	{"softmax", []input{normal(3, 5)}, func(x []E) E {
		e := x[0].Sub(x[0].MaxKeepDims(1)).Exp()
		return e.Div(e.SumKeepDims(1))
	}},
	{"shared operand", []input{normal(3, 4)}, func(x []E) E { return x[0].Mul(x[0].Sin()).Add(x[0].Exp()) }},
}

// checkOnly lists the inputs a case checks when not all: where's
// condition takes no gradient.
var checkOnly = map[string][]int{"where": {1, 2}}

// checkEps is the step of cases that need a coarser one than the default:
// float32 values cannot take a step of 1e-6.
var checkEps = map[string]float64{"cast f32": 1.0 / 64}

// ramp is a fixed tensor 1, 2, 3, … of the given shape.
func ramp(shape ...int) *tensor.Tensor[float64] {
	t := tensor.Must(tensor.Zeros[float64](shape...))
	for i := range t.Data() {
		t.Data()[i] = float64(i + 1)
	}
	return t
}

// checkCase is a gradient check: f of inputs drawn as in says.
type checkCase struct {
	name string
	in   []input
	f    func(x []E) E
}

// checkGradCases compares the gradients of each case with central finite
// differences, for a random upstream gradient, all drawn from r.
func checkGradCases(t *testing.T, r *rand.Rand, cases []checkCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			xs := make([]E, len(c.in))
			for i, in := range c.in {
				xs[i] = expr.Of(in.tensor(r))
			}
			y := c.f(xs)
			require.NoError(t, y.Err())
			up := normal(y.Shape()...).tensor(r)
			require.NoError(t, gradcheck.Check(y, xs, &gradcheck.Options{Upstream: up, Executor: serial}))
		})
	}
}

// TestGradCheck compares the gradient of every differentiable op with
// central finite differences, for a random upstream gradient.
func TestGradCheck(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for _, c := range gradCheckCases {
		t.Run(c.name, func(t *testing.T) {
			xs := make([]E, len(c.in))
			for i, in := range c.in {
				xs[i] = expr.Of(in.tensor(r))
			}
			y := c.f(xs)
			require.NoError(t, y.Err())
			up := normal(y.Shape()...).tensor(r)
			wrt := xs
			if only, ok := checkOnly[c.name]; ok {
				wrt = nil
				for _, i := range only {
					wrt = append(wrt, xs[i])
				}
			}
			require.NoError(t, gradcheck.Check(y, wrt, &gradcheck.Options{Upstream: up, Executor: serial, Eps: checkEps[c.name]}))
		})
	}
}

// TestGradCheckReportsMismatch checks that a wrong gradient is caught: the
// check of floor sees finite differences of 1/eps across a jump.
func TestGradCheckReportsMismatch(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2.5}, 2)))
	err := gradcheck.Check(x.Floor().Sum(), []E{x}, nil)
	var m *gradcheck.MismatchError
	require.ErrorAs(t, err, &m)
	require.Equal(t, []int{0}, m.Index)
	require.Equal(t, 0.0, m.Analytic)
	require.Greater(t, math.Abs(m.Numeric), 1e3)
}
