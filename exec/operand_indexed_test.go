package exec_test

// The indexed row of the operand table (exec/access.go): an operand read
// through an index tensor, for every layout of the gathered tensor and of
// its index, over element types and the tile table's shapes, in a region
// with two outputs and in a reduction's producer, against the reference
// evaluator's strided reads.

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// indexOf returns an int64 index of logical shape R×C with values in
// [-k, k) (negatives only when neg), laid out as kind: direct, transposed,
// a column [R,1] broadcast along the rows, or one value for all.
func indexOf(t *testing.T, r *rand.Rand, kind string, R, C, k int, neg bool) (expr.Expr[int64], []int64) {
	t.Helper()
	draw := func(n int) []int64 {
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(r.IntN(max(1, k)))
			if neg && r.IntN(2) == 0 {
				v[i] -= int64(k)
			}
		}
		return v
	}
	var x *tensor.Tensor[int64]
	switch kind {
	case "direct":
		x = fromValues(t, draw(R*C), R, C)
	case "transposed":
		x = tensor.Must(fromValues(t, draw(R*C), C, R).T())
	case "column":
		x = fromValues(t, draw(R), R, 1)
	case "invariant":
		x = fromValues(t, draw(1), 1, 1)
	default:
		t.Fatalf("no index kind %q", kind)
	}
	target := tensor.Shape{R, C}
	st, err := tensor.BroadcastStrides(x.Shape(), x.Strides(), target)
	require.NoError(t, err)
	return expr.Of(x).Expand(R, C), gatherView(x.Data(), x.Offset(), target, st)
}

var indexKindNames = []string{"direct", "transposed", "column", "invariant"}

// TestOperandTableIndexed gathers b along its rows (take_along_axis) for
// every layout of b and of the index, and evaluates a + g and a * g as two
// outputs of one region and sum(g * a, 1) in a reduction.
func TestOperandTableIndexed(t *testing.T) {
	t.Run("float64", func(t *testing.T) { testOperandIndexed[float64](t) })
	t.Run("float32", func(t *testing.T) { testOperandIndexed[float32](t) })
	t.Run("int8", func(t *testing.T) { testOperandIndexed[int8](t) })
	t.Run("int16", func(t *testing.T) { testOperandIndexed[int16](t) })
	t.Run("int32", func(t *testing.T) { testOperandIndexed[int32](t) })
	t.Run("complex128", func(t *testing.T) { testOperandIndexed[complex128](t) })
}

func testOperandIndexed[T dtype.Numeric](t *testing.T) {
	r := newRand(274)
	shapes := operandShapes
	executors := []*exec.Executor{exec.Default, tiled, odd}
	if testing.Short() {
		shapes = [][2]int{{0, 5}, {3, 7}, {67, 70}, {2, 700}}
		executors = []*exec.Executor{exec.Default, odd}
	}
	for _, sh := range shapes {
		R, C := sh[0], sh[1]
		K := C/2 + 3 // the gathered axis: shorter or longer than the rows
		for _, kb := range []string{"direct", "strided", "transposed"} {
			for _, ki := range indexKindNames {
				name := fmt.Sprintf("%dx%d/b %s, index %s", R, C, kb, ki)
				a, av := operandOf[T](t, r, "direct", R, C)
				b, bv := operandOf[T](t, r, kb, R, K)
				idx, iv := indexOf(t, r, ki, R, C, K, true)
				gv := make([]T, R*C)
				for i := 0; i < R; i++ {
					for j := 0; j < C; j++ {
						k := iv[i*C+j]
						if k < 0 {
							k += int64(K)
						}
						gv[i*C+j] = bv[i*K+int(k)]
					}
				}
				want1, want2 := make([]T, R*C), make([]T, R*C)
				for i := range want1 {
					want1[i], want2[i] = av[i]+gv[i], av[i]*gv[i]
				}
				g := expr.TakeAlongAxis(expr.Of(b), idx, 1)
				e1, e2 := expr.Of(a).Add(g), expr.Of(a).Mul(g)
				for _, x := range executors {
					outs, err := exec.EvalNWith(x, []expr.Expr[T]{e1, e2})
					require.NoError(t, err, name)
					assertValues(t, want1, outs[0].Values(), "%s: a + g", name)
					assertValues(t, want2, outs[1].Values(), "%s: a * g", name)
					got, err := exec.EvalWith(x, g)
					require.NoError(t, err, name)
					assertValues(t, gv, got.Values(), "%s: g", name)
					// In a reduction's producer: sum(g * a, 1), exact for
					// integers whatever the fold order.
					if dtype.Of[T]().IsInteger() {
						red, err := exec.EvalWith(x, expr.Of(a).Mul(g).Sum(1))
						require.NoError(t, err, name)
						wantSum := make([]T, R)
						for i := range wantSum {
							for j := 0; j < C; j++ {
								wantSum[i] += want2[i*C+j]
							}
						}
						assertValues(t, wantSum, red.Values(), "%s: sum(a * g, 1)", name)
					}
				}
			}
		}
	}
}

// TestOperandTableIndexedRows is take along the first axis (an embedding's
// lookup: one index per row, rows copied whole) for every layout of the
// table, on every shape, and into a transposed destination.
func TestOperandTableIndexedRows(t *testing.T) {
	r := newRand(275)
	for _, sh := range operandShapes {
		R, C := sh[0], sh[1]
		N := R/2 + 2
		for _, kb := range []string{"direct", "strided", "transposed"} {
			name := fmt.Sprintf("%dx%d/table %s", R, C, kb)
			b, bv := operandOf[float32](t, r, kb, N, C)
			rows := make([]int64, R)
			for i := range rows {
				rows[i] = int64(r.IntN(N)) - int64(N)*int64(r.IntN(2))
			}
			want := make([]float32, R*C)
			for i, k := range rows {
				if k < 0 {
					k += int64(N)
				}
				copy(want[i*C:(i+1)*C], bv[int(k)*C:(int(k)+1)*C])
			}
			e := expr.Take(expr.Of(b), expr.Of(fromValues(t, rows, R)), 0)
			for _, x := range []*exec.Executor{exec.Default, odd} {
				got, err := exec.EvalWith(x, e)
				require.NoError(t, err, name)
				assertValues(t, want, got.Values(), "%s", name)
				dst := tensor.Must(tensor.Must(tensor.Zeros[float32](C, R)).T())
				require.NoError(t, exec.EvalToWith(x, dst, e), name)
				assertValues(t, want, dst.Values(), "%s into a transposed destination", name)
			}
		}
	}
}

// TestOperandTableIndexedPlan checks that the debug plan names the
// indexed kind and its index's slot, and that a fused loss over a gather
// reads the logits' tensor only in the region that gathers from it.
func TestOperandTableIndexedPlan(t *testing.T) {
	logits := tensor.Must(tensor.RandN[float64](1, 8, 5))
	labels := fromValues(t, []int64{0, 1, 2, 3, 4, 0, 1, 2}, 8, 1)
	e := expr.Of(logits).AddScalar(1).Add(expr.TakeAlongAxis(expr.Of(logits), expr.Of(labels), 1))
	p := planOf(t, e.Node()).text
	assert.Contains(t, p, "(indexed by s", p)
	assert.Contains(t, p, "check ", p)
}
