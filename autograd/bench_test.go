package autograd_test

import (
	"math"
	"sync"
	"testing"
	"time"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

const benchN = 10_000_000

// benchInputs returns a, b and c of benchN float64 values.
func benchInputs(b *testing.B) (a, bb, c *tensor.Tensor[float64]) {
	b.Helper()
	mk := func(seed uint64) *tensor.Tensor[float64] {
		t, err := tensor.RandN[float64](seed, benchN)
		if err != nil {
			b.Fatal(err)
		}
		return t
	}
	return mk(1), mk(2), mk(3)
}

// BenchmarkGradFused evaluates the three gradients of sum((a*b+c)^2) with
// respect to a, b and c in one exec.EvalN: one fused plan reading a, b, c
// once and writing the three gradients. Bytes: 3 arrays read, 3 written.
func BenchmarkGradFused(b *testing.B) {
	ta, tb, tc := benchInputs(b)
	a, bb, c := expr.Of(ta), expr.Of(tb), expr.Of(tc)
	y := a.Mul(bb).Add(c).Square().Sum()
	gs, err := autograd.GradOf(y, a, bb, c)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := exec.EvalN(gs...); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(6 * 8 * benchN)
	for b.Loop() {
		if _, err := exec.EvalN(gs...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGradHandWritten computes the same three gradients with a plain
// Go loop on two goroutines: u = a*b+c; da = 2u*b; db = 2u*a; dc = 2u.
func BenchmarkGradHandWritten(b *testing.B) {
	ta, tb, tc := benchInputs(b)
	av, bv, cv := ta.Data(), tb.Data(), tc.Data()
	b.SetBytes(6 * 8 * benchN)
	for b.Loop() {
		handLoop(av, bv, cv)
	}
}

// handLoop allocates the three gradients, as EvalN does, and fills them on
// two goroutines.
func handLoop(a, b, c []float64) (da, db, dc []float64) {
	da, db, dc = make([]float64, benchN), make([]float64, benchN), make([]float64, benchN)
	var wg sync.WaitGroup
	for w := range 2 {
		lo, hi := w*benchN/2, (w+1)*benchN/2
		wg.Go(func() { handGrads(da[lo:hi], db[lo:hi], dc[lo:hi], a[lo:hi], b[lo:hi], c[lo:hi]) })
	}
	wg.Wait()
	return da, db, dc
}

// BenchmarkGradRatio alternates the fused plan and the hand-written loop
// and reports the best time of each and their ratio (hand / fused, higher
// is better for the fused plan): on a shared machine the best of several
// interleaved runs compares the two under the same load.
func BenchmarkGradRatio(b *testing.B) {
	ta, tb, tc := benchInputs(b)
	a, bb, c := expr.Of(ta), expr.Of(tb), expr.Of(tc)
	gs, err := autograd.GradOf(a.Mul(bb).Add(c).Square().Sum(), a, bb, c)
	if err != nil {
		b.Fatal(err)
	}
	fused, hand := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	for b.Loop() {
		start := time.Now()
		if _, err := exec.EvalN(gs...); err != nil {
			b.Fatal(err)
		}
		fused = min(fused, time.Since(start))
		start = time.Now()
		handLoop(ta.Data(), tb.Data(), tc.Data())
		hand = min(hand, time.Since(start))
	}
	b.ReportMetric(float64(fused.Milliseconds()), "fused-ms")
	b.ReportMetric(float64(hand.Milliseconds()), "hand-ms")
	b.ReportMetric(float64(hand)/float64(fused), "ratio")
}

// handGrads is: for i := range a { u := 2*(a[i]*b[i]+c[i]); da[i], db[i], dc[i] = u*b[i], u*a[i], u }
func handGrads(da, db, dc, a, b, c []float64) {
	_, _, _, _, _ = db[len(da)-1], dc[len(da)-1], a[len(da)-1], b[len(da)-1], c[len(da)-1]
	for i := range da {
		u := 2 * (a[i]*b[i] + c[i])
		da[i], db[i], dc[i] = u*b[i], u*a[i], u
	}
}
