package exec_test

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

// The matmul tests compare MatMul with mmRef, a naive triple loop over
// NumPy's matmul rules, on small integer values (real and imaginary parts in
// -3..3), for which every summation order gives the same exact result, so
// BLAS, the Go loop and the reference agree bit for bit.

// mmValues returns n small integer values of T.
func mmValues[T dtype.Numeric](r *rand.Rand, n int) []T {
	v := make([]T, n)
	unsigned := dtype.Of[T]().Kind() == dtype.KindUnsigned
	for i := range v {
		if unsigned {
			v[i] = rdConv[T](float64(r.IntN(5)), 0)
		} else {
			v[i] = rdConv[T](float64(r.IntN(7)-3), float64(r.IntN(7)-3))
		}
	}
	return v
}

// mmDim is extent i of s right-aligned to rank (1 where s has no axis).
func mmDim(s []int, i, rank int) int {
	if d := i - (rank - len(s)); d >= 0 {
		return s[d]
	}
	return 1
}

// mmRef is NumPy's matmul as a triple loop over row-major values: a 1-D a
// is a row vector, a 1-D b a column vector (the added axis is dropped from
// the result), and the batch axes broadcast.
func mmRef[T dtype.Numeric](a []T, as []int, b []T, bs []int) ([]T, tensor.Shape) {
	am, bm := as, bs
	if len(as) == 1 {
		am = []int{1, as[0]}
	}
	if len(bs) == 1 {
		bm = []int{bs[0], 1}
	}
	n, k, m := am[len(am)-2], am[len(am)-1], bm[len(bm)-1]
	ab, bb := am[:len(am)-2], bm[:len(bm)-2]
	rank := max(len(ab), len(bb))
	batch := make([]int, rank)
	for i := range batch {
		batch[i] = mmDim(ab, i, rank)
		if batch[i] == 1 {
			batch[i] = mmDim(bb, i, rank)
		}
	}
	shape := append(tensor.Shape{}, batch...)
	if len(as) > 1 {
		shape = append(shape, n)
	}
	if len(bs) > 1 {
		shape = append(shape, m)
	}
	nb := rdNumel(batch)
	out := make([]T, nb*n*m)
	idx := make([]int, rank)
	for bi := range nb {
		for i, rest := rank-1, bi; i >= 0; i-- {
			idx[i], rest = rest%batch[i], rest/batch[i]
		}
		aoff, boff := 0, 0
		for i := range rank { // a broadcast axis (extent 1) reads index 0
			da, db := mmDim(ab, i, rank), mmDim(bb, i, rank)
			aoff = aoff*da + min(idx[i], da-1)
			boff = boff*db + min(idx[i], db-1)
		}
		aoff, boff = aoff*n*k, boff*k*m
		for i := range n {
			for j := range m {
				var s T
				for p := range k {
					s += a[aoff+i*k+p] * b[boff+p*m+j]
				}
				out[bi*n*m+i*m+j] = s
			}
		}
	}
	return out, shape
}

// mmVariants are the memory layouts a matmul operand is given in.
var mmVariants = []string{"contiguous", "T", "sliced", "expanded", "T-sliced"}

// mmOperand returns a tensor of the given shape in layout variant:
// "T" is the transpose (x.T(), or Transpose(-2, -1) for batches) of a
// row-major tensor, "sliced" a Slice with steps 2 and 3 of the last two
// axes, "expanded" has its first axis of extent > 1 expanded from 1 (stride
// 0), "T-sliced" is strided both ways. A 1-D "T" is the vector itself.
func mmOperand[T dtype.Numeric](t testing.TB, r *rand.Rand, variant string, shape []int) *tensor.Tensor[T] {
	t.Helper()
	rank := len(shape)
	gen := func(s []int) *tensor.Tensor[T] {
		return tensor.Must(tensor.FromSlice(mmValues[T](r, rdNumel(s)), s...))
	}
	swapped := append([]int{}, shape...)
	if rank >= 2 {
		swapped[rank-1], swapped[rank-2] = swapped[rank-2], swapped[rank-1]
	}
	transpose := func(x *tensor.Tensor[T]) *tensor.Tensor[T] {
		if rank == 2 {
			return tensor.Must(x.T())
		}
		if rank > 2 {
			return tensor.Must(x.Transpose(-2, -1))
		}
		return x
	}
	slice := func(s []int) *tensor.Tensor[T] {
		full := append([]int{}, s...)
		steps := map[int]int{rank - 1: 2, rank - 2: 3}
		for ax, st := range steps {
			if ax >= 0 {
				full[ax] = max(0, (s[ax]-1)*st+1) + 2
			}
		}
		x := gen(full)
		for ax, st := range steps {
			if ax >= 0 {
				x = tensor.Must(x.Slice(ax, 1, 1+max(0, (s[ax]-1)*st+1), st))
			}
		}
		return x
	}
	var x *tensor.Tensor[T]
	switch variant {
	case "contiguous":
		x = gen(shape)
	case "T":
		x = transpose(gen(swapped))
	case "sliced":
		x = slice(shape)
	case "T-sliced":
		x = transpose(slice(swapped))
	case "expanded":
		pre := append([]int{}, shape...)
		for i, d := range shape {
			if d > 1 {
				pre[i] = 1
				break
			}
		}
		x = tensor.Must(gen(pre).Expand(shape...))
	default:
		t.Fatalf("variant %q", variant)
	}
	require.Equal(t, tensor.Shape(shape).String(), x.Shape().String(), "operand %s", variant)
	return x
}

// mmShapes are the operand shapes every dtype and layout is tried on.
var mmShapes = []struct{ a, b []int }{
	{[]int{3, 4}, []int{4, 5}},
	{[]int{1, 1}, []int{1, 1}},
	{[]int{7, 3}, []int{3, 1}},
	{[]int{1, 6}, []int{6, 9}},
	{[]int{4}, []int{4, 5}},       // 1-D @ 2-D
	{[]int{3, 4}, []int{4}},       // 2-D @ 1-D
	{[]int{4}, []int{4}},          // 1-D @ 1-D: a 0-d result
	{[]int{2, 3, 4}, []int{4, 5}}, // batch @ matrix
	{[]int{3, 4}, []int{2, 4, 5}}, // matrix @ batch
	{[]int{2, 3, 4}, []int{2, 4, 5}},
	{[]int{2, 1, 3, 4}, []int{5, 4, 2}}, // batch axes broadcast both ways
	{[]int{1, 3, 4}, []int{3, 1, 4, 2}},
	{[]int{2, 3, 4}, []int{4}},       // batch @ 1-D
	{[]int{4}, []int{2, 4, 5}},       // 1-D @ batch
	{[]int{0, 4}, []int{4, 5}},       // zero rows
	{[]int{3, 0}, []int{0, 5}},       // empty inner dimension: zeros
	{[]int{3, 4}, []int{4, 0}},       // zero columns
	{[]int{0}, []int{0}},             // 0-d zero
	{[]int{0}, []int{0, 3}},          // zeros
	{[]int{2, 0, 3, 4}, []int{4, 5}}, // empty batch
	{[]int{2, 3, 0}, []int{2, 0, 4}},
	{[]int{0, 3, 4}, []int{1, 4, 2}},
	{[]int{3, 40, 50}, []int{50, 30}},
	{[]int{65, 130}, []int{130, 70}}, // large enough for the parallel loop
}

func mmRun[T dtype.Numeric](t *testing.T) {
	r := rdRand(uint64(dtype.Of[T]()))
	execs := rdExecs
	for _, sh := range mmShapes {
		t.Run(fmt.Sprintf("%v@%v", sh.a, sh.b), func(t *testing.T) {
			for i, va := range mmVariants {
				for j, vb := range mmVariants {
					a := mmOperand[T](t, r, va, sh.a)
					b := mmOperand[T](t, r, vb, sh.b)
					want, shape := mmRef(a.Values(), sh.a, b.Values(), sh.b)
					e := expr.Of(a).MatMul(expr.Of(b))
					require.NoError(t, e.Err())
					assert.Equal(t, shape.String(), e.Shape().String(), "inferred shape")
					ex := execs[(i+j)%len(execs)]
					got, err := exec.EvalWith(ex.x, e)
					require.NoError(t, err)
					ctx := fmt.Sprintf("%s %v (%s, strides %v) @ %v (%s, strides %v) on %s", dtype.Of[T](), sh.a, va, a.Strides(), sh.b, vb, b.Strides(), ex.name)
					assert.Equal(t, shape.String(), got.Shape().String(), ctx)
					rdCompare(t, rdSame[T], want, got.Values(), "%s", ctx)
				}
			}
		})
	}
}

// TestMatMulEveryDType checks MatMul against the triple loop for every
// numeric dtype, operand layout (row-major, transposed, sliced with steps,
// expanded, strided both ways), 1-D and batched operand and zero extents.
func TestMatMulEveryDType(t *testing.T) {
	t.Run("int8", mmRun[int8])
	t.Run("int16", mmRun[int16])
	t.Run("int32", mmRun[int32])
	t.Run("int64", mmRun[int64])
	t.Run("uint8", mmRun[uint8])
	t.Run("uint16", mmRun[uint16])
	t.Run("uint32", mmRun[uint32])
	t.Run("uint64", mmRun[uint64])
	t.Run("float32", mmRun[float32])
	t.Run("float64", mmRun[float64])
	t.Run("complex64", mmRun[complex64])
	t.Run("complex128", mmRun[complex128])
}

// TestMatMulInGraphs checks matmul between other ops: operands that are
// expressions and graph-level views, results fed to elementwise ops and
// reductions.
func TestMatMulInGraphs(t *testing.T) {
	r := rdRand(5)
	a := tensor.Must(tensor.FromSlice(mmValues[float64](r, 6*8), 6, 8))
	b := tensor.Must(tensor.FromSlice(mmValues[float64](r, 5*8), 5, 8))
	c := tensor.Must(tensor.FromSlice(mmValues[float64](r, 5), 5))
	A, B, C := expr.Of(a), expr.Of(b), expr.Of(c)
	bt := tensor.Must(b.T())
	mul := func(x, y []float64, xs, ys []int) []float64 { v, _ := mmRef(x, xs, y, ys); return v }
	twoA := make([]float64, 0, 48)
	for _, v := range a.Values() {
		twoA = append(twoA, 2*v)
	}
	ab := mul(a.Values(), bt.Values(), []int{6, 8}, []int{8, 5})
	abc := make([]float64, len(ab))
	for i, v := range ab {
		abc[i] = v + c.Values()[i%5]
	}
	rowSums := rdRef(abc, []int{6, 5}, []bool{false, true}, 0.0, func(s, v float64, _ int) float64 { return s + v })
	aSl := tensor.Must(a.Slice(1, 0, 8, 2))
	bSl := tensor.Must(bt.Slice(0, 0, 8, 2))
	tests := []struct {
		name string
		e    expr.Expr[float64]
		want []float64
	}{
		{"(2a) @ b.T", A.MulScalar(2).MatMul(B.T()), mul(twoA, bt.Values(), []int{6, 8}, []int{8, 5})},
		{"a @ b.T + c", A.MatMul(B.T()).Add(C), abc},
		{"sum(a @ b.T + c, 1)", A.MatMul(B.T()).Add(C).Sum(1), rowSums},
		{"a[:, ::2] @ b.T[::2]", A.Slice(1, 0, 8, 2).MatMul(B.T().Slice(0, 0, 8, 2)), mul(aSl.Values(), bSl.Values(), []int{6, 4}, []int{4, 5})},
		{"expand(c) @ b", C.Reshape(1, 5).Expand(3, 5).MatMul(B), mul(tensor.Must(tensor.Must(c.Reshape(1, 5)).Expand(3, 5)).Values(), b.Values(), []int{3, 5}, []int{5, 8})},
		{"c @ b (1-D)", C.MatMul(B), mul(c.Values(), b.Values(), []int{5}, []int{5, 8})},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				rdCompare(t, rdSame[float64], tc.want, rdEval(t, ex.x, tc.e), "%s", tc.name)
			})
		}
	}
}

// TestMatMulWorkers checks that the product does not depend on the number
// of workers (the Go loop splits rows, BLAS its own way).
func TestMatMulWorkers(t *testing.T) {
	r := rdRand(6)
	a64 := tensor.Must(tensor.RandN[float64](7, 4, 90, 300))
	b64 := tensor.Must(tensor.RandN[float64](8, 300, 110))
	ai := tensor.Must(tensor.FromSlice(rdValues[int32](r, 4*90*300, rdOrderVals), 4, 90, 300))
	bi := tensor.Must(tensor.FromSlice(rdValues[int32](r, 300*110, rdOrderVals), 300, 110))
	c128 := tensor.Must(tensor.FromSlice(rdValues[complex128](r, 120*200, rdSumVals), 120, 200))
	execs := rdWorkerExecs()
	check := func(name string, run func(x *exec.Executor) func() bool) {
		t.Run(name, func(t *testing.T) {
			for _, ex := range execs {
				assert.True(t, run(ex.x)(), "%s on %s differs from workers=1", name, ex.name)
			}
		})
	}
	want64 := rdEval(t, execs[0].x, expr.Of(a64).MatMul(expr.Of(b64)))
	check("float64", func(x *exec.Executor) func() bool {
		got := rdEval(t, x, expr.Of(a64).MatMul(expr.Of(b64)))
		return func() bool { return rdCompare(t, rdBitsEqual[float64], want64, got, "float64") }
	})
	wantI := rdEval(t, execs[0].x, expr.Of(ai).MatMul(expr.Of(bi)))
	check("int32", func(x *exec.Executor) func() bool {
		got := rdEval(t, x, expr.Of(ai).MatMul(expr.Of(bi)))
		return func() bool { return rdCompare(t, rdSame[int32], wantI, got, "int32") }
	})
	ct := expr.Of(c128).T()
	wantC := rdEval(t, execs[0].x, ct.MatMul(expr.Of(c128)))
	check("complex128", func(x *exec.Executor) func() bool {
		got := rdEval(t, x, ct.MatMul(expr.Of(c128)))
		return func() bool { return rdCompare(t, rdBitsEqual[complex128], wantC, got, "complex128") }
	})
}

// TestMatMulShapeErrors checks that incompatible operands fail when the
// node is built, with a *expr.ShapeOpError naming both shapes, and that
// Eval returns that error.
func TestMatMulShapeErrors(t *testing.T) {
	tests := []struct {
		a, b []int
		text string
	}{
		{[]int{3, 4}, []int{5, 6}, "(4 != 5)"},
		{[]int{4}, []int{5}, "(4 != 5)"},
		{[]int{3}, []int{4, 2}, "(3 != 4)"},
		{[]int{2, 3}, []int{4}, "(3 != 4)"},
		{[]int{2, 3, 4}, []int{3, 4, 5}, "do not broadcast"},
		{[]int{2, 2, 3, 4}, []int{3, 4, 5}, "do not broadcast"},
		{[]int{0, 3, 4}, []int{2, 4, 5}, "do not broadcast"},
		{[]int{2, 3, 4}, []int{2, 5, 4}, "(4 != 5)"},
		{[]int{}, []int{3}, "at least 1 dimension"},
		{[]int{3}, []int{}, "at least 1 dimension"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%v@%v", tc.a, tc.b), func(t *testing.T) {
			a := expr.Placeholder[float32]("a", tc.a...)
			b := expr.Placeholder[float32]("b", tc.b...)
			e := a.MatMul(b)
			err := e.Err()
			require.Error(t, err)
			var se *expr.ShapeOpError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, "matmul", se.Op)
			assert.Contains(t, err.Error(), tensor.Shape(tc.a).String())
			assert.Contains(t, err.Error(), tensor.Shape(tc.b).String())
			assert.Contains(t, err.Error(), tc.text)
			assert.Nil(t, e.Shape())
			_, evalErr := exec.Eval(e.Sum())
			assert.ErrorIs(t, evalErr, err, "Eval returns the construction error")
		})
	}
	t.Run("bool", func(t *testing.T) {
		b := expr.Placeholder[bool]("b", 2, 2)
		var de *expr.DTypeError
		assert.ErrorAs(t, b.MatMul(b).Err(), &de)
	})
}
