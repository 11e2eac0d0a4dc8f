package exec

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// maskedStep runs a step on a value table holding only the values its
// values() names, so a step that reads an operand it does not declare
// (one dropDeadSteps would then drop the producer of) sees nil there.
type maskedStep struct{ step }

func (m maskedStep) run(x *Executor, vals []tensor.Any) error {
	reads, writes := m.values()
	own := make([]tensor.Any, len(vals))
	for _, v := range append(reads, writes...) {
		own[v] = vals[v]
	}
	err := m.step.run(x, own)
	for _, w := range writes {
		vals[w] = own[w]
	}
	return err
}

// doubled is an external op: twice its operand.
var doubled = &expr.External{Name: "test_doubled", Eval: func(args []tensor.Any) (tensor.Any, error) {
	v := args[0].(*tensor.Tensor[float64]).Values()
	for i := range v {
		v[i] *= 2
	}
	return tensor.FromSlice(v, args[0].Shape()...)
}}

// TestStepValuesName runs graphs with a step of every kind whose operands
// are computed by earlier steps, each step seeing only the values it
// declares: the results equal a plain evaluation's. A step kind whose
// values() left out an operand fails here (on a nil operand, or because
// the step making it was dropped as dead).
func TestStepValuesName(t *testing.T) {
	seq := func(n int, shape ...int) expr.Expr[float64] {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i%7) - 2.5
		}
		return expr.From(tensor.FromSlice(v, shape...))
	}
	a, b := seq(12, 3, 4), seq(12, 4, 3)
	idx := expr.From(tensor.FromSlice([]int64{2, 0, 1}, 3, 1)).Mul(expr.Scalar[int64](1)) // computed
	computed := a.Exp().Add(a)                                                            // a region's output
	cases := map[string]expr.Expr[float64]{
		"region":   a.Exp().MatMul(b).Add(a.MatMul(b.Exp()).Abs().Sqrt().Neg()),
		"reduce":   a.MatMul(b).Sum(1).Add(expr.Scalar(1.0)),
		"matmul":   computed.MatMul(b.Sin()).Exp(),
		"epilogue": computed.MatMul(b).Add(computed.MatMul(b).Tanh()),
		"view":     computed.MatMul(b).T().MatMul(computed),
		"external": expr.Wrap[float64](expr.Apply(doubled, dtype.Float64, a.Shape(), computed)).Mul(a),
		"window":   expr.Conv(computed.Reshape(1, 1, 3, 4), b.Sin().Reshape(1, 1, 2, 6).Slice(3, 0, 2, 1)).Add(expr.Scalar(1.0)),
		"scan":     computed.MatMul(b).CumSum(1).Mul(expr.Scalar(2.0)),
		"scatter":  expr.ScatterAdd(computed, 0, idx, a.Sin()).Add(expr.Scalar(1.0)),
	}
	kinds := map[string]bool{}
	x := New(Workers(2), Grain(1), BlockSize(16))
	defer x.Close()
	for name, e := range cases {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, e.Err())
			want, err := EvalWith(New(Workers(1)), e)
			require.NoError(t, err)
			roots := []*expr.Node{e.Node()}
			w := getWalker()
			defer func() { w.reset(); walkers.Put(w) }()
			w.walk(roots, nil, nil)
			p, err := x.buildPlan(w, roots, nil, nil, nil)
			require.NoError(t, err)
			for i, s := range p.steps {
				kinds[fmt.Sprintf("%T", s)] = true
				p.steps[i] = maskedStep{s}
			}
			got := make([]tensor.Any, 1)
			require.NoError(t, p.exec(x, w.leaves, make([]tensor.Any, 1), got))
			assert.Equal(t, want.Values(), got[0].(*tensor.Tensor[float64]).Values())
		})
	}
	for _, k := range []string{"*exec.region", "*exec.reduceStep", "*exec.matmulStep", "*exec.viewStep",
		"*exec.externalStep", "*exec.windowStep", "*exec.scanStep", "*exec.indexCheck", "*exec.scatterStep"} {
		assert.True(t, kinds[k], "no graph above makes a %s", k)
	}
}
