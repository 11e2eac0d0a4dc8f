package expr

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/tensor"
)

// chain returns the nodes of x+1+1+... (n additions, their scalars and x)
// in the order they were built.
func chain(t *testing.T, n int) []*Node {
	t.Helper()
	a, err := tensor.FromSlice([]float64{1, 2}, 2)
	require.NoError(t, err)
	x := Of(a)
	nodes := []*Node{x.Node()}
	for range n {
		s := Scalar(1.0)
		x = x.Add(s)
		nodes = append(nodes, s.Node(), x.Node())
	}
	require.NoError(t, x.Err())
	return nodes
}

// checkIndex adds the first half of nodes to x and checks every lookup:
// the added ones at their positions, the others absent.
func checkIndex(t *testing.T, x *NodeIndex, nodes []*Node) {
	t.Helper()
	half := len(nodes) / 2
	for i, n := range nodes[:half] {
		_, in := x.Lookup(n)
		require.False(t, in, "node %d before it is added", i)
		require.Equal(t, i, x.Add(n))
	}
	require.Equal(t, half, x.Len())
	require.Equal(t, nodes[:half], x.Nodes())
	for i, n := range nodes {
		p, in := x.Lookup(n)
		if i < half {
			assert.True(t, in, "node %d", i)
			assert.Equal(t, i, p, "node %d", i)
		} else {
			assert.False(t, in, "node %d was not added", i)
		}
	}
}

// TestNodeIndex checks the positions a NodeIndex gives for graphs below
// and above its first table's size (it grows), refilled after Reset with
// the nodes in another order, and with no allocation once grown.
func TestNodeIndex(t *testing.T) {
	for _, size := range []int{3, 10, 100, 1000} {
		nodes := chain(t, size) // 2*size+1 nodes
		t.Run(fmt.Sprintf("%d nodes", len(nodes)), func(t *testing.T) {
			var x NodeIndex
			_, in := x.Lookup(nodes[0])
			assert.False(t, in, "an empty index holds nothing")
			checkIndex(t, &x, nodes)
			x.Reset()
			assert.Zero(t, x.Len())
			reversed := slices.Clone(nodes)
			slices.Reverse(reversed)
			checkIndex(t, &x, reversed)
			allocs := testing.AllocsPerRun(10, func() { // the warm-up run grows it
				x.Reset()
				for _, n := range nodes {
					x.Add(n)
				}
			})
			assert.Zero(t, allocs, "a refilled index allocates nothing")
		})
	}
}

// TestNodeIndexGenerationWrap: when the fillings' number wraps around, the
// entries of the filling 2^32 fillings ago are not taken for this one's.
func TestNodeIndexGenerationWrap(t *testing.T) {
	nodes := chain(t, 2)
	var x NodeIndex
	for _, n := range nodes {
		x.Add(n)
	}
	x.gen = ^uint32(0) // as if this were the last filling before the wrap
	for i, n := range nodes {
		x.insert(n.id, i)
	}
	x.Reset()
	require.Equal(t, uint32(1), x.gen, "the wrap skips 0, which a new table's entries hold")
	for i, n := range nodes {
		_, in := x.Lookup(n)
		assert.False(t, in, "node %d of the old filling", i)
	}
	checkIndex(t, &x, nodes)
}

// TestNodeIndexConcurrent fills indexes over one shared graph on several
// goroutines at once (run with -race): every index gets exact positions.
func TestNodeIndexConcurrent(t *testing.T) {
	nodes := chain(t, 40)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var x NodeIndex
			for round := range 50 {
				x.Reset()
				// Each goroutine adds the nodes in its own order.
				order := make([]*Node, len(nodes))
				for i := range nodes {
					order[i] = nodes[(i*7+g+round)%len(nodes)]
				}
				for i, n := range order {
					if _, in := x.Lookup(n); in {
						t.Errorf("node %d found before it was added", i)
						return
					}
					x.Add(n)
				}
				for i, n := range order {
					if p, in := x.Lookup(n); !in || p != i {
						t.Errorf("node %d: position %d, %v", i, p, in)
						return
					}
				}
			}
			x.Reset()
		}()
	}
	wg.Wait()
}
