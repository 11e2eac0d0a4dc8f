package exec

import (
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Differentiable forms of Sort, TopK and KthValue. Each evaluates the
// indices now (ArgSort's, TopK's, KthValue's) and returns the values as a
// lazy gather of x at those indices (expr.TakeAlongAxis), so autograd
// differentiates them with the gather's rule: the gradient of x is the
// upstream gradient scattered (scatter_add) to the positions the values
// came from, zero elsewhere. The values are the same bits Sort, TopK and
// KthValue return. x is evaluated twice: once here for the indices, once
// where the returned expression is evaluated; the indices stay those of
// x's values now.
//
// Ties follow the stable order: among equal elements the earlier one (in
// input order) comes first, so it is the one a TopK that cuts between
// equal values keeps, and the one that gets the gradient; a sort's
// gradient is a permutation of the upstream gradient. At a tie the
// function has no derivative (a perturbation reorders the values), so
// this is one subgradient, the one that the stable order picks.

// SortValues is Sort as a differentiable expression, with ArgSort's
// indices.
func SortValues[T Sortable](x expr.Expr[T], axis int, opts ...SortOption) (expr.Expr[T], *tensor.Tensor[int64], error) {
	idx, err := ArgSort(x, axis, opts...)
	if err != nil {
		return expr.Expr[T]{}, nil, err
	}
	return expr.TakeAlongAxis(x, expr.Of(idx), axis), idx, nil
}

// TopKValues is TopK as a differentiable expression, with TopK's indices.
func TopKValues[T Sortable](x expr.Expr[T], k, axis int, opts ...SortOption) (expr.Expr[T], *tensor.Tensor[int64], error) {
	_, idx, err := TopK(x, k, axis, opts...)
	if err != nil {
		return expr.Expr[T]{}, nil, err
	}
	return expr.TakeAlongAxis(x, expr.Of(idx), axis), idx, nil
}

// KthValueValues is KthValue as a differentiable expression, with
// KthValue's indices (the axis removed, or kept with KeepDims).
func KthValueValues[T Sortable](x expr.Expr[T], k, axis int, opts ...SortOption) (expr.Expr[T], *tensor.Tensor[int64], error) {
	_, idx, err := KthValue(x, k, axis, append(opts, KeepDims())...)
	if err != nil {
		return expr.Expr[T]{}, nil, err
	}
	vals := expr.TakeAlongAxis(x, expr.Of(idx), axis)
	if sortOptions(opts).keepDims {
		return vals, idx, nil
	}
	ax, _ := tensor.Axis(axis, len(idx.Shape())) // checked by KthValue
	shape := append(idx.Shape()[:ax:ax], idx.Shape()[ax+1:]...)
	if idx, err = idx.Reshape(shape...); err != nil {
		return expr.Expr[T]{}, nil, err
	}
	return vals.Reshape(shape...), idx, nil
}
