package exec_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestBindNotPlaceholder checks that binding a tensor to a node that is not
// a placeholder is a *BindError naming the node, on every entry point
// (Eval(x.Sum(), Bind(x, five)) returned the sum of x's own data), and that
// a destination is left untouched.
func TestBindNotPlaceholder(t *testing.T) {
	xt := tensor.Must(tensor.FromSlice([]int64{1, 2}, 2))
	five := tensor.Must(tensor.FromSlice([]int64{5, 5}, 2))
	x := expr.Of(xt)
	p := expr.Placeholder[int64]("p", 2)
	cases := []struct {
		name string
		node expr.Expr[int64]
		text string
	}{
		{"tensor leaf", x, "exec: cannot bind a tensor to tensor:i64[2]: it is not a placeholder; only placeholders can be bound"},
		{"computed node", x.Neg(), "exec: cannot bind a tensor to neg:i64[2]: it is not a placeholder; only placeholders can be bound"},
		{"placeholder's use", p.AddScalar(1), "exec: cannot bind a tensor to add:i64[2]: it is not a placeholder; only placeholders can be bound"},
	}
	for _, c := range cases {
		e := x.Add(p).Add(c.node).Sum()
		dst := tensor.Must(tensor.Full[int64](-7))
		calls := []struct {
			name string
			run  func(b ...exec.Binding) error
		}{
			{"Eval", func(b ...exec.Binding) error { _, err := exec.Eval(e, b...); return err }},
			{"EvalTo", func(b ...exec.Binding) error { return exec.EvalTo(dst, e, b...) }},
			{"EvalNWith", func(b ...exec.Binding) error {
				_, err := exec.EvalNWith(exec.Default, []expr.Expr[int64]{e, e}, b...)
				return err
			}},
			{"Run", func(b ...exec.Binding) error {
				_, err := exec.Default.Run([]*expr.Node{e.Node()}, []tensor.Any{dst}, b...)
				return err
			}},
		}
		for _, call := range calls {
			t.Run(c.name+"/"+call.name, func(t *testing.T) {
				require.NoError(t, call.run(exec.Bind(p, five)), "the graph is fine with its placeholder bound")
				require.NoError(t, exec.CopyTo(dst, tensor.Must(tensor.Full[int64](-7))))
				err := call.run(exec.Bind(p, five), exec.Bind(c.node, five))
				var be *exec.BindError
				require.ErrorAs(t, err, &be)
				assert.Equal(t, c.text, err.Error())
				assert.Equal(t, []int64{-7}, dst.Values(), "nothing written")
			})
		}
	}
}
