package linalg

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// The lazy forms of the factorizations: expressions that evaluate with the
// rest of a graph (an expr.External node each) and that autograd
// differentiates. Their shapes are checked when they are built; a singular
// or non-positive-definite matrix is the evaluation's error, as for the
// eager forms, which compute the values.

// SolveExpr is Solve as an expression: x with a·x = b, differentiable in a
// and b (gb = solve(aᵀ, g), ga = −gb·xᵀ, summed over broadcast batch axes).
func SolveExpr[T Float](a, b expr.Expr[T]) expr.Expr[T] {
	e := &expr.External{Name: "solve", Eval: evalWith2(func(a, b expr.Expr[T]) (*tensor.Tensor[T], error) { return Solve(a, b) })}
	e.VJP = solveVJP[T]
	shape, err := solveShape(a, b)
	if err != nil {
		return expr.Wrap[T](expr.Fail(e, err, a, b))
	}
	return expr.Wrap[T](expr.Apply(e, dtype.Of[T](), shape, a, b))
}

// InvExpr is Inv as an expression, differentiable (ga = −yᵀ·g·yᵀ for
// y = inv(a)).
func InvExpr[T Float](a expr.Expr[T]) expr.Expr[T] {
	e := &expr.External{Name: "inv", Eval: evalWith1(func(a expr.Expr[T]) (*tensor.Tensor[T], error) { return Inv(a) })}
	e.VJP = invVJP[T]
	return apply1(e, a, "linalg.InvExpr", a.Shape())
}

// DetExpr is Det as an expression, of shape [...] for a [..., n, n],
// differentiable where a is invertible (ga = g·det(a)·inv(a)ᵀ; at a singular
// matrix the gradient's evaluation is a *SingularError).
func DetExpr[T Float](a expr.Expr[T]) expr.Expr[T] {
	e := &expr.External{Name: "det", Eval: evalWith1(func(a expr.Expr[T]) (*tensor.Tensor[T], error) { return Det(a) })}
	e.VJP = detVJP[T]
	return apply1(e, a, "linalg.DetExpr", batchOf(a.Shape()))
}

// SlogdetExpr is Slogdet as two expressions, the sign and log|det|, each of
// shape [...]. The log's gradient is g·inv(a)ᵀ; the sign has none (it is
// piecewise constant: its gradient is zero).
func SlogdetExpr[T Float](a expr.Expr[T]) (sign, logAbsDet expr.Expr[T]) {
	es := &expr.External{Name: "slogdet", Key: "sign", Eval: evalWith1(func(a expr.Expr[T]) (*tensor.Tensor[T], error) {
		s, _, err := Slogdet(a)
		return s, err
	})}
	es.VJP = func(n, g *expr.Node) []*expr.Node { return []*expr.Node{zerosLike[T](n.Args()[0])} }
	el := &expr.External{Name: "slogdet", Key: "logabsdet", Eval: evalWith1(func(a expr.Expr[T]) (*tensor.Tensor[T], error) {
		_, l, err := Slogdet(a)
		return l, err
	})}
	el.VJP = logdetVJP[T]
	shape := batchOf(a.Shape())
	return apply1(es, a, "linalg.SlogdetExpr", shape), apply1(el, a, "linalg.SlogdetExpr", shape)
}

// CholeskyExpr is Cholesky as an expression, differentiable: for L =
// cholesky(a), S = L⁻ᵀ·Φ(Lᵀ·g)·L⁻¹ and ga = (S + Sᵀ)/2, where Φ keeps the
// lower triangle and halves the diagonal (PyTorch's rule).
func CholeskyExpr[T Float](a expr.Expr[T]) expr.Expr[T] {
	e := &expr.External{Name: "cholesky", Eval: evalWith1(func(a expr.Expr[T]) (*tensor.Tensor[T], error) { return Cholesky(a) })}
	e.VJP = choleskyVJP[T]
	return apply1(e, a, "linalg.CholeskyExpr", a.Shape())
}

// apply1 builds the external node of a function of one stack of square
// matrices, whose result has the given shape.
func apply1[T Float](e *expr.External, a expr.Expr[T], op string, shape tensor.Shape) expr.Expr[T] {
	if err := a.Err(); err != nil {
		return a
	}
	if err := squareShape(op, a.Shape()); err != nil {
		return expr.Wrap[T](expr.Fail(e, err, a))
	}
	return expr.Wrap[T](expr.Apply(e, dtype.Of[T](), shape, a))
}

func evalWith1[T Float](f func(a expr.Expr[T]) (*tensor.Tensor[T], error)) func([]tensor.Any) (tensor.Any, error) {
	return func(args []tensor.Any) (tensor.Any, error) {
		return asAny(f(expr.Of(args[0].(*tensor.Tensor[T]))))
	}
}

func evalWith2[T Float](f func(a, b expr.Expr[T]) (*tensor.Tensor[T], error)) func([]tensor.Any) (tensor.Any, error) {
	return func(args []tensor.Any) (tensor.Any, error) {
		return asAny(f(expr.Of(args[0].(*tensor.Tensor[T])), expr.Of(args[1].(*tensor.Tensor[T]))))
	}
}

// asAny keeps a failed call's nil result a nil interface.
func asAny[T Float](t *tensor.Tensor[T], err error) (tensor.Any, error) {
	if err != nil {
		return nil, err
	}
	return t, nil
}

// squareShape checks that shape is a stack of square matrices.
func squareShape(op string, shape tensor.Shape) error {
	r := len(shape)
	if r < 2 {
		return &tensor.ShapeError{Shape: shape, Axis: -1, Reason: fmt.Sprintf("%s needs at least 2 dimensions", op)}
	}
	if shape[r-1] != shape[r-2] {
		return &tensor.ShapeError{Shape: shape, Axis: r - 1,
			Reason: fmt.Sprintf("%s needs square matrices, got %d×%d", op, shape[r-2], shape[r-1])}
	}
	return nil
}

// solveShape is the shape of solve(a, b), with the checks of Solve.
func solveShape[T Float](a, b expr.Expr[T]) (tensor.Shape, error) {
	const op = "linalg.SolveExpr"
	if err := a.Err(); err != nil {
		return nil, err
	}
	if err := b.Err(); err != nil {
		return nil, err
	}
	as, bs := a.Shape(), b.Shape()
	if err := squareShape(op, as); err != nil {
		return nil, err
	}
	n := as[len(as)-1]
	vec := len(bs) == len(as)-1
	minRank, axis := 2, len(bs)-2
	if vec {
		minRank, axis = 1, len(bs)-1
	}
	if len(bs) < minRank {
		return nil, &tensor.ShapeError{Shape: bs, Axis: -1, Reason: fmt.Sprintf("%s needs b of at least %d dimensions", op, minRank)}
	}
	if bs[axis] != n {
		return nil, &tensor.ShapeError{Shape: bs, Axis: axis, Reason: fmt.Sprintf("%s: b has %d rows, a (shape %v) has %d", op, bs[axis], as, n)}
	}
	batch, err := tensor.BroadcastShapes(batchOf(as), bs[:axis])
	if err != nil {
		return nil, &tensor.ShapeError{Shape: bs, Axis: -1,
			Reason: fmt.Sprintf("%s: the batch dimensions of a %v and b %v do not broadcast: %v", op, as, bs, err)}
	}
	return append(batch, bs[axis:]...), nil
}

// batchOf is the batch shape of a stack of matrices.
func batchOf(shape tensor.Shape) tensor.Shape {
	if len(shape) < 2 {
		return nil
	}
	return shape[:len(shape)-2].Clone()
}
