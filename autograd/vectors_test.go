package autograd_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

// gradCase is one case of grad.json.
type gradCase struct {
	ID        string            `json:"id"`
	Op        string            `json:"op"`
	Upstream  string            `json:"upstream"`
	A         vectors.Tensor    `json:"a"`
	B         vectors.Tensor    `json:"b"`
	Out       vectors.Tensor    `json:"out"`
	GradOut   vectors.Tensor    `json:"grad_out"`
	GradA     vectors.Tensor    `json:"grad_a"`
	GradB     vectors.Tensor    `json:"grad_b"`
	Tolerance vectors.Tolerance `json:"tolerance"`
}

var gradOps = map[string]func(a, b expr.Expr[float64]) expr.Expr[float64]{
	"add":           expr.Expr[float64].Add,
	"sub":           expr.Expr[float64].Sub,
	"mul":           expr.Expr[float64].Mul,
	"div":           expr.Expr[float64].Div,
	"broadcast_add": expr.Expr[float64].BroadcastAdd,
}

func build(t *testing.T, r vectors.Tensor) *tensor.Tensor[float64] {
	t.Helper()
	x, err := vectors.Build[float64](r)
	require.NoError(t, err)
	return x
}

// TestGradVectors checks every case of grad.json: the forward value, and
// the gradients of both operands for the recorded upstream gradient, each
// evaluated twice with different worker counts and compared bit for bit.
func TestGradVectors(t *testing.T) {
	f := vectors.Load[gradCase](t, "grad.json")
	require.Equal(t, f.Meta["count"], float64(len(f.Cases)))
	for _, c := range f.Cases {
		t.Run(c.ID, func(t *testing.T) {
			op, ok := gradOps[c.Op]
			require.True(t, ok, "op %s", c.Op)
			a, b := expr.Of(build(t, c.A)), expr.Of(build(t, c.B))
			y := op(a, b)
			require.NoError(t, y.Err())
			out, err := exec.Eval(y)
			require.NoError(t, err)
			vectors.AssertClose(t, out.Values(), build(t, c.Out).Values(), c.Tolerance, "out")

			up := expr.Of(build(t, c.GradOut))
			gs, err := autograd.VJPOf(y, up, a, b)
			require.NoError(t, err)
			want := []vectors.Tensor{c.GradA, c.GradB}
			for i, g := range gs {
				got, err := exec.EvalWith(serial, g)
				require.NoError(t, err)
				assert.Equal(t, tensor.Shape(want[i].Shape), got.Shape())
				vectors.AssertClose(t, got.Values(), build(t, want[i]).Values(), c.Tolerance, []string{"grad_a", "grad_b"}[i])
				again, err := exec.EvalWith(wide, g)
				require.NoError(t, err)
				assert.Equal(t, got.Values(), again.Values(), "bit-identical for 1 and 8 workers")
			}
			if c.Upstream == "ones" {
				// The same gradients from Grad of the sum.
				gs2, err := autograd.GradOf(y.Sum(), a, b)
				require.NoError(t, err)
				for i, g := range gs2 {
					got, err := exec.Eval(g)
					require.NoError(t, err)
					vectors.AssertClose(t, got.Values(), build(t, want[i]).Values(), c.Tolerance, "grad of sum")
				}
			}
		})
	}
}
