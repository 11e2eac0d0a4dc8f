package exec_test

import (
	"math"
	"sync"
	"testing"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// Elementwise workloads W1–W7, W9, W12 and the latency of a small graph,
// each next to a hand-written Go loop over the same data, so that one run
// gives the ratios. Sub-benchmarks are named
//
//	BenchmarkW<k>/n=<size>/<variant>
//
// with the variants
//
//	tensorplay       exec.Eval of a prebuilt expression (allocates the result)
//	tensorplay-into  exec.EvalTo into a preallocated tensor
//	handloop         the same arithmetic in a plain loop over two goroutines
//	                 (the executor runs GOMAXPROCS workers), into a
//	                 preallocated slice
//	handloop-alloc   handloop that allocates its result each time, as Eval does
//
// Bytes (b.SetBytes) are the bytes read and written once each: inputs plus
// the output. Inputs are allocated once per benchmark, outside the loop. The
// hand loops' slices are allocated as tensors' storage is (handStorage), so
// that both sides get the same huge-page advice.

// ewSize is one problem size: n elements, as rows×cols for the 2-D workloads.
type ewSize struct {
	name       string
	n          int
	rows, cols int
}

var ewSizes = []ewSize{
	{"n=1e6", 1_000_000, 1000, 1000},
	{"n=1e7", 10_000_000, 2500, 4000},
}

// ewSplit runs f over [0, n) in two halves, one on a new goroutine and one
// on the caller's, and waits for both.
func ewSplit(n int, f func(lo, hi int)) {
	var wg sync.WaitGroup
	wg.Go(func() { f(0, n/2) })
	f(n/2, n)
	wg.Wait()
}

// handStorage is n zeroed elements allocated as a tensor's storage is, with
// the same huge-page advice (see tensor.SetHugePages).
func handStorage[T dtype.Elem](n int) []T { return tensor.Must(tensor.New[T](n)).Data() }

func ewRand[T dtype.Float](seed uint64, shape ...int) *tensor.Tensor[T] {
	return tensor.Must(tensor.RandN[T](seed, shape...))
}

// benchInto times exec.EvalTo of e into a tensor allocated once.
func benchInto[T dtype.Elem](b *testing.B, bytes int64, e expr.Expr[T]) {
	dst := tensor.Must(tensor.New[T](e.Shape()...))
	b.SetBytes(bytes)
	b.ReportAllocs()
	for b.Loop() {
		if err := exec.EvalTo(dst, e); err != nil {
			b.Fatal(err)
		}
	}
}

// ewVariants runs the four variants of one workload.
func ewVariants[T dtype.Elem](b *testing.B, bytes int64, e expr.Expr[T], hand func(out []T)) {
	b.Helper()
	if err := e.Err(); err != nil {
		b.Fatal(err)
	}
	shape := e.Shape()
	n, _ := shape.Numel()
	b.Run("tensorplay", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := exec.Eval(e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tensorplay-into", func(b *testing.B) { benchInto(b, bytes, e) })
	b.Run("handloop", func(b *testing.B) {
		out := handStorage[T](n)
		b.SetBytes(bytes)
		b.ReportAllocs()
		for b.Loop() {
			hand(out)
		}
	})
	b.Run("handloop-alloc", func(b *testing.B) {
		b.SetBytes(bytes)
		b.ReportAllocs()
		for b.Loop() {
			hand(handStorage[T](n))
		}
	})
}

// The hand loops. Each splits its work over two goroutines.

// handW1 is: for i := range out { out[i] = a[i] + b[i] }
func handW1(out, a, b []float64) {
	ewSplit(len(out), func(lo, hi int) {
		o, x, y := out[lo:hi], a[lo:hi], b[lo:hi]
		x, y = x[:len(o)], y[:len(o)]
		for i := range o {
			o[i] = x[i] + y[i]
		}
	})
}

// handW2 is: for i := range out { out[i] = a[i]*b[i] + c[i] }
func handW2[T dtype.Float](out, a, b, c []T) {
	ewSplit(len(out), func(lo, hi int) {
		o, x, y, z := out[lo:hi], a[lo:hi], b[lo:hi], c[lo:hi]
		x, y, z = x[:len(o)], y[:len(o)], z[:len(o)]
		for i := range o {
			o[i] = T(x[i]*y[i]) + z[i]
		}
	})
}

// handW3 is: for i := range out { out[i] = (a[i]*b[i] + c[i]) * (a[i] - b[i]) / (c[i] + 1.5) }
func handW3(out, a, b, c []float64) {
	ewSplit(len(out), func(lo, hi int) {
		o, x, y, z := out[lo:hi], a[lo:hi], b[lo:hi], c[lo:hi]
		x, y, z = x[:len(o)], y[:len(o)], z[:len(o)]
		for i := range o {
			o[i] = float64(float64(x[i]*y[i])+z[i]) * (x[i] - y[i]) / (z[i] + 1.5)
		}
	})
}

// handW4 is: for i := range out { out[i] = exp(a[i])*sin(b[i]) + sqrt(abs(c[i])) },
// with the math package (through float64 for float32, rounding after each
// function, as the kernels do).
func handW4[T dtype.Float](out, a, b, c []T) {
	ewSplit(len(out), func(lo, hi int) {
		o, x, y, z := out[lo:hi], a[lo:hi], b[lo:hi], c[lo:hi]
		x, y, z = x[:len(o)], y[:len(o)], z[:len(o)]
		for i := range o {
			o[i] = T(T(math.Exp(float64(x[i])))*T(math.Sin(float64(y[i])))) + T(math.Sqrt(float64(T(math.Abs(float64(z[i]))))))
		}
	})
}

// rowLoop runs f(i) for every row i of a rows×cols result, the rows split
// over two goroutines.
func rowLoop(rows int, f func(i int)) {
	ewSplit(rows, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			f(i)
		}
	})
}

// handW5 is: out[i,j] = a[i,j] + row[j]
func handW5(out, a, row []float64, R, C int) {
	rowLoop(R, func(i int) {
		o, x := out[i*C:(i+1)*C], a[i*C:(i+1)*C]
		x, r := x[:len(o)], row[:len(o)]
		for j := range o {
			o[j] = x[j] + r[j]
		}
	})
}

// handW6 is: out[i,j] = a[i,j] + col[i]
func handW6(out, a, col []float64, R, C int) {
	rowLoop(R, func(i int) {
		o, x := out[i*C:(i+1)*C], a[i*C:(i+1)*C]
		x = x[:len(o)]
		v := col[i]
		for j := range o {
			o[j] = x[j] + v
		}
	})
}

// handW7 is: out[i,j] = col[i] * row[j]
func handW7(out, col, row []float64, R, C int) {
	rowLoop(R, func(i int) {
		o := out[i*C : (i+1)*C]
		r := row[:len(o)]
		v := col[i]
		for j := range o {
			o[j] = v * r[j]
		}
	})
}

// handW9 is: out[i,j] = a[i,j] + b[j,i] (b is C×R, row-major), walked in
// 128×512 tiles: a tile's first row reads a cache line from each of 512 rows
// of b, and its next rows find the rest of those lines in cache (the
// fastest hand-loop tile measured, as in package bench).
func handW9(out, a, b []float64, R, C int) {
	const rows, cols = 128, 512
	ewSplit((R+rows-1)/rows, func(lo, hi int) {
		for i0 := lo * rows; i0 < min(hi*rows, R); i0 += rows {
			for j0 := 0; j0 < C; j0 += cols {
				for i := i0; i < min(i0+rows, R); i++ {
					o, x := out[i*C:(i+1)*C], a[i*C:(i+1)*C]
					for j := j0; j < min(j0+cols, C); j++ {
						o[j] = x[j] + b[j*R+i]
					}
				}
			}
		}
	})
}

// handW9Naive is handW9 walked row by row of the result.
func handW9Naive(out, a, b []float64, R, C int) {
	rowLoop(R, func(i int) {
		o, x := out[i*C:(i+1)*C], a[i*C:(i+1)*C]
		for j := range o {
			o[j] = x[j] + b[j*R+i]
		}
	})
}

// BenchmarkW1 is a+b; the tensorplay-rebuild variant builds the expression
// in every iteration, to show what graph construction costs.
func BenchmarkW1(b *testing.B) {
	for _, s := range ewSizes {
		b.Run(s.name, func(b *testing.B) {
			x, y := ewRand[float64](1, s.n), ewRand[float64](2, s.n)
			xd, yd := x.Data(), y.Data()
			ewVariants(b, 3*8*int64(s.n), expr.Of(x).Add(expr.Of(y)), func(out []float64) { handW1(out, xd, yd) })
			b.Run("tensorplay-rebuild", func(b *testing.B) {
				b.SetBytes(3 * 8 * int64(s.n))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := exec.Eval(expr.Of(x).Add(expr.Of(y))); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkW2 is a*b+c.
func BenchmarkW2(b *testing.B) {
	for _, s := range ewSizes {
		b.Run(s.name, func(b *testing.B) { benchW2[float64](b, s) })
	}
}

func benchW2[T dtype.Float](b *testing.B, s ewSize) {
	x, y, z := ewRand[T](1, s.n), ewRand[T](2, s.n), ewRand[T](3, s.n)
	size := int64(dtype.Of[T]().Size())
	ewVariants(b, 4*size*int64(s.n), expr.Of(x).Mul(expr.Of(y)).Add(expr.Of(z)),
		func(out []T) { handW2(out, x.Data(), y.Data(), z.Data()) })
}

// BenchmarkW3 is (a*b+c)*(a-b)/(c+1.5).
func BenchmarkW3(b *testing.B) {
	for _, s := range ewSizes {
		b.Run(s.name, func(b *testing.B) {
			x, y, z := ewRand[float64](1, s.n), ewRand[float64](2, s.n), ewRand[float64](3, s.n)
			a, bb, c := expr.Of(x), expr.Of(y), expr.Of(z)
			ewVariants(b, 4*8*int64(s.n), a.Mul(bb).Add(c).Mul(a.Sub(bb)).Div(c.AddScalar(1.5)),
				func(out []float64) { handW3(out, x.Data(), y.Data(), z.Data()) })
		})
	}
}

// BenchmarkW4 is exp(a)*sin(b)+sqrt(abs(c)).
func BenchmarkW4(b *testing.B) {
	for _, s := range ewSizes {
		b.Run(s.name, func(b *testing.B) { benchW4[float64](b, s) })
	}
}

func benchW4[T dtype.Float](b *testing.B, s ewSize) {
	x, y, z := ewRand[T](1, s.n), ewRand[T](2, s.n), ewRand[T](3, s.n)
	size := int64(dtype.Of[T]().Size())
	ewVariants(b, 4*size*int64(s.n), expr.Of(x).Exp().Mul(expr.Of(y).Sin()).Add(expr.Of(z).Abs().Sqrt()),
		func(out []T) { handW4(out, x.Data(), y.Data(), z.Data()) })
}

// BenchmarkW5 is [R,C]+[1,C].
func BenchmarkW5(b *testing.B) {
	for _, s := range ewSizes {
		b.Run(s.name, func(b *testing.B) {
			R, C := s.rows, s.cols
			x, row := ewRand[float64](1, R, C), ewRand[float64](2, 1, C)
			ewVariants(b, 8*int64(2*R*C+C), expr.Of(x).Add(expr.Of(row)),
				func(out []float64) { handW5(out, x.Data(), row.Data(), R, C) })
		})
	}
}

// BenchmarkW6 is [R,C]+[R,1].
func BenchmarkW6(b *testing.B) {
	for _, s := range ewSizes {
		b.Run(s.name, func(b *testing.B) {
			R, C := s.rows, s.cols
			x, col := ewRand[float64](1, R, C), ewRand[float64](2, R, 1)
			ewVariants(b, 8*int64(2*R*C+R), expr.Of(x).Add(expr.Of(col)),
				func(out []float64) { handW6(out, x.Data(), col.Data(), R, C) })
		})
	}
}

// BenchmarkW7 is [R,1]*[1,C], an outer product.
func BenchmarkW7(b *testing.B) {
	for _, s := range ewSizes {
		b.Run(s.name, func(b *testing.B) {
			R, C := s.rows, s.cols
			col, row := ewRand[float64](1, R, 1), ewRand[float64](2, 1, C)
			ewVariants(b, 8*int64(R*C+R+C), expr.Of(col).Mul(expr.Of(row)),
				func(out []float64) { handW7(out, col.Data(), row.Data(), R, C) })
		})
	}
}

// BenchmarkW9 is a + b.T, b a transposed view; handloop is the tiled hand
// transpose, handloop-naive the row-by-row one, and tensorplay-noprefetch
// the executor without its prefetch instructions (simd.Prefetching
// cleared; the calls that would issue them remain).
func BenchmarkW9(b *testing.B) {
	for _, s := range ewSizes {
		b.Run(s.name, func(b *testing.B) {
			R, C := s.rows, s.cols
			x, y := ewRand[float64](1, R, C), ewRand[float64](2, C, R)
			e := expr.Of(x).Add(expr.Of(tensor.Must(y.T())))
			ewVariants(b, 3*8*int64(R*C), e, func(out []float64) { handW9(out, x.Data(), y.Data(), R, C) })
			b.Run("tensorplay-into-noprefetch", func(b *testing.B) {
				saved := simd.Prefetching
				defer func() { simd.Prefetching = saved }()
				simd.Prefetching = false
				benchInto(b, 3*8*int64(R*C), e)
			})
			b.Run("handloop-naive", func(b *testing.B) {
				out := handStorage[float64](R * C)
				b.SetBytes(3 * 8 * int64(R*C))
				b.ReportAllocs()
				for b.Loop() {
					handW9Naive(out, x.Data(), y.Data(), R, C)
				}
			})
		})
	}
}

// BenchmarkTransposedCopy is y.T made contiguous: by the executor into a
// tensor (streamed around the caches at 1e7), and by Tensor.Values on the
// calling goroutine, allocation included.
func BenchmarkTransposedCopy(b *testing.B) {
	for _, s := range ewSizes {
		b.Run(s.name, func(b *testing.B) {
			R, C := s.rows, s.cols
			yt := tensor.Must(ewRand[float64](2, C, R).T())
			e := expr.Of(yt)
			b.Run("tensorplay-into", func(b *testing.B) { benchInto(b, 2*8*int64(R*C), e) })
			b.Run("values", func(b *testing.B) {
				b.SetBytes(2 * 8 * int64(R*C))
				b.ReportAllocs()
				for b.Loop() {
					_ = yt.Values()
				}
			})
		})
	}
}

// BenchmarkW12 is W2 and W4 in float32.
func BenchmarkW12(b *testing.B) {
	for _, s := range ewSizes {
		b.Run(s.name, func(b *testing.B) {
			b.Run("W2", func(b *testing.B) { benchW2[float32](b, s) })
			b.Run("W4", func(b *testing.B) { benchW4[float32](b, s) })
		})
	}
}

// BenchmarkLatency100 is (a*b+c)*a on 100 float64 elements: the cost of one
// small evaluation. "tensorplay" builds the graph and evaluates it in every
// iteration; "prebuilt" evaluates a graph built once; "handloop" allocates
// its result and loops on the calling goroutine.
func BenchmarkLatency100(b *testing.B) {
	const n = 100
	x, y, z := ewRand[float64](1, n), ewRand[float64](2, n), ewRand[float64](3, n)
	xd, yd, zd := x.Data(), y.Data(), z.Data()
	b.Run("tensorplay", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			a := expr.Of(x)
			if _, err := exec.Eval(a.Mul(expr.Of(y)).Add(expr.Of(z)).Mul(a)); err != nil {
				b.Fatal(err)
			}
		}
	})
	e := expr.Of(x).Mul(expr.Of(y)).Add(expr.Of(z)).Mul(expr.Of(x))
	b.Run("prebuilt", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := exec.Eval(e); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("handloop", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out := make([]float64, n)
			for i := range out {
				out[i] = (float64(xd[i]*yd[i]) + zd[i]) * xd[i]
			}
			latencySink = out
		}
	})
}

var latencySink []float64

// TestBenchmarkHandLoops checks, on small odd sizes, that every hand loop
// computes what its expression computes, so the ratios compare equal work.
func TestBenchmarkHandLoops(t *testing.T) {
	const R, C = 67, 131
	n := R * C
	r := newRand(77)
	x, y, z := randomTensor[float64](t, r, n), randomTensor[float64](t, r, n), randomTensor[float64](t, r, n)
	xd, yd, zd := x.Data(), y.Data(), z.Data()
	a, bb, c := expr.Of(x), expr.Of(y), expr.Of(z)
	m := func(v *tensor.Tensor[float64], shape ...int) expr.Expr[float64] {
		return expr.Of(tensor.Must(v.Reshape(shape...)))
	}
	head := func(k int) *tensor.Tensor[float64] { return tensor.Must(z.Slice(0, 0, k, 1)) }
	cases := []struct {
		name string
		e    expr.Expr[float64]
		hand func(out []float64)
	}{
		{"W1", a.Add(bb), func(o []float64) { handW1(o, xd, yd) }},
		{"W2", a.Mul(bb).Add(c), func(o []float64) { handW2(o, xd, yd, zd) }},
		{"W3", a.Mul(bb).Add(c).Mul(a.Sub(bb)).Div(c.AddScalar(1.5)), func(o []float64) { handW3(o, xd, yd, zd) }},
		{"W4", a.Exp().Mul(bb.Sin()).Add(c.Abs().Sqrt()), func(o []float64) { handW4(o, xd, yd, zd) }},
		{"W5", m(x, R, C).Add(m(head(C), 1, C)), func(o []float64) { handW5(o, xd, zd, R, C) }},
		{"W6", m(x, R, C).Add(m(head(R), R, 1)), func(o []float64) { handW6(o, xd, zd, R, C) }},
		{"W7", m(head(R), R, 1).Mul(m(head(C), 1, C)), func(o []float64) { handW7(o, zd, zd, R, C) }},
		{"W9", m(x, R, C).Add(m(y, C, R).T()), func(o []float64) { handW9(o, xd, yd, R, C) }},
		{"W9 naive", m(x, R, C).Add(m(y, C, R).T()), func(o []float64) { handW9Naive(o, xd, yd, R, C) }},
	}
	for _, c := range cases {
		want := evalWith(t, serial, c.e).Values()
		got := make([]float64, len(want))
		c.hand(got)
		eq := sameValue[float64]
		if c.name == "W4" {
			// math.Exp in the hand loop, vmath's exp in the kernel: a few ulp
			// apart, absolutely where exp(a)*sin(b) cancels sqrt(|c|).
			eq = closeTo[float64](1e-14, 1e-14)
		}
		assertWith(t, eq, want, got, "%s", c.name)
	}
	// float32 W2 and W4.
	x32, y32, z32 := randomTensor[float32](t, r, n), randomTensor[float32](t, r, n), randomTensor[float32](t, r, n)
	want := evalWith(t, serial, expr.Of(x32).Exp().Mul(expr.Of(y32).Sin()).Add(expr.Of(z32).Abs().Sqrt())).Values()
	got := make([]float32, n)
	handW4(got, x32.Data(), y32.Data(), z32.Data())
	// float32 exp and sin computed in float32 by vmath, within 1 ulp, in the
	// kernel; the math package's rounded to float32 in the hand loop.
	assertWith(t, closeTo[float32](1e-6, 1e-6), want, got, "W12 W4")
	want = evalWith(t, serial, expr.Of(x32).Mul(expr.Of(y32)).Add(expr.Of(z32))).Values()
	handW2(got, x32.Data(), y32.Data(), z32.Data())
	assertValues(t, want, got, "W12 W2")
}

// BenchmarkRowTail is exp(x - m) over [4096,1000] float32, m a column
// [4096,1]: computed a row at a time, each row of 1000 ends in a group of
// 8 that the AVX-512 loop (groups of 16) leaves to the AVX2 loop (see
// vmath's kernel.half): 0.99 ms against 1.58 ms when the Go loop took
// them.
func BenchmarkRowTail(b *testing.B) {
	x, m := ewRand[float32](1, 4096, 1000), ewRand[float32](2, 4096, 1)
	benchInto(b, 8*4096*1000, expr.Of(x).Sub(expr.Of(m)).Exp())
}
