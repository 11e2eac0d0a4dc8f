package exec

import (
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// The walk that signs a graph does work linear in its size: a chain of
// AddScalar nodes (one new scalar leaf per node) costs a bounded number of
// comparisons and lookups per node, however long it is. Before issue 19's
// fix every operand pushed was compared with the whole stack, and every leaf
// with every earlier leaf and leaf node, which is quadratic: planning 100k
// nodes took 14 s. Measured by work, not by time.
func TestWalkWorkIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("a long graph or input: run by the full test pass, not the -short race pass")
	}
	a, err := tensor.FromSlice([]float64{1, 2, 3}, 3)
	require.NoError(t, err)
	for _, n := range []int{1_000, 16_000, 64_000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			x := expr.Of(a)
			for range n {
				x = x.AddScalar(1)
			}
			require.NoError(t, x.Err())
			w := new(walker)
			defer w.reset()
			w.walk([]*expr.Node{x.Node()}, nil, nil)
			require.Len(t, w.nodes, 2*n+1) // the chain, its scalars, the tensor
			walk := w.probes
			for _, m := range w.leafNodes {
				require.GreaterOrEqual(t, w.leafOrdinal(m), 0)
			}
			perNode := float64(w.probes) / float64(len(w.nodes))
			assert.LessOrEqual(t, perNode, 4.0, "walk: %d probes, with leafOrdinal of every leaf %d, for %d nodes", walk, w.probes, len(w.nodes))
		})
	}
}

// Planning walks graphs of any depth with stacks of its own: with goroutine
// stacks limited to 1 MB, a chain of 100k AddScalar nodes is planned (its
// one region compiled, and with Debug its tpkernel hint printed), and so is
// a second root fused into the same region as the chain that reads it,
// which mergeGroups decides by walking the whole chain (waitsOnlyFor). A
// recursive walk needs several MB of stack for either.
func TestPlanningNeedsNoDeepStack(t *testing.T) {
	if testing.Short() {
		t.Skip("a long graph or input: run by the full test pass, not the -short race pass")
	}
	const n = 100_000
	a, err := tensor.FromSlice([]float64{1, 2, 3}, 3)
	require.NoError(t, err)
	head := expr.Of(a).AddScalar(1)
	x := head
	for range n {
		x = x.AddScalar(1)
	}
	require.NoError(t, x.Err())

	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
	var plan strings.Builder
	out, err := EvalWith(New(Workers(1), Debug(&plan)), x)
	require.NoError(t, err)
	assert.Equal(t, []float64{n + 2, n + 3, n + 4}, out.Values())
	assert.Contains(t, plan.String(), "1 outputs, 100001 kernels")

	outs, err := New(Workers(1)).Run([]*expr.Node{head.Node(), x.Node()}, nil)
	require.NoError(t, err)
	assert.Equal(t, []float64{2, 3, 4}, outs[0].(*tensor.Tensor[float64]).Values())
	assert.Equal(t, []float64{n + 2, n + 3, n + 4}, outs[1].(*tensor.Tensor[float64]).Values())
}
