package exec_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// tree is a random arithmetic expression over inputs and scalar constants.
type tree struct {
	op          byte // '+', '-', '*', '/', 'n' (neg), 'i' (input), 's' (scalar)
	k           int  // input or scalar number
	left, right *tree
}

func randomTree(r *rand.Rand, depth, inputs int, scalars *int) *tree {
	if depth == 0 || r.IntN(4) == 0 {
		if r.IntN(4) == 0 {
			*scalars++
			return &tree{op: 's', k: *scalars - 1}
		}
		return &tree{op: 'i', k: r.IntN(inputs)}
	}
	if r.IntN(6) == 0 {
		return &tree{op: 'n', left: randomTree(r, depth-1, inputs, scalars)}
	}
	return &tree{op: "+-*/"[r.IntN(4)], left: randomTree(r, depth-1, inputs, scalars), right: randomTree(r, depth-1, inputs, scalars)}
}

func (t *tree) build(in, s []expr.Expr[float64]) expr.Expr[float64] {
	switch t.op {
	case 'i':
		return in[t.k]
	case 's':
		return s[t.k]
	case 'n':
		return t.left.build(in, s).Neg()
	}
	x, y := t.left.build(in, s), t.right.build(in, s)
	switch t.op {
	case '+':
		return x.Add(y)
	case '-':
		return x.Sub(y)
	case '*':
		return x.Mul(y)
	}
	return x.Div(y)
}

// eval is the element loop a generated kernel would run, rounding each op.
func (t *tree) eval(in [][]float64, s []float64, i int) float64 {
	switch t.op {
	case 'i':
		return in[t.k][i]
	case 's':
		return s[t.k]
	case 'n':
		return -t.left.eval(in, s, i)
	}
	x, y := t.left.eval(in, s, i), t.right.eval(in, s, i)
	switch t.op {
	case '+':
		return float64(x + y)
	case '-':
		return float64(x - y)
	case '*':
		return float64(x * y)
	}
	return float64(x / y)
}

// TestKernelRandomTrees registers kernels for random expression trees and
// checks that the same trees over other operands (broadcast, transposed)
// and other scalar values use them and agree with the interpreter bit for
// bit, and that a tree with one op changed does not use them.
func TestKernelRandomTrees(t *testing.T) {
	r := newRand(77)
	const R, C = 23, 37
	interp := exec.New(exec.Workers(2), exec.Grain(1), exec.BlockSize(64), exec.UseCompiledKernels(false))
	tested := 0
	for it := range 200 {
		name := fmt.Sprintf("random-%d", it)
		scalars := 0
		tr := randomTree(r, 4, 3, &scalars)
		uses := map[int]bool{}
		var count func(*tree)
		count = func(t *tree) {
			if t == nil {
				return
			}
			if t.op == 'i' {
				uses[t.k] = true
			}
			count(t.left)
			count(t.right)
		}
		count(tr)
		if len(uses) != 3 || tr.op == 'i' || tr.op == 's' {
			continue // a kernel takes all its inputs and computes something
		}
		k := exec.CompiledKernel[float64]{
			Name: name, Inputs: 3, Scalars: scalars,
			Expr: tr.build,
			Loop: func(d []float64, in [][]float64, s []float64) {
				for i := range d {
					d[i] = tr.eval(in, s, i)
				}
			},
		}
		require.NoError(t, exec.RegisterCompiled(k), "%s", name)
		t.Cleanup(func() { exec.UnregisterCompiled(name) })

		ops := []expr.Expr[float64]{
			expr.Of(randomTensor[float64](t, r, R, C)),
			expr.Of(randomTensor[float64](t, r, 1, C)),
			expr.Of(tensor.Must(randomTensor[float64](t, r, C, R).T())),
		}
		s := make([]expr.Expr[float64], scalars)
		for i := range s {
			s[i] = expr.Scalar(r.NormFloat64())
		}
		e := tr.build(ops, s)
		var plan bytes.Buffer
		got := evalWith(t, exec.New(exec.Workers(2), exec.Grain(1), exec.BlockSize(64), exec.Debug(&plan)), e)
		want := evalWith(t, interp, e)
		if !assert.True(t, strings.Contains(plan.String(), "compiled "+name), "%s: kernel not used:\n%s", name, plan.String()) {
			continue
		}
		assertBits(t, want.Values(), got.Values(), "%s", name)
		tested++

		// Change the root's op: no kernel.
		other := *tr
		switch other.op {
		case '+':
			other.op = '-'
		case 'n':
			other = tree{op: '*', left: tr.left, right: tr.left}
		default:
			other.op = '+'
		}
		plan.Reset()
		evalWith(t, exec.New(exec.Debug(&plan)), other.build(ops, s))
		assert.NotContains(t, plan.String(), "compiled "+name, "%s: changed op", name)
	}
	t.Logf("%d random trees", tested)
	assert.GreaterOrEqual(t, tested, 30, "random trees that used all three inputs")
}
