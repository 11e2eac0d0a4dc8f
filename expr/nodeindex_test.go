package expr

import (
	"fmt"
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

// TestNodeIndex checks the positions a NodeIndex gives, with the stamp
// lease and without it (another index holds it), for graphs below and
// above the size where an index without the lease keeps a map, released
// halfway, and refilled after Reset.
func TestNodeIndex(t *testing.T) {
	for _, size := range []int{3, 10, 100} {
		nodes := chain(t, size) // 2*size+1 nodes
		t.Run(fmt.Sprintf("%d nodes/leased", len(nodes)), func(t *testing.T) {
			var x NodeIndex
			defer x.Reset()
			x.Add(nodes[0])
			require.True(t, x.leased, "the first index to add a node takes the lease")
			x.Reset()
			assert.False(t, x.leased)
			assert.False(t, stampLease.Load(), "Reset gives the lease back")
			checkIndex(t, &x, nodes)
			assert.True(t, x.leased)
		})
		t.Run(fmt.Sprintf("%d nodes/not leased", len(nodes)), func(t *testing.T) {
			var holder, x NodeIndex
			defer holder.Reset()
			defer x.Reset()
			holder.Add(nodes[len(nodes)-1])
			require.True(t, holder.leased)
			checkIndex(t, &x, nodes)
			assert.False(t, x.leased, "one index holds the lease")
			assert.Equal(t, len(nodes)/2 > linearMax, x.mapped)
			// The holder's stamp on the last node does not make it x's.
			_, in := x.Lookup(nodes[len(nodes)-1])
			assert.False(t, in)
		})
		t.Run(fmt.Sprintf("%d nodes/released", len(nodes)), func(t *testing.T) {
			var x NodeIndex
			defer x.Reset()
			half := len(nodes) / 2
			for _, n := range nodes[:half] {
				x.Add(n)
			}
			require.True(t, x.leased)
			x.Release()
			assert.False(t, stampLease.Load())
			var other NodeIndex // takes the lease and restamps the nodes
			for _, n := range nodes {
				other.Add(n)
			}
			require.True(t, other.leased)
			for i, n := range nodes {
				p, in := x.Lookup(n)
				assert.Equal(t, i < half, in, "node %d", i)
				if in {
					assert.Equal(t, i, p)
				}
			}
			other.Reset()
			x.Reset()
			checkIndex(t, &x, nodes)
		})
	}
}

// TestNodeIndexEpochWrap: a node stamped by a filling 2^32 fillings ago
// carries this filling's epoch; its stale position is not taken for its
// own.
func TestNodeIndexEpochWrap(t *testing.T) {
	nodes := chain(t, 2)
	var x NodeIndex
	defer x.Reset()
	x.Add(nodes[0])
	x.Add(nodes[1])
	require.True(t, x.leased)
	// As a filling of the same epoch long ago would have left them: node 3
	// at position 1 (taken by node 1), node 4 at position 2 (past the end).
	nodes[3].stamp = uint64(x.epoch)<<32 | 1
	nodes[4].stamp = uint64(x.epoch)<<32 | 2
	for _, i := range []int{3, 4} {
		_, in := x.Lookup(nodes[i])
		assert.False(t, in, "node %d", i)
	}
	p, in := x.Lookup(nodes[1])
	assert.True(t, in)
	assert.Equal(t, 1, p)
}

// TestNodeIndexConcurrent fills indexes over one shared graph on several
// goroutines at once (run with -race): every index gets exact positions
// whichever of them holds the lease.
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
	assert.False(t, stampLease.Load(), "every index gave the lease back")
}
