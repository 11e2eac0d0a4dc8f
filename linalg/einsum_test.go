package linalg_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/linalg"
	"github.com/tensorplay/tensorplay/tensor"
)

// naiveEinsum is the definition of einsum as a loop over every assignment
// of the labels, for explicit letter-only subscripts; a size-1 axis
// broadcasts. It returns the output's shape and values.
func naiveEinsum(spec string, shapes [][]int, data [][]float64) ([]int, []float64) {
	in, out, _ := strings.Cut(spec, "->")
	terms := strings.Split(in, ",")
	extent := map[byte]int{}
	for i, term := range terms {
		for ax := range len(term) {
			extent[term[ax]] = max(extent[term[ax]], shapes[i][ax])
		}
	}
	var labels []byte
	for l := range extent {
		labels = append(labels, l)
	}
	oshape := make([]int, len(out))
	for i := range out {
		oshape[i] = extent[out[i]]
	}
	size := 1
	for _, d := range oshape {
		size *= d
	}
	res := make([]float64, size)
	val := map[byte]int{}
	var loop func(k int)
	loop = func(k int) {
		if k == len(labels) {
			p := 1.0
			for i, term := range terms {
				at := 0
				for ax := range len(term) {
					v := val[term[ax]]
					if shapes[i][ax] == 1 {
						v = 0
					}
					at = at*shapes[i][ax] + v
				}
				p *= data[i][at]
			}
			at := 0
			for i := range out {
				at = at*oshape[i] + val[out[i]]
			}
			res[at] += p
			return
		}
		for v := range extent[labels[k]] {
			val[labels[k]] = v
			loop(k + 1)
		}
	}
	loop(0)
	return oshape, res
}

// TestEinsumAgainstLoops compares Einsum with naiveEinsum: matrix products,
// traces, diagonals, broadcasting, ellipses, implicit outputs and chains of
// three operands (naive names the equivalent explicit letters).
func TestEinsumAgainstLoops(t *testing.T) {
	cases := []struct {
		spec, naive string
		shapes      [][]int
	}{
		{"ij,jk->ik", "", [][]int{{2, 3}, {3, 4}}},
		{"ij,jk", "ij,jk->ik", [][]int{{2, 3}, {3, 4}}},
		{"ii->i", "", [][]int{{3, 3}}},
		{"ii", "ii->", [][]int{{3, 3}}},
		{"iij->ji", "", [][]int{{2, 2, 3}}},
		{"iii->i", "", [][]int{{3, 3, 3}}},
		{"ijk->kji", "", [][]int{{2, 3, 2}}},
		{"iji->j", "", [][]int{{2, 3, 2}}},
		{"i,i->", "", [][]int{{4}, {4}}},
		{"i,j->ij", "", [][]int{{3}, {4}}},
		{"i,j", "i,j->ij", [][]int{{3}, {4}}},
		{"ba", "ba->ab", [][]int{{3, 2}}},
		{"Ba,bA", "Ba,bA->ABab", [][]int{{2, 3}, {4, 1}}},
		{"bij,bjk->bik", "", [][]int{{2, 2, 3}, {2, 3, 2}}},
		{"bij,bjk->bik", "", [][]int{{1, 2, 3}, {4, 3, 2}}},
		{"ij,ij->ij", "", [][]int{{2, 3}, {2, 3}}},
		{"ij,ij->", "", [][]int{{2, 3}, {2, 3}}},
		{"ij,ji->", "", [][]int{{2, 3}, {3, 2}}},
		{"ijk,jl->ikl", "", [][]int{{2, 3, 2}, {3, 4}}},
		{"ij,jk,kl->il", "", [][]int{{2, 3}, {3, 4}, {4, 2}}},
		{"i,i,i->i", "", [][]int{{3}, {3}, {3}}},
		{"ij,jk->ik", "", [][]int{{2, 1}, {3, 4}}},
		{"ij->j", "", [][]int{{2, 3}}},
		{"ij->", "", [][]int{{2, 3}}},
		{"ii,jj->ij", "", [][]int{{2, 2}, {3, 3}}},
		{"ij,jk->ikj", "", [][]int{{2, 3}, {3, 2}}},
		{"ab,cd->", "", [][]int{{2, 3}, {1, 2}}},
		{"...ij,...jk->...ik", "xyij,yjk->xyik", [][]int{{2, 1, 2, 3}, {3, 3, 2}}},
		{"...i,...i", "xi,xi->x", [][]int{{2, 3}, {2, 3}}},
		{"i...->...", "ixy->xy", [][]int{{2, 3, 2}}},
		{"...ii->...i", "xii->xi", [][]int{{2, 3, 3}}},
		{"i...i", "ixi->x", [][]int{{3, 2, 3}}},
		{" ij , jk -> ik ", "ij,jk->ik", [][]int{{2, 3}, {3, 4}}},
		{"ij...,jk...->ik...", "ijx,jkx->ikx", [][]int{{2, 3, 2}, {3, 4, 2}}},
		{"...,...->...", "xy,y->xy", [][]int{{2, 3}, {3}}},
		{"i...,i...", "ixy,iy->xy", [][]int{{2, 3, 2}, {2, 2}}},
		{"bij,bjk->bik", "", [][]int{{3, 2, 1}, {1, 4, 2}}},
	}
	for _, c := range cases {
		t.Run(c.spec, func(t *testing.T) {
			naive := c.naive
			if naive == "" {
				naive = c.spec
			}
			var ops []expr.Expr[float64]
			var data [][]float64
			for i, s := range c.shapes {
				n := 1
				for _, d := range s {
					n *= d
				}
				d := randomData(uint64(i+1), n)
				data = append(data, d)
				ops = append(ops, leaf[float64](d, s...))
			}
			e := linalg.Einsum(c.spec, ops...)
			require.NoError(t, e.Err())
			got, err := exec.Eval(e)
			require.NoError(t, err)
			shape, want := naiveEinsum(naive, c.shapes, data)
			assert.Equal(t, shape, []int(got.Shape()))
			assertNear(t, got.Values(), want, 1e-12, c.spec)
		})
	}
}

// TestEinsumErrors checks bad subscripts and shapes by type and text.
func TestEinsumErrors(t *testing.T) {
	m23 := leaf[float64](make([]float64, 6), 2, 3)
	m43 := leaf[float64](make([]float64, 12), 4, 3)
	cases := []struct {
		spec string
		ops  []expr.Expr[float64]
		as   any
		text string
	}{
		{"ij,jk->ik", []expr.Expr[float64]{m23, m43}, new(*tensor.ShapeError), "subscript j has extent 4 in operand 1 and 3 in an earlier operand"},
		{"ijk", []expr.Expr[float64]{m23}, new(*tensor.ShapeError), "operand 0 has 2 dimensions, its subscripts \"ijk\" name 3"},
		{"i", []expr.Expr[float64]{m23}, new(*tensor.ShapeError), "operand 0 has 2 dimensions, its subscripts \"i\" name 1"},
		{"ii", []expr.Expr[float64]{m23}, new(*tensor.ShapeError), "subscript i is repeated in operand 0 with extents 2 and 3"},
		{"i$", []expr.Expr[float64]{m23}, new(*tensor.ArgError), "invalid subscript \"$\" in term \"i$\""},
		{"i......", []expr.Expr[float64]{m23}, new(*tensor.ArgError), "invalid subscript"},
		{"ij,jk", []expr.Expr[float64]{m23}, new(*tensor.ArgError), "have 2 operand terms for 1 operands"},
		{"ij->ii", []expr.Expr[float64]{m23}, new(*tensor.ArgError), "output subscript i is repeated"},
		{"ij->k", []expr.Expr[float64]{m23}, new(*tensor.ArgError), "output subscript k is in no operand"},
		{"...i->i", []expr.Expr[float64]{m23}, new(*tensor.ArgError), "the output has no '...' for the 1 broadcast dimensions"},
		{"ij", []expr.Expr[float64]{m23.Reshape(5)}, new(*expr.ShapeOpError), "reshape"},
	}
	for _, c := range cases {
		t.Run(c.spec, func(t *testing.T) {
			err := linalg.Einsum(c.spec, c.ops...).Err()
			require.Error(t, err)
			assert.ErrorAs(t, err, c.as)
			assert.Contains(t, err.Error(), c.text)
		})
	}
}

// TestContractionErrors checks Tensordot, TensordotN and Vdot's errors.
func TestContractionErrors(t *testing.T) {
	a := leaf[float64](make([]float64, 6), 2, 3)
	b := leaf[float64](make([]float64, 12), 3, 4)
	cases := []struct {
		name string
		e    expr.Expr[float64]
		as   any
		text string
	}{
		{"pairs", linalg.Tensordot(a, b, []int{1}, []int{0, 1}), new(*tensor.ArgError), "1 axes of a [1] paired with 2 axes of b [0 1]"},
		{"axis", linalg.Tensordot(a, b, []int{2}, []int{0}), new(*tensor.AxisError), "Dimension out of range"},
		{"repeat", linalg.Tensordot(a, a, []int{1, 1}, []int{1, 0}), new(*tensor.ArgError), "repeated axis"},
		{"extent", linalg.Tensordot(a, b, []int{0}, []int{0}), new(*tensor.ShapeError), "axis 0 of a [2, 3] has extent 2, axis 0 of b has 3"},
		{"count", linalg.TensordotN(a, b, 3), new(*tensor.ArgError), "cannot contract 3 axes"},
		{"vdot", linalg.Vdot(a, b), new(*tensor.ShapeError), "b has 12 elements, a [2, 3] has 6"},
		{"kron input", linalg.Kron(a.Reshape(4), b), new(*expr.ShapeOpError), "reshape"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.e.Err()
			require.Error(t, err)
			assert.ErrorAs(t, err, c.as)
			assert.Contains(t, err.Error(), c.text)
		})
	}
}

// TestContractionsAgainstEinsum checks tensordot, inner, outer and kron
// against the loops of their einsum definitions.
func TestContractionsAgainstEinsum(t *testing.T) {
	a, b := randomData(1, 24), randomData(2, 24)
	A, B := leaf[float64](a, 2, 3, 4), leaf[float64](b, 4, 3, 2)
	cases := []struct {
		name   string
		e      expr.Expr[float64]
		naive  string
		shapes [][]int
		data   [][]float64
	}{
		{"tensordot pairs", linalg.Tensordot(A, B, []int{1, 2}, []int{1, 0}), "ijk,kjl->il", [][]int{{2, 3, 4}, {4, 3, 2}}, [][]float64{a, b}},
		{"tensordot 0", linalg.TensordotN(A.Reshape(6, 4), B.Reshape(2, 12).Slice(1, 0, 3, 1), 0), "ij,kl->ijkl", [][]int{{6, 4}, {2, 3}}, [][]float64{a, {b[0], b[1], b[2], b[12], b[13], b[14]}}},
		{"inner", linalg.Inner(A, B.Reshape(6, 4)), "ijk,lk->ijl", [][]int{{2, 3, 4}, {6, 4}}, [][]float64{a, b}},
		{"inner scalar", linalg.Inner(A, expr.Scalar(2.0)), "ijk,->ijk", [][]int{{2, 3, 4}, {}}, [][]float64{a, {2}}},
		{"outer", linalg.Outer(A.Reshape(6, 4), B), "i,j->ij", [][]int{{24}, {24}}, [][]float64{a, b}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := exec.Eval(c.e)
			require.NoError(t, err)
			shape, want := naiveEinsum(c.naive, c.shapes, c.data)
			assert.Equal(t, shape, []int(got.Shape()))
			assertNear(t, got.Values(), want, 1e-12, c.name)
		})
	}
	t.Run("kron", func(t *testing.T) {
		x, y := []float64{1, 2, 3, 4}, []float64{1, 10, 100, 1000, 1e4, 1e5}
		got, err := exec.Eval(linalg.Kron(leaf[float64](x, 2, 2), leaf[float64](y, 3, 2)))
		require.NoError(t, err)
		require.Equal(t, []int{6, 4}, []int(got.Shape()))
		for i := range 6 {
			for j := range 4 {
				v, _ := got.At(i, j)
				assert.Equal(t, x[(i/3)*2+j/2]*y[(i%3)*2+j%2], v, "kron[%d, %d]", i, j)
			}
		}
	})
}

// TestEinsumGradients differentiates einsums with package autograd: the
// gradient of sum(A·B) with respect to A is ones·Bᵀ, and that of the trace
// is the identity.
func TestEinsumGradients(t *testing.T) {
	a, b := randomData(1, 6), randomData(2, 12)
	A, B := leaf[float64](a, 2, 3), leaf[float64](b, 3, 4)
	g, err := autograd.GradOf(linalg.Einsum("ij,jk->ik", A, B).Sum(), A)
	require.NoError(t, err)
	got, err := exec.Eval(g[0])
	require.NoError(t, err)
	want := make([]float64, 6)
	for i := range 2 {
		for j := range 3 {
			for k := range 4 {
				want[i*3+j] += b[j*4+k]
			}
		}
	}
	assertNear(t, got.Values(), want, 1e-12, "d sum(A·B) / dA")

	sq := leaf[float64](randomData(3, 9), 3, 3)
	g, err = autograd.GradOf(linalg.Einsum("ii", sq), sq)
	require.NoError(t, err)
	got, err = exec.Eval(g[0])
	require.NoError(t, err)
	assert.Equal(t, eye(3), got.Values(), "d trace(A) / dA")

	g, err = autograd.GradOf(linalg.Kron(A, B).Sum(), A)
	require.NoError(t, err)
	got, err = exec.Eval(g[0])
	require.NoError(t, err)
	var sb float64
	for _, v := range b {
		sb += v
	}
	assertNear(t, got.Values(), []float64{sb, sb, sb, sb, sb, sb}, 1e-12, "d sum(kron(A, B)) / dA")
}

// FuzzEinsum plans arbitrary subscripts over operands whose extents are
// fixed per letter (a=2, b=3, c=1, d=2, others 2; "..." is one axis of 2):
// planning must never panic, and a plan without "..." must agree with the
// loops.
func FuzzEinsum(f *testing.F) {
	for _, s := range []string{"ab,bc->ac", "aa->a", "aa", "ab,ab", "a,b,c", "abd,dba->", "...a,...a", "a...b->...", "ab->ba", "a,->a", "ij,", "->", "a-b", "aab,bcc->", "ab,bc,cd,da->"} {
		f.Add(s)
	}
	extent := func(ch byte) int {
		switch ch {
		case 'b':
			return 3
		case 'c':
			return 1
		}
		return 2
	}
	f.Fuzz(func(t *testing.T, spec string) {
		if len(spec) > 24 {
			return
		}
		in, _, _ := strings.Cut(spec, "->")
		terms := strings.Split(in, ",")
		if len(terms) > 4 {
			return
		}
		var shapes [][]int
		var data [][]float64
		var ops []expr.Expr[float64]
		for i, term := range terms {
			term = strings.ReplaceAll(term, "...", ".")
			var s []int
			n := 1
			for k := range len(term) {
				s = append(s, extent(term[k]))
				n *= s[len(s)-1]
			}
			d := randomData(uint64(i), n)
			shapes, data = append(shapes, s), append(data, d)
			ops = append(ops, leaf[float64](d, s...))
		}
		e := linalg.Einsum(spec, ops...)
		if e.Err() != nil {
			return
		}
		got, err := exec.Eval(e)
		require.NoError(t, err, spec)
		_, explicit := strings.CutPrefix(spec, "->")
		if strings.ContainsAny(spec, ". ") || !strings.Contains(spec, "->") || explicit {
			return
		}
		shape, want := naiveEinsum(spec, shapes, data)
		require.Equal(t, shape, []int(got.Shape()), spec)
		assertNear(t, got.Values(), want, 1e-9, fmt.Sprintf("%q", spec))
	})
}
