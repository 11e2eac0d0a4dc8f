package exec_test

// The block interpreter's table test: every access kind (exec/access.go)
// of every operand, over element types and over tile shapes that reach
// each row of the tile table (exec/tiles.go) with partial tiles and zero
// sizes, with several outputs and into direct, transposed, strided,
// in-place and overlapping destinations, against the reference
// evaluator's strided reads (gatherView).

import (
	"bytes"
	"fmt"
	"math/rand/v2"
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

// operandOf returns an operand of logical shape R×C (or one that
// broadcasts to it) laid out as kind, and its R×C values read by the
// reference evaluator's gatherView from its storage and strides.
func operandOf[T dtype.Numeric](t *testing.T, r *rand.Rand, kind string, R, C int) (*tensor.Tensor[T], []T) {
	t.Helper()
	var x *tensor.Tensor[T]
	switch kind {
	case "direct":
		x = randomTensor[T](t, r, R, C)
	case "strided": // every other column of a wider tensor, at an offset
		x = tensor.Must(randomTensor[T](t, r, R, 2*C+3).Slice(1, 1, 2*C+1, 2))
	case "transposed":
		x = tensor.Must(randomTensor[T](t, r, C, R).T())
	case "transposed, padded": // rows of the transposed operand 4 KiB apart or more
		pitch := max(R, 4096/dtype.Of[T]().Size())
		x = tensor.Must(tensor.Must(randomTensor[T](t, r, C, pitch).Slice(1, 0, R, 1)).T())
	case "scalar": // a column [R,1]: constant along the rows
		x = randomTensor[T](t, r, R, 1)
	case "row": // a row [1,C]: direct along the rows, broadcast down them
		x = randomTensor[T](t, r, 1, C)
	case "invariant":
		x = randomTensor[T](t, r)
	case "reversed": // each row walked backwards (x[:, ::-1])
		x = tensor.Must(randomTensor[T](t, r, R, C).Flip(1))
	case "reversed block": // a flipped tensor (x[::-1, ::-1]): rows backwards, one before another
		x = tensor.Must(randomTensor[T](t, r, R, C).Flip())
	default:
		t.Fatalf("no operand kind %q", kind)
	}
	target := tensor.Shape{R, C}
	st, err := tensor.BroadcastStrides(x.Shape(), x.Strides(), target)
	require.NoError(t, err)
	return x, gatherView(x.Data(), x.Offset(), target, st)
}

var operandKindNames = []string{"direct", "strided", "transposed", "transposed, padded", "scalar", "row", "invariant", "reversed", "reversed block"}

// operandShapes reach the tile table's rows: long rows, short rows,
// interleave (rows of 3 and 7 from a transposed operand), panels and bands (partial tiles on both axes, and rows too wide for
// panels), strided tiles; and empty spaces.
var operandShapes = [][2]int{{0, 5}, {5, 0}, {1, 1}, {3, 7}, {67, 70}, {130, 530}, {9, 4100}, {2, 700}, {1500, 3}}

// TestOperandTable evaluates a + b*c and a - b for every kind of a, b and
// c in turn, two outputs of one region, and checks both exactly.
func TestOperandTable(t *testing.T) {
	t.Run("float64", func(t *testing.T) { testOperandTable[float64](t) })
	t.Run("float32", func(t *testing.T) { testOperandTable[float32](t) })
	t.Run("int8", func(t *testing.T) { testOperandTable[int8](t) })
	t.Run("int16", func(t *testing.T) { testOperandTable[int16](t) })
	t.Run("int32", func(t *testing.T) { testOperandTable[int32](t) })
	t.Run("complex128", func(t *testing.T) { testOperandTable[complex128](t) })
	t.Run("without AVX2", func(t *testing.T) {
		saved := simd.Enabled
		t.Cleanup(func() { simd.Enabled = saved })
		simd.Enabled = false
		testOperandTable[float64](t)
	})
	// With the size threshold at 0 every region prefetches and streams,
	// as large ones do; new executors make new plans.
	t.Run("prefetching and streaming", func(t *testing.T) {
		defer exec.SetStreamBytes(0)()
		testOperandTable[float64](t, exec.New(exec.Workers(2)), exec.New(exec.Workers(3), exec.Grain(1), exec.BlockSize(37)))
		testOperandTable[float32](t, exec.New(exec.Workers(2)))
	})
}

func testOperandTable[T dtype.Numeric](t *testing.T, xs ...*exec.Executor) {
	r := newRand(271)
	shapes := operandShapes
	if testing.Short() {
		shapes = [][2]int{{0, 5}, {3, 7}, {67, 70}}
	}
	executors := []*exec.Executor{exec.Default, tiled, odd}
	if testing.Short() {
		executors = []*exec.Executor{exec.Default, odd}
	}
	if len(xs) > 0 {
		executors = xs
	}
	for _, sh := range shapes {
		R, C := sh[0], sh[1]
		for _, ka := range []string{"direct", "strided", "transposed"} {
			for _, kb := range operandKindNames {
				for _, kc := range []string{"scalar", "transposed, padded", "row"} {
					name := fmt.Sprintf("%dx%d/a %s, b %s, c %s", R, C, ka, kb, kc)
					a, av := operandOf[T](t, r, ka, R, C)
					b, bv := operandOf[T](t, r, kb, R, C)
					c, cv := operandOf[T](t, r, kc, R, C)
					want1, want2 := make([]T, R*C), make([]T, R*C)
					for i := range want1 {
						want1[i] = av[i] + T(bv[i]*cv[i])
						want2[i] = av[i] - bv[i]
					}
					e1 := expr.Of(a).Add(expr.Of(b).Mul(expr.Of(c)))
					e2 := expr.Of(a).Sub(expr.Of(b))
					for _, x := range executors {
						outs, err := exec.EvalNWith(x, []expr.Expr[T]{e1, e2})
						require.NoError(t, err, name)
						assertValues(t, want1, outs[0].Values(), "%s: a + b*c", name)
						assertValues(t, want2, outs[1].Values(), "%s: a - b", name)
					}
				}
			}
		}
	}
}

// TestOperandTableDestinations writes a + b.T into every kind of
// destination: contiguous, transposed, strided (every other column), in
// place over a (a += b.T), and over b itself (b = a + b.T, which reads b
// other than element for element: staged first).
func TestOperandTableDestinations(t *testing.T) {
	t.Run("float64", func(t *testing.T) { testOperandDestinations[float64](t) })
	t.Run("int16", func(t *testing.T) { testOperandDestinations[int16](t) })
	t.Run("complex128", func(t *testing.T) { testOperandDestinations[complex128](t) })
}

func testOperandDestinations[T dtype.Numeric](t *testing.T) {
	r := newRand(272)
	for _, sh := range [][2]int{{0, 0}, {3, 3}, {67, 67}, {130, 130}} {
		n := sh[0]
		for _, x := range []*exec.Executor{exec.Default, tiled, odd} {
			dsts := map[string]func() (*tensor.Tensor[T], func() []T){
				"contiguous": func() (*tensor.Tensor[T], func() []T) {
					d := tensor.Must(tensor.Zeros[T](n, n))
					return d, d.Values
				},
				"transposed": func() (*tensor.Tensor[T], func() []T) {
					d := tensor.Must(tensor.Must(tensor.Zeros[T](n, n)).T())
					return d, d.Values
				},
				"strided": func() (*tensor.Tensor[T], func() []T) {
					w := tensor.Must(tensor.Zeros[T](n, 2*n+1))
					d := tensor.Must(w.Slice(1, 1, 2*n+1, 2))
					return d, d.Values
				},
			}
			for dname, mk := range dsts {
				a, av := operandOf[T](t, r, "direct", n, n)
				b, bv := operandOf[T](t, r, "transposed", n, n)
				want := make([]T, n*n)
				for i := range want {
					want[i] = av[i] + bv[i]
				}
				d, vals := mk()
				require.NoError(t, exec.EvalToWith(x, d, expr.Of(a).Add(expr.Of(b))), dname)
				assertValues(t, want, vals(), "%dx%d into a %s destination", n, n, dname)
			}
			// In place: a = a + b.T, and b.T = a + b.T (b read transposed
			// while it is written: staged).
			a, av := operandOf[T](t, r, "direct", n, n)
			b, bv := operandOf[T](t, r, "transposed", n, n)
			want := make([]T, n*n)
			for i := range want {
				want[i] = av[i] + bv[i]
			}
			require.NoError(t, exec.EvalToWith(x, a, expr.Of(a).Add(expr.Of(b))))
			assertValues(t, want, a.Values(), "%dx%d in place", n, n)
			a2, av2 := operandOf[T](t, r, "direct", n, n)
			b2, bv2 := operandOf[T](t, r, "transposed", n, n)
			for i := range want {
				want[i] = av2[i] + bv2[i]
			}
			bt := tensor.Must(b2.T()) // b's own layout: b = a + b.T
			for i := range want {
				want[i] = 0
			}
			btv := bt.Values()
			want = make([]T, n*n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					want[i*n+j] = av2[i*n+j] + btv[j*n+i]
				}
			}
			require.NoError(t, exec.EvalToWith(x, bt, expr.Of(a2).Add(expr.Of(bt).T())))
			assertValues(t, want, bt.Values(), "%dx%d over its transposed input", n, n)
		}
	}
}

// TestOperandTableRows checks that the shapes above reach every row of the
// tile table, and that the debug plan names each operand's kind.
func TestOperandTableRows(t *testing.T) {
	r := newRand(273)
	plan := func(e expr.Expr[float64]) string {
		var b bytes.Buffer
		x := exec.New(exec.Workers(2), exec.Debug(&b))
		defer x.Close()
		_, err := exec.EvalWith(x, e)
		require.NoError(t, err)
		return b.String()
	}
	of := func(kind string, R, C int) expr.Expr[float64] {
		x, _ := operandOf[float64](t, r, kind, R, C)
		return expr.Of(x)
	}
	tests := []struct {
		name string
		e    expr.Expr[float64]
		row  string
		ins  []string
	}{
		{"long rows", of("direct", 9, 4100).Mul(of("direct", 9, 4100)).Sqrt(), "long rows", []string{"direct", "direct"}},
		{"short rows", of("direct", 3, 7).Add(of("row", 3, 7)), "short rows", []string{"direct", "strided"}},
		{"panels", of("direct", 67, 70).Add(of("transposed", 67, 70)), "panels", []string{"direct", "transposed"}},
		{"bands", of("direct", 67, 70).Add(of("transposed", 67, 70)).Mul(of("scalar", 67, 70)), "bands", []string{"direct", "transposed", "scalar"}},
		{"interleave", of("direct", 700, 3).Add(of("transposed", 700, 3)), "interleave", []string{"direct", "transposed"}},
		{"bands, wide rows", of("direct", 9, 4100).Add(of("transposed", 9, 4100)), "bands", []string{"direct", "transposed"}},
		{"strided tiles", of("direct", 67, 700).Add(of("strided", 67, 700)), "strided tiles", []string{"direct", "strided"}},
		{"invariant", of("direct", 67, 700).Mul(of("invariant", 67, 700)).Sqrt(), "long rows", []string{"direct", "invariant"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.row == "panels" && !simd.Enabled {
				tt.row = "bands" // no transpose loops: no panels
			}
			p := plan(tt.e)
			assert.Contains(t, p, " "+tt.row+",", p)
			for i, k := range tt.ins {
				line := fmt.Sprintf("in  s%d <- ", i)
				idx := strings.Index(p, line)
				require.GreaterOrEqual(t, idx, 0, p)
				rest, _, _ := strings.Cut(p[idx:], "\n")
				assert.True(t, strings.HasSuffix(rest, "("+k+")"), "input %d: %s", i, rest)
			}
		})
	}
}
