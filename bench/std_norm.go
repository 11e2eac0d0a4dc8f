package bench

import (
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// The W15 rows: softmax, logsumexp and var over the rows of a float32
// matrix with rows of normRow elements, Params.Size/normRow of them
// (4096×1024 at -size 4194304, 9765×1024 at 1e7): the normalizations that
// run as one pass reading x (a paired reduction; for softmax a line op
// that also writes the result).
//
// Bytes counts the passes the plan makes, so that %roof is the share of
// the probe's bandwidth those passes reach: logsumexp and var read x once
// (and write a value per row); softmax, a line op, reads x once and
// writes the result, two arrays of x's size (a row's second and third
// reads hit the cache).

// normRow is the row length of the W15 rows.
const normRow = 1024

// normCase sets up a W15 row: e of x into a preallocated output, a hand
// loop over rows that writes hand, and the peer function peer.
func normCase(p Params, peer string, e func(x expr.Expr[float32]) expr.Expr[float32], full bool, kernel func(row, out []float32)) (*Case, error) {
	rows := max(1, p.Size/normRow)
	x, err := tensor.RandN[float32](p.Seed, rows, normRow)
	if err != nil {
		return nil, err
	}
	ex := e(expr.Of(x))
	if err := ex.Err(); err != nil {
		return nil, err
	}
	out, err := tensor.New[float32](ex.Shape()...)
	if err != nil {
		return nil, err
	}
	per := 1 // outputs per row
	if full {
		per = normRow
	}
	hand := make([]float32, rows*per)
	xd := x.Data()
	return &Case{
		Shape:      fmt.Sprintf("%dx%d", rows, normRow),
		Tensorplay: func() error { return exec.EvalToWith(p.Exec, out, ex) },
		HandLoop: func() error {
			parallelFor(p.Workers, rows, 1, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					kernel(xd[i*normRow:(i+1)*normRow], hand[i*per:(i+1)*per])
				}
			})
			return nil
		},
		Check: func() error { return AllClose(out.Data(), hand, 1e-5, 1e-6) },
		Bytes: 4 * int64(rows*normRow+rows*per), // x read once, the result written
		Flops: 3 * int64(rows*normRow),
		Peer:  &PeerCase{Pipeline: peer, Inputs: []PeerInput{{"x", x}}, Outputs: outputs(out)},
	}, nil
}

// rowMax is the maximum of a row (rows hold no NaN here).
func rowMax(row []float32) float32 {
	m := float32(math.Inf(-1))
	for _, v := range row {
		m = max(m, v)
	}
	return m
}

// w15Softmax is softmax(x, -1): per row the maximum, then exp(x - max)
// written and summed, then scaled, the loop a Go programmer writes.
func w15Softmax(p Params) (*Case, error) {
	return normCase(p, "w15_softmax", func(x expr.Expr[float32]) expr.Expr[float32] { return expr.Softmax(x, -1) }, true,
		func(row, out []float32) {
			m := rowMax(row)
			var s float32
			for j, v := range row {
				e := float32(math.Exp(float64(v - m)))
				out[j] = e
				s += e
			}
			for j := range out {
				out[j] /= s
			}
		})
}

// w15LogSumExp is logsumexp(x, -1).
func w15LogSumExp(p Params) (*Case, error) {
	return normCase(p, "w15_logsumexp", func(x expr.Expr[float32]) expr.Expr[float32] { return expr.LogSumExp(x, false, -1) }, false,
		func(row, out []float32) {
			m := rowMax(row)
			var s float32
			for _, v := range row {
				s += float32(math.Exp(float64(v - m)))
			}
			out[0] = m + float32(math.Log(float64(s)))
		})
}

// w15Var is var(x, -1): the mean, then the mean square deviation.
func w15Var(p Params) (*Case, error) {
	return normCase(p, "w15_var", func(x expr.Expr[float32]) expr.Expr[float32] { return expr.Var(x, 0, false, -1) }, false,
		func(row, out []float32) {
			var s float32
			for _, v := range row {
				s += v
			}
			mean := s / float32(len(row))
			var q float32
			for _, v := range row {
				q += (v - mean) * (v - mean)
			}
			out[0] = q / float32(len(row))
		})
}
