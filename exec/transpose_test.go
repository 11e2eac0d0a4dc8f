package exec_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestTransposedTileShapes checks the tiles a transposed operand gets
// without the AVX2 loops (the copy is then a Go loop, a cache line of
// rows at a time): bands, never panels; lower tiles
// when there would be fewer than one per worker; and prefetches in
// regions larger than the caches.
func TestTransposedTileShapes(t *testing.T) {
	saved := simd.Enabled
	t.Cleanup(func() { simd.Enabled = saved })
	simd.Enabled = false
	r := newRand(33)
	tile := func(a, b *tensor.Tensor[float64]) string {
		return tileOf(t, expr.Of(a).Add(expr.Of(tensor.Must(b.T()))))
	}
	tests := []struct {
		name       string
		rows, cols int // of a; b is cols×rows
		want       string
	}{
		{"rows 300 elements apart", 300, 1100, "128x512 bands, copying 8 rows, 9 blocks"},
		{"rows 4 KiB apart", 512, 1100, "128x512 bands, copying 8 rows, 12 blocks"},
		{"wide rows: bands", 300, 5000, "128x512 bands, copying 8 rows, prefetching, 30 blocks"},
		{"narrow", 300, 40, "128x40 bands, copying 8 rows, 3 blocks"},
		{"one tile, halved for the second worker", 40, 300, "20x300 bands, copying 8 rows, 2 blocks"},
		{"too low to halve", 6, 300, "6x300 bands, copying 8 rows, 1 blocks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := randomTensor[float64](t, r, tt.rows, tt.cols)
			b := randomTensor[float64](t, r, tt.cols, tt.rows)
			assert.Equal(t, tt.want, tile(a, b))
		})
	}

	// A region prefetches when its operands (here a, b and the result,
	// 3×300×1100 float64) are at least streamBytes together.
	a := randomTensor[float64](t, r, 300, 1100)
	b := randomTensor[float64](t, r, 1100, 300)
	const operands = 3 * 300 * 1100 * 8
	for _, tt := range []struct {
		threshold int
		want      string
	}{
		{operands + 1, "128x512 bands, copying 8 rows, 9 blocks"},
		{operands, "128x512 bands, copying 8 rows, prefetching, 9 blocks"},
		{0, "128x512 bands, copying 8 rows, prefetching, 9 blocks"},
	} {
		t.Run(fmt.Sprintf("threshold %d bytes", tt.threshold), func(t *testing.T) {
			defer exec.SetStreamBytes(tt.threshold)()
			assert.Equal(t, tt.want, tile(a, b))
		})
	}
	// A broadcast column counts once: 300 elements, not 300×1100.
	col := randomTensor[float64](t, r, 300, 1)
	withCol := expr.Of(a).Add(expr.Of(tensor.Must(b.T()))).Add(expr.Of(col))
	for _, tt := range []struct {
		threshold int
		want      string
	}{
		{operands + 300*8 + 1, "128x512 bands, copying 8 rows, 9 blocks"},
		{operands + 300*8, "128x512 bands, copying 8 rows, prefetching, 9 blocks"},
	} {
		t.Run(fmt.Sprintf("with a column, threshold %d bytes", tt.threshold), func(t *testing.T) {
			defer exec.SetStreamBytes(tt.threshold)()
			assert.Equal(t, tt.want, tileOf(t, withCol))
		})
	}
	// Nothing transposed but a stepped slice: strided tiles, 1 KiB of
	// elements high and 512 wide.
	wide := randomTensor[float64](t, r, 300, 2300)
	stepped := tensor.Must(wide.Slice(1, 0, 2200, 2))
	assert.Equal(t, "128x512 strided tiles, 9 blocks", tileOf(t, expr.Of(a).Add(expr.Of(stepped))))
}

// TestBandedTileShapes checks the tiles of transposed operands copied with
// the AVX2 loops. Where every other operand is contiguous across its rows
// (or constant) and the region computes something, panels: whole rows,
// 512 bytes of the transposed operand's elements high (128 bytes of 1- and
// 2-byte ones), for rows of at most 4096 elements. Otherwise bands: 4
// KiB of row wide but no more than 2048 columns, or one tile across rows
// shorter than two such widths, and 1 KiB of elements high, aliased rows
// or not, in bands of a cache line of the operand's elements (8 rows for
// 1- and 2-byte ones). Both are no lower than a band when halved for the
// workers.
func TestBandedTileShapes(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no AVX2 loops: no bands")
	}
	r := newRand(34)
	sum := func(e expr.Expr[float64]) func() *expr.Node { return func() *expr.Node { return e.Node() } }
	tests := []struct {
		name string
		e    func() *expr.Node
		want string
	}{
		{"float64 panels", sum(transposedSum[float64](t, r, 300, 1100)), "64x1100 panels, copying 64 rows, 5 blocks"},
		{"float64 panels, rows 4 KiB apart", sum(transposedSum[float64](t, r, 512, 1100)), "64x1100 panels, copying 64 rows, 8 blocks"},
		{"float64 panels, 4096 columns", sum(transposedSum[float64](t, r, 100, 4096)), "64x4096 panels, copying 64 rows, 2 blocks"},
		{"float32 panels", func() *expr.Node { return transposedSum[float32](t, r, 300, 2100).Node() }, "128x2100 panels, copying 128 rows, 3 blocks"},
		{"complex128 panels", func() *expr.Node { return transposedSum[complex128](t, r, 300, 1100).Node() }, "32x1100 panels, copying 32 rows, 10 blocks"},
		{"int32 beside int16 panels", func() *expr.Node {
			return expr.Cast[int32](transposedSum[int16](t, r, 300, 2100)).Add(transposedSum[int32](t, r, 300, 2100)).Node()
		}, "128x2100 panels, copying 128 rows, 3 blocks"},
		{"int16 panels, 128 bytes high", func() *expr.Node { return transposedSum[int16](t, r, 600, 1100).Node() }, "64x1100 panels, copying 64 rows, 10 blocks"},
		{"float32 panels, halved no lower than a band", func() *expr.Node { return transposedSum[float32](t, r, 20, 300).Node() }, "16x300 panels, copying 16 rows, 2 blocks"},
		{"float64 panels, halved", sum(transposedSum[float64](t, r, 40, 300)), "20x300 panels, copying 20 rows, 2 blocks"},
		{"int8 panels, 128 bytes high", func() *expr.Node { return transposedSum[int8](t, r, 300, 2000).Node() }, "128x2000 panels, copying 128 rows, 3 blocks"},
		{"int8 panels, one halved", func() *expr.Node { return transposedSum[int8](t, r, 100, 2000).Node() }, "50x2000 panels, copying 50 rows, 2 blocks"},

		{"float64 bands, 4097 columns", sum(transposedSum[float64](t, r, 100, 4097)), "100x512 bands, copying 8 rows, 9 blocks"},
		{"int8 bands, 2048 columns at most", func() *expr.Node { return transposedSum[int8](t, r, 300, 9000).Node() }, "300x2048 bands, copying 8 rows, 5 blocks"},
		{"float64 bands, with a column", sum(transposedScaled[float64](t, r, 300, 1100)), "128x512 bands, copying 8 rows, 9 blocks"},
		{"float64 bands, rows 4 KiB apart", sum(transposedScaled[float64](t, r, 512, 1100)), "128x512 bands, copying 8 rows, 12 blocks"},
		{"float32 bands, rows under two tiles wide", func() *expr.Node { return transposedScaled[float32](t, r, 300, 1100).Node() }, "256x1100 bands, copying 16 rows, 2 blocks"},
		{"float64 bands, 1000 columns", sum(transposedScaled[float64](t, r, 1000, 1000)), "128x1000 bands, copying 8 rows, 8 blocks"},
		{"complex128 bands", func() *expr.Node { return transposedScaled[complex128](t, r, 300, 1100).Node() }, "64x256 bands, copying 4 rows, 25 blocks"},
		{"int16 bands, rows 4 KiB apart", func() *expr.Node { return transposedScaled[int16](t, r, 2048, 300).Node() }, "512x300 bands, copying 8 rows, 4 blocks"},
		{"float64 bands, halved", sum(transposedScaled[float64](t, r, 40, 300)), "20x300 bands, copying 8 rows, 2 blocks"},
		{"a copy keeps bands", func() *expr.Node {
			return expr.Of(tensor.Must(randomTensor[float64](t, r, 1100, 300).T())).Node()
		}, "128x512 bands, copying 8 rows, 9 blocks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tileOfNode(t, tt.e()))
		})
	}
}

// transposedScaled is (a + b.T) * col for random rows×cols a and rows×1
// col: the column keeps the region out of panels.
func transposedScaled[T dtype.Numeric](t *testing.T, r *rand.Rand, rows, cols int) expr.Expr[T] {
	return transposedSum[T](t, r, rows, cols).Mul(expr.Of(randomTensor[T](t, r, rows, 1)))
}

// transposedSum is a + b.T for random rows×cols a.
func transposedSum[T dtype.Numeric](t *testing.T, r *rand.Rand, rows, cols int) expr.Expr[T] {
	a := randomTensor[T](t, r, rows, cols)
	b := randomTensor[T](t, r, cols, rows)
	return expr.Of(a).Add(expr.Of(tensor.Must(b.T())))
}

// pieces matches the piece length of a tile plan, which tileOf leaves out.
var pieces = regexp.MustCompile(`, pieces of \d+`)

// tileOf returns the tile of e's fused region from a two-worker plan,
// without its piece length.
func tileOf[T dtype.Elem](t *testing.T, e expr.Expr[T]) string { return tileOfNode(t, e.Node()) }

func tileOfNode(t *testing.T, e *expr.Node) string {
	t.Helper()
	var plan bytes.Buffer
	x := exec.New(exec.Debug(&plan), exec.Workers(2))
	defer x.Close()
	_, err := x.Run([]*expr.Node{e}, nil)
	require.NoError(t, err)
	for _, line := range strings.Split(plan.String(), "\n") {
		if _, after, ok := strings.Cut(line, "tile "); ok {
			return pieces.ReplaceAllString(after, "")
		}
	}
	t.Fatalf("no tile in\n%s", plan.String())
	return ""
}

// TestTransposedTilesScratch checks that a long chain over a transposed
// operand keeps small per-worker buffers: every slot holds a block-sized
// piece of one row of a tile.
func TestTransposedTilesScratch(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	r := newRand(32)
	const n = 500
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
	// 38 slots of a 128×500 tile each would be 19 MB per worker. (The
	// slots' exact lengths are checked by TestRowModeSlotLengths.)
	assert.LessOrEqual(t, int64(m1.TotalAlloc-m0.TotalAlloc), out+1<<20, "bytes allocated by the first evaluation (output %d)", out)
}

// TestBandsAfterSIMDTurnedOff: a plan made with the transpose loops, whose
// pooled per-worker state still holds them, keeps computing the same values
// when simd.Enabled is cleared afterwards (as tests do): its bands, and its
// panels, are then copied element by element. a + b.T runs in panels; a
// column operand keeps (a + b.T) * col in bands. 67 rows leave a partial
// band and a partial panel.
func TestBandsAfterSIMDTurnedOff(t *testing.T) {
	saved := simd.Enabled
	t.Cleanup(func() { simd.Enabled = saved })
	const R, C = 67, 70
	a := tensor.Must(tensor.Zeros[float64](R, C))
	b := tensor.Must(tensor.Zeros[float64](C, R))
	col := tensor.Must(tensor.Zeros[float64](R, 1))
	for i := range a.Data() {
		a.Data()[i], b.Data()[i] = float64(i), float64(i)*1e4
	}
	for i := range col.Data() {
		col.Data()[i] = float64(i%5) - 2
	}
	av, bv, cv := a.Values(), tensor.Must(b.T()).Values(), broadcastValues(t, col, tensor.Shape{R, C})
	sum := expr.Of(a).Add(expr.Of(tensor.Must(b.T())))
	for _, tt := range []struct {
		name, mode string
		e          expr.Expr[float64]
		want       func(i int) float64
	}{
		{"panels", " panels, ", sum, func(i int) float64 { return av[i] + bv[i] }},
		{"bands", " bands, copying ", sum.Mul(expr.Of(col)), func(i int) float64 { return (av[i] + bv[i]) * cv[i] }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			simd.Enabled = saved
			var plan bytes.Buffer
			x := exec.New(exec.Workers(1), exec.Debug(&plan))
			defer x.Close()
			first, err := exec.EvalWith(x, tt.e)
			require.NoError(t, err)
			if saved {
				require.Contains(t, plan.String(), tt.mode, "the plan")
			}
			simd.Enabled = false
			second, err := exec.EvalWith(x, tt.e)
			require.NoError(t, err)
			assert.Equal(t, first.Values(), second.Values())
			for i, v := range second.Values() {
				require.Equal(t, tt.want(i), v, "element %d", i)
			}
		})
	}
}
