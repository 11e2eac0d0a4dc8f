package autograd_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tensorplay/tensorplay/expr"
)

// unit draws from (-0.9, 0.9): inside the domains of arcsin, arccos and
// arctanh.
func unit(shape ...int) input {
	return input{shape, func(r *rand.Rand) float64 { return 1.8*r.Float64() - 0.9 }}
}

// mathGradCases cover the rules of NumPy's elementwise math.
var mathGradCases = []checkCase{
	{"arcsin", []input{unit(3, 4)}, func(x []E) E { return x[0].Arcsin() }},
	{"arccos", []input{unit(3, 4)}, func(x []E) E { return x[0].Arccos() }},
	{"arctan", []input{normal(3, 4)}, func(x []E) E { return x[0].Arctan() }},
	{"sinh", []input{normal(3, 4)}, func(x []E) E { return x[0].Sinh() }},
	{"cosh", []input{normal(3, 4)}, func(x []E) E { return x[0].Cosh() }},
	{"arcsinh", []input{normal(3, 4)}, func(x []E) E { return x[0].Arcsinh() }},
	{"arccosh", []input{positive(1.2, 3, 4)}, func(x []E) E { return x[0].Arccosh() }},
	{"arctanh", []input{unit(3, 4)}, func(x []E) E { return x[0].Arctanh() }},
	{"log2", []input{positive(0.2, 3, 4)}, func(x []E) E { return x[0].Log2() }},
	{"log10", []input{positive(0.2, 3, 4)}, func(x []E) E { return x[0].Log10() }},
	{"exp2", []input{normal(3, 4)}, func(x []E) E { return x[0].Exp2() }},
	{"trunc", []input{offGrid(3, 4)}, func(x []E) E { return x[0].Trunc().Mul(x[0]) }},
	{"reciprocal", []input{away(0.5, 3, 4)}, func(x []E) E { return x[0].Reciprocal() }},
	{"rsqrt", []input{positive(0.3, 3, 4)}, func(x []E) E { return x[0].Rsqrt() }},
	{"erf", []input{normal(3, 4)}, func(x []E) E { return x[0].Erf() }},
	{"erfc", []input{normal(3, 4)}, func(x []E) E { return x[0].Erfc() }},
	{"lgamma", []input{positive(0.3, 3, 4)}, func(x []E) E { return x[0].Lgamma() }},
	{"gelu", []input{normal(3, 4)}, func(x []E) E { return x[0].Gelu() }},
	{"gelu_tanh", []input{normal(3, 4)}, func(x []E) E { return x[0].GeluTanh() }},
	{"silu", []input{normal(3, 4)}, func(x []E) E { return x[0].Silu() }},
	{"softplus", []input{normal(3, 4)}, func(x []E) E { return x[0].Softplus() }},
	{"remainder", []input{positive(0.1, 3, 4), positive(0.7, 4)}, func(x []E) E { return x[0].Mod(x[1]) }},
	{"fmod", []input{normal(3, 4), positive(0.7, 3, 1)}, func(x []E) E { return x[0].Fmod(x[1]) }},
	{"arctan2", []input{normal(3, 4), away(0.3, 4)}, func(x []E) E { return x[0].Arctan2(x[1]) }},
	{"hypot", []input{away(0.3, 3, 1), away(0.3, 4)}, func(x []E) E { return x[0].Hypot(x[1]) }},
	{"copysign", []input{away(0.3, 3, 4), away(0.3, 4)}, func(x []E) E { return x[0].Copysign(x[1]) }},
	{"fmax", []input{normal(3, 1), normal(1, 4)}, func(x []E) E { return x[0].Fmax(x[1]) }},
	{"fmin", []input{normal(3, 4), normal(4)}, func(x []E) E { return x[0].Fmin(x[1]) }},
	{"logaddexp", []input{normal(3, 1), normal(1, 4)}, func(x []E) E { return x[0].LogAddExp(x[1]) }},
	{"logaddexp2", []input{normal(3, 4), normal(4)}, func(x []E) E { return x[0].LogAddExp2(x[1]) }},
	{"clip", []input{normal(3, 4), normal(4), normal(3, 1)}, func(x []E) E { return x[0].Clip(x[1].SubScalar(0.5), x[2].AddScalar(0.5)) }},

	// The paired reductions and what is built on them; rows longer than a
	// leaf (128) so that leaves combine.
	{"logsumexp", []input{normal(3, 5)}, func(x []E) E { return expr.LogSumExp(x[0], false, 1) }},
	{"logsumexp all", []input{normal(2, 3, 4)}, func(x []E) E { return expr.LogSumExp(x[0], false).Sin() }},
	{"logsumexp leaves", []input{normal(2, 300)}, func(x []E) E { return expr.LogSumExp(x[0], true, 1).Mul(x[0]) }},
	{"logsumexp axis 0", []input{normal(4, 3)}, func(x []E) E { return expr.LogSumExp(x[0], false, 0) }},
	{"softmax", []input{normal(3, 5)}, func(x []E) E { return expr.Softmax(x[0], 1) }},
	{"log_softmax", []input{normal(3, 5)}, func(x []E) E { return expr.LogSoftmax(x[0], 0) }},
	{"sumsqdev", []input{normal(2, 3, 4)}, func(x []E) E { return expr.SumSqDev(x[0], false, 0, 2) }},
	{"var", []input{normal(3, 5)}, func(x []E) E { return expr.Var(x[0], 1, false, 1) }},
	{"var leaves", []input{normal(2, 300)}, func(x []E) E { return expr.Var(x[0], 0, true, 1).Mul(x[0]) }},
	{"std", []input{normal(3, 5)}, func(x []E) E { return expr.Std(x[0], 0, false) }},
}

// TestMathGradCheck compares the gradients of NumPy's elementwise math
// with central finite differences, for a random upstream gradient.
func TestMathGradCheck(t *testing.T) { checkGradCases(t, rand.New(rand.NewPCG(22, 22)), mathGradCases) }
