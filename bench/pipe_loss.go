package bench

import (
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// xentLoss is the mean softmax cross-entropy of logits [n,c] at the labels,
// a column [n,1]: each row's log-sum-exp minus its logit at the label,
// picked by a gather (logp[arange(n), labels]) that reads only those n
// logits.
func xentLoss[T dtype.Float](logits expr.Expr[T], labels *tensor.Tensor[int64]) expr.Expr[T] {
	lse := expr.LogSumExp(logits, true, 1)
	return lse.Sub(expr.TakeAlongAxis(logits, expr.Of(labels), 1)).Mean()
}

// xentOneHot is xentLoss as it was written before the gather: the labels
// compared with classes, the row [1,c] of class indices, pick each row's
// log-probability through a one-hot mask, a pass over all n×c of them.
func xentOneHot[T dtype.Float](logits expr.Expr[T], labels, classes *tensor.Tensor[int64]) expr.Expr[T] {
	logp := expr.LogSoftmax(logits, 1)
	hit := expr.Of(labels).Eq(expr.Of(classes))
	return expr.Where(hit, logp, expr.Scalar[T](0)).Sum(1).Mean().Neg()
}

// xentCase is the loss of n rows of c float32 logits into a 0-d tensor,
// the label picked by a gather (xentLoss), or with oneHot through the
// one-hot mask (xentOneHot).
func xentCase(n, c int, oneHot bool) func(Params) (*Case, error) {
	return func(p Params) (*Case, error) {
		logits, err := tensor.RandN[float32](p.Seed, n, c)
		if err != nil {
			return nil, err
		}
		labels := randLabels(p.Seed+1, n, c)
		col, err := labels.Reshape(n, 1)
		if err != nil {
			return nil, err
		}
		classes, err := classRow(c)
		if err != nil {
			return nil, err
		}
		loss := tensor.Must(tensor.New[float32]())
		// Built once: every step evaluates the same graph (docs/executor.md,
		// "A step built once").
		e := xentLoss(expr.Of(logits), col)
		if oneHot {
			e = xentOneHot(expr.Of(logits), col, classes)
		}
		bytes, flops := GraphCost(e)
		return &Case{
			Shape:      fmt.Sprintf("%dx%d", n, c),
			Tensorplay: func() error { return exec.EvalToWith(p.Exec, loss, e) },
			Check: func() error {
				want := refSoftmaxXent(f64s(logits), labels.Data(), n, c, nil)
				return checkClose("loss", loss, []float64{want}, 1e-5, 1e-6)
			},
			Bytes: bytes, Flops: flops,
			Peer: &PeerCase{Pipeline: "xent", Inputs: []PeerInput{{"logits", logits}, {"labels", labels}},
				Outputs: outputs(loss)},
		}, nil
	}
}

// attnCase is softmax(Q Kᵀ/√d) V for h heads of l×d float32 matrices.
func attnCase(h, l, d int) func(Params) (*Case, error) {
	return func(p Params) (*Case, error) {
		var qkv [3]*tensor.Tensor[float32]
		for i := range qkv {
			t, err := tensor.RandN[float32](p.Seed+uint64(i), h, l, d)
			if err != nil {
				return nil, err
			}
			qkv[i] = t
		}
		q, k, v := qkv[0], qkv[1], qkv[2]
		out := tensor.Must(tensor.New[float32](h, l, d))
		scale := float32(1 / math.Sqrt(float64(d)))
		s := expr.Of(q).MatMul(expr.Of(k).Transpose(1, 2)).MulScalar(scale)
		e := expr.Softmax(s, -1).MatMul(expr.Of(v)) // built once, as xentCase's
		bytes, flops := GraphCost(e)
		return &Case{
			Shape:      fmt.Sprintf("%dx%dx%d", h, l, d),
			Tensorplay: func() error { return exec.EvalToWith(p.Exec, out, e) },
			Check: func() error {
				return checkClose("attention", out, refAttention(f64s(q), f64s(k), f64s(v), h, l, d), 1e-4, 1e-5)
			},
			Bytes: bytes, Flops: flops,
			Peer: &PeerCase{Pipeline: "attention", Inputs: []PeerInput{{"Q", q}, {"K", k}, {"V", v}},
				Outputs: outputs(out)},
		}, nil
	}
}

// refAttention is softmax(Q Kᵀ/√d) V head by head.
func refAttention(q, k, v []float64, h, l, d int) []float64 {
	out := make([]float64, 0, h*l*d)
	scale := 1 / math.Sqrt(float64(d))
	for i := range h {
		qi, ki, vi := q[i*l*d:(i+1)*l*d], k[i*l*d:(i+1)*l*d], v[i*l*d:(i+1)*l*d]
		s := refMatMul(qi, transposed(ki, l, d), l, d, l)
		for r := range l {
			row := s[r*l : (r+1)*l]
			m := math.Inf(-1)
			for j := range row {
				row[j] *= scale
				m = max(m, row[j])
			}
			sum := 0.0
			for j := range row {
				row[j] = math.Exp(row[j] - m)
				sum += row[j]
			}
			for j := range row {
				row[j] /= sum
			}
		}
		out = append(out, refMatMul(s, vi, l, l, d)...)
	}
	return out
}

// Layer norm's epsilon and GELU's tanh-form constants.
const (
	lnEps     = 1e-5
	geluCubic = 0.044715
)

// lngeluCase is GELU(layernorm(x)·gamma + beta) over rows of d float32s.
func lngeluCase(n, d int) func(Params) (*Case, error) {
	return func(p Params) (*Case, error) {
		x, err := tensor.RandN[float32](p.Seed, n, d)
		if err != nil {
			return nil, err
		}
		gamma, err := tensor.Rand[float32](p.Seed+1, d)
		if err != nil {
			return nil, err
		}
		beta, err := tensor.RandN[float32](p.Seed+2, d)
		if err != nil {
			return nil, err
		}
		out := tensor.Must(tensor.New[float32](n, d))
		c := float32(math.Sqrt(2 / math.Pi))
		xs := expr.Of(x)
		xc := xs.Sub(xs.MeanKeepDims(-1))
		y := xc.Div(xc.Square().MeanKeepDims(-1).AddScalar(lnEps).Sqrt()).Mul(expr.Of(gamma)).Add(expr.Of(beta))
		inner := y.Add(y.Mul(y).Mul(y).MulScalar(geluCubic)).MulScalar(c)
		e := y.MulScalar(0.5).Mul(inner.Tanh().AddScalar(1)) // built once, as xentCase's
		bytes, flops := GraphCost(e)
		return &Case{
			Shape:      fmt.Sprintf("%dx%d", n, d),
			Tensorplay: func() error { return exec.EvalToWith(p.Exec, out, e) },
			Check: func() error {
				return checkClose("gelu(layernorm)", out, refLayerNormGELU(f64s(x), f64s(gamma), f64s(beta), n, d), 1e-4, 1e-5)
			},
			Bytes: bytes, Flops: flops,
			Peer: &PeerCase{Pipeline: "layernorm_gelu", Inputs: []PeerInput{{"x", x}, {"gamma", gamma}, {"beta", beta}},
				Params: map[string]float64{"eps": lnEps}, Outputs: outputs(out)},
		}, nil
	}
}

// refLayerNormGELU is the reference of lngeluCase.
func refLayerNormGELU(x, gamma, beta []float64, n, d int) []float64 {
	out := make([]float64, n*d)
	c := math.Sqrt(2 / math.Pi)
	for i := range n {
		row := x[i*d : (i+1)*d]
		mu, v := 0.0, 0.0
		for _, t := range row {
			mu += t
		}
		mu /= float64(d)
		for _, t := range row {
			v += (t - mu) * (t - mu)
		}
		sd := math.Sqrt(v/float64(d) + lnEps)
		for j, t := range row {
			y := (t-mu)/sd*gamma[j] + beta[j]
			out[i*d+j] = 0.5 * y * (1 + math.Tanh(c*(y+geluCubic*y*y*y)))
		}
	}
	return out
}
