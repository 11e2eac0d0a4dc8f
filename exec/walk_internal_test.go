package exec

import (
	"fmt"
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
