package exec_test

import (
	"sync"
	"testing"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// halves runs f over [0, n) split in two, on two goroutines: the hand-written
// loop the executor's 2 workers are measured against.
func halves(n int, f func(lo, hi int)) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { f(0, n/2); wg.Done() }()
	go func() { f(n/2, n); wg.Done() }()
	wg.Wait()
}

// BenchmarkW8 is a += b in place at 1e7 float64 elements, next to a
// hand-written 2-goroutine loop; and x = x*2 + y in place.
func BenchmarkW8(b *testing.B) {
	const n = 10_000_000
	a := tensor.Must(tensor.Full(1.0, n))
	y := tensor.Must(tensor.Full(0.5, n))
	ad, yd := a.Data(), y.Data()
	b.Run("a+=b/tensorplay", func(b *testing.B) {
		b.SetBytes(3 * 8 * n)
		b.ReportAllocs()
		for b.Loop() {
			if err := exec.AddTo(a, y); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("a+=b/handloop", func(b *testing.B) {
		b.SetBytes(3 * 8 * n)
		b.ReportAllocs()
		for b.Loop() {
			halves(n, func(lo, hi int) {
				x, z := ad[lo:hi], yd[lo:hi]
				for i := range x {
					x[i] += z[i]
				}
			})
		}
	})
	e := expr.Of(a).MulScalar(2).Add(expr.Of(y))
	b.Run("x=x*2+y/tensorplay", func(b *testing.B) {
		b.SetBytes(3 * 8 * n)
		b.ReportAllocs()
		for b.Loop() {
			if err := exec.EvalTo(a, e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("x=x*2+y/handloop", func(b *testing.B) {
		b.SetBytes(3 * 8 * n)
		b.ReportAllocs()
		for b.Loop() {
			halves(n, func(lo, hi int) {
				x, z := ad[lo:hi], yd[lo:hi]
				for i := range x {
					x[i] = x[i]*2 + z[i]
				}
			})
		}
	})
}
