package exec_test

import (
	"errors"
	"fmt"
	"os"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

func ExampleEval() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := tensor.FromSlice([]float64{10, 20, 30}, 3)
	x, y := expr.Of(a), expr.Of(b)
	out, err := exec.Eval(x.Mul(y).Add(x)) // one fused pass, no temporaries
	fmt.Println(out, err)
	// Output:
	// [[ 11.  42.  93.]
	//  [ 44. 105. 186.]] <nil>
}

// EvalTo writes into an existing tensor: NumPy's out=, PyTorch's add_.
// The destination keeps its shape and may be an operand.
func ExampleEvalTo() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	b, _ := tensor.FromSlice([]float64{10, 20, 30}, 3)
	x, y := expr.Of(a), expr.Of(b)

	err := exec.EvalTo(a, x.Add(y)) // a += b
	fmt.Println(a, err)

	out, _ := tensor.New[float64](2, 3)
	err = exec.EvalTo(out, x.Mul(y).SubScalar(1)) // np.subtract(a*b, 1, out=out)
	fmt.Println(out, err)
	// Output:
	// [[11. 22. 33.]
	//  [14. 25. 36.]] <nil>
	// [[ 109.  439.  989.]
	//  [ 139.  499. 1079.]] <nil>
}

// The short forms take tensors: y broadcasts to dst's shape.
func ExampleAddTo() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	row, _ := tensor.FromSlice([]float64{1, 2, 3}, 3)
	col, _ := tensor.FromSlice([]float64{2, 3}, 2, 1)
	_ = exec.AddTo(a, row) // a.add_(row)
	fmt.Println(a)
	_ = exec.MulTo(a, col) // a.mul_(col)
	fmt.Println(a)
	two, _ := tensor.Full(2.0) // a 0-d tensor
	_ = exec.PowTo(a, two)     // a.pow_(2)
	fmt.Println(a)
	_ = exec.CopyTo(a, row) // a.copy_(row)
	fmt.Println(a)
	// Output:
	// [[2. 4. 6.]
	//  [5. 7. 9.]]
	// [[ 4.  8. 12.]
	//  [15. 21. 27.]]
	// [[ 16.  64. 144.]
	//  [225. 441. 729.]]
	// [[1. 2. 3.]
	//  [1. 2. 3.]]
}

// An in-place update never changes the destination's shape.
func ExampleAddTo_shapeError() {
	x, _ := tensor.New[float64](1, 3, 1)
	y, _ := tensor.New[float64](3, 1, 7)
	err := exec.AddTo(x, y) // x.add_(y)
	fmt.Println(err)
	var ee *tensor.ExpandError
	fmt.Println(errors.As(err, &ee))

	v, _ := tensor.New[float64](3)
	m, _ := tensor.New[float64](1, 3)
	err = exec.AddTo(v, m) // more dimensions than the destination
	fmt.Println(err)
	var ie *exec.InplaceError
	fmt.Println(errors.As(err, &ie))

	w, _ := tensor.New[float64](2, 3)
	fmt.Println(exec.AddTo(w, v) == nil, exec.AddTo(v, w)) // (2,3) += (3,) is fine; (3,) += (2,3) is not
	// Output:
	// The expanded size of the tensor (1) must match the existing size (7) at non-singleton dimension 2.  Target sizes: [1, 3, 1].  Tensor sizes: [3, 1, 7]
	// true
	// output with shape [3] doesn't match the broadcast shape [1, 3]
	// true
	// true output with shape [3] doesn't match the broadcast shape [2, 3]
}

// EvalTo checks the shape of the whole value against dst: here x + y is
// [3, 3, 7], which cannot be written into x's [1, 3, 1].
func ExampleEvalTo_shapeError() {
	x, _ := tensor.New[float64](1, 3, 1)
	y, _ := tensor.New[float64](3, 1, 7)
	err := exec.EvalTo(x, expr.Of(x).Add(expr.Of(y)))
	fmt.Println(err)

	z, _ := tensor.New[float64](2, 5)
	err = exec.EvalTo(x, expr.Of(x).Add(expr.Of(z))) // x + z itself is invalid
	fmt.Println(err)
	// Output:
	// The expanded size of the tensor (1) must match the existing size (7) at non-singleton dimension 2.  Target sizes: [1, 3, 1].  Tensor sizes: [3, 3, 7]
	// The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1
}

// Writing into an expanded view is refused; a failed update writes nothing.
func ExampleOverlapError() {
	v, _ := tensor.FromSlice([]float64{1, 2, 3}, 3)
	e, _ := v.Expand(2, 3) // both rows are the same memory
	one, _ := tensor.Full(1.0)
	err := exec.AddTo(e, one)
	fmt.Println(err)
	var oe *exec.OverlapError
	fmt.Println(errors.As(err, &oe), v)

	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3)
	bad, _ := tensor.New[float64](4, 3)
	fmt.Println(exec.AddTo(a, bad) != nil, a) // a is untouched
	// Output:
	// unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.
	// true [1. 2. 3.]
	// true [[1. 2. 3.]
	//  [4. 5. 6.]]
}

// A destination that partially overlaps an input is computed from the
// values before the update, as NumPy does: the input is copied first.
func ExampleEvalTo_overlap() {
	v, _ := tensor.Arange(0.0, 6, 1)
	head, _ := v.Slice(0, 0, 5, 1)                     // v[:5]
	tail, _ := v.Slice(0, 1, 6, 1)                     // v[1:]
	_ = exec.EvalTo(tail, expr.Of(head).AddScalar(10)) // v[1:] = v[:5] + 10
	fmt.Println(v)

	m, _ := tensor.FromSlice([]float64{1, 2, 3, 4}, 2, 2)
	mt, _ := m.T()
	_ = exec.EvalTo(m, expr.Of(mt)) // m[...] = m.T
	fmt.Println(m)
	// Output:
	// [ 0. 10. 11. 12. 13. 14.]
	// [[1. 3.]
	//  [2. 4.]]
}

// EvalN evaluates several results in one plan; shared work is done once.
func ExampleEvalN() {
	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4}, 4)
	x := expr.Of(a)
	e := x.Exp()
	outs, _ := exec.EvalN(e.Sum(), e.Max(), e.Sub(e.Max()))
	fmt.Printf("%.4v %.4v %.4v\n", outs[0], outs[1], outs[2])
	// Output:
	// 84.791 54.5982 [-51.8799 -47.2091 -34.5126   0.    ]
}

func ExampleBind() {
	x := expr.Placeholder[float64]("x", 3)
	w := expr.Placeholder[float64]("w", 3)
	loss := x.Sub(w).Square().Sum()

	a, _ := tensor.FromSlice([]float64{1, 2, 3}, 3)
	b, _ := tensor.FromSlice([]float64{0, 2, 4}, 3)
	out, err := exec.Eval(loss, exec.Bind(x, a), exec.Bind(w, b))
	fmt.Println(out, err)

	c, _ := tensor.New[float64](2, 3)
	_, err = exec.Eval(loss, exec.Bind(x, c), exec.Bind(w, b))
	fmt.Println(err)
	var be *exec.BindError
	fmt.Println(errors.As(err, &be), be.Name)
	// Output:
	// 2.0 <nil>
	// exec: placeholder "x": bound to a tensor of shape [2, 3], declared [3]
	// true x
}

// Reductions give the same bits whatever the number of workers.
func ExampleWorkers() {
	r, _ := tensor.RandN[float64](1, 1000, 1000)
	x := expr.Of(r)
	s1, _ := exec.EvalWith(exec.New(exec.Workers(1)), x.Sum())
	s8, _ := exec.EvalWith(exec.New(exec.Workers(8)), x.Sum())
	v1, _ := s1.Item()
	v8, _ := s8.Item()
	fmt.Println(v1 == v8)
	// Output:
	// true
}

// Debug prints each new plan: the fused kernels, their merged layouts and
// tiles. The same graph evaluated again reuses its cached plan and prints
// nothing.
func ExampleDebug() {
	x := exec.New(exec.Debug(os.Stdout))
	a, _ := tensor.Ones[float64](3, 4)
	b, _ := tensor.Ones[float64](4)
	e := expr.Of(a).Mul(expr.Of(b)).AddScalar(1)
	_, _ = exec.EvalWith(x, e)
	_, _ = exec.EvalWith(x, e)
	// Output:
	// exec plan: 4 values, 1 steps
	//   fused [3, 4]: 1 outputs, 2 kernels, layout sizes=[3 4] s0=[4 1] s1=[4 1] s2=[0 1] s3=[0 0], tile 3x4 short rows, 1 blocks
	//     s3 = mul s0 s1
	//     s4 = add s3 s2
	//     in  s0 <- v0:f64[3, 4](fixed) (direct)
	//     in  s1 <- v1:f64[4](fixed) (strided)
	//     in  s2 <- v2:f64[](fixed) (invariant)
	//     out v3:f64[3, 4](temp) <- s4 (direct)
	//   results: v3:f64[3, 4](temp)
}

// A kernel as cmd/tpkernel writes it for "axpb=a*2+b" (normally in a
// generated file's init function), and a graph it applies to: the plan shows
// one kernel call per block where the interpreter would run a fused pair.
func ExampleRegisterCompiled() {
	exec.MustRegisterCompiled(exec.CompiledKernel[float64]{
		Name: "axpb", Inputs: 2, Scalars: 1,
		Expr: func(in, s []expr.Expr[float64]) expr.Expr[float64] {
			return in[0].Mul(s[0]).Add(in[1])
		},
		Loop: func(d []float64, in [][]float64, s []float64) {
			v0, v1, s0 := in[0][:len(d)], in[1][:len(d)], s[0]
			for i := range d {
				d[i] = float64(float64(v0[i]*s0) + v1[i])
			}
		},
	})

	a, _ := tensor.FromSlice([]float64{1, 2, 3, 4}, 4)
	b, _ := tensor.FromSlice([]float64{10, 20, 30, 40}, 4)
	x := exec.New(exec.Debug(os.Stdout))
	out, err := exec.EvalWith(x, expr.Of(a).MulScalar(3).Add(expr.Of(b))) // any scalar in s[0]'s place
	fmt.Println(out, err)
	// Output:
	// exec plan: 4 values, 1 steps
	//   fused [4]: 1 outputs, 1 kernels, layout sizes=[4] s0=[1] s1=[1] s2=[0] s3=[1], tile 1x4 long rows, 1 blocks
	//     s4 = compiled axpb s0 s1 s2
	//     in  s0 <- v0:f64[4](fixed) (direct)
	//     in  s1 <- v1:f64[](fixed) (invariant)
	//     in  s2 <- v2:f64[4](fixed) (direct)
	//     out v3:f64[4](temp) <- s4 (direct)
	//   results: v3:f64[4](temp)
	// [13. 26. 39. 52.] <nil>
}

// Assign is the optimizer step: every destination gets a value computed
// from the old values of all of them, in one plan. Here SGD with momentum,
// v = 0.9v + g and w = w - 0.1v with the new v (its expression, vNew);
// Of(v) anywhere in the graph would read the old v.
func ExampleAssign() {
	w, _ := tensor.FromSlice([]float64{1, 2, 3}, 3)
	v, _ := tensor.FromSlice([]float64{1, 1, 1}, 3)
	g, _ := tensor.FromSlice([]float64{1, -1, 2}, 3) // a gradient
	W, V, G := expr.Of(w), expr.Of(v), expr.Of(g)
	for range 2 {
		vNew := V.MulScalar(0.9).Add(G)
		err := exec.Assign(
			exec.To(v, vNew),
			exec.To(w, W.Sub(vNew.MulScalar(0.1))),
		)
		if err != nil {
			panic(err)
		}
	}
	fmt.Printf("%.4v %.4v\n", w, v)

	// a, b = b, a: both values are read before either is written, where
	// EvalTo(a, b) then EvalTo(b, a) would leave both holding b.
	a, _ := tensor.FromSlice([]int64{1, 2}, 2)
	b, _ := tensor.FromSlice([]int64{3, 4}, 2)
	err := exec.Assign(exec.To(a, expr.Of(b)), exec.To(b, expr.Of(a)))
	fmt.Println(a, b, err)
	// Output:
	// [0.539 2.119 2.249] [ 2.71 -1.09  4.61]
	// [3 4] [1 2] <nil>
}
