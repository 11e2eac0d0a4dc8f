package bench

import (
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// The optimizer updates W13 and W14 are one Executor.Run of several roots
// that read their own destinations, as a training loop writes them:
//
//	SGD with momentum (W13):  v = mu*v + g;  w = w - lr*v
//	Adam (W14):               m = b1*m + (1-b1)*g;  s = b2*s + (1-b2)*g*g
//	                          w = w - lr*m/(sqrt(s)+eps)
//
// Their /separate rows write the same arithmetic into other tensors (the
// state is only read), the cost the in-place update must stay within.
// Each side updates its own copy of the state, so after one run each the
// two copies must agree.

const (
	sgdLR, sgdMomentum          = 0.01, 0.9
	adamLR, adamB1, adamB2, eps = 1e-3, 0.9, 0.999, 1e-8
)

// optimizerState is the parameter, its gradient and its moment tensors.
type optimizerState struct {
	w, g    *tensor.Tensor[float64]
	moments []*tensor.Tensor[float64]
}

func newOptimizerState(p Params, moments int) (*optimizerState, error) {
	s := &optimizerState{}
	var err error
	if s.w, err = tensor.Rand[float64](p.Seed, p.Size); err != nil {
		return nil, err
	}
	if s.g, err = tensor.RandN[float64](p.Seed+1, p.Size); err != nil {
		return nil, err
	}
	for i := range moments {
		m, err := tensor.Rand[float64](p.Seed+2+uint64(i), p.Size)
		if err != nil {
			return nil, err
		}
		s.moments = append(s.moments, m)
	}
	return s, nil
}

// sgdRoots is the momentum update of s: the new v and the new w.
func sgdRoots(s *optimizerState) []*expr.Node {
	v := expr.Of(s.moments[0]).MulScalar(sgdMomentum).Add(expr.Of(s.g))
	w := expr.Of(s.w).Sub(v.MulScalar(sgdLR))
	return []*expr.Node{v.Node(), w.Node()}
}

// adamRoots is the Adam update of s: the new m, s and w.
func adamRoots(s *optimizerState) []*expr.Node {
	g := expr.Of(s.g)
	m := expr.Of(s.moments[0]).MulScalar(adamB1).Add(g.MulScalar(1 - adamB1))
	v := expr.Of(s.moments[1]).MulScalar(adamB2).Add(g.Mul(g).MulScalar(1 - adamB2))
	w := expr.Of(s.w).Sub(m.MulScalar(adamLR).Div(v.Sqrt().AddScalar(eps)))
	return []*expr.Node{m.Node(), v.Node(), w.Node()}
}

// sgdHand is the momentum update as one parallel Go loop.
func sgdHand(workers int, w, g, v []float64) {
	parallelFor(workers, len(w), cacheLine, func(lo, hi int) {
		w, g, v := w[lo:hi], g[lo:hi], v[lo:hi]
		for i := range w {
			vi := v[i]*sgdMomentum + g[i]
			v[i] = vi
			w[i] -= vi * sgdLR
		}
	})
}

// adamHand is the Adam update as one parallel Go loop.
func adamHand(workers int, w, g, m, s []float64) {
	parallelFor(workers, len(w), cacheLine, func(lo, hi int) {
		w, g, m, s := w[lo:hi], g[lo:hi], m[lo:hi], s[lo:hi]
		for i := range w {
			gi := g[i]
			mi := m[i]*adamB1 + gi*(1-adamB1)
			si := s[i]*adamB2 + gi*gi*(1-adamB2)
			m[i], s[i] = mi, si
			w[i] -= mi * adamLR / (math.Sqrt(si) + eps)
		}
	})
}

// updateCase times roots written into dsts (the state itself, or separate
// tensors) against hand, which updates its own copy of the state.
func updateCase(p Params, st *optimizerState, roots func(*optimizerState) []*expr.Node, separate bool,
	hand func(workers int, w, g []float64, moments ...[]float64)) (*Case, error) {
	rs := roots(st)
	for _, r := range rs {
		if err := r.Err(); err != nil {
			return nil, err
		}
	}
	state := append([]*tensor.Tensor[float64]{}, st.moments...)
	state = append(state, st.w)
	dsts := make([]tensor.Any, len(state))
	for i, t := range state {
		dsts[i] = t
		if separate {
			dsts[i] = tensor.Must(tensor.New[float64](t.Shape()...))
		}
	}
	// The hand loop's copy of the state, in the same order.
	copies := make([][]float64, len(state))
	for i, t := range state {
		copies[i] = t.Clone().Data()
	}
	moments, w := copies[:len(copies)-1], copies[len(copies)-1]
	n := int64(p.Size)
	return &Case{
		Shape:      fmt.Sprint(p.Size),
		Tensorplay: func() error { _, err := p.Exec.Run(rs, dsts); return err },
		HandLoop:   func() error { hand(p.Workers, w, st.g.Data(), moments...); return nil },
		Check: func() error {
			for i, d := range dsts {
				if err := AllClose(d.(*tensor.Tensor[float64]).Data(), copies[i], 1e-12, 1e-12); err != nil {
					return fmt.Errorf("state %d: %w", i, err)
				}
			}
			return nil
		},
		// Read the state and g, write the state.
		Bytes: 8 * n * int64(2*len(state)+1),
		Flops: n * int64(3*len(state)),
	}, nil
}

// w13 is SGD with momentum written into its own state.
func w13(separate bool) func(p Params) (*Case, error) {
	return func(p Params) (*Case, error) {
		st, err := newOptimizerState(p, 1)
		if err != nil {
			return nil, err
		}
		return updateCase(p, st, sgdRoots, separate, func(workers int, w, g []float64, m ...[]float64) {
			sgdHand(workers, w, g, m[0])
		})
	}
}

// w14 is Adam written into its own state.
func w14(separate bool) func(p Params) (*Case, error) {
	return func(p Params) (*Case, error) {
		st, err := newOptimizerState(p, 2)
		if err != nil {
			return nil, err
		}
		return updateCase(p, st, adamRoots, separate, func(workers int, w, g []float64, m ...[]float64) {
			adamHand(workers, w, g, m[0], m[1])
		})
	}
}
