package autograd_test

import (
	"math"
	"testing"
	"time"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// linregData is a [1000,8] linear-regression problem: X, y = X·w* + 0.5,
// and parameters w [8,1], b [1] starting at zero.
func linregData(tb testing.TB) (xt, yt, wt, bt *tensor.Tensor[float64]) {
	tb.Helper()
	xt = tensor.Must(tensor.RandN[float64](1, 1000, 8))
	wStar := tensor.Must(tensor.RandN[float64](2, 8, 1))
	yt = tensor.Must(exec.Eval(expr.Of(xt).MatMul(expr.Of(wStar)).AddScalar(0.5)))
	wt = tensor.Must(tensor.New[float64](8, 1))
	bt = tensor.Must(tensor.New[float64](1))
	return xt, yt, wt, bt
}

// linregStep is one gradient-descent step written as the docs teach: build
// the loss, differentiate it, assign both new parameters from the old.
func linregStep(x *exec.Executor, xt, yt, wt, bt *tensor.Tensor[float64]) error {
	X, Y := expr.Of(xt), expr.Of(yt)
	w, b := expr.Of(wt), expr.Of(bt)
	loss := X.MatMul(w).Add(b).Sub(Y).Square().Mean()
	gs, err := autograd.GradOf(loss, w, b)
	if err != nil {
		return err
	}
	return exec.AssignWith(x, []exec.Target{exec.To(wt, w.Sub(gs[0].MulScalar(0.1))), exec.To(bt, b.Sub(gs[1].MulScalar(0.1)))})
}

// BenchmarkLinRegStep is one step of linregStep on [1000,8] float64.
func BenchmarkLinRegStep(b *testing.B) {
	xt, yt, wt, bt := linregData(b)
	x := exec.New(exec.Workers(2))
	defer x.Close()
	b.ReportAllocs()
	for b.Loop() {
		if err := linregStep(x, xt, yt, wt, bt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLinRegStepHand is the same step as a plain Go loop: the
// residual r = X·w + b - y, then w -= lr·2/n·Xᵀr and b -= lr·2/n·Σr.
func BenchmarkLinRegStepHand(b *testing.B) {
	xt, yt, wt, bt := linregData(b)
	xs, ys, ws, bs := xt.Data(), yt.Data(), wt.Data(), bt.Data()
	r := make([]float64, 1000)
	gw := make([]float64, 8)
	b.ReportAllocs()
	for b.Loop() {
		handLinRegStep(xs, ys, ws, bs, r, gw)
	}
}

func handLinRegStep(xs, ys, ws, bs, r, gw []float64) {
	n := len(ys)
	var sr float64
	for i := range n {
		row := xs[i*8 : i*8+8 : i*8+8]
		p := bs[0] - ys[i]
		for j, v := range row {
			p += v * ws[j]
		}
		r[i] = p
		sr += p
	}
	clear(gw)
	for i := range n {
		row := xs[i*8 : i*8+8 : i*8+8]
		for j, v := range row {
			gw[j] += v * r[i]
		}
	}
	s := 0.1 * 2 / float64(n)
	for j := range gw {
		ws[j] -= s * gw[j]
	}
	bs[0] -= s * sr
}

// BenchmarkLinRegStepRatio alternates linregStep and the hand-written step
// and reports the best time of each and their ratio (tensorplay / hand,
// lower is better): the bar is 2.
func BenchmarkLinRegStepRatio(b *testing.B) {
	xt, yt, wt, bt := linregData(b)
	x := exec.New(exec.Workers(2))
	defer x.Close()
	hx, hy, hw, hb := xt.Clone(), yt.Clone(), wt.Clone(), bt.Clone()
	r, gw := make([]float64, 1000), make([]float64, 8)
	tp, hand := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	for b.Loop() {
		start := time.Now()
		if err := linregStep(x, xt, yt, wt, bt); err != nil {
			b.Fatal(err)
		}
		tp = min(tp, time.Since(start))
		start = time.Now()
		handLinRegStep(hx.Data(), hy.Data(), hw.Data(), hb.Data(), r, gw)
		hand = min(hand, time.Since(start))
	}
	b.ReportMetric(float64(tp.Nanoseconds())/1e3, "tp-µs")
	b.ReportMetric(float64(hand.Nanoseconds())/1e3, "hand-µs")
	b.ReportMetric(float64(tp)/float64(hand), "ratio")
}
