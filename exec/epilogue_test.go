package exec_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// epilogueHeads are elementwise consumers of a product y = x@W with a bias
// b of shape [N]: the ones the epilogue takes.
func epilogueHeads[T float32 | float64]() map[string]func(y, b expr.Expr[T]) expr.Expr[T] {
	return map[string]func(y, b expr.Expr[T]) expr.Expr[T]{
		"relu(y+b)":    func(y, b expr.Expr[T]) expr.Expr[T] { return y.Add(b).Relu() },
		"gelu(y+b)":    func(y, b expr.Expr[T]) expr.Expr[T] { z := y.Add(b); return z.Mul(z.MulScalar(1.702).Sigmoid()) },
		"sigmoid(y+b)": func(y, b expr.Expr[T]) expr.Expr[T] { return y.Add(b).Sigmoid() },
		"0.5*y":        func(y, _ expr.Expr[T]) expr.Expr[T] { return y.MulScalar(0.5) },
		"tanh(y*b-1)":  func(y, b expr.Expr[T]) expr.Expr[T] { return y.Mul(b).SubScalar(1).Tanh() },
		"relu(y)":      func(y, _ expr.Expr[T]) expr.Expr[T] { return y.Relu() },
	}
}

// debugPlan evaluates e on a new executor with workers and returns the
// result and the plan's debug text.
func debugPlan[T float32 | float64](t *testing.T, workers int, e expr.Expr[T]) (*tensor.Tensor[T], string) {
	t.Helper()
	var buf bytes.Buffer
	x := exec.New(exec.Workers(workers), exec.Debug(&buf))
	defer x.Close()
	out, err := exec.EvalWith(x, e)
	require.NoError(t, err)
	return out, buf.String()
}

// unfused evaluates head(y, b) with y also a result, which keeps the
// product in a tensor of its own and the head a region of its own: the
// plan without an epilogue.
func unfused[T float32 | float64](t *testing.T, workers int, y, b expr.Expr[T], head func(y, b expr.Expr[T]) expr.Expr[T]) (*tensor.Tensor[T], string) {
	t.Helper()
	var buf bytes.Buffer
	x := exec.New(exec.Workers(workers), exec.Debug(&buf))
	defer x.Close()
	outs, err := exec.EvalNWith(x, []expr.Expr[T]{y, head(y, b)})
	require.NoError(t, err)
	return outs[1], buf.String()
}

// TestEpilogueMatchesUnfused checks that a matmul with an elementwise head
// plans the head as the matmul's epilogue (the debug plan shows one step,
// the matmul, with the region under it) and that the result has the
// unfused plan's bits, for every head, in float32 and float64, over shapes
// that take each path of the product (packed in bands and blocks, rows of
// a read in place, matrix-vector, vector-matrix, stacked and separate
// batches) on 1, 2, 3 and 8 workers.
func TestEpilogueMatchesUnfused(t *testing.T) {
	t.Run("float32", testEpilogue[float32])
	t.Run("float64", testEpilogue[float64])
}

func testEpilogue[T float32 | float64](t *testing.T) {
	shapes := []struct {
		name string
		a, w []int
	}{
		{"packed", []int{301, 130}, []int{130, 200}},
		{"wide", []int{40, 300}, []int{300, 700}},
		{"in-place-rows", []int{97, 64}, []int{64, 24}},
		{"matvec", []int{200, 90}, []int{90, 1}},
		{"vecmat", []int{1, 90}, []int{90, 300}},
		{"vector-a", []int{90}, []int{90, 33}},
		{"stacked", []int{4, 50, 70}, []int{70, 40}},
		{"batched", []int{3, 50, 70}, []int{3, 70, 40}},
		{"tiny", []int{2, 3}, []int{3, 5}},
	}
	heads := epilogueHeads[T]()
	names := make([]string, 0, len(heads))
	for n := range heads {
		names = append(names, n)
	}
	for i, sh := range shapes {
		a := tensor.Must(tensor.RandN[T](uint64(10+i), sh.a...))
		w := tensor.Must(tensor.RandN[T](uint64(20+i), sh.w...))
		b := tensor.Must(tensor.RandN[T](uint64(30+i), sh.w[len(sh.w)-1]))
		y, bias := expr.Of(a).MatMul(expr.Of(w)), expr.Of(b)
		for _, name := range names {
			head := heads[name]
			t.Run(sh.name+"/"+name, func(t *testing.T) {
				want, plain := unfused(t, 2, y, bias, head)
				require.NotContains(t, plain, "epilogue", "the product is a result: no epilogue")
				for _, workers := range []int{1, 2, 3, 8} {
					got, plan := debugPlan(t, workers, head(y, bias))
					require.Contains(t, plan, "epilogue on each block of the product", "workers=%d:\n%s", workers, plan)
					assert.Contains(t, plan, "epilogue rows", "the epilogue's plan is a row of the tile table:\n%s", plan)
					require.Contains(t, plan, "1 steps", plan)
					require.Equal(t, want.Shape(), got.Shape())
					requireSameBits(t, want.Data(), got.Data(), fmt.Sprintf("workers=%d", workers))
				}
			})
		}
	}
}

// requireSameBits fails unless got has want's bits, element for element.
func requireSameBits[T float32 | float64](t *testing.T, want, got []T, what string) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		if !sameBits(want[i], got[i]) {
			require.Failf(t, "bits differ", "%s: element %d is %v, unfused %v", what, i, got[i], want[i])
		}
	}
}

// TestEpilogueBLAS checks the epilogue on the BLAS path, which applies it
// once the product is done, in bands of rows.
func TestEpilogueBLAS(t *testing.T) {
	defer exec.UseBLAS(exec.UseBLAS(true))
	a := tensor.Must(tensor.RandN[float64](1, 300, 120))
	w := tensor.Must(tensor.RandN[float64](2, 120, 150))
	b := tensor.Must(tensor.RandN[float64](3, 150))
	y, bias := expr.Of(a).MatMul(expr.Of(w)), expr.Of(b)
	head := epilogueHeads[float64]()["gelu(y+b)"]
	want, _ := unfused(t, 2, y, bias, head)
	got, plan := debugPlan(t, 2, head(y, bias))
	require.Contains(t, plan, "epilogue")
	requireSameBits(t, want.Data(), got.Data(), "UseBLAS")
}

// TestEpilogueNotTaken lists graphs whose head must stay a step of its
// own, and checks their values against the unfused plan.
func TestEpilogueNotTaken(t *testing.T) {
	a := tensor.Must(tensor.RandN[float64](1, 60, 40))
	w := tensor.Must(tensor.RandN[float64](2, 40, 30))
	full := tensor.Must(tensor.RandN[float64](3, 60, 30))
	col := tensor.Must(tensor.RandN[float64](4, 60, 1))
	y := expr.Of(a).MatMul(expr.Of(w))
	ai := tensor.Must(tensor.FromSlice(mmValues[int32](rdRand(5), 60*40), 60, 40))
	wi := tensor.Must(tensor.FromSlice(mmValues[int32](rdRand(6), 40*30), 40, 30))
	for _, tc := range []struct {
		name string
		eval func(x *exec.Executor) error
	}{
		{"full-size-operand", func(x *exec.Executor) error { _, err := exec.EvalWith(x, y.Add(expr.Of(full)).Relu()); return err }},
		{"varies-along-rows", func(x *exec.Executor) error { _, err := exec.EvalWith(x, y.Add(expr.Of(col))); return err }},
		{"product-read-twice", func(x *exec.Executor) error { _, err := exec.EvalWith(x, y.Relu().Add(y.T().T().Sum(0))); return err }},
		{"reduced", func(x *exec.Executor) error { _, err := exec.EvalWith(x, y.Relu().Sum(1)); return err }},
		{"transposed-head", func(x *exec.Executor) error { _, err := exec.EvalWith(x, y.T().Relu()); return err }},
		{"integer", func(x *exec.Executor) error {
			_, err := exec.EvalWith(x, expr.Of(ai).MatMul(expr.Of(wi)).AddScalar(1))
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			x := exec.New(exec.Debug(&buf))
			defer x.Close()
			require.NoError(t, tc.eval(x))
			assert.NotContains(t, buf.String(), "epilogue", buf.String())
		})
	}
	// Values, where the plan is the ordinary one.
	got, err := exec.Eval(y.Add(expr.Of(full)).Relu())
	require.NoError(t, err)
	prod, err := exec.Eval(y)
	require.NoError(t, err)
	want := make([]float64, 60*30)
	for i := range want {
		want[i] = max(0, prod.Data()[i]+full.Data()[i])
	}
	assert.Equal(t, want, got.Data())
}

// TestEpilogueEvalTo checks that a head evaluated into a destination keeps
// the destination's semantics: the result lands there, with the bits of
// the unfused plan.
func TestEpilogueEvalTo(t *testing.T) {
	a := tensor.Must(tensor.RandN[float32](1, 130, 70))
	w := tensor.Must(tensor.RandN[float32](2, 70, 90))
	b := tensor.Must(tensor.RandN[float32](3, 90))
	y, bias := expr.Of(a).MatMul(expr.Of(w)), expr.Of(b)
	head := epilogueHeads[float32]()["relu(y+b)"]
	want, _ := unfused(t, 2, y, bias, head)
	var buf bytes.Buffer
	x := exec.New(exec.Debug(&buf))
	defer x.Close()
	dst := tensor.Must(tensor.Zeros[float32](130, 90))
	require.NoError(t, exec.EvalToWith(x, dst, head(y, bias)))
	assert.Contains(t, buf.String(), "epilogue", "a destination of its own")
	requireSameBits(t, want.Data(), dst.Data(), "EvalTo")

	// A destination that is an operand of the product is not written by it.
	buf.Reset()
	sq := tensor.Must(tensor.RandN[float32](4, 90, 90))
	want2, _ := unfused(t, 2, expr.Of(sq).MatMul(expr.Of(sq)), bias, head)
	require.NoError(t, exec.EvalToWith(x, sq, head(expr.Of(sq).MatMul(expr.Of(sq)), bias)))
	assert.NotContains(t, buf.String(), "epilogue", "a destination that is an operand")
	requireSameBits(t, want2.Data(), sq.Data(), "EvalTo an operand")

	// A transposed destination is written by a region after the product.
	buf.Reset()
	tt := tensor.Must(tensor.Zeros[float32](90, 130))
	ttT := tensor.Must(tt.T())
	require.NoError(t, exec.EvalToWith(x, ttT, head(y, bias)))
	assert.NotContains(t, buf.String(), "epilogue", "a transposed destination")
	requireSameBits(t, want.Data(), ttT.Contiguous().Data(), "EvalTo a transposed view")
}
