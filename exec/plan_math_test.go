package exec_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestMathOpsFuse checks that NumPy's elementwise math fuses like the
// original ops: a chain mixing old and new unary, binary and predicate ops
// plans as one region, one kernel per op.
func TestMathOpsFuse(t *testing.T) {
	a := tensor.Must(tensor.Zeros[float64](64, 32))
	b := tensor.Must(tensor.Zeros[float64](32))
	x, y := expr.Of(a), expr.Of(b)
	chain := x.Exp().Arctan().Mul(y).Hypot(x).Gelu().Add(y.Erf()).Mod(y.AddScalar(2)).Sqrt().LogAddExp(x)
	e := expr.Where(chain.IsNaN(), x.Silu(), chain).Fmax(y.Log2())
	p := planWith(t, nil, nil, e.Node())
	require.Len(t, p.regions, 1, p.text)
	assert.Equal(t, 16, p.regions[0].kernels, p.text)
	assert.Equal(t, 1, strings.Count(p.text, "fused"), p.text)
}

var fullTemp = regexp.MustCompile(`(v\d+):f64\[(?:16, 300|300, 16)\]\(temp\)`)

var planStepsLine = regexp.MustCompile(`exec plan: \d+ values, (\d+) steps`)

// TestNormalizationPasses checks that the normalizations make one reading
// pass over the input (a paired reduction: max and sum of exponentials,
// or mean and squared deviations, with the elementwise producer fused in)
// and at most one fused pass writing a result of the input's size, or one
// line op (softmax of a stored x) that reads and writes each line once,
// with no full-size temporary (issue 22).
func TestNormalizationPasses(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.Zeros[float64](16, 300)))
	cases := []struct {
		name    string
		e       *expr.Node
		reduces int // reading passes over x
		fused   int // writing passes over x's shape
		lineOps int // scan steps reading x and writing the result
	}{
		{"softmax", expr.Softmax(x, 1).Node(), 0, 0, 1},
		{"log_softmax", expr.LogSoftmax(x, 1).Node(), 1, 1, 0},
		{"softmax axis 0", expr.Softmax(x, 0).Node(), 0, 0, 1},
		{"softmax of a transpose", expr.Softmax(x.Transpose(0, 1), 0).Node(), 0, 0, 1},
		{"logsumexp", expr.LogSumExp(x, false, 1).Node(), 1, 0, 0},
		{"var", expr.Var(x, 0, false, 1).Node(), 1, 0, 0},
		{"std", expr.Std(x, 1, false, 0).Node(), 1, 0, 0},
		{"var of a product", expr.Var(x.Mul(x).AddScalar(1), 0, false, 1).Node(), 1, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := planWith(t, nil, nil, c.e)
			require.Regexp(t, planStepsLine, p.text)
			assert.Equal(t, c.reduces, strings.Count(p.text, "\n  reduce"), p.text)
			assert.Equal(t, c.lineOps, strings.Count(p.text, "\n  scan"), p.text)
			full := 0 // passes over the whole [16, 300], not the [16, 1] statistics
			for _, g := range p.regions {
				if g.shape == "[16, 300]" {
					full++
				}
			}
			assert.Equal(t, c.fused, full, p.text)
			big := map[string]bool{} // values of x's size the plan allocates: the result only
			for _, m := range fullTemp.FindAllStringSubmatch(p.text, -1) {
				big[m[1]] = true
			}
			assert.Len(t, big, c.fused+c.lineOps, "no full-size temporary:\n%s", p.text)
		})
	}
}
