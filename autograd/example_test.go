package autograd_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/autograd/gradcheck"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Gradients are graphs: print one, evaluate it, differentiate it again.
func ExampleGradOf() {
	x := expr.Of(tensor.Must(tensor.FromSlice([]float64{0, 1, 2}, 3)))
	y := x.Square().Sum()
	gs, err := autograd.GradOf(y, x)
	if err != nil {
		panic(err)
	}
	fmt.Println(gs[0])
	dx, _ := exec.Eval(gs[0])
	fmt.Println(dx)

	g2, _ := autograd.GradOf(gs[0].Sum(), x) // second derivative: 2
	d2, _ := exec.Eval(g2[0])
	fmt.Println(d2)
	// Output:
	// %0:f64[3] = tensor
	// %1:f64[] = scalar 2.0
	// %2:f64[3] = mul %0 %1
	// return %2
	// [0. 2. 4.]
	// [2. 2. 2.]
}

// The gradient of a broadcast operand is summed back to its shape:
// broadcast_add's bias [B, C, 1, 1] gets the sum over H and W.
func ExampleVJPOf() {
	x := expr.Of(tensor.Must(tensor.Zeros[float64](2, 3, 4, 4)))
	bias := expr.Of(tensor.Must(tensor.Zeros[float64](2, 3, 1, 1)))
	y := x.BroadcastAdd(bias)
	up := expr.Of(tensor.Must(tensor.Ones[float64](2, 3, 4, 4)))
	gs, _ := autograd.VJPOf(y, up, bias)
	db, _ := exec.Eval(gs[0])
	fmt.Println(db.Shape(), db.Values())
	// Output:
	// [2, 3, 1, 1] [16 16 16 16 16 16]
}

// A gradient requested through a comparison only is an error.
func ExampleNotDifferentiableError() {
	x := expr.Of(tensor.Must(tensor.FromSlice([]float64{-1, 2}, 2)))
	y := expr.Cast[float64](x.Gt(expr.Scalar(0.0))).Sum()
	_, err := autograd.Grad(y, x)
	fmt.Println(err)
	// Output:
	// autograd: no gradient through gt (bool): comparisons are not differentiable
}

// Check a graph's gradients against central finite differences.
func Example_gradcheck() {
	a := expr.Of(tensor.Must(tensor.RandN[float64](1, 3, 4)))
	b := expr.Of(tensor.Must(tensor.RandN[float64](2, 4)))
	y := a.Mul(b).Tanh().Sum()
	fmt.Println(gradcheck.Check(y, []expr.Expr[float64]{a, b}, nil))
	// Output:
	// <nil>
}

// A training loop: rebuild the loss each step over the same tensors,
// differentiate it, and update every parameter from the old values with
// one exec.Assign. The gradient graph and the plan are built on the first
// step and reused by every later one (Grad caches the gradients of a
// graph rebuilt over the same tensors, exec caches its plans).
func ExampleGradOf_training() {
	// y = 2·x₀ - 3·x₁ + 1, exactly.
	xt := tensor.Must(tensor.FromSlice([]float64{0, 0, 1, 0, 0, 1, 1, 1, 2, -1, -1, 3}, 6, 2))
	yt := tensor.Must(tensor.FromSlice([]float64{1, 3, -2, 0, 8, -10}, 6, 1))
	wt := tensor.Must(tensor.Zeros[float64](2, 1))
	bt := tensor.Must(tensor.Zeros[float64](1))
	const lr = 0.1
	for range 1000 {
		X, Y, w, b := expr.Of(xt), expr.Of(yt), expr.Of(wt), expr.Of(bt)
		loss := X.MatMul(w).Add(b).Sub(Y).Square().Mean()
		gs, err := autograd.GradOf(loss, w, b)
		if err != nil {
			panic(err)
		}
		err = exec.Assign(
			exec.To(wt, w.Sub(gs[0].MulScalar(lr))),
			exec.To(bt, b.Sub(gs[1].MulScalar(lr))),
		)
		if err != nil {
			panic(err)
		}
	}
	fmt.Printf("w %.4v b %.4v\n", wt.Values(), bt.Values())
	// Output:
	// w [2 -3] b [1]
}

// ExampleGradOf_builtOnce is ExampleGradOf_training with the step built
// once: the loss, its gradients and both updates are one graph over the
// parameters' tensors and two placeholders for the minibatch, and each
// step binds this step's batch and runs the same targets again. The
// graph reads the parameters as they are when it runs, so the updates
// take effect from one step to the next; and a step allocates nothing:
// no nodes, no plan, no gradient lookup, no temporaries (docs/executor.md,
// "A step built once").
func ExampleGradOf_builtOnce() {
	// Two minibatches of y = 2·x₀ - 3·x₁ + 1.
	xs := []*tensor.Tensor[float64]{
		tensor.Must(tensor.FromSlice([]float64{0, 0, 1, 0, 0, 1}, 3, 2)),
		tensor.Must(tensor.FromSlice([]float64{1, 1, 2, -1, -1, 3}, 3, 2)),
	}
	ys := []*tensor.Tensor[float64]{
		tensor.Must(tensor.FromSlice([]float64{1, 3, -2}, 3, 1)),
		tensor.Must(tensor.FromSlice([]float64{0, 8, -10}, 3, 1)),
	}
	wt := tensor.Must(tensor.Zeros[float64](2, 1))
	bt := tensor.Must(tensor.Zeros[float64](1))
	const lr = 0.1

	X, Y := expr.Placeholder[float64]("X", 3, 2), expr.Placeholder[float64]("Y", 3, 1)
	w, b := expr.Of(wt), expr.Of(bt)
	loss := X.MatMul(w).Add(b).Sub(Y).Square().Mean()
	gs, err := autograd.GradOf(loss, w, b)
	if err != nil {
		panic(err)
	}
	step := []exec.Target{
		exec.To(wt, w.Sub(gs[0].MulScalar(lr))),
		exec.To(bt, b.Sub(gs[1].MulScalar(lr))),
	}
	binds := make([]exec.Binding, 2) // rebound every step, allocated once
	for i := range 2000 {
		binds[0], binds[1] = exec.Bind(X, xs[i%2]), exec.Bind(Y, ys[i%2])
		if err := exec.AssignWith(exec.Default, step, binds...); err != nil {
			panic(err)
		}
	}
	fmt.Printf("w %.4v b %.4v\n", wt.Values(), bt.Values())
	// Output:
	// w [2 -3] b [1]
}
