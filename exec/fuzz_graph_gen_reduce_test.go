package exec_test

import (
	"fmt"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// FuzzGraph's generator of reductions, SumTo and matmul: the nodes whose
// float bits depend on the library's order.

// axes picks reduction axes for a rank-r operand: none (every axis), a
// subset in any order and sign, and rarely a bad one.
func (g *graphGen) axes(r int) (axes []int, red []bool, ok bool) {
	red = make([]bool, r)
	ok = true
	if r == 0 || g.in.chance(4) {
		for i := range red {
			red[i] = true
		}
		return nil, red, true
	}
	p := g.perm(r)
	for _, ax := range p[:1+g.in.intn(r)] {
		red[ax] = true
		if g.in.chance(3) {
			ax -= r
		}
		axes = append(axes, ax)
	}
	if g.in.chance(16) {
		if g.in.chance(2) {
			axes = append(axes, axes[0]) // repeated
		} else {
			axes = append(axes, r+g.in.intn(2)) // out of range
		}
		ok = false
	}
	return axes, red, ok
}

func (g *graphGen) reduceOp(a *gnode) *gnode {
	ops := opsOf(a.dt)
	var op string
	switch {
	case a.dt == dtype.Bool:
		op = []string{"any", "all"}[g.in.intn(2)]
	case a.dt.IsFloat():
		op = []string{"sum", "prod", "max", "min", "mean", "sum", "mean"}[g.in.intn(7)]
	default:
		op = []string{"sum", "prod", "max", "min"}[g.in.intn(4)]
	}
	axes, red, ok := g.axes(len(a.shape))
	keep := op != "any" && op != "all" && g.in.chance(2)
	shape, groups := reduceGroups(a.shape, red, keep)
	if op == "max" || op == "min" {
		for i, d := range a.shape {
			if red[i] && d == 0 {
				ok = false
			}
		}
	}
	dt := a.dt
	nd := &gnode{n: ops.reduce(op, a.n, axes, keep), dt: dt, shape: shape, args: []*gnode{a}, bad: !ok || a.bad,
		desc: fmt.Sprintf("%s(axes %v, keepdims %v)", op, axes, keep)}
	nd.inexact = dt.IsFloat()
	nd.redux = dt.IsFloat() && op != "max" && op != "min"
	nd.eval = func(v []rval) (any, *approx) {
		switch d := v[0].data.(type) {
		case []float64, []float32:
			return refFloatReduce(op, dt, d, groups)
		case []int64:
			return refIntReduce(op, d, groups), nil
		case []int32:
			return refIntReduce(op, d, groups), nil
		case []uint8:
			return refIntReduce(op, d, groups), nil
		case []bool:
			return refBoolReduce(op, d, groups), nil
		}
		panic("reduce")
	}
	return g.add(nd)
}

func (g *graphGen) argReduce(a *gnode) *gnode {
	if a.dt == dtype.Bool || len(a.shape) == 0 {
		return g.reduceOp(a)
	}
	op := []string{"argmax", "argmin"}[g.in.intn(2)]
	r := len(a.shape)
	ax := g.in.intn(r)
	red := make([]bool, r)
	red[ax] = true
	arg := ax
	if g.in.chance(2) {
		arg -= r
	}
	shape, groups := reduceGroups(a.shape, red, false)
	nd := &gnode{n: opsOf(a.dt).argReduce(op, a.n, arg), dt: dtype.Int64, shape: shape, args: []*gnode{a}, bad: a.bad || a.shape[ax] == 0,
		desc: fmt.Sprintf("%s(%d)", op, arg)}
	dt := a.dt
	nd.eval = func(v []rval) (any, *approx) {
		switch d := v[0].data.(type) {
		case []float64, []float32:
			return refFloatReduce(op, dt, d, groups)
		case []int64:
			return refIntReduce(op, d, groups), nil
		case []int32:
			return refIntReduce(op, d, groups), nil
		case []uint8:
			return refIntReduce(op, d, groups), nil
		}
		panic("argreduce")
	}
	return g.add(nd)
}

func (g *graphGen) sumTo(a *gnode) *gnode {
	if a.dt == dtype.Bool {
		return g.reduceOp(a)
	}
	target := g.operandShape(a.shape)
	_, ok := refBroadcast(target, a.shape)
	if ok {
		if b, _ := refBroadcast(target, a.shape); !slices.Equal(b, a.shape) {
			ok = false
		}
	}
	red := make([]bool, len(a.shape))
	pad := len(a.shape) - len(target)
	some := false
	for i, d := range a.shape {
		if i < pad || (ok && target[i-pad] == 1 && d != 1) {
			red[i], some = true, true
		}
	}
	_, groups := reduceGroups(a.shape, red, true)
	dt := a.dt
	nd := &gnode{n: opsOf(a.dt).sumTo(a.n, target), dt: dt, shape: target, args: []*gnode{a}, bad: !ok || a.bad, desc: fmt.Sprintf("sum_to_size%v", target)}
	nd.inexact = some && dt.IsFloat()
	nd.redux = nd.inexact
	nd.eval = func(v []rval) (any, *approx) {
		if !some {
			return v[0].data, nil // a reshape
		}
		switch d := v[0].data.(type) {
		case []float64, []float32:
			return refFloatReduce("sum", dt, d, groups)
		case []int64:
			return refIntReduce("sum", d, groups), nil
		case []int32:
			return refIntReduce("sum", d, groups), nil
		case []uint8:
			return refIntReduce("sum", d, groups), nil
		}
		panic("sumTo")
	}
	return g.add(nd)
}

func (g *graphGen) matmul(a *gnode) *gnode {
	if a.dt == dtype.Bool {
		return g.reduceOp(a)
	}
	var b *gnode
	if g.in.chance(4) || len(a.shape) == 0 {
		b = g.partner(a)
	} else {
		k := a.shape[len(a.shape)-1]
		var s tensor.Shape
		switch g.in.intn(4) {
		case 0:
			s = tensor.Shape{k}
		case 1, 2:
			s = tensor.Shape{k, g.extent()}
		default:
			s = tensor.Shape{g.extent(), k, g.extent()}
		}
		b = g.leaf(a.dt, s)
	}
	if g.in.chance(3) {
		a, b = b, a
	}
	out, am, bm, ok := refMatMulShape(a.shape, b.shape)
	dt := a.dt
	nd := &gnode{n: opsOf(dt).matmul(a.n, b.n), dt: dt, shape: out, args: []*gnode{a, b}, bad: !ok || a.bad || b.bad, desc: "matmul"}
	nd.inexact = dt.IsFloat()
	nd.redux = nd.inexact
	nd.eval = func(v []rval) (any, *approx) {
		_, ai, bi := matmulTerms(am, bm)
		switch x := v[0].data.(type) {
		case []float64, []float32:
			return refFloatMatMul(dt, x, v[1].data, ai, bi)
		case []int64:
			return refIntMatMul(x, v[1].data.([]int64), ai, bi), nil
		case []int32:
			return refIntMatMul(x, v[1].data.([]int32), ai, bi), nil
		case []uint8:
			return refIntMatMul(x, v[1].data.([]uint8), ai, bi), nil
		}
		panic("matmul")
	}
	return g.add(nd)
}
