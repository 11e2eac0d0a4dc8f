package exec_test

import (
	"bytes"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// The plan's shape, read from the Debug listing: how many fused kernels,
// how many ops each runs, and the merged layout each walks.

type planInfo struct {
	text    string
	regions []regionInfo
	views   int
}

type regionInfo struct {
	shape            string
	outputs, kernels int
	sizes            []int
	strides          [][]int // per operand: outputs first, then inputs
	blocks           int
}

var fusedLine = regexp.MustCompile(`^\s*fused (\[[^\]]*\]): (\d+) outputs, (\d+) kernels, layout sizes=\[([\d ]*)\]((?: s\d+=\[[-\d ]*\])*), tile \d+x\d+ [a-z ]+(?:, copying \d+ rows)?(?:, pieces of \d+)?(?:, prefetching)?, (\d+) blocks`)
var operandStrides = regexp.MustCompile(`s\d+=\[([-\d ]*)\]`)

func ints(s string) []int {
	var out []int
	for _, f := range strings.Fields(s) {
		v, err := strconv.Atoi(f)
		if err != nil {
			panic(err)
		}
		out = append(out, v)
	}
	return out
}

// planWith runs roots with a debugging executor built from opts and parses
// the plan it prints.
func planWith(t *testing.T, dsts []tensor.Any, opts []exec.Option, roots ...*expr.Node) planInfo {
	t.Helper()
	var buf bytes.Buffer
	x := exec.New(append([]exec.Option{exec.Debug(&buf), exec.Workers(1)}, opts...)...)
	_, err := x.Run(roots, dsts)
	require.NoError(t, err)
	p := planInfo{text: buf.String()}
	for _, line := range strings.Split(p.text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "view ") {
			p.views++
		}
		m := fusedLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		g := regionInfo{shape: m[1], sizes: ints(m[4])}
		g.outputs, _ = strconv.Atoi(m[2])
		g.kernels, _ = strconv.Atoi(m[3])
		g.blocks, _ = strconv.Atoi(m[6])
		for _, s := range operandStrides.FindAllStringSubmatch(m[5], -1) {
			g.strides = append(g.strides, ints(s[1]))
		}
		p.regions = append(p.regions, g)
	}
	require.NotEmpty(t, p.text, "the Debug option printed nothing")
	return p
}

func planOf(t *testing.T, roots ...*expr.Node) planInfo {
	t.Helper()
	return planWith(t, nil, nil, roots...)
}

func zeros(t *testing.T, shape ...int) *tensor.Tensor[float64] {
	return tensor.Must(tensor.New[float64](shape...))
}

func TestPlanFusion(t *testing.T) {
	const R, C = 8, 4
	a, b, c := expr.Of(zeros(t, R, C)), expr.Of(zeros(t, R, C)), expr.Of(zeros(t, R, C))

	t.Run("contiguous a*b+c is one flat loop", func(t *testing.T) {
		p := planOf(t, a.Mul(b).Add(c).Node())
		require.Len(t, p.regions, 1, p.text)
		assert.Equal(t, 1, p.regions[0].kernels, "a*b+c is one fused multiply-add kernel:\n%s", p.text)
		assert.Equal(t, []int{R * C}, p.regions[0].sizes, p.text)
	})
	t.Run("W3 is one kernel", func(t *testing.T) {
		p := planOf(t, a.Mul(b).Add(c).Mul(a.Sub(b)).Div(c.AddScalar(1.5)).Node())
		require.Len(t, p.regions, 1, p.text)
		want, why := 3, "six ops, three pairs fused"
		if !simd.Enabled {
			want, why = 4, "six ops, two pairs fused (without AVX2 a float64 division stays in gonum's DivTo)"
		}
		assert.Equal(t, want, p.regions[0].kernels, "%s:\n%s", why, p.text)
		assert.Equal(t, []int{R * C}, p.regions[0].sizes, p.text)
	})
	t.Run("common subexpressions are computed once", func(t *testing.T) {
		p := planOf(t, a.Add(b).Mul(a.Add(b)).Node())
		require.Len(t, p.regions, 1, p.text)
		assert.Equal(t, 2, p.regions[0].kernels, p.text)
		p = planOf(t, a.Add(b).Mul(a.Add(c)).Node())
		assert.Equal(t, 2, p.regions[0].kernels, "different operands are not merged (the second add fuses into the mul):\n%s", p.text)
		p = planOf(t, expr.Cast[float32](a).Add(expr.Cast[float32](a)).Node())
		assert.Equal(t, 2, p.regions[0].kernels, "equal casts merge:\n%s", p.text)
	})
	t.Run("an embed's operand is computed once, into the embed", func(t *testing.T) {
		ta, tb := randomTensor[float64](t, newRand(43), R, C), randomTensor[float64](t, newRand(44), R, C)
		e := expr.Of(ta).Add(expr.Of(tb)).Embed(1, 1, 2, 2*C+1)
		p := planOf(t, e.Node())
		require.Len(t, p.regions, 1, "a+b written straight into the embed's view:\n%s", p.text)
		assert.Equal(t, 1, p.views, p.text)
		got, err := exec.Eval(e)
		require.NoError(t, err)
		want := make([]float64, R*(2*C+1))
		for i := range R {
			for j := range C {
				want[i*(2*C+1)+1+2*j] = ta.Data()[i*C+j] + tb.Data()[i*C+j]
			}
		}
		assertValues(t, want, got.Values(), "(a+b) embedded at 1::2")

		// The operand read elsewhere too: both results still right.
		sum := expr.Of(ta).Add(expr.Of(tb))
		outs, err := exec.EvalN(sum.Embed(1, 1, 2, 2*C+1), sum.MulScalar(2))
		require.NoError(t, err)
		assertValues(t, want, outs[0].Values(), "embedded, beside (a+b)*2")
		for i, v := range outs[1].Values() {
			assert.Equal(t, 2*(ta.Data()[i]+tb.Data()[i]), v, "(a+b)*2 at %d", i)
		}
	})
	t.Run("size-1 axes drop", func(t *testing.T) {
		x, y := expr.Of(zeros(t, R, 1, C)), expr.Of(zeros(t, R, 1, C))
		p := planOf(t, x.Add(y).Node())
		assert.Equal(t, []int{R * C}, p.regions[0].sizes, p.text)
	})
	t.Run("row broadcast is 2-D with a unit inner stride", func(t *testing.T) {
		p := planOf(t, a.Add(expr.Of(zeros(t, 1, C))).Node())
		g := p.regions[0]
		require.Equal(t, []int{R, C}, g.sizes, p.text)
		require.Len(t, g.strides, 3, p.text)
		assert.Equal(t, []int{C, 1}, g.strides[0], "output")
		assert.Equal(t, []int{C, 1}, g.strides[1], "a")
		assert.Equal(t, []int{0, 1}, g.strides[2], "row")
	})
	t.Run("column broadcast", func(t *testing.T) {
		p := planOf(t, a.Add(expr.Of(zeros(t, R, 1))).Node())
		g := p.regions[0]
		require.Equal(t, []int{R, C}, g.sizes, p.text)
		assert.Equal(t, []int{1, 0}, g.strides[2], "column")
	})
	t.Run("outer product", func(t *testing.T) {
		p := planOf(t, expr.Of(zeros(t, R, 1)).Mul(expr.Of(zeros(t, 1, C))).Node())
		g := p.regions[0]
		require.Equal(t, []int{R, C}, g.sizes, p.text)
		assert.Equal(t, []int{1, 0}, g.strides[1])
		assert.Equal(t, []int{0, 1}, g.strides[2])
	})
	t.Run("transposed operand stays 2-D", func(t *testing.T) {
		bt := expr.Of(tensor.Must(zeros(t, C, R).T()))
		p := planOf(t, a.Add(bt).Node())
		g := p.regions[0]
		require.Equal(t, []int{R, C}, g.sizes, p.text)
		assert.Equal(t, []int{1, R}, g.strides[2], p.text)
	})
	t.Run("axes follow the destination", func(t *testing.T) {
		// Every operand and the destination are transposed alike: one flat
		// loop in memory order.
		at := expr.Of(tensor.Must(zeros(t, C, R).T()))
		bt := expr.Of(tensor.Must(zeros(t, C, R).T()))
		dst := tensor.Must(zeros(t, C, R).T())
		p := planWith(t, []tensor.Any{dst}, nil, at.Add(bt).Node())
		require.Len(t, p.regions, 1, p.text)
		assert.Equal(t, []int{R * C}, p.regions[0].sizes, p.text)
		// A new result is row-major: of a permuted [2,3,4] input, the
		// axes 2 and 3 still merge (stride 12 = 4*3 in the input).
		x := expr.Of(zeros(t, 2, 3, 4)).Permute(2, 0, 1)
		p = planOf(t, x.Exp().Node())
		assert.Equal(t, []int{4, 6}, p.regions[len(p.regions)-1].sizes, p.text)
	})
	t.Run("tiles", func(t *testing.T) {
		big := expr.Of(zeros(t, 10000))
		p := planWith(t, nil, []exec.Option{exec.BlockSize(1000)}, big.AddScalar(1).Node())
		assert.Equal(t, 10, p.regions[0].blocks, p.text)
	})
	t.Run("shape ops are views", func(t *testing.T) {
		x := expr.Of(zeros(t, 4, 6))
		p := planOf(t, x.Permute(1, 0).Slice(0, 1, 5, 2).Add(x.Reshape(6, 4).Slice(0, 0, 2, 1)).Node())
		require.Len(t, p.regions, 1, p.text)
		assert.GreaterOrEqual(t, p.views, 2, p.text)
	})
}

// TestLongBlocks checks which regions get long blocks: one AVX2 kernel
// writing one output in place from inputs contiguous or constant along the
// rows (a flat axis, or the rows of [R,C]+[1,C] and the like) gets blocks
// of up to 65536 elements of a row, fewer where the region would have
// fewer blocks than tasks (2 workers × 16); anything else keeps the blocks
// a page of its widest element, as does a block length set by hand.
func TestLongBlocks(t *testing.T) {
	if !simd.Enabled {
		t.Skip("long blocks are for the AVX2 kernels")
	}
	tile := func(x *exec.Executor, e expr.Expr[float64]) string {
		var plan bytes.Buffer
		x = x.With(exec.Debug(&plan))
		_, err := exec.EvalWith(x, e)
		require.NoError(t, err)
		m := regexp.MustCompile(`tile (\S+) [^\n]*?, (\d+) blocks`).FindStringSubmatch(plan.String())
		require.NotNil(t, m, plan.String())
		return m[1] + " " + m[2]
	}
	r := newRand(41)
	big := func() *tensor.Tensor[float64] { return randomTensor[float64](t, r, 4_000_000) }
	a, b, c := big(), big(), big()
	every2 := tensor.Must(randomTensor[float64](t, r, 8_000_000).Slice(0, 0, 8_000_000, 2))
	small := randomTensor[float64](t, r, 40_000)
	ints := randomTensor[int64](t, r, 4_000_000)
	m := randomTensor[float64](t, r, 1000, 3000)
	row, col := randomTensor[float64](t, r, 1, 3000), randomTensor[float64](t, r, 1000, 1)
	wide, wideRow := randomTensor[float64](t, r, 4, 100_000), randomTensor[float64](t, r, 1, 100_000)
	two := exec.New(exec.Workers(2))
	defer two.Close()
	tests := []struct {
		name string
		x    *exec.Executor
		e    expr.Expr[float64]
		want string
	}{
		{"a+b", two, expr.Of(a).Add(expr.Of(b)), "1x65536 62"},
		{"a*b+c, one fused kernel", two, expr.Of(a).Mul(expr.Of(b)).Add(expr.Of(c)), "1x65536 62"},
		{"a*2, a scalar", two, expr.Of(a).MulScalar(2), "1x65536 62"},
		{"a block per task", two, expr.Of(small).Add(expr.Of(small)), "1x1280 32"},
		{"two kernels", two, expr.Of(a).Mul(expr.Of(b)).Add(expr.Of(c)).Sqrt(), "1x512 7813"},
		{"a strided input", two, expr.Of(a).Add(expr.Of(every2)), "1x512 7813"},
		{"a cast", two, expr.Cast[float64](expr.Of(ints)), "1x512 7813"},
		{"[R,C]+[1,C], whole rows", two, expr.Of(m).Add(expr.Of(row)), "1x3000 1000"},
		{"[R,C]+[R,1], whole rows", two, expr.Of(m).Add(expr.Of(col)), "1x3000 1000"},
		{"[R,1]*[1,C], whole rows", two, expr.Of(col).Mul(expr.Of(row)), "1x3000 1000"},
		{"few long rows, a block per task", two, expr.Of(wide).Add(expr.Of(wideRow)), "1x12544 32"},
		{"BlockSize kept", exec.New(exec.Workers(2), exec.BlockSize(4096)), expr.Of(a).Add(expr.Of(b)), "1x4096 977"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tile(tt.x, tt.e))
		})
	}
	// Integer add is an AVX2 loop too; int64 multiply (which AVX2 lacks)
	// is a Go loop and keeps blocks of a page.
	intTile := func(e expr.Expr[int64]) string {
		var plan bytes.Buffer
		_, err := exec.EvalWith(two.With(exec.Debug(&plan)), e)
		require.NoError(t, err)
		return plan.String()
	}
	assert.Contains(t, intTile(expr.Of(ints).Add(expr.Of(ints))), "tile 1x65536 bufferless rows, 62 blocks", "int64 add")
	assert.NotContains(t, intTile(expr.Of(ints).Mul(expr.Of(ints))), "tile 1x65536", "int64 mul")

	// The values, in long blocks over tasks of both workers: in place too.
	av, bv, cv := a.Values(), b.Values(), c.Values()
	sum, fused := make([]float64, len(av)), make([]float64, len(av))
	for i := range av {
		sum[i] = av[i] + bv[i]
		fused[i] = float64(av[i]*bv[i]) + cv[i]
	}
	got, err := exec.EvalWith(two, expr.Of(a).Add(expr.Of(b)))
	require.NoError(t, err)
	assertValues(t, sum, got.Values(), "a+b")
	got, err = exec.EvalWith(two, expr.Of(a).Mul(expr.Of(b)).Add(expr.Of(c)))
	require.NoError(t, err)
	assertValues(t, fused, got.Values(), "a*b+c")
	require.NoError(t, exec.EvalToWith(two, a, expr.Of(a).Add(expr.Of(b))))
	assertValues(t, sum, a.Values(), "a = a+b")

	// Row by row, with a row vector, a column and both.
	mv, rv, cv2 := m.Values(), row.Values(), col.Values()
	plusRow, plusCol, outer := make([]float64, len(mv)), make([]float64, len(mv)), make([]float64, len(mv))
	for i := range 1000 {
		for j := range 3000 {
			plusRow[i*3000+j] = mv[i*3000+j] + rv[j]
			plusCol[i*3000+j] = mv[i*3000+j] + cv2[i]
			outer[i*3000+j] = cv2[i] * rv[j]
		}
	}
	for _, c := range []struct {
		name string
		e    expr.Expr[float64]
		want []float64
	}{
		{"[R,C]+[1,C]", expr.Of(m).Add(expr.Of(row)), plusRow},
		{"[R,C]+[R,1]", expr.Of(m).Add(expr.Of(col)), plusCol},
		{"[R,1]*[1,C]", expr.Of(col).Mul(expr.Of(row)), outer},
	} {
		got, err := exec.EvalWith(two, c.e)
		require.NoError(t, err)
		assertValues(t, c.want, got.Values(), "%s", c.name)
	}
}

// TestLongBlocksNoBuffers: a region in long blocks makes no per-worker
// buffers. Even with the pooled states dropped by a garbage collection
// before every Eval, a+b on 1e6 float64 allocates its output and a few KiB
// (buffers the length of its blocks would be 3×250 KB per worker).
func TestLongBlocksNoBuffers(t *testing.T) {
	if !simd.Enabled {
		t.Skip("long blocks are for the AVX2 kernels")
	}
	if raceEnabled {
		t.Skip("allocation sizes are not meaningful under the race detector")
	}
	const n = 1_000_000
	r := newRand(42)
	e := expr.Of(randomTensor[float64](t, r, n)).Add(expr.Of(randomTensor[float64](t, r, n)))
	x := exec.New(exec.Workers(2))
	defer x.Close()
	const runs = 4
	var total uint64
	for range runs {
		runtime.GC()
		runtime.GC() // the second empties sync.Pool's victim cache too
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		_, err := exec.EvalWith(x, e)
		require.NoError(t, err)
		runtime.ReadMemStats(&m1)
		total += m1.TotalAlloc - m0.TotalAlloc
	}
	assert.LessOrEqual(t, total/runs, uint64(8*n+64<<10), "bytes per Eval (output: %d)", 8*n)
}
