package expr_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Building a graph computes nothing; it checks shapes and can be printed.
// exec.Eval runs it.
func Example() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := tensor.FromSlice([]float64{10, 20, 30}, 3)
	x, y := expr.Of(a), expr.Of(b)
	z := x.Mul(y).AddScalar(1).Sum(1) // lazy: shapes are checked here
	fmt.Println(z.Shape(), z.Err())
	fmt.Println(z)

	out, err := exec.Eval(z)
	fmt.Println(out, err)
	// Output:
	// [2] <nil>
	// %0:f64[2,3] = tensor
	// %1:f64[3] = tensor
	// %2:f64[2,3] = mul %0 %1
	// %3:f64[] = scalar 1.0
	// %4:f64[2,3] = add %2 %3
	// %5:f64[2] = sum %4 axes=[1]
	// return %5
	// [143. 323.] <nil>
}

func ExampleExpr_String() {
	x := expr.From(tensor.Ones[float32](8, 4))
	w := expr.From(tensor.Ones[float32](4, 3))
	h := x.MatMul(w).AddScalar(0.5).Relu().MeanKeepDims(0)
	fmt.Println(h)
	// Output:
	// %0:f32[8,4] = tensor
	// %1:f32[4,3] = tensor
	// %2:f32[8,3] = matmul %0 %1
	// %3:f32[] = scalar 0.5
	// %4:f32[8,3] = add %2 %3
	// %5:f32[8,3] = relu %4
	// %6:f32[1,3] = mean %5 axes=[0] keepdim
	// return %6
}

// A broadcast error is found when the node is built, in PyTorch's words.
// It sticks: every node built on top carries it, and exec.Eval returns it.
func ExampleExpr_Add_broadcastError() {
	a, _ := tensor.New[float64](5, 2, 4, 1)
	b, _ := tensor.New[float64](3, 1, 1)
	bad := expr.Of(a).Add(expr.Of(b))
	fmt.Println(bad.Err())

	var be *tensor.BroadcastError
	if errors.As(bad.Err(), &be) {
		fmt.Println("dim", be.Dim, "sizes", be.SizeA, be.SizeB)
	}

	z := bad.Exp().Sum() // still an error, and nothing was computed
	_, err := exec.Eval(z)
	fmt.Println(err == bad.Err())
	fmt.Println(z)
	// Output:
	// The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1
	// dim 1 sizes 2 3
	// true
	// %0:f64[5,2,4,1] = tensor
	// %1:f64[3,1,1] = tensor
	// %2 = error "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"
	// %3 = error "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"
	// %4 = error "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 1"
	// return %4
}

func ExampleExpr_Err() {
	a, _ := tensor.New[float64](2, 3)
	x := expr.Of(a)
	fmt.Println(x.Reshape(4, 2).Err())
	fmt.Println(x.Sum(2).Err())
	fmt.Println(x.Permute(0, 0).Err())
	fmt.Println(x.MatMul(x).Err())
	i, _ := tensor.New[int32](3)
	fmt.Println(expr.Of(i).Exp().Err())
	fmt.Println(expr.Expr[float64]{}.Err())
	// Output:
	// expr: reshape: shape [4, 2] is invalid for input of size 6
	// Dimension out of range (expected to be in range of [-2, 1], but got 2)
	// expr: permute: axis 0 repeated in [0 0]
	// expr: matmul: shapes [2, 3] and [2, 3] cannot be multiplied (3 != 2)
	// expr: exp is not defined for int32 (cast to a float type first with expr.Cast)
	// expr: use of a zero Expr (build expressions with Of, Scalar or Placeholder)
}

// Placeholders let a graph be built and checked before its data exists;
// exec.Bind supplies the tensor at each evaluation.
func ExamplePlaceholder() {
	p := expr.Placeholder[float64]("x", 2, 3)
	y := p.MulScalar(2).Sum(0)
	fmt.Println(y)

	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	out, err := exec.Eval(y, exec.Bind(p, a))
	fmt.Println(out, err)

	_, err = exec.Eval(y)
	fmt.Println(err)
	// Output:
	// %0:f64[2,3] = placeholder "x"
	// %1:f64[] = scalar 2.0
	// %2:f64[2,3] = mul %0 %1
	// %3:f64[3] = sum %2 axes=[0]
	// return %3
	// [10. 14. 18.] <nil>
	// exec: placeholder "x": no tensor bound
}

// Scalars are 0-d leaves: they broadcast against any shape. The Scalar
// methods are short for building one.
func ExampleScalar() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3}, 3)
	x := expr.Of(a)
	y := expr.Scalar(10.0).Sub(x) // 10 - x: a scalar on the left
	z := x.PowScalar(2).DivScalar(2)
	out, _ := exec.EvalN(y, z)
	fmt.Println(out[0], out[1])
	// Output:
	// [9. 8. 7.] [0.5 2.  4.5]
}

// Go has no implicit promotion: operands of a binary op have one element
// type, and a change of type is a node of its own.
func ExampleCast() {
	i, _ := tensor.FromSlice([]int32{1, 2, 3, 4, 5, 6}, 2, 3)
	f, _ := tensor.FromSlice([]float64{0.5, 0.5, 0.5}, 3)
	x := expr.Cast[float64](expr.Of(i)).Mul(expr.Of(f)) // NumPy: i * f
	out, _ := exec.Eval(x)
	fmt.Println(out)

	back, _ := exec.Eval(expr.Cast[int32](x)) // astype: truncates toward zero
	fmt.Println(back)
	// Output:
	// [[0.5 1.  1.5]
	//  [2.  2.5 3. ]]
	// [[0 1 1]
	//  [2 2 3]]
}

// Div is defined for floating and complex types only. On integers choose the
// rounding, or TrueDiv for NumPy's / (a float result).
func ExampleTrueDiv() {
	a, _ := tensor.FromSlice([]int64{7, -7, 6}, 3)
	b, _ := tensor.FromSlice([]int64{2, 2, 4}, 3)
	x, y := expr.Of(a), expr.Of(b)
	fmt.Println(x.Div(y).Err())
	t, _ := exec.Eval(expr.TrueDiv[float64](x, y)) // a / b
	f, _ := exec.Eval(x.DivFloor(y))               // a // b
	c, _ := exec.Eval(x.DivTrunc(y))               // torch.div(a, b, rounding_mode="trunc")
	fmt.Println(t, f, c)
	// Output:
	// expr: div is not defined for int64 (use DivTrunc, DivFloor or expr.TrueDiv)
	// [ 3.5 -3.5  1.5] [ 3 -4  1] [ 3 -3  1]
}

func ExampleWhere() {
	a, _ := tensor.FromSlice([]float64{-2, -1, 0, 1, 2, 3}, 2, 3)
	x := expr.Of(a)
	y := expr.Where(x.Gt(expr.Scalar(0.0)), x, x.MulScalar(0.1)) // leaky relu
	out, _ := exec.Eval(y)
	fmt.Println(out)
	// Output:
	// [[-0.2 -0.1  0. ]
	//  [ 1.   2.   3. ]]
}

func ExampleExpr_Sum() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	x := expr.Of(a)
	all, _ := exec.Eval(x.Sum())           // every axis: a 0-d tensor
	rows, _ := exec.Eval(x.Sum(1))         // np.sum(a, axis=1)
	keep, _ := exec.Eval(x.SumKeepDims(1)) // np.sum(a, axis=1, keepdims=True)
	cols, _ := exec.Eval(x.Sum(-2))        // negative axes count from the end
	fmt.Println(all, all.Shape())
	fmt.Println(rows, rows.Shape())
	fmt.Println(keep.Shape())
	fmt.Println(cols)
	// Output:
	// 21.0 []
	// [ 6. 15.] [2]
	// [2, 1]
	// [5. 7. 9.]
}

func ExampleExpr_ArgMax() {
	a, _ := tensor.FromSlice([]float64{3, 9, 9, 7, 1, 2}, 2, 3)
	x := expr.Of(a)
	i, _ := exec.Eval(x.ArgMax(1)) // the first maximum on ties
	m, _ := exec.Eval(x.Max(0))
	p, _ := exec.Eval(x.Prod(1))
	fmt.Printf("%+v\n%v\n%v\n", i, m, p)
	// Output:
	// tensor([1, 0], dtype=int64)
	// [7. 9. 9.]
	// [243.  14.]
}

// SumTo is PyTorch's sum_to_size: it undoes a broadcast. It is how the
// gradient of a broadcast operand is formed.
func ExampleExpr_SumTo() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	x := expr.Of(a)
	s, _ := exec.Eval(x.SumTo(1, 3))
	t, _ := exec.Eval(x.SumTo(3))
	fmt.Println(s, s.Shape())
	fmt.Println(t, t.Shape())
	fmt.Println(x.SumTo(2, 2).Err())
	// Output:
	// [[5. 7. 9.]] [1, 3]
	// [5. 7. 9.] [3]
	// expr: sum_to_size: size [2, 2] is not expandable to size [2, 3]
}

// The mean of integers is a float, as in NumPy; MeanAs names the type.
func ExampleMeanAs() {
	a, _ := tensor.FromSlice([]int32{1, 2, 3, 4, 5, 7}, 2, 3)
	x := expr.Of(a)
	fmt.Println(x.Mean().Err())
	m, _ := exec.Eval(expr.MeanAs[float64](x, 1))
	fmt.Println(m)
	// Output:
	// expr: mean is not defined for int32 (use expr.MeanAs[float64] for NumPy's float64 mean of integers)
	// [2.         5.33333333]
}

func ExampleExpr_MatMul() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	v, _ := tensor.FromSlice([]float64{1, 0, -1}, 3)
	x, y := expr.Of(a), expr.Of(v)

	m, _ := exec.Eval(x.MatMul(x.T())) // (2,3) @ (3,2) -> (2,2)
	mv, _ := exec.Eval(x.MatMul(y))    // (2,3) @ (3,) -> (2,)
	vv, _ := exec.Eval(y.MatMul(y))    // (3,) @ (3,) -> (), the dot product
	fmt.Println(m)
	fmt.Println(mv, mv.Shape())
	fmt.Println(vv, vv.Shape())

	// Batch axes broadcast: (2,1,3,4) @ (5,4,2) -> (2,5,3,2).
	b1 := expr.From(tensor.Ones[float64](2, 1, 3, 4))
	b2 := expr.From(tensor.Ones[float64](5, 4, 2))
	fmt.Println(b1.MatMul(b2).Shape())
	fmt.Println(x.MatMul(x).Err())
	// Output:
	// [[14. 32.]
	//  [32. 77.]]
	// [-2. -2.] [2]
	// 2.0 []
	// [2, 5, 3, 2]
	// expr: matmul: shapes [2, 3] and [2, 3] cannot be multiplied (3 != 2)
}

// For complex64, complex128, float64, int16, uint16 and uint64, a broadcast
// whose merged rank is 6 or more is refused when the node is built.
func ExampleRestrictedRankError() {
	full := expr.From(tensor.New[float64](5, 5, 5, 5, 5, 5))
	a := expr.From(tensor.New[float64](5, 1, 5, 1, 5, 1))
	b := expr.From(tensor.New[float64](5, 1, 5, 5, 1, 1))

	err := a.Add(full).Err()
	fmt.Println(err)
	var re *expr.RestrictedRankError
	fmt.Println(errors.As(err, &re), re.Merged)

	fmt.Println(b.Add(full).Shape(), b.Add(full).Err()) // merges to rank 4

	// float32 is not restricted.
	a32 := expr.From(tensor.New[float32](5, 1, 5, 1, 5, 1))
	full32 := expr.From(tensor.New[float32](5, 5, 5, 5, 5, 5))
	fmt.Println(a32.Add(full32).Err())
	// Output:
	// expr: broadcasting float64 tensors of shapes [5, 1, 5, 1, 5, 1] and [5, 5, 5, 5, 5, 5] merges to rank 6 ([5, 5, 5, 5, 5, 5]); float64 broadcasts must merge to fewer than 6 dimensions
	// true [5, 5, 5, 5, 5, 5]
	// [5, 5, 5, 5, 5, 5] <nil>
	// <nil>
}

// Format prints several graphs as one listing: shared nodes appear once.
func ExampleFormat() {
	x := expr.Placeholder[float64]("x", 3)
	e := x.Exp()
	fmt.Println(expr.Format(e.Sum(), e.Max()))
	// Output:
	// %0:f64[3] = placeholder "x"
	// %1:f64[3] = exp %0
	// %2:f64[] = sum %1 axes=[0]
	// %3:f64[] = max %1 axes=[0]
	// return %2 %3
}

// Symbolic extents: a graph over a batch of unknown size B is built, checked
// and printed once, and specialised to a concrete B for each evaluation.
func ExampleSymPlaceholder() {
	x := expr.SymPlaceholder[float64]("x", expr.Sym("B"), expr.Known(3))
	y := x.MulScalar(2).Sum(1)
	fmt.Println(x.Dims(), y.Dims(), y.Err())

	s := expr.NewSpecializer(map[string]int{"B": 2})
	cx, cy := expr.Specialize(s, x), expr.Specialize(s, y)
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	out, err := exec.Eval(cy, exec.Bind(cx, a))
	fmt.Println(out, err)
	// Output:
	// [B, 3] [B] <nil>
	// [12. 30.] <nil>
}

// broadcast_add is add under a strict contract: equal ranks, axis 0 (the
// batch) never broadcast. A broken contract is an *expr.ConstraintError.
func ExampleBroadcastAdd() {
	h := expr.SymPlaceholder[float32]("h", expr.Sym("B"), expr.Known(3), expr.Known(8), expr.Known(8))
	bias := expr.SymPlaceholder[float32]("bias", expr.Sym("B"), expr.Known(3), expr.Known(1), expr.Known(1))
	fmt.Println(h.BroadcastAdd(bias).Dims())

	flat := expr.SymPlaceholder[float32]("v", expr.Sym("B"), expr.Known(3))
	err := h.BroadcastAdd(flat).Err()
	fmt.Println(err)
	var ce *expr.ConstraintError
	fmt.Println(errors.As(err, &ce), ce.Code, ce.Reason)
	// Output:
	// [B, 3, 8, 8]
	// expr: broadcast_add: E_CONSTRAINT (rank_mismatch): a=[B, 3, 8, 8], b=[B, 3]: ranks differ; broadcast_add never pads the rank (reshape first)
	// true E_CONSTRAINT rank_mismatch
}

// Summary prints a network in layers; Param marks weights and Scope names a
// composite op.
func ExampleSummary() {
	x := expr.SymPlaceholder[float32]("x", expr.Sym("B"), expr.Known(4))
	w := expr.Param("w", tensor.Must(tensor.Ones[float32](4, 8)))
	b := expr.Param("b", tensor.Must(tensor.Ones[float32](8)))
	h := expr.Scope("linear", func() expr.Expr[float32] { return x.MatMul(w).Add(b) })
	y := h.Relu().MeanKeepDims(1)
	fmt.Println(expr.Summary(y))
	// Output:
	// Network: [B, 4] -> [B, 1]  dtype=float32
	// index  name  operation  input shapes  output shapes
	// 0      n0    linear     x=[B, 4]      out=[B, 8]
	// 1      n1    relu       x=[B, 8]      out=[B, 8]
	// 2      n2    mean       x=[B, 8]      out=[B, 1]
	//
	// Parameters: 40
}

// Over an empty axis Sum gives 0, Prod 1 and Mean NaN, as in NumPy; Max and
// Min of nothing are an error at construction. NaN propagates through Max
// and Min, and ArgMax points at the first NaN.
func ExampleExpr_Max() {
	e, _ := tensor.New[float64](0, 3)
	x := expr.Of(e)
	s, _ := exec.Eval(x.Sum(0))
	p, _ := exec.Eval(x.Prod(0))
	m, _ := exec.Eval(x.Mean(0))
	fmt.Println(s, p, m)
	fmt.Println(x.Max(0).Err())

	n, _ := tensor.FromSlice([]float64{1, math.NaN(), 3}, 3)
	mx, _ := exec.Eval(expr.Of(n).Max())
	am, _ := exec.Eval(expr.Of(n).ArgMax(0))
	fmt.Println(mx, am)
	// Output:
	// [0. 0. 0.] [1. 1. 1.] [nan nan nan]
	// expr: max: Expected reduction dim 0 to have non-zero size
	// nan 1
}

// Sums keep the element type: an int8 sum wraps, where NumPy and PyTorch
// would sum into int64. Cast first to widen.
func ExampleExpr_Sum_integers() {
	a, _ := tensor.FromSlice([]int8{100, 100, 100}, 3)
	x := expr.Of(a)
	s, _ := exec.Eval(x.Sum())
	w, _ := exec.Eval(expr.Cast[int64](x).Sum())
	fmt.Println(s, w)
	// Output:
	// 44 300
}

// Operations without a method of their own, composed from the op list:
// clip, softmax, an outer product and x[:, 1].
func Example_composed() {
	a, _ := tensor.FromSlice([]float64{-2, 0.5, 3, 1, 2, 3}, 2, 3)
	x := expr.Of(a)
	clip := x.Maximum(expr.Scalar(0.0)).Minimum(expr.Scalar(1.0)) // np.clip(x, 0, 1)
	e := x.Sub(x.MaxKeepDims(-1)).Exp()
	softmax := e.Div(e.SumKeepDims(-1)) // torch.softmax(x, -1)
	u, _ := tensor.FromSlice([]float64{1, 2}, 2)
	v, _ := tensor.FromSlice([]float64{1, 10, 100}, 3)
	outer := expr.Of(u).Unsqueeze(1).Mul(expr.Of(v)) // np.outer(u, v)
	col := x.Slice(1, 1, 2, 1).Squeeze(1)            // x[:, 1]

	outs, _ := exec.EvalN(clip, softmax, outer)
	c, _ := exec.Eval(col)
	fmt.Printf("%v\n%.3v\n%v\n%v\n", outs[0], outs[1], outs[2], c)
	// Output:
	// [[0.  0.5 1. ]
	//  [1.  1.  1. ]]
	// [[0.006 0.075 0.918]
	//  [0.09  0.245 0.665]]
	// [[  1.  10. 100.]
	//  [  2.  20. 200.]]
	// [0.5 2. ]
}
