package bench

import (
	"fmt"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// w8 is a += b in place. Tensorplay and the hand loop each update their own
// copy of a, so after one run each the two copies must agree.
func w8(p Params) (*Case, error) {
	n := p.Size
	a, err := tensor.Rand[float64](p.Seed, n)
	if err != nil {
		return nil, err
	}
	b, err := tensor.Rand[float64](p.Seed+1, n)
	if err != nil {
		return nil, err
	}
	e := expr.Of(a).Add(expr.Of(b))
	if err := e.Err(); err != nil {
		return nil, err
	}
	hand := a.Clone().Data()
	bd := b.Data()
	return &Case{
		Shape:      fmt.Sprint(n),
		Tensorplay: func() error { return exec.EvalToWith(p.Exec, a, e) },
		HandLoop: func() error {
			parallelFor(p.Workers, n, cacheLine, func(lo, hi int) {
				x, y := hand[lo:hi], bd[lo:hi]
				for i := range x {
					x[i] += y[i]
				}
			})
			return nil
		},
		Check: func() error { return AllClose(a.Data(), hand, 0, 0) },
		Peer:  &PeerCase{Pipeline: "w8", Inputs: []PeerInput{{"a", a}, {"b", b}}, Outputs: outputs(a)},
		Bytes: 3 * 8 * int64(n),
		Flops: int64(n),
	}, nil
}
