package bench

import (
	"fmt"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Learning rates of the training steps.
const (
	linregLR = 0.05
	mlpLR    = 0.1
)

// sgdStep is the update every parameter of a training step gets, as
// exec.AssignWith's targets: params[i] = p - lr·grads[i], every new value
// computed from the old ones (docs/inplace.md, "Updates of several tensors
// at once"), and the new values for GraphCost.
func sgdStep[T float32 | float64](params []*tensor.Tensor[T], ps, grads []expr.Expr[T], lr T) ([]exec.Target, []expr.Any) {
	ts, news := make([]exec.Target, len(ps)), make([]expr.Any, len(ps))
	for i, q := range ps {
		e := q.Sub(grads[i].MulScalar(lr))
		ts[i], news[i] = exec.To(params[i], e), e
	}
	return ts, news
}

// linregCase is one gradient-descent step of mean((X@w + b - y)²) over n
// samples of d float64 features, the gradient by autograd.
func linregCase(n, d int) func(Params) (*Case, error) {
	return func(p Params) (*Case, error) {
		x, err := tensor.RandN[float64](p.Seed, n, d)
		if err != nil {
			return nil, err
		}
		truth := f64s(tensor.Must(tensor.RandN[float64](p.Seed+1, d, 1)))
		noise := tensor.Must(tensor.RandN[float64](p.Seed+2, n, 1)).Data()
		y := tensor.Must(tensor.FromSlice(refMatMul(x.Data(), truth, n, d, 1), n, 1))
		for i := range noise {
			y.Data()[i] += 0.1 * noise[i]
		}
		w := scaled(tensor.Must(tensor.RandN[float64](p.Seed+3, d, 1)), 0.1)
		b := tensor.Must(tensor.Full(0.5, 1))
		w0, b0 := w.Clone().Data(), b.Clone().Data()
		// The step is built once and run every step (docs/autograd.md,
		// "A step built once"): its graph reads w and b as they are then.
		wv, bv := expr.Of(w), expr.Of(b)
		loss := expr.Of(x).MatMul(wv).Add(bv).Sub(expr.Of(y)).Square().Mean()
		g, err := autograd.GradOf(loss, wv, bv)
		if err != nil {
			return nil, err
		}
		step, news := sgdStep([]*tensor.Tensor[float64]{w, b}, []expr.Expr[float64]{wv, bv}, g, linregLR)
		bytes, flops := GraphCost(news...)
		return &Case{
			Shape:      fmt.Sprintf("%dx%d", n, d),
			Tensorplay: func() error { return exec.AssignWith(p.Exec, step) },
			Check: func() error {
				wantW, wantB := refLinRegStep(x.Data(), y.Data(), w0, b0[0], n, d)
				if err := checkClose("w", w, wantW, 1e-10, 1e-12); err != nil {
					return err
				}
				return checkClose("b", b, []float64{wantB}, 1e-10, 1e-12)
			},
			Bytes: bytes, Flops: flops,
			Peer: &PeerCase{Pipeline: "linreg", Inputs: []PeerInput{{"X", x}, {"y", y}, {"w", w}, {"b", b}},
				Params: map[string]float64{"lr": linregLR}, Outputs: outputs(w, b)},
		}, nil
	}
}

// refLinRegStep is w - lr·2/n·Xᵀr and b - lr·2/n·Σr with r = Xw + b - y.
func refLinRegStep(x, y, w []float64, b float64, n, d int) ([]float64, float64) {
	r := refMatMul(x, w, n, d, 1)
	gb := 0.0
	for i := range r {
		r[i] += b - y[i]
		gb += r[i]
	}
	gw := refMatMul(transposed(x, n, d), r, d, n, 1)
	nw := make([]float64, d)
	for j := range nw {
		nw[j] = w[j] - linregLR*2/float64(n)*gw[j]
	}
	return nw, b - linregLR*2/float64(n)*gb
}

// mlpCase is one SGD step of a 784-hidden-10 relu network on a batch of
// float32 inputs with integer labels: forward, softmax cross-entropy,
// autograd backward and the update of all four parameters.
func mlpCase(batch, hidden int) func(Params) (*Case, error) {
	const in, classes = 784, 10
	return func(p Params) (*Case, error) {
		x, err := tensor.Rand[float32](p.Seed, batch, in)
		if err != nil {
			return nil, err
		}
		labels := randLabels(p.Seed+1, batch, classes)
		col := tensor.Must(labels.Reshape(batch, 1))
		params := []*tensor.Tensor[float32]{
			scaled(tensor.Must(tensor.RandN[float32](p.Seed+2, in, hidden)), 0.05),
			scaled(tensor.Must(tensor.RandN[float32](p.Seed+3, hidden)), 0.1),
			scaled(tensor.Must(tensor.RandN[float32](p.Seed+4, hidden, classes)), 0.1),
			scaled(tensor.Must(tensor.RandN[float32](p.Seed+5, classes)), 0.1),
		}
		initial := make([][]float64, len(params))
		dsts := make([]tensor.Any, len(params))
		for i, t := range params {
			initial[i], dsts[i] = f64s(t), t // dsts: the peer's outputs
		}
		ps := make([]expr.Expr[float32], len(params))
		for i, t := range params {
			ps[i] = expr.Of(t)
		}
		h := expr.Of(x).MatMul(ps[0]).Add(ps[1]).Relu()
		loss := xentLoss(h.MatMul(ps[2]).Add(ps[3]), col)
		g, err := autograd.GradOf(loss, ps...)
		if err != nil {
			return nil, err
		}
		step, news := sgdStep(params, ps, g, mlpLR) // built once, as linregCase's
		bytes, flops := GraphCost(news...)
		return &Case{
			Shape:      fmt.Sprintf("%dx%d,h%d", batch, in, hidden),
			Tensorplay: func() error { return exec.AssignWith(p.Exec, step) },
			Check: func() error {
				want := refMLPStep(f64s(x), labels.Data(), initial, batch, in, hidden, classes)
				for i, t := range params {
					if err := checkClose(fmt.Sprintf("parameter %d", i), t, want[i], 1e-4, 1e-5); err != nil {
						return err
					}
				}
				return nil
			},
			Bytes: bytes, Flops: flops,
			Peer: &PeerCase{Pipeline: "mlp",
				Inputs: []PeerInput{{"X", x}, {"labels", labels}, {"W1", params[0]}, {"b1", params[1]},
					{"W2", params[2]}, {"b2", params[3]}},
				Params: map[string]float64{"lr": mlpLR}, Outputs: outputs(dsts...)},
		}, nil
	}
}

// refMLPStep is the SGD step of mlpCase with the backward pass by hand.
func refMLPStep(x []float64, labels []int64, ps [][]float64, batch, in, hidden, classes int) [][]float64 {
	w1, b1, w2, b2 := ps[0], ps[1], ps[2], ps[3]
	pre := refMatMul(x, w1, batch, in, hidden)
	h := make([]float64, len(pre))
	for i := range pre {
		pre[i] += b1[i%hidden]
		h[i] = max(pre[i], 0)
	}
	logits := refMatMul(h, w2, batch, hidden, classes)
	for i := range logits {
		logits[i] += b2[i%classes]
	}
	g := make([]float64, len(logits))
	refSoftmaxXent(logits, labels, batch, classes, g)
	gw2 := refMatMul(transposed(h, batch, hidden), g, hidden, batch, classes)
	gh := refMatMul(g, transposed(w2, hidden, classes), batch, classes, hidden)
	for i := range gh {
		if pre[i] <= 0 {
			gh[i] = 0
		}
	}
	gw1 := refMatMul(transposed(x, batch, in), gh, in, batch, hidden)
	colSums := func(m []float64, cols int) []float64 {
		s := make([]float64, cols)
		for i, v := range m {
			s[i%cols] += v
		}
		return s
	}
	grads := [][]float64{gw1, colSums(gh, hidden), gw2, colSums(g, classes)}
	out := make([][]float64, len(ps))
	for i, q := range ps {
		out[i] = make([]float64, len(q))
		for j, v := range q {
			out[i][j] = v - mlpLR*grads[i][j]
		}
	}
	return out
}
