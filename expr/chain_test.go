package expr_test

import (
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// chain returns x.AddScalar(1) applied n times to a [3] tensor of ones.
func chain(tb testing.TB, n int) expr.Expr[float64] {
	tb.Helper()
	x := expr.From(tensor.Ones[float64](3))
	for range n {
		x = x.AddScalar(1)
	}
	require.NoError(tb, x.Err())
	return x
}

// Graphs of any depth are walked with stacks of their own, never by
// recursion: with goroutine stacks limited to 1 MB, every traversal of
// package expr (PostOrder, Format, Summary, Scope, Specialize) walks a chain
// of 100k ops, which a recursive walk needs several MB of stack for (it
// would die of a stack overflow, as PostOrder did before issue 19).
func TestDeepGraphsNeedNoDeepStack(t *testing.T) {
	if testing.Short() {
		t.Skip("a long graph or input: run by the full test pass, not the -short race pass")
	}
	const n = 100_000
	x := chain(t, n)
	p := expr.SymPlaceholder[float64]("p", expr.Sym("B"))
	deep := p
	for range n {
		deep = deep.AddScalar(1)
	}
	spec := expr.NewSpecializer(map[string]int{"B": 3})

	defer debug.SetMaxStack(debug.SetMaxStack(1 << 20))
	assert.Len(t, expr.PostOrder(x.Node()), 2*n+1)
	assert.Equal(t, 2*n+2, strings.Count(expr.Format(x), "\n")+1)
	assert.True(t, strings.HasPrefix(expr.Summary(x), "Network: () -> [3]"))
	s := expr.Scope("deep", func() expr.Expr[float64] { return x.AddScalar(1) })
	require.NoError(t, s.Err())
	assert.Equal(t, "deep", s.Node().ScopeName())
	c := expr.Specialize(spec, deep)
	require.NoError(t, c.Err())
	assert.Equal(t, tensor.Shape{3}, c.Shape())
}

// A long chain evaluates, planned in time linear in its length (see exec's
// TestWalkWorkIsLinear for the count of the work).
func TestLongChainEvaluates(t *testing.T) {
	if testing.Short() {
		t.Skip("a long graph or input: run by the full test pass, not the -short race pass")
	}
	const n = 20_000
	out, err := exec.Eval(chain(t, n))
	require.NoError(t, err)
	assert.Equal(t, []float64{n + 1, n + 1, n + 1}, out.Values())
}

// BenchmarkChainPlan plans and runs chains of AddScalar nodes on a fresh
// executor each time, so that every iteration plans (issue 19 item 16:
// 100k nodes took 14 s).
func BenchmarkChainPlan(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			x := chain(b, n)
			for b.Loop() {
				ex := exec.New(exec.Workers(1))
				if _, err := exec.EvalWith(ex, x); err != nil {
					b.Fatal(err)
				}
				ex.Close()
			}
		})
	}
}
