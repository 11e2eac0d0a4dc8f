package autograd_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tensorplay/tensorplay/expr"
)

// composeGradCases cover the gradients of the ops that build values from
// pieces (issue 23), on computed operands as well as leaves.
var composeGradCases = []checkCase{
	{"concatenate rows", []input{normal(2, 3), normal(4, 3)}, func(x []E) E { return expr.Concatenate(0, x[0].Exp(), x[1].MulScalar(2)) }},
	{"concatenate columns, one operand twice", []input{normal(3, 2), normal(3, 4)}, func(x []E) E { return expr.Concatenate(-1, x[0], x[1].Sin(), x[0].Square()) }},
	{"stack", []input{normal(3, 4), normal(3, 4)}, func(x []E) E { return expr.Stack(1, x[0], x[1].Mul(x[0])) }},
	{"pad constant", []input{normal(3, 4)}, func(x []E) E { return x[0].Exp().PadWith(2, [2]int{1, 2}, [2]int{0, 3}) }},
	{"pad edge", []input{normal(3, 4)}, func(x []E) E { return x[0].Pad(expr.PadEdge, [2]int{2, 1}, [2]int{3, 2}) }},
	{"pad reflect, wider than the extent", []input{normal(3, 4)}, func(x []E) E { return x[0].Tanh().Pad(expr.PadReflect, [2]int{4, 1}, [2]int{2, 5}) }},
	{"pad symmetric", []input{normal(3, 4)}, func(x []E) E { return x[0].Pad(expr.PadSymmetric, [2]int{2, 3}) }},
	{"pad wrap", []input{normal(3, 4)}, func(x []E) E { return x[0].Pad(expr.PadWrap, [2]int{4, 7}, [2]int{1, 0}) }},
	{"roll", []input{normal(3, 4)}, func(x []E) E { return x[0].Exp().RollAxes([]int{1, -3}, []int{0, 1}) }},
	{"roll flattened", []input{normal(3, 4)}, func(x []E) E { return x[0].Roll(5) }},
	{"repeat", []input{normal(3, 4)}, func(x []E) E { return x[0].Repeat([]int{3}, 1) }},
	{"repeat per element", []input{normal(3, 4)}, func(x []E) E { return x[0].Sin().Repeat([]int{2, 0, 1, 3}, -1) }},
	{"repeat flattened", []input{normal(2, 3)}, func(x []E) E { return x[0].Repeat([]int{2}) }},
	{"tile", []input{normal(2, 3)}, func(x []E) E { return x[0].Tile(2, 1, 3) }},
	{"tril", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].Exp().Tril(1) }},
	{"triu", []input{normal(3, 4)}, func(x []E) E { return x[0].Triu(-1) }},
	{"trace", []input{normal(2, 3, 4)}, func(x []E) E { return x[0].Square().Trace(1, 2, 0) }},
}

// TestComposeGradCheck compares the gradients of the compose ops with
// central finite differences, for a random upstream gradient.
func TestComposeGradCheck(t *testing.T) {
	checkGradCases(t, rand.New(rand.NewPCG(23, 23)), composeGradCases)
}
