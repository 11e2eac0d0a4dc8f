package bench

import (
	"fmt"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// sumCase sets up a sum of a Side(p.Size)-square float64 matrix over axes
// (none: every axis) into a preallocated output of outLen elements, with a
// hand loop that writes hand; peer names the peer scripts' function.
func sumCase(p Params, peer string, axes []int, outLen func(n int) int, kernel func(x, hand []float64, n, workers int)) (*Case, error) {
	n := Side(p.Size)
	x, err := tensor.Rand[float64](p.Seed, n, n)
	if err != nil {
		return nil, err
	}
	e := expr.Of(x).Sum(axes...)
	if err := e.Err(); err != nil {
		return nil, err
	}
	out, err := tensor.New[float64](e.Shape()...)
	if err != nil {
		return nil, err
	}
	m := outLen(n)
	hand := make([]float64, m)
	xd := x.Data()
	return &Case{
		Shape:      fmt.Sprintf("%dx%d", n, n),
		Tensorplay: func() error { return exec.EvalToWith(p.Exec, out, e) },
		HandLoop:   func() error { kernel(xd, hand, n, p.Workers); return nil },
		// Sums in another order differ by rounding: n·eps relative is generous.
		Check: func() error { return AllClose(out.Data(), hand, 1e-12*float64(n), 0) },
		Bytes: 8 * int64(n*n+m),
		Flops: int64(n * n),
		Peer:  &PeerCase{Pipeline: peer, Inputs: []PeerInput{{"x", x}}, Outputs: outputs(out)},
	}, nil
}

// w10Rows is sum(x, -1): each goroutine sums whole rows.
func w10Rows(p Params) (*Case, error) {
	return sumCase(p, "w10_rows", []int{-1}, func(n int) int { return n }, func(x, hand []float64, n, workers int) {
		parallelFor(workers, n, 1, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				hand[i] = sum8(x[i*n : (i+1)*n])
			}
		})
	})
}

// w10Cols is sum(x, 0): each goroutine owns a range of columns and streams
// the rows over it, so memory is read row by row, four rows per pass over
// its accumulators (half the time of one row per pass on 1000², as the
// accumulators' loads and stores no longer dominate).
func w10Cols(p Params) (*Case, error) {
	return sumCase(p, "w10_cols", []int{0}, func(n int) int { return n }, func(x, hand []float64, n, workers int) {
		parallelFor(workers, n, cacheLine, func(lo, hi int) {
			acc := hand[lo:hi]
			clear(acc)
			i := 0
			for ; i+4 <= n; i += 4 {
				r0, r1 := x[i*n+lo:i*n+hi], x[(i+1)*n+lo:(i+1)*n+hi]
				r2, r3 := x[(i+2)*n+lo:(i+2)*n+hi], x[(i+3)*n+lo:(i+3)*n+hi]
				r0, r1, r2, r3 = r0[:len(acc)], r1[:len(acc)], r2[:len(acc)], r3[:len(acc)]
				for j := range acc {
					acc[j] += (r0[j] + r1[j]) + (r2[j] + r3[j])
				}
			}
			for ; i < n; i++ {
				row := x[i*n+lo : i*n+hi]
				row = row[:len(acc)]
				for j, v := range row {
					acc[j] += v
				}
			}
		})
	})
}

// w10All is sum(x): per-goroutine partial sums added in order.
func w10All(p Params) (*Case, error) {
	return sumCase(p, "w10_all", nil, func(int) int { return 1 }, func(x, hand []float64, n, workers int) {
		parts := make([]float64, max(workers, 1))
		chunk := (n*n + len(parts) - 1) / len(parts)
		parallelFor(workers, n*n, chunk, func(lo, hi int) {
			parts[lo/chunk] = sum8(x[lo:hi])
		})
		var s float64
		for _, v := range parts {
			s += v
		}
		hand[0] = s
	})
}

// sum8 is the sum of x with eight accumulators, the loop a Go programmer
// who measures writes: one accumulator waits on each add's latency, eight
// keep the adder busy (about 3x faster on 1000-element rows in cache).
func sum8(x []float64) float64 {
	var s0, s1, s2, s3, s4, s5, s6, s7 float64
	i := 0
	for ; i+8 <= len(x); i += 8 {
		v := x[i : i+8 : i+8]
		s0 += v[0]
		s1 += v[1]
		s2 += v[2]
		s3 += v[3]
		s4 += v[4]
		s5 += v[5]
		s6 += v[6]
		s7 += v[7]
	}
	for ; i < len(x); i++ {
		s0 += x[i]
	}
	return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
}
