package exec_test

import (
	"fmt"
	"math"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// FuzzGraph's generator of elementwise nodes: unary, binary, scalar and
// comparison ops, Where and casts.

// elementwise adds an elementwise node over args with the given result
// dtype; f computes the result from the broadcast index maps.
func (g *graphGen) elementwise(n *expr.Node, dt dtype.DType, desc string, args []*gnode, f func(vals []rval, maps [][]int) (any, *approx)) *gnode {
	nd := &gnode{n: n, dt: dt, args: args, desc: desc}
	shapes := make([]tensor.Shape, len(args))
	for i, a := range args {
		shapes[i] = a.shape
	}
	s, ok := refBroadcast(shapes...)
	nd.shape, nd.bad = s, !ok || anyBad(args...)
	nd.eval = func(vals []rval) (any, *approx) {
		maps := make([][]int, len(vals))
		for i, v := range vals {
			maps[i] = bcastMap(nd.shape, v.shape)
		}
		return f(vals, maps)
	}
	return g.add(nd)
}

var (
	floatUnaries = []string{"neg", "abs", "square", "sqrt", "exp", "log", "log1p", "expm1", "sin", "cos", "tanh", "sigmoid", "floor", "ceil", "round", "relu", "sign"}
	intUnaries   = []string{"neg", "abs", "square", "relu", "sign", "floor", "ceil", "round"}
	floatBins    = []string{"add", "sub", "mul", "div", "div_trunc", "div_floor", "pow", "maximum", "minimum"}
	intBins      = []string{"add", "sub", "mul", "div_trunc", "div_floor", "maximum", "minimum"}
	compares     = []string{"eq", "ne", "lt", "le", "gt", "ge"}
)

// vmathULP holds, for the float unaries the executor computes with
// internal/vmath's kernels, their documented error bounds in ulp
// (internal/vmath/doc.go), float64 and float32, and the float64
// reference's own error: 1 ulp for a math package function, 2 for
// sigmoid's 1/(1+exp(-x)); a float32 reference is computed in float64, far
// below a float32 ulp. Those ops are checked within the sum; every other
// float unary is one IEEE op or math function (expm1 and log1p's kernels
// are loops over the math package), compared bit for bit.
var vmathULP = map[string]struct{ f64, f32, ref float64 }{
	"exp": {1, 1, 1}, "log": {1, 1, 1}, "sin": {1, 1, 1}, "cos": {1, 1, 1},
	"tanh": {2, 1.5, 1}, "sigmoid": {2, 2.5, 2},
}

func (g *graphGen) unary(a *gnode) *gnode {
	ops := opsOf(a.dt)
	if a.dt == dtype.Bool {
		return g.elementwise(ops.unary("not", a.n), a.dt, "not", []*gnode{a}, func(v []rval, _ [][]int) (any, *approx) {
			return ewise1(v[0].data.([]bool), func(x bool) bool { return !x }), nil
		})
	}
	if !a.dt.IsFloat() {
		op := intUnaries[g.in.intn(len(intUnaries))]
		return g.elementwise(ops.unary(op, a.n), a.dt, op, []*gnode{a}, func(v []rval, _ [][]int) (any, *approx) {
			switch d := v[0].data.(type) {
			case []int64:
				return refIntUnary(op, d), nil
			case []int32:
				return refIntUnary(op, d), nil
			case []uint8:
				return refIntUnary(op, d), nil
			}
			panic("unary")
		})
	}
	op := floatUnaries[g.in.intn(len(floatUnaries))]
	dt := a.dt
	bound, kernel := vmathULP[op]
	nd := g.elementwise(ops.unary(op, a.n), dt, op, []*gnode{a}, func(v []rval, _ [][]int) (any, *approx) {
		if kernel {
			want := refFloatUnary(op, toF64(v[0].data))
			k := bound.f64 + bound.ref
			if dt == dtype.Float32 {
				k = bound.f32
			}
			return fromF64(dt, want), ulpApprox(dt, want, k)
		}
		switch d := v[0].data.(type) {
		case []float64:
			return refFloatUnary(op, d), nil
		case []float32:
			return refFloatUnary(op, d), nil
		}
		panic("unary")
	})
	nd.inexact = kernel
	return nd
}

func binaryRef(op string) func(v []rval, m [][]int) (any, *approx) {
	return func(v []rval, m [][]int) (any, *approx) {
		switch a := v[0].data.(type) {
		case []float64:
			return refFloatBinary(op, a, m[0], v[1].data.([]float64), m[1]), nil
		case []float32:
			return refFloatBinary(op, a, m[0], v[1].data.([]float32), m[1]), nil
		case []int64:
			return refIntBinary(op, a, m[0], v[1].data.([]int64), m[1]), nil
		case []int32:
			return refIntBinary(op, a, m[0], v[1].data.([]int32), m[1]), nil
		case []uint8:
			return refIntBinary(op, a, m[0], v[1].data.([]uint8), m[1]), nil
		case []bool:
			return refBoolBinary(op, a, m[0], v[1].data.([]bool), m[1]), nil
		}
		panic("binary")
	}
}

func compareRef(op string) func(v []rval, m [][]int) (any, *approx) {
	return func(v []rval, m [][]int) (any, *approx) {
		switch a := v[0].data.(type) {
		case []float64:
			return refCompare(op, a, m[0], v[1].data.([]float64), m[1]), nil
		case []float32:
			return refCompare(op, a, m[0], v[1].data.([]float32), m[1]), nil
		case []int64:
			return refCompare(op, a, m[0], v[1].data.([]int64), m[1]), nil
		case []int32:
			return refCompare(op, a, m[0], v[1].data.([]int32), m[1]), nil
		case []uint8:
			return refCompare(op, a, m[0], v[1].data.([]uint8), m[1]), nil
		case []bool:
			return refBoolBinary(op, a, m[0], v[1].data.([]bool), m[1]), nil
		}
		panic("compare")
	}
}

func (g *graphGen) binaryOf(op string, a, b *gnode) *gnode {
	return g.elementwise(opsOf(a.dt).binary(op, a.n, b.n), a.dt, op, []*gnode{a, b}, binaryRef(op))
}

func (g *graphGen) binary(a *gnode) *gnode {
	b := g.partner(a)
	if g.in.chance(2) {
		a, b = b, a
	}
	var op string
	switch {
	case a.dt == dtype.Bool:
		op = []string{"and", "or"}[g.in.intn(2)]
	case a.dt.IsFloat():
		op = floatBins[g.in.intn(len(floatBins))]
	default:
		op = intBins[g.in.intn(len(intBins))]
	}
	return g.binaryOf(op, a, b)
}

// scalarOp is a op s or s op a with a Scalar leaf; integer powers get a
// small non-negative exponent.
func (g *graphGen) scalarOp(a *gnode) *gnode {
	if a.dt == dtype.Bool {
		return g.binary(a)
	}
	ops := opsOf(a.dt)
	v := float64(g.in.intn(9) - 3)
	if a.dt == dtype.Uint8 {
		v = math.Abs(v)
	}
	if a.dt.IsFloat() {
		v = []float64{0.5, -1, 2, 3, 0, -0.5, 1.5, 10}[g.in.intn(8)]
	}
	op := intBins[g.in.intn(len(intBins))]
	if g.in.chance(3) {
		op = "pow"
		if !a.dt.IsFloat() {
			v = float64(g.in.intn(5))
		}
	} else if a.dt.IsFloat() && g.in.chance(3) {
		op = "div"
	}
	s := g.add(&gnode{n: ops.scalarNode(ops.scalarValue(v)), dt: a.dt, shape: tensor.Shape{}, scalar: ops.scalarValue(v), desc: fmt.Sprintf("scalar %v", v)})
	if op != "pow" && g.in.chance(3) {
		return g.binaryOf(op, s, a)
	}
	return g.binaryOf(op, a, s)
}

func (g *graphGen) compare(a *gnode) *gnode {
	b := g.partner(a)
	op := compares[g.in.intn(len(compares))]
	if a.dt == dtype.Bool {
		op = []string{"eq", "ne"}[g.in.intn(2)]
	}
	return g.elementwise(opsOf(a.dt).compare(op, a.n, b.n), dtype.Bool, op, []*gnode{a, b}, compareRef(op))
}

func (g *graphGen) where(a *gnode) *gnode {
	var c *gnode
	for _, n := range slices.Backward(g.nodes) {
		if n.dt == dtype.Bool && !g.in.chance(3) {
			c = n
			break
		}
	}
	b := g.partner(a)
	if c == nil {
		c = g.compare(a)
	}
	return g.elementwise(opsOf(a.dt).where(c.n, a.n, b.n), a.dt, "where", []*gnode{c, a, b}, func(v []rval, m [][]int) (any, *approx) {
		return refWhere(v[0].data.([]bool), m[0], v[1].data, m[1], v[2].data, m[2]), nil
	})
}

// castNode casts a to another dtype; floats going to an integer type are
// first kept in its range (NaN and out-of-range values become 0), since
// the docs leave those conversions open.
func (g *graphGen) cast(a *gnode) *gnode {
	all := append(slices.Clone(fuzzDTypes), dtype.Bool)
	to := all[g.in.intn(len(all))]
	if to == a.dt {
		to = dtype.Bool
		if a.dt == dtype.Bool {
			to = g.main
		}
	}
	if a.dt.IsFloat() && (to.IsInteger()) {
		lo, hi := -2e9, 2e9
		switch to {
		case dtype.Uint8:
			lo, hi = 0, 255
		case dtype.Int64:
			lo, hi = -9e18, 9e18
		}
		ops := opsOf(a.dt)
		mk := func(v float64) *gnode {
			return g.add(&gnode{n: ops.scalarNode(ops.scalarValue(v)), dt: a.dt, shape: tensor.Shape{}, scalar: ops.scalarValue(v), desc: fmt.Sprintf("scalar %v", v)})
		}
		loN, hiN := mk(lo), mk(hi)
		ge := g.elementwise(ops.compare("ge", a.n, loN.n), dtype.Bool, "ge", []*gnode{a, loN}, compareRef("ge"))
		le := g.elementwise(ops.compare("le", a.n, hiN.n), dtype.Bool, "le", []*gnode{a, hiN}, compareRef("le"))
		in := g.elementwise(opsOf(dtype.Bool).binary("and", ge.n, le.n), dtype.Bool, "and", []*gnode{ge, le}, binaryRef("and"))
		zero := mk(0)
		a = g.elementwise(ops.where(in.n, a.n, zero.n), a.dt, "where", []*gnode{in, a, zero}, func(v []rval, m [][]int) (any, *approx) {
			return refWhere(v[0].data.([]bool), m[0], v[1].data, m[1], v[2].data, m[2]), nil
		})
	}
	return g.elementwise(opsOf(a.dt).cast(to, a.n), to, "cast to "+to.String(), []*gnode{a}, func(v []rval, _ [][]int) (any, *approx) {
		return refCastValues(v[0].data, to), nil
	})
}
