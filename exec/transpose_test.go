package exec_test

import (
	"math"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestTransposedTiles covers regions with an operand strided along the
// inner axis, which run tile by tile and then row by row: partial tiles on
// both axes, a column broadcast and a scalar beside the transposed view,
// two outputs, a transposed destination (whose rows the layout makes
// contiguous again), a destination strided along its rows (written through
// a scatter) and element sizes that change the tile's height.
func TestTransposedTiles(t *testing.T) {
	t.Run("float64", func(t *testing.T) { testTransposedTiles[float64](t) })
	t.Run("float32", func(t *testing.T) { testTransposedTiles[float32](t) })
	t.Run("int8", func(t *testing.T) { testTransposedTiles[int8](t) })
	t.Run("complex128", func(t *testing.T) { testTransposedTiles[complex128](t) })
}

func testTransposedTiles[T dtype.Numeric](t *testing.T) {
	r := newRand(31)
	const R, C = 70, 300 // neither a multiple of any tile side
	a := randomTensor[T](t, r, R, C)
	b := randomTensor[T](t, r, C, R)
	bt := tensor.Must(b.T())
	col := randomTensor[T](t, r, R, 1)
	// Every other column of a wider tensor, transposed: strides (2, 2R).
	wide := randomTensor[T](t, r, 2*C, R)
	st := tensor.Must(tensor.Must(wide.Slice(0, 0, math.MaxInt, 2)).T())

	av, bv, cv, sv := a.Values(), bt.Values(), col.Values(), st.Values()
	want1, want2 := make([]T, R*C), make([]T, R*C)
	for i := range R {
		for j := range C {
			k := i*C + j
			want1[k] = av[k] + bv[k]*cv[i]
			want2[k] = av[k] + bv[k] - sv[k] + 3
		}
	}
	e1 := expr.Of(a).Add(expr.Of(bt).Mul(expr.Of(col)))
	e2 := expr.Of(a).Add(expr.Of(bt)).Sub(expr.Of(st)).AddScalar(3)
	for _, x := range []*exec.Executor{exec.Default, serial, tiled} {
		outs, err := exec.EvalNWith(x, []expr.Expr[T]{e1, e2})
		require.NoError(t, err)
		assertValues(t, want1, outs[0].Values(), "a + b.T*col")
		assertValues(t, want2, outs[1].Values(), "a + b.T - s.T + 3")

		// A transposed destination: the layout follows dst, so a is the
		// strided operand and dst's rows are contiguous again.
		dst := tensor.Must(tensor.Must(tensor.Zeros[T](C, R)).T())
		require.NoError(t, exec.EvalToWith(x, dst, e2))
		assertValues(t, want2, dst.Values(), "into a transposed dst")
		assert.Equal(t, tensor.Shape{R, C}, dst.Shape(), "dst keeps its shape")

		// Every other column of a wider tensor: the destination itself is
		// strided along its rows.
		wideDst := tensor.Must(tensor.Zeros[T](R, 2*C))
		cols := tensor.Must(wideDst.Slice(1, 1, math.MaxInt, 2))
		require.NoError(t, exec.EvalToWith(x, cols, e2))
		assertValues(t, want2, cols.Values(), "into every other column")
		for i, v := range wideDst.Data() {
			if i%2 == 0 {
				require.Zero(t, v, "element %d outside the destination view", i)
			}
		}
	}
}

// TestTransposedTilesScratch checks that a long chain over a transposed
// operand keeps small per-worker buffers: only the transposed operand's slot
// holds a whole tile, every other slot one row of it.
func TestTransposedTilesScratch(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	r := newRand(32)
	const n = 512
	a := randomTensor[float64](t, r, n, n)
	bt := tensor.Must(randomTensor[float64](t, r, n, n).T())
	e := expr.Of(a).Add(expr.Of(bt))
	for i := range 12 {
		e = e.MulScalar(1.0001).AddScalar(float64(i)).Sub(expr.Of(a))
	}
	x := exec.New(exec.Workers(2))
	defer x.Close()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	_, err := exec.EvalWith(x, e)
	require.NoError(t, err)
	runtime.ReadMemStats(&m1)
	out := int64(8 * n * n)
	// 38 slots of a 32×128 tile each would be 2.5 MB per worker.
	assert.LessOrEqual(t, int64(m1.TotalAlloc-m0.TotalAlloc), out+1<<20, "bytes allocated by the first evaluation (output %d)", out)
}
