package bench

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
)

// TestStandardMatchesHandLoop runs every standard workload once through
// tensorplay and once as its hand loop, at small sizes and several worker
// counts, and requires the outputs to agree.
func TestStandardMatchesHandLoop(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		x := exec.New(exec.Workers(workers))
		for _, w := range Standard() {
			for _, size := range []int{1, 7, 1000, 40_000} {
				p := Params{Size: size, MatMulN: 33, Workers: workers, Exec: x, Seed: 1}
				c, err := w.Setup(p)
				require.NoError(t, err, "%s size %d", w.Name, size)
				require.NoError(t, c.Tensorplay(), "%s size %d", w.Name, size)
				require.NoError(t, c.HandLoop(), "%s size %d", w.Name, size)
				assert.NoError(t, c.Check(), "%s size %d workers %d", w.Name, size, workers)
				assert.Positive(t, c.Bytes, w.Name)
				assert.Positive(t, c.Flops, w.Name)
				assert.NotEmpty(t, c.Shape, w.Name)
			}
		}
	}
}

func TestStandardNamesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, w := range Standard() {
		assert.False(t, seen[w.Name], "duplicate %s", w.Name)
		seen[w.Name] = true
		assert.NotEmpty(t, w.Description)
		assert.Contains(t, []Bound{MemoryBound, ComputeBound}, w.Bound)
	}
	assert.Len(t, seen, 24)
}

// TestW3Kernel checks that the W3/compiled row runs the kernel kernels_tp.go
// registers and the W3 row, on an executor derived from the caller's (its
// Debug writer included), interprets.
func TestW3Kernel(t *testing.T) {
	for name, w := range map[string]func(Params) (*Case, error){"W3": w3[float64], "W3/compiled": w3Kernel[float64]} {
		var plan bytes.Buffer
		x := exec.New(exec.Workers(2), exec.Debug(&plan))
		c, err := w(Params{Size: 1000, Workers: 2, Exec: x, Seed: 1})
		require.NoError(t, err)
		require.NoError(t, c.Tensorplay())
		require.NoError(t, c.HandLoop())
		assert.NoError(t, c.Check())
		require.Contains(t, plan.String(), "fused", "%s: the plan was printed", name)
		assert.Equal(t, name == "W3/compiled", strings.Contains(plan.String(), "compiled W3"), "%s: kernel used", name)
	}
}
