package exec_test

import (
	"math"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// recordingBacking is a tensor.Backing that records the ranges the
// executor releases, as a mapped file would receive them.
type recordingBacking struct {
	readOnly bool
	mu       sync.Mutex
	released []bool // per element of the storage
	calls    int
	maxLen   int
}

func (b *recordingBacking) ReadOnly() bool { return b.readOnly }

func (b *recordingBacking) ReleaseRange(off, n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.calls++
	b.maxLen = max(b.maxLen, n)
	for i := off; i < off+n; i++ {
		b.released[i] = true
	}
}

// unreleased returns how many elements were never released.
func (b *recordingBacking) unreleased() int {
	n := 0
	for _, r := range b.released {
		if !r {
			n++
		}
	}
	return n
}

// backed returns a copy of src whose storage is held by a recordingBacking.
func backed(t *testing.T, src *tensor.Tensor[float64], readOnly bool) (*tensor.Tensor[float64], *recordingBacking) {
	b := &recordingBacking{readOnly: readOnly, released: make([]bool, src.Numel())}
	x, err := tensor.FromBacking(src.Values(), b, src.Shape()...)
	require.NoError(t, err)
	return x, b
}

// TestMappedOperandsAreReleased checks that every kernel over storage
// with a RangeReleaser releases all of it, in pieces of about 8 MiB, and
// computes the bits it computes over ordinary tensors.
func TestMappedOperandsAreReleased(t *testing.T) {
	const rows, cols = 2048, 1536 // 24 MiB of float64
	src, err := tensor.RandN[float64](7, rows, cols)
	require.NoError(t, err)
	x := exec.New(exec.Workers(2))
	defer x.Close()
	limit := 8<<20/8 + 2*cols // a release covers about 8 MiB: at most a block more

	t.Run("elementwise into a mapped output", func(t *testing.T) {
		a, ba := backed(t, src, true)
		dst, bd := backed(t, src, false)
		require.NoError(t, exec.EvalToWith(x, dst, expr.Of(a).MulScalar(3).AddScalar(1).Exp()))
		want, err := exec.EvalWith(x, expr.Of(src).MulScalar(3).AddScalar(1).Exp())
		require.NoError(t, err)
		assert.Equal(t, want.Values(), dst.Values())
		for name, b := range map[string]*recordingBacking{"input": ba, "output": bd} {
			assert.Zero(t, b.unreleased(), name)
			assert.GreaterOrEqual(t, b.calls, 3, name)
			assert.LessOrEqual(t, b.maxLen, limit, name)
		}
	})
	t.Run("transposed input", func(t *testing.T) {
		a, ba := backed(t, src, true)
		at, err := a.T()
		require.NoError(t, err)
		require.Equal(t, ba, at.Backing(), "views keep the backing")
		got, err := exec.EvalWith(x, expr.Of(at).AddScalar(2))
		require.NoError(t, err)
		st, _ := src.T()
		want, err := exec.EvalWith(x, expr.Of(st).AddScalar(2))
		require.NoError(t, err)
		assert.Equal(t, want.Values(), got.Values())
		assert.Zero(t, ba.unreleased())
	})
	t.Run("reductions", func(t *testing.T) {
		for _, axes := range [][]int{nil, {0}, {1}} {
			a, ba := backed(t, src, true)
			got, err := exec.EvalWith(x, expr.Of(a).Square().Sum(axes...))
			require.NoError(t, err)
			want, err := exec.EvalWith(x, expr.Of(src).Square().Sum(axes...))
			require.NoError(t, err)
			assert.Equal(t, want.Values(), got.Values(), "axes %v", axes)
			assert.Zero(t, ba.unreleased(), "axes %v", axes)
			assert.GreaterOrEqual(t, ba.calls, 3, "axes %v", axes)
		}
	})
	t.Run("matmul", func(t *testing.T) {
		w, err := tensor.RandN[float64](8, cols, 33)
		require.NoError(t, err)
		a, ba := backed(t, src, true)
		got, err := exec.EvalWith(x, expr.Of(a).MatMul(expr.Of(w)))
		require.NoError(t, err)
		want, err := exec.EvalWith(x, expr.Of(src).MatMul(expr.Of(w)))
		require.NoError(t, err)
		assert.Equal(t, want.Values(), got.Values(), "bands of rows compute the whole product's bits")
		assert.Zero(t, ba.unreleased())
		assert.GreaterOrEqual(t, ba.calls, 3)
		assert.LessOrEqual(t, ba.maxLen, limit)
	})
	t.Run("ordinary tensors release nothing and read-only ones are refused", func(t *testing.T) {
		a, _ := backed(t, src, true)
		err := exec.EvalToWith(x, a, expr.Of(src).AddScalar(1))
		var ro *tensor.ReadOnlyError
		require.ErrorAs(t, err, &ro)
		assert.Equal(t, tensor.Shape{rows, cols}, ro.Shape)
		err = exec.AssignWith(x, []exec.Target{exec.To(a, expr.Of(src))})
		assert.ErrorAs(t, err, &ro)
		v, err := a.At(0, 0)
		require.NoError(t, err)
		w, _ := src.At(0, 0)
		assert.Equal(t, math.Float64bits(w), math.Float64bits(v), "nothing written")
	})
}
