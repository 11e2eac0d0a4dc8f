package optim_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/optim"
	"github.com/tensorplay/tensorplay/random"
	"github.com/tensorplay/tensorplay/tensor"
)

// A two-layer network learns XOR-like labels (the sign of x·y) on 1024
// random points with Adam: the training loop a PyTorch user writes, with
// autograd for the gradients and one fused step for every parameter and
// its moments.
func Example_classifier() {
	const n, hidden = 1024, 16
	g := random.New(1)
	pts, _ := random.Uniform[float64](g, -1, 1, n, 2)
	labels := make([]float64, n) // ±1
	for i := range labels {
		labels[i] = 1
		if pts.Data()[2*i]*pts.Data()[2*i+1] < 0 {
			labels[i] = -1
		}
	}
	y := expr.Of(tensor.Must(tensor.FromSlice(labels, n, 1)))
	x := expr.Of(pts)

	w1, _ := random.Normal[float64](g, 0, 1, 2, hidden)
	b1, _ := tensor.New[float64](hidden)
	w2, _ := random.Normal[float64](g, 0, 0.25, hidden, 1)
	b2, _ := tensor.New[float64](1)
	params := []*tensor.Tensor[float64]{w1, b1, w2, b2}
	opt, _ := optim.NewAdam(params, optim.LR(0.05))

	logits := func(leaves []expr.Expr[float64]) expr.Expr[float64] {
		h := x.MatMul(leaves[0]).Add(leaves[1]).Tanh()
		return h.MatMul(leaves[2]).Add(leaves[3])
	}
	for range 300 {
		leaves := []expr.Expr[float64]{expr.Of(w1), expr.Of(b1), expr.Of(w2), expr.Of(b2)}
		// The logistic loss mean(log(1 + exp(-y·logit))).
		loss := y.Neg().Mul(logits(leaves)).Exp().Log1p().Mean()
		grads, err := autograd.GradOf(loss, leaves...)
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := opt.Step(grads); err != nil {
			fmt.Println(err)
			return
		}
	}
	out, _ := exec.Eval(logits([]expr.Expr[float64]{expr.Of(w1), expr.Of(b1), expr.Of(w2), expr.Of(b2)}))
	right := 0
	for i, v := range out.Values() {
		if v*labels[i] > 0 {
			right++
		}
	}
	fmt.Printf("training accuracy after %d steps: %.2f\n", opt.Steps(), float64(right)/n)
	// Output:
	// training accuracy after 300 steps: 0.99
}
