package exec_test

import (
	"fmt"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/mat"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Benchmarks W10 (reductions of a 3162x3162 float64 matrix, about 80 MB),
// the fused sum(a*b, -1), and W11 (512x512 matmul). Each tensorplay
// benchmark has a "hand" (or "gonum") sibling doing the same work, so one
// run gives the ratio. The hand loops use two goroutines, each over half of
// the rows, and plain sequential sums.

const bnN = 3162

var bnData = sync.OnceValue(func() [2]*tensor.Tensor[float64] {
	return [2]*tensor.Tensor[float64]{
		tensor.Must(tensor.RandN[float64](1, bnN, bnN)),
		tensor.Must(tensor.RandN[float64](2, bnN, bnN)),
	}
})

// bnHalves runs f over the rows [0, n/2) on a new goroutine and [n/2, n)
// on the caller's, and waits for both.
func bnHalves(n int, f func(half, lo, hi int)) {
	var wg sync.WaitGroup
	wg.Go(func() { f(0, 0, n/2) })
	f(1, n/2, n)
	wg.Wait()
}

// bnEval is the tensorplay side of a benchmark: evaluate e (planned once,
// then cached) on the default executor.
func bnEval(b *testing.B, e expr.Expr[float64], bytes int64) {
	b.SetBytes(bytes)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := exec.Eval(e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkW10SumInner is sum(x, axis=-1).
func BenchmarkW10SumInner(b *testing.B) {
	x := bnData()[0]
	b.Run("tensorplay", func(b *testing.B) { bnEval(b, expr.Of(x).Sum(-1), 8*bnN*bnN) })
	b.Run("hand", func(b *testing.B) {
		data, out := x.Data(), make([]float64, bnN)
		b.SetBytes(8 * bnN * bnN)
		b.ReportAllocs()
		for b.Loop() {
			bnHalves(bnN, func(_, lo, hi int) {
				for i := lo; i < hi; i++ {
					var s float64
					for _, v := range data[i*bnN : (i+1)*bnN] {
						s += v
					}
					out[i] = s
				}
			})
		}
	})
}

// BenchmarkRowSumsInCache is sum(x, -1) of a float64 n×n in L2 (256²)
// and L3 (1000²) on one worker, into a preallocated output: the lane
// folds' own speed and the per-row cost around them, which W10's 80 MB
// hides behind memory. Its "hand" sibling is a plain Go loop with eight
// accumulators a row, the fastest plain Go a user would write.
func BenchmarkRowSumsInCache(b *testing.B) {
	for _, n := range []int{256, 1000} {
		in := tensor.Must(tensor.RandN[float64](1, n, n))
		out := tensor.Must(tensor.New[float64](n))
		b.Run(fmt.Sprintf("%d/tensorplay", n), func(b *testing.B) {
			x := exec.New(exec.Workers(1))
			defer x.Close()
			e := expr.Of(in).Sum(-1)
			b.SetBytes(int64(8 * n * n))
			b.ReportAllocs()
			for b.Loop() {
				if err := exec.EvalToWith(x, out, e); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("%d/hand", n), func(b *testing.B) {
			data, o := in.Data(), out.Data()
			b.SetBytes(int64(8 * n * n))
			for b.Loop() {
				for i := range n {
					var s [8]float64
					row := data[i*n : (i+1)*n]
					j := 0
					for ; j+8 <= n; j += 8 {
						r := row[j : j+8 : j+8]
						s[0] += r[0]
						s[1] += r[1]
						s[2] += r[2]
						s[3] += r[3]
						s[4] += r[4]
						s[5] += r[5]
						s[6] += r[6]
						s[7] += r[7]
					}
					t := ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))
					for ; j < n; j++ {
						t += row[j]
					}
					o[i] = t
				}
			}
		})
	}
}

// BenchmarkW10SumOuter is sum(x, axis=0): the hand loop sums each half of
// the rows into its own column vector, then adds the two.
func BenchmarkW10SumOuter(b *testing.B) {
	x := bnData()[0]
	b.Run("tensorplay", func(b *testing.B) { bnEval(b, expr.Of(x).Sum(0), 8*bnN*bnN) })
	b.Run("hand", func(b *testing.B) {
		data := x.Data()
		cols := [2][]float64{make([]float64, bnN), make([]float64, bnN)}
		b.SetBytes(8 * bnN * bnN)
		b.ReportAllocs()
		for b.Loop() {
			bnHalves(bnN, func(h, lo, hi int) {
				c := cols[h]
				clear(c)
				for i := lo; i < hi; i++ {
					row := data[i*bnN : (i+1)*bnN]
					for j, v := range row {
						c[j] += v
					}
				}
			})
			for j, v := range cols[1] {
				cols[0][j] += v
			}
		}
	})
}

// BenchmarkW10SumAll is sum(x).
func BenchmarkW10SumAll(b *testing.B) {
	x := bnData()[0]
	b.Run("tensorplay", func(b *testing.B) { bnEval(b, expr.Of(x).Sum(), 8*bnN*bnN) })
	b.Run("hand", func(b *testing.B) {
		data := x.Data()
		var part [2]float64
		b.SetBytes(8 * bnN * bnN)
		b.ReportAllocs()
		for b.Loop() {
			bnHalves(bnN, func(h, lo, hi int) {
				var s float64
				for _, v := range data[lo*bnN : hi*bnN] {
					s += v
				}
				part[h] = s
			})
			_ = part[0] + part[1]
		}
	})
}

// BenchmarkSumMulFused is sum(a*b, axis=-1), fused: no a*b temporary.
func BenchmarkSumMulFused(b *testing.B) {
	x, y := bnData()[0], bnData()[1]
	b.Run("tensorplay", func(b *testing.B) {
		bnEval(b, expr.Of(x).Mul(expr.Of(y)).Sum(-1), 16*bnN*bnN)
	})
	b.Run("hand", func(b *testing.B) {
		xd, yd, out := x.Data(), y.Data(), make([]float64, bnN)
		b.SetBytes(16 * bnN * bnN)
		b.ReportAllocs()
		for b.Loop() {
			bnHalves(bnN, func(_, lo, hi int) {
				for i := lo; i < hi; i++ {
					xr, yr := xd[i*bnN:(i+1)*bnN], yd[i*bnN:(i+1)*bnN]
					yr = yr[:len(xr)]
					var s float64
					for j, v := range xr {
						s += v * yr[j]
					}
					out[i] = s
				}
			})
		}
	})
}

const bnM = 512

// bnFlops reports the matmul rate of an n x n product.
func bnFlops(b *testing.B) {
	b.ReportMetric(2*bnM*bnM*bnM*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// BenchmarkW11MatMulF64 is a 512x512 float64 product against gonum's
// mat.Dense.Mul at the same GOMAXPROCS.
func BenchmarkW11MatMulF64(b *testing.B) {
	a := tensor.Must(tensor.RandN[float64](3, bnM, bnM))
	c := tensor.Must(tensor.RandN[float64](4, bnM, bnM))
	b.Run("tensorplay", func(b *testing.B) {
		bnEval(b, expr.Of(a).MatMul(expr.Of(c)), 3*8*bnM*bnM)
		bnFlops(b)
	})
	b.Run("gonum", func(b *testing.B) {
		A, C := mat.NewDense(bnM, bnM, a.Data()), mat.NewDense(bnM, bnM, c.Data())
		var dst mat.Dense
		dst.Mul(A, C)
		b.SetBytes(3 * 8 * bnM * bnM)
		b.ReportAllocs()
		for b.Loop() {
			dst.Mul(A, C)
		}
		bnFlops(b)
	})
}

// BenchmarkW11MatMulF32 is a 512x512 float32 product against blas32.Gemm.
func BenchmarkW11MatMulF32(b *testing.B) {
	a := tensor.Must(tensor.RandN[float32](3, bnM, bnM))
	c := tensor.Must(tensor.RandN[float32](4, bnM, bnM))
	b.Run("tensorplay", func(b *testing.B) {
		e := expr.Of(a).MatMul(expr.Of(c))
		b.SetBytes(3 * 4 * bnM * bnM)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := exec.Eval(e); err != nil {
				b.Fatal(err)
			}
		}
		bnFlops(b)
	})
	b.Run("gonum", func(b *testing.B) {
		gen := func(d []float32) blas32.General {
			return blas32.General{Rows: bnM, Cols: bnM, Stride: bnM, Data: d}
		}
		A, C, dst := gen(a.Data()), gen(c.Data()), gen(make([]float32, bnM*bnM))
		b.SetBytes(3 * 4 * bnM * bnM)
		b.ReportAllocs()
		for b.Loop() {
			blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, A, C, 0, dst)
		}
		bnFlops(b)
	})
}
