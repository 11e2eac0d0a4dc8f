package exec_test

import (
	"fmt"
	"slices"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// FuzzGraph's generator of shape nodes: reshape, permute, expand, slice,
// embed, squeeze and unsqueeze, each with its reference index map.

// shapeNode adds a view-like node whose reference is the index map m
// (out[i] = in[m[i]], zero where m[i] < 0).
func (g *graphGen) shapeNode(n *expr.Node, a *gnode, shape tensor.Shape, bad bool, desc string, m func() []int) *gnode {
	nd := &gnode{n: n, dt: a.dt, shape: shape, args: []*gnode{a}, bad: bad || a.bad, desc: desc}
	nd.eval = func(v []rval) (any, *approx) { return remap(v[0].data, m()), nil }
	return g.add(nd)
}

func identityMap(n int) []int {
	m := make([]int, n)
	for i := range m {
		m[i] = i
	}
	return m
}

func (g *graphGen) reshape(a *gnode) *gnode {
	n := numelOf(a.shape)
	r := g.in.intn(5)
	s := make(tensor.Shape, r)
	for i := range s {
		s[i] = 1
	}
	if n == 0 {
		if r == 0 {
			s = tensor.Shape{0}
		} else {
			for i := range s {
				s[i] = g.in.intn(3)
			}
			s[g.in.intn(r)] = 0
		}
	} else {
		rest := n
		for p := 2; rest > 1; {
			if rest%p != 0 {
				p++
				continue
			}
			rest /= p
			if r == 0 {
				s = tensor.Shape{1}
				r = 1
			}
			s[g.in.intn(r)] *= p
		}
	}
	bad := false
	arg := []int(s.Clone())
	switch {
	case n > 0 && g.in.chance(16):
		arg = append(arg, 2)
		s, bad = tensor.Shape(arg), true
	case len(arg) > 0 && g.in.chance(3):
		k := g.in.intn(len(arg))
		if numelOf(slices.Delete(s.Clone(), k, k+1)) > 0 {
			arg[k] = -1
		}
	}
	return g.shapeNode(opsOf(a.dt).reshape(a.n, arg), a, s, bad, fmt.Sprintf("reshape%v", arg), func() []int { return identityMap(n) })
}

func (g *graphGen) permute(a *gnode) *gnode {
	r := len(a.shape)
	p := g.perm(r)
	arg := slices.Clone(p)
	kind := g.in.intn(3)
	if r != 2 && kind == 1 {
		kind = 0
	}
	for i := range arg {
		if g.in.chance(4) {
			arg[i] -= r
		}
	}
	s := make(tensor.Shape, r)
	for i, pi := range p {
		s[i] = a.shape[pi]
	}
	var n *expr.Node
	desc := fmt.Sprintf("permute%v", arg)
	ops := opsOf(a.dt)
	switch {
	case kind == 1:
		p, s, n, desc = []int{1, 0}, tensor.Shape{a.shape[1], a.shape[0]}, ops.transpose(a.n, -1, -1), "T"
	case kind == 2 && r >= 2:
		i, j := g.in.intn(r), g.in.intn(r)
		p = identityMap(r)
		p[i], p[j] = p[j], p[i]
		s = a.shape.Clone()
		s[i], s[j] = s[j], s[i]
		n, desc = ops.transpose(a.n, i, j), fmt.Sprintf("transpose(%d, %d)", i, j)
	default:
		n = ops.permute(a.n, arg)
	}
	in := a.shape
	return g.shapeNode(n, a, s, false, desc, func() []int {
		st := rowStrides(in)
		m := make([]int, numelOf(s))
		forEachIndex(s, func(f int, idx []int) {
			j := 0
			for k, pk := range p {
				j += idx[k] * st[pk]
			}
			m[f] = j
		})
		return m
	})
}

func (g *graphGen) expand(a *gnode) *gnode {
	lead := 0
	if len(a.shape) < 4 {
		lead = g.in.intn(5 - len(a.shape))
	}
	s := make(tensor.Shape, 0, lead+len(a.shape))
	for range lead {
		s = append(s, g.extent())
	}
	arg := []int(s.Clone())
	for _, d := range a.shape {
		e := d
		if d == 1 && g.in.chance(2) {
			e = g.extent()
		}
		s = append(s, e)
		if e == d && g.in.chance(4) {
			arg = append(arg, -1)
		} else {
			arg = append(arg, e)
		}
	}
	bad := false
	if len(a.shape) > 0 && g.in.chance(20) {
		k := lead + g.in.intn(len(a.shape))
		if a.shape[k-lead] != 1 {
			arg[k], s[k], bad = a.shape[k-lead]+1, a.shape[k-lead]+1, true
		}
	}
	in := a.shape
	return g.shapeNode(opsOf(a.dt).expand(a.n, arg), a, s, bad, fmt.Sprintf("expand%v", arg), func() []int { return bcastMap(s, in) })
}

// pySlice resolves start:stop:step (step >= 1) on an extent with Python's rules.
func pySlice(d, start, stop, step int) (lo, n int) {
	if step < 1 {
		return 0, 0
	}
	clamp := func(i int) int {
		if i < 0 {
			i += d
		}
		return min(max(i, 0), d)
	}
	lo, hi := clamp(start), clamp(stop)
	if hi <= lo {
		return lo, 0
	}
	return lo, (hi - lo + step - 1) / step
}

func (g *graphGen) slice(a *gnode) *gnode {
	r := len(a.shape)
	if r == 0 {
		return g.reshape(a)
	}
	k := g.in.intn(r)
	start, stop, step := g.in.intn(17)-8, g.in.intn(19)-8, 1+g.in.intn(3)
	if g.in.chance(3) {
		stop = 100
	}
	if g.in.chance(4) {
		start = 0
	}
	bad := false
	if g.in.chance(24) {
		step, bad = 0, true
	}
	arg := k
	if g.in.chance(3) {
		arg -= r
	}
	lo, n := pySlice(a.shape[k], start, stop, step)
	s := a.shape.Clone()
	s[k] = n
	in := a.shape
	return g.shapeNode(opsOf(a.dt).slice(a.n, arg, start, stop, step), a, s, bad, fmt.Sprintf("slice(%d, %d, %d, %d)", arg, start, stop, step), func() []int {
		st := rowStrides(in)
		m := make([]int, numelOf(s))
		forEachIndex(s, func(f int, idx []int) {
			j := 0
			for q, x := range idx {
				if q == k {
					x = lo + x*step
				}
				j += x * st[q]
			}
			m[f] = j
		})
		return m
	})
}

func (g *graphGen) embed(a *gnode) *gnode {
	r := len(a.shape)
	if r == 0 {
		return g.expand(a)
	}
	k := g.in.intn(r)
	e := a.shape[k]
	start, step := g.in.intn(4), 1+g.in.intn(3)
	size := g.in.intn(5)
	if e > 0 {
		size = start + (e-1)*step + 1 + g.in.intn(3)
	}
	if g.in.chance(16) {
		size -= 1 + g.in.intn(2)
	}
	bad := step < 1 || start < 0 || size < 0 || (e > 0 && start+(e-1)*step >= size)
	s := a.shape.Clone()
	s[k] = size
	in := a.shape
	return g.shapeNode(opsOf(a.dt).embed(a.n, k, start, step, size), a, s, bad, fmt.Sprintf("embed(%d, %d, %d, %d)", k, start, step, size), func() []int {
		st := rowStrides(in)
		m := make([]int, numelOf(s))
		forEachIndex(s, func(f int, idx []int) {
			j := 0
			for q, x := range idx {
				if q == k {
					if x < start || (x-start)%step != 0 || (x-start)/step >= e {
						j = -1 << 40
						break
					}
					x = (x - start) / step
				}
				j += x * st[q]
			}
			m[f] = max(j, -1)
		})
		return m
	})
}

func (g *graphGen) squeeze(a *gnode) *gnode {
	r := len(a.shape)
	ops := opsOf(a.dt)
	n := numelOf(a.shape)
	if r < 4 && (r == 0 || g.in.chance(2)) {
		ax := g.in.intn(2*r+2) - (r + 1)
		p := ax
		if p < 0 {
			p += r + 1
		}
		s := slices.Insert(a.shape.Clone(), p, 1)
		return g.shapeNode(ops.unsqueeze(a.n, ax), a, s, false, fmt.Sprintf("unsqueeze(%d)", ax), func() []int { return identityMap(n) })
	}
	var ones []int
	for i, d := range a.shape {
		if d == 1 {
			ones = append(ones, i)
		}
	}
	if len(ones) == 0 || g.in.chance(4) {
		var s tensor.Shape
		for _, d := range a.shape {
			if d != 1 {
				s = append(s, d)
			}
		}
		if s == nil {
			s = tensor.Shape{}
		}
		bad := false
		var axes []int
		if g.in.chance(8) && len(ones) < r {
			ax := g.in.intn(r)
			if a.shape[ax] != 1 {
				axes, bad = []int{ax}, true
			}
		}
		return g.shapeNode(ops.squeeze(a.n, axes), a, s, bad, fmt.Sprintf("squeeze%v", axes), func() []int { return identityMap(n) })
	}
	ax := ones[g.in.intn(len(ones))]
	s := slices.Delete(a.shape.Clone(), ax, ax+1)
	return g.shapeNode(ops.squeeze(a.n, []int{ax}), a, s, false, fmt.Sprintf("squeeze(%d)", ax), func() []int { return identityMap(n) })
}
