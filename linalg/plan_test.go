package linalg_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/linalg"
)

// opCounts counts the ops of the graph under e, each node once.
func opCounts(e expr.Any) map[string]int {
	counts := map[string]int{}
	seen := map[*expr.Node]bool{}
	var walk func(n *expr.Node)
	walk = func(n *expr.Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		counts[n.Op().String()]++
		for _, a := range n.Args() {
			walk(a)
		}
	}
	walk(e.Node())
	return counts
}

// TestEinsumPlans checks what each einsum is planned onto: one matmul per
// contracted pair, a slice per diagonal, a sum per group of summed labels,
// and a broadcasting mul when nothing is summed — a handful of nodes
// whatever the extents, never a loop per subscript.
func TestEinsumPlans(t *testing.T) {
	m := func(shape ...int) expr.Expr[float64] {
		n := 1
		for _, d := range shape {
			n *= d
		}
		return leaf[float64](make([]float64, n), shape...)
	}
	cases := []struct {
		name string
		e    expr.Any
		want map[string]int
	}{
		{"matmul", linalg.Einsum("ij,jk->ik", m(20, 30), m(30, 40)), map[string]int{"tensor": 2, "matmul": 1}},
		{"transposed output", linalg.Einsum("ij,jk->ki", m(2, 3), m(3, 4)), map[string]int{"tensor": 2, "matmul": 1, "permute": 1}},
		{"batched", linalg.Einsum("bij,bjk->bik", m(5, 2, 3), m(5, 3, 4)), map[string]int{"tensor": 2, "matmul": 1}},
		{"trace", linalg.Einsum("ii", m(50, 50)), map[string]int{"tensor": 1, "reshape": 1, "slice": 1, "sum": 1}},
		{"diagonal", linalg.Einsum("ii->i", m(50, 50)), map[string]int{"tensor": 1, "reshape": 1, "slice": 1}},
		{"outer", linalg.Einsum("i,j->ij", m(3), m(4)), map[string]int{"tensor": 2, "reshape": 2, "mul": 1}},
		{"sum first", linalg.Einsum("ij,jk->i", m(2, 3), m(3, 4)), map[string]int{"tensor": 2, "sum": 1, "matmul": 1, "reshape": 2}},
		{"three", linalg.Einsum("ij,jk,kl->il", m(2, 3), m(3, 4), m(4, 5)), map[string]int{"tensor": 3, "matmul": 2}},
		{"tensordot", linalg.TensordotN(m(2, 3, 4), m(3, 4, 5), 2), map[string]int{"tensor": 2, "reshape": 2, "matmul": 1}},
		{"kron", linalg.Kron(m(2, 2), m(3, 3)), map[string]int{"tensor": 2, "reshape": 3, "mul": 1}},
		{"vdot", linalg.Vdot(m(2, 3), m(6)), map[string]int{"tensor": 2, "reshape": 1, "matmul": 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.NoError(t, c.e.Node().Err())
			assert.Equal(t, c.want, opCounts(c.e))
		})
	}
}
