package exec

import (
	"math"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/matmul"
)

// Pooling by direct loops, a channel plane of an image at a time (planes
// split over the workers): each output element reads its window in order
// of the kernel's axes, so results do not depend on the number of workers.

func (s *windowStep) isMax() bool {
	op := s.op
	if op == expr.OpPoolGrad {
		op = s.fwd
	}
	return op == expr.OpMaxPool || op == expr.OpAdaptiveMaxPool
}

// eachWindow calls f for every output position o (row-major) of a plane
// with the window's clipped input ranges on the three axes and its
// divisor for an average (torch's count_include_pad rule, or the clipped
// size with ExcludePad).
func (g *winGeom) eachWindow(f func(o int, lo, hi [3]int, div int)) {
	o := 0
	var lo, hi [3]int
	var pad [3]int
	for od := range g.out[0] {
		lo[0], hi[0], pad[0] = g.window(0, od)
		for oh := range g.out[1] {
			lo[1], hi[1], pad[1] = g.window(1, oh)
			for ow := range g.out[2] {
				lo[2], hi[2], pad[2] = g.window(2, ow)
				div := pad[0] * pad[1] * pad[2]
				if g.excludePad || g.adaptive {
					div = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2])
				}
				f(o, lo, hi, div)
				o++
			}
		}
	}
}

// step returns the tap spacing of axis a (the dilation; 1 for adaptive).
func (g *winGeom) step(a int) int {
	if g.adaptive {
		return 1
	}
	return g.dl[a]
}

// first returns the first tap at or after lo of a window starting at start
// with spacing st (a dilated window's taps in the padding are skipped).
func first(start, lo, st int) int {
	if start >= lo {
		return start
	}
	return start + (lo-start+st-1)/st*st
}

// argmaxWindow returns the flat plane index of the first maximum of x's
// window (NaN counting as the largest, a later NaN replacing an earlier one,
// as torch's max_pool), or -1 for a window with no input element.
func argmaxWindow[F float32 | float64](g *winGeom, x []F, o int, lo, hi [3]int) int {
	best, at := F(math.Inf(-1)), -1
	od, oh, ow := o/(g.out[1]*g.out[2]), o/g.out[2]%g.out[1], o%g.out[2]
	starts := [3]int{lo[0], lo[1], lo[2]}
	if !g.adaptive {
		for a, oo := range [3]int{od, oh, ow} {
			starts[a] = first(oo*g.s[a]-g.pl[a], lo[a], g.dl[a])
		}
	}
	for d := starts[0]; d < hi[0]; d += g.step(0) {
		for h := starts[1]; h < hi[1]; h += g.step(1) {
			row := (d*g.in[1] + h) * g.in[2]
			for w := starts[2]; w < hi[2]; w += g.step(2) {
				v := x[row+w]
				if at < 0 || v > best || v != v {
					best, at = v, row+w
				}
			}
		}
	}
	return at
}

func poolForward[F float32 | float64](s *windowStep, xd, out []F, r matmul.Runner) {
	g := &s.geo
	x := dense(s, 0, xd, g.xExt())
	in, op := g.inPlane(), g.outPlane()
	takeMax := s.isMax()
	forParts(r, g.n*g.c, in, func(i int, _ matmul.Runner) {
		xp, yp := x[i*in:], out[i*op:]
		g.eachWindow(func(o int, lo, hi [3]int, div int) {
			if takeMax {
				if at := argmaxWindow(g, xp, o, lo, hi); at >= 0 {
					yp[o] = xp[at]
				} else {
					yp[o] = F(math.Inf(-1))
				}
				return
			}
			var sum F
			for d := lo[0]; d < hi[0]; d++ {
				for h := lo[1]; h < hi[1]; h++ {
					row := (d*g.in[1] + h) * g.in[2]
					for _, v := range xp[row+lo[2] : row+hi[2]] {
						sum += v
					}
				}
			}
			yp[o] = sum / F(div)
		})
	})
}

func poolBackward[F float32 | float64](s *windowStep, xd, gd, dx []F, r matmul.Runner) {
	g := &s.geo
	x := dense(s, 0, xd, g.xExt())
	dy := dense(s, 1, gd, g.yExt())
	in, op := g.inPlane(), g.outPlane()
	dx = dx[:g.n*g.c*in]
	takeMax := s.isMax()
	forParts(r, g.n*g.c, in, func(i int, _ matmul.Runner) {
		xp, gp, dp := x[i*in:], dy[i*op:], dx[i*in:(i+1)*in]
		clear(dp)
		g.eachWindow(func(o int, lo, hi [3]int, div int) {
			if takeMax {
				if at := argmaxWindow(g, xp, o, lo, hi); at >= 0 {
					dp[at] += gp[o]
				}
				return
			}
			v := gp[o] / F(div)
			for d := lo[0]; d < hi[0]; d++ {
				for h := lo[1]; h < hi[1]; h++ {
					row := (d*g.in[1] + h) * g.in[2]
					for w := lo[2]; w < hi[2]; w++ {
						dp[row+w] += v
					}
				}
			}
		})
	})
}
