package exec

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestAheadRun checks what a logsumexp along rows prefetches while it
// folds an output: the next output's row of a direct input, nothing after
// the task's last output, and nothing when the reduced values are
// computed (the producer's buffer, not an input) or read across rows.
func TestAheadRun(t *testing.T) {
	x := tensor.Must(tensor.RandN[float32](1, 3, 1024))
	xt := tensor.Must(tensor.RandN[float32](2, 1024, 3))
	cases := []struct {
		name string
		e    expr.Expr[float32]
		in   *tensor.Tensor[float32]
		want []int // the offset into in of next = 1, 2, 3 (-1: nil), hi = 3
	}{
		{"rows of an input", expr.LogSumExp(expr.Of(x), false, 1), x, []int{1024, 2048, -1}},
		{"computed rows", expr.LogSumExp(expr.Of(x).Mul(expr.Of(x)), false, 1), x, []int{-1, -1, -1}},
		{"columns", expr.LogSumExp(expr.Of(xt), false, 0), xt, []int{-1, -1, -1}},
	}
	x2 := New(Workers(1))
	defer x2.Close()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.NoError(t, c.e.Err())
			roots := []*expr.Node{c.e.Node()}
			w := getWalker()
			defer func() { w.reset(); walkers.Put(w) }()
			w.walk(roots, nil, nil)
			p, err := x2.buildPlan(w, roots, nil, nil, nil)
			require.NoError(t, err)
			var rs *reduceStep
			for _, s := range p.steps {
				if r, ok := s.(*reduceStep); ok {
					rs = r
				}
			}
			require.NotNil(t, rs, "no reduction in the plan")
			st, err := rs.prod.newState()
			require.NoError(t, err)
			for s := range rs.prod.inputs {
				st.slots[s].bind(c.in)
			}
			src := st.slots[rs.root].(*slot[float32])
			for i, want := range c.want {
				got := aheadRun(rs, st, src, i+1, 3)
				if want < 0 {
					assert.Nil(t, got, "next %d", i+1)
					continue
				}
				require.Len(t, got, 1024, "next %d", i+1)
				assert.Same(t, &c.in.Data()[want], &got[0], "next %d", i+1)
			}
		})
	}
}
