package exec_test

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// FuzzGraph's typed operations: the generator works on *expr.Node and
// tensor.Any, and fop[T] wraps the typed API of expr, tensor and exec
// for one element type.

func opsOf(dt dtype.DType) fops {
	switch dt {
	case dtype.Float64:
		return fop[float64]{}
	case dtype.Float32:
		return fop[float32]{}
	case dtype.Int64:
		return fop[int64]{}
	case dtype.Int32:
		return fop[int32]{}
	case dtype.Uint8:
		return fop[uint8]{}
	case dtype.Bool:
		return fop[bool]{}
	}
	panic(dt.String())
}

// fops are the typed operations of the generator for one element type.
type fops interface {
	newBase(n int, r *rand.Rand, special bool) *fuzzBase
	randomScalar(r *rand.Rand, special bool) any
	scalarValue(v float64) any
	scalarNode(v any) *expr.Node
	of(t tensor.Any) *expr.Node
	clone(data any) any
	restore(data, from any)
	gather(data any, off int, shape tensor.Shape, strides []int) any
	read(t tensor.Any) any

	tslice(t tensor.Any, axis, start, stop, step int) (tensor.Any, error)
	tpermute(t tensor.Any, p []int) (tensor.Any, error)
	texpand(t tensor.Any, s []int) (tensor.Any, error)
	tindex(t tensor.Any, axis, i int) (tensor.Any, error)
	tunsqueeze(t tensor.Any, axis int) (tensor.Any, error)
	treshape(t tensor.Any, s []int) (tensor.Any, error)

	unary(op string, a *expr.Node) *expr.Node
	binary(op string, a, b *expr.Node) *expr.Node
	compare(op string, a, b *expr.Node) *expr.Node
	where(c, a, b *expr.Node) *expr.Node
	reduce(op string, a *expr.Node, axes []int, keep bool) *expr.Node
	argReduce(op string, a *expr.Node, axis int) *expr.Node
	sumTo(a *expr.Node, s []int) *expr.Node
	reshape(a *expr.Node, s []int) *expr.Node
	permute(a *expr.Node, p []int) *expr.Node
	transpose(a *expr.Node, i, j int) *expr.Node
	expand(a *expr.Node, s []int) *expr.Node
	slice(a *expr.Node, axis, start, stop, step int) *expr.Node
	embed(a *expr.Node, axis, start, step, size int) *expr.Node
	squeeze(a *expr.Node, axes []int) *expr.Node
	unsqueeze(a *expr.Node, axis int) *expr.Node
	matmul(a, b *expr.Node) *expr.Node
	cast(to dtype.DType, a *expr.Node) *expr.Node

	evalWith(x *exec.Executor, n *expr.Node) (tensor.Any, error)
	evalTo(x *exec.Executor, dst tensor.Any, n *expr.Node) error
}

type fop[T dtype.Elem] struct{}

func (fop[T]) w(n *expr.Node) expr.Expr[T] { return expr.Wrap[T](n) }

// fuzzValue draws one element: small integers (so that sums are exact and
// products wrap only when chained), halves and normals for floats, and
// with special the extremes, ±0, ±Inf and NaN.
func fuzzValue[T dtype.Elem](r *rand.Rand, special bool) T {
	var z T
	var v any
	p := r.IntN(20)
	switch any(z).(type) {
	case bool:
		v = r.IntN(2) == 1
	case float64, float32:
		specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0, 0.5, -0.5, 1e30, -1e-30}
		var f float64
		switch {
		case special && p < 2:
			f = specials[r.IntN(len(specials))]
		case p < 10:
			f = float64(r.IntN(21)-10) / 2
		default:
			f = r.NormFloat64() * []float64{0.01, 1, 10, 100}[r.IntN(4)]
		}
		if _, ok := any(z).(float32); ok {
			v = float32(f)
		} else {
			v = f
		}
	case int64:
		x := int64(r.IntN(9) - 4)
		if special && p == 0 {
			x = []int64{math.MinInt64, math.MaxInt64, math.MinInt64 + 1, 1 << 40}[r.IntN(4)]
		}
		v = x
	case int32:
		x := int32(r.IntN(9) - 4)
		if special && p == 0 {
			x = []int32{math.MinInt32, math.MaxInt32, math.MinInt32 + 1, 1 << 20}[r.IntN(4)]
		}
		v = x
	case uint8:
		x := uint8(r.IntN(10))
		if special && p == 0 {
			x = []uint8{255, 128, 127}[r.IntN(3)]
		}
		v = x
	}
	return v.(T)
}

func (fop[T]) newBase(n int, r *rand.Rand, special bool) *fuzzBase {
	d := make([]T, n)
	for i := range d {
		d[i] = fuzzValue[T](r, special)
	}
	t := tensor.Must(tensor.FromSlice(d, n))
	return &fuzzBase{dt: dtype.Of[T](), data: d, t: t}
}

func (fop[T]) randomScalar(r *rand.Rand, special bool) any {
	return []T{fuzzValue[T](r, special)}
}

func (fop[T]) scalarValue(v float64) any {
	var z T
	var x any
	switch any(z).(type) {
	case bool:
		x = v != 0
	case float64:
		x = v
	case float32:
		x = float32(v)
	case int64:
		x = int64(v)
	case int32:
		x = int32(v)
	case uint8:
		x = uint8(v)
	}
	return []T{x.(T)}
}

func (fop[T]) scalarNode(v any) *expr.Node { return expr.Scalar(v.([]T)[0]).Node() }
func (fop[T]) of(t tensor.Any) *expr.Node  { return expr.Of(t.(*tensor.Tensor[T])).Node() }
func (fop[T]) clone(data any) any          { return slices.Clone(data.([]T)) }
func (fop[T]) restore(data, from any)      { copy(data.([]T), from.([]T)) }
func (fop[T]) gather(data any, off int, shape tensor.Shape, strides []int) any {
	return gatherView(data.([]T), off, shape, strides)
}

func (fop[T]) read(t tensor.Any) any {
	x := t.(*tensor.Tensor[T])
	return gatherView(x.Data(), x.Offset(), x.Shape(), x.Strides())
}

func tany[T dtype.Elem](t *tensor.Tensor[T], err error) (tensor.Any, error) {
	if err != nil {
		return nil, err
	}
	return t, nil
}

func (fop[T]) tslice(t tensor.Any, axis, start, stop, step int) (tensor.Any, error) {
	return tany(t.(*tensor.Tensor[T]).Slice(axis, start, stop, step))
}
func (fop[T]) tpermute(t tensor.Any, p []int) (tensor.Any, error) {
	return tany(t.(*tensor.Tensor[T]).Permute(p...))
}
func (fop[T]) texpand(t tensor.Any, s []int) (tensor.Any, error) {
	return tany(t.(*tensor.Tensor[T]).Expand(s...))
}
func (fop[T]) tindex(t tensor.Any, axis, i int) (tensor.Any, error) {
	return tany(t.(*tensor.Tensor[T]).Index(axis, i))
}
func (fop[T]) tunsqueeze(t tensor.Any, axis int) (tensor.Any, error) {
	return tany(t.(*tensor.Tensor[T]).Unsqueeze(axis))
}
func (fop[T]) treshape(t tensor.Any, s []int) (tensor.Any, error) {
	return tany(t.(*tensor.Tensor[T]).Reshape(s...))
}

func (o fop[T]) unary(op string, a *expr.Node) *expr.Node {
	x := o.w(a)
	var e expr.Expr[T]
	switch op {
	case "neg":
		e = x.Neg()
	case "abs":
		e = x.Abs()
	case "square":
		e = x.Square()
	case "sqrt":
		e = x.Sqrt()
	case "exp":
		e = x.Exp()
	case "log":
		e = x.Log()
	case "log1p":
		e = x.Log1p()
	case "expm1":
		e = x.Expm1()
	case "sin":
		e = x.Sin()
	case "cos":
		e = x.Cos()
	case "tanh":
		e = x.Tanh()
	case "sigmoid":
		e = x.Sigmoid()
	case "floor":
		e = x.Floor()
	case "ceil":
		e = x.Ceil()
	case "round":
		e = x.Round()
	case "relu":
		e = x.Relu()
	case "sign":
		e = x.Sign()
	case "not":
		e = x.Not()
	default:
		panic(op)
	}
	return e.Node()
}

func (o fop[T]) binary(op string, a, b *expr.Node) *expr.Node {
	x, y := o.w(a), o.w(b)
	var e expr.Expr[T]
	switch op {
	case "add":
		e = x.Add(y)
	case "sub":
		e = x.Sub(y)
	case "mul":
		e = x.Mul(y)
	case "div":
		e = x.Div(y)
	case "div_trunc":
		e = x.DivTrunc(y)
	case "div_floor":
		e = x.DivFloor(y)
	case "pow":
		e = x.Pow(y)
	case "maximum":
		e = x.Maximum(y)
	case "minimum":
		e = x.Minimum(y)
	case "and":
		e = x.And(y)
	case "or":
		e = x.Or(y)
	default:
		panic(op)
	}
	return e.Node()
}

func (o fop[T]) compare(op string, a, b *expr.Node) *expr.Node {
	x, y := o.w(a), o.w(b)
	var e expr.Expr[bool]
	switch op {
	case "eq":
		e = x.Eq(y)
	case "ne":
		e = x.Ne(y)
	case "lt":
		e = x.Lt(y)
	case "le":
		e = x.Le(y)
	case "gt":
		e = x.Gt(y)
	case "ge":
		e = x.Ge(y)
	default:
		panic(op)
	}
	return e.Node()
}

func (o fop[T]) where(c, a, b *expr.Node) *expr.Node {
	return expr.Where(expr.Wrap[bool](c), o.w(a), o.w(b)).Node()
}

func (o fop[T]) reduce(op string, a *expr.Node, axes []int, keep bool) *expr.Node {
	x := o.w(a)
	var e expr.Expr[T]
	switch {
	case op == "sum" && keep:
		e = x.SumKeepDims(axes...)
	case op == "sum":
		e = x.Sum(axes...)
	case op == "prod" && keep:
		e = x.ProdKeepDims(axes...)
	case op == "prod":
		e = x.Prod(axes...)
	case op == "mean" && keep:
		e = x.MeanKeepDims(axes...)
	case op == "mean":
		e = x.Mean(axes...)
	case op == "max" && keep:
		e = x.MaxKeepDims(axes...)
	case op == "max":
		e = x.Max(axes...)
	case op == "min" && keep:
		e = x.MinKeepDims(axes...)
	case op == "min":
		e = x.Min(axes...)
	case op == "any":
		e = x.Any(axes...)
	case op == "all":
		e = x.All(axes...)
	default:
		panic(op)
	}
	return e.Node()
}

func (o fop[T]) argReduce(op string, a *expr.Node, axis int) *expr.Node {
	if op == "argmax" {
		return o.w(a).ArgMax(axis).Node()
	}
	return o.w(a).ArgMin(axis).Node()
}

func (o fop[T]) sumTo(a *expr.Node, s []int) *expr.Node { return o.w(a).SumTo(s...).Node() }
func (o fop[T]) reshape(a *expr.Node, s []int) *expr.Node {
	return o.w(a).Reshape(s...).Node()
}
func (o fop[T]) permute(a *expr.Node, p []int) *expr.Node { return o.w(a).Permute(p...).Node() }
func (o fop[T]) transpose(a *expr.Node, i, j int) *expr.Node {
	if i < 0 {
		return o.w(a).T().Node()
	}
	return o.w(a).Transpose(i, j).Node()
}
func (o fop[T]) expand(a *expr.Node, s []int) *expr.Node { return o.w(a).Expand(s...).Node() }
func (o fop[T]) slice(a *expr.Node, axis, start, stop, step int) *expr.Node {
	return o.w(a).Slice(axis, start, stop, step).Node()
}
func (o fop[T]) embed(a *expr.Node, axis, start, step, size int) *expr.Node {
	return o.w(a).Embed(axis, start, step, size).Node()
}
func (o fop[T]) squeeze(a *expr.Node, axes []int) *expr.Node {
	return o.w(a).Squeeze(axes...).Node()
}
func (o fop[T]) unsqueeze(a *expr.Node, axis int) *expr.Node {
	return o.w(a).Unsqueeze(axis).Node()
}
func (o fop[T]) matmul(a, b *expr.Node) *expr.Node { return o.w(a).MatMul(o.w(b)).Node() }

func (o fop[T]) cast(to dtype.DType, a *expr.Node) *expr.Node {
	x := o.w(a)
	switch to {
	case dtype.Float64:
		return expr.Cast[float64](x).Node()
	case dtype.Float32:
		return expr.Cast[float32](x).Node()
	case dtype.Int64:
		return expr.Cast[int64](x).Node()
	case dtype.Int32:
		return expr.Cast[int32](x).Node()
	case dtype.Uint8:
		return expr.Cast[uint8](x).Node()
	case dtype.Bool:
		return expr.Cast[bool](x).Node()
	}
	panic(to.String())
}

func (o fop[T]) evalWith(x *exec.Executor, n *expr.Node) (tensor.Any, error) {
	return tany(exec.EvalWith(x, o.w(n)))
}

func (o fop[T]) evalTo(x *exec.Executor, dst tensor.Any, n *expr.Node) error {
	return exec.EvalToWith(x, dst.(*tensor.Tensor[T]), o.w(n))
}
