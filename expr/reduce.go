package expr

import (
	"fmt"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Reductions. Axes may be negative; no axes means every axis. The plain
// forms drop the reduced axes, the KeepDims forms keep them with extent 1.

func reduce(op Op, a *Node, axes []int, keepDim bool) *Node {
	n, ok := newNode(op, a)
	if !ok {
		return n
	}
	if err := checkAccepts(op, a.dt); err != nil {
		if de, ok := err.(*DTypeError); ok && op == OpMean && a.dt.IsInteger() {
			de.Hint = "use expr.MeanAs[float64] for NumPy's float64 mean of integers"
		}
		n.err = err
		return n
	}
	var few [8]bool // most ranks: no allocation
	red := few[:0]
	if len(a.shape) > len(few) {
		red = make([]bool, len(a.shape))
	}
	red = red[:len(a.shape)]
	if len(axes) == 0 {
		for i := range red {
			red[i] = true
		}
	}
	for _, ax := range axes {
		p, err := tensor.Axis(ax, len(a.shape))
		if err != nil {
			n.err = err
			return n
		}
		if red[p] {
			n.err = &ShapeOpError{Op: op.String(), Reason: fmt.Sprintf("dim %d appears multiple times in the list of dims", p)}
			return n
		}
		red[p] = true
	}
	// The shape and the axis list share one allocation.
	nred := 0
	for _, r := range red {
		if r {
			nred++
		}
	}
	rank := len(a.shape) - nred
	if keepDim {
		rank = len(a.shape)
	}
	buf := make([]int, rank+nred)
	shape, list := tensor.Shape(buf[:0:rank]), buf[rank:rank:rank+nred]
	for i, d := range a.shape {
		if red[i] {
			list = append(list, i)
			if d == 0 && (op == OpMax || op == OpMin || op == OpArgMax || op == OpArgMin) {
				n.err = &ShapeOpError{Op: op.String(), Reason: fmt.Sprintf("Expected reduction dim %d to have non-zero size", i)}
				return n
			}
			if keepDim {
				shape = append(shape, 1)
			}
			continue
		}
		shape = append(shape, d)
	}
	if nred == 0 {
		list = nil
	}
	n.dt, n.axes, n.keepDim = resultDType(op, a.dt), list, keepDim
	if op == OpArgMax || op == OpArgMin {
		n.dt = dtype.Int64
	}
	if a.sym() != nil {
		symReduce(n, a, red, keepDim)
		return n
	}
	setShape(n, shape)
	return n
}

// Sum returns the sum over axes (every axis when none are given).
func (x Expr[T]) Sum(axes ...int) Expr[T] { return Expr[T]{reduce(OpSum, x.Node(), axes, false)} }

// SumKeepDims is Sum keeping the reduced axes with extent 1.
func (x Expr[T]) SumKeepDims(axes ...int) Expr[T] {
	return Expr[T]{reduce(OpSum, x.Node(), axes, true)}
}

// Mean returns the arithmetic mean over axes, for floating and complex T;
// see MeanAs for integers.
func (x Expr[T]) Mean(axes ...int) Expr[T] { return Expr[T]{reduce(OpMean, x.Node(), axes, false)} }

// MeanKeepDims is Mean keeping the reduced axes with extent 1.
func (x Expr[T]) MeanKeepDims(axes ...int) Expr[T] {
	return Expr[T]{reduce(OpMean, x.Node(), axes, true)}
}

// Prod returns the product over axes.
func (x Expr[T]) Prod(axes ...int) Expr[T] { return Expr[T]{reduce(OpProd, x.Node(), axes, false)} }

// ProdKeepDims is Prod keeping the reduced axes with extent 1.
func (x Expr[T]) ProdKeepDims(axes ...int) Expr[T] {
	return Expr[T]{reduce(OpProd, x.Node(), axes, true)}
}

// Max returns the maximum over axes; NaN propagates. Reducing an empty axis
// is an error.
func (x Expr[T]) Max(axes ...int) Expr[T] { return Expr[T]{reduce(OpMax, x.Node(), axes, false)} }

// MaxKeepDims is Max keeping the reduced axes with extent 1.
func (x Expr[T]) MaxKeepDims(axes ...int) Expr[T] {
	return Expr[T]{reduce(OpMax, x.Node(), axes, true)}
}

// Min returns the minimum over axes; NaN propagates.
func (x Expr[T]) Min(axes ...int) Expr[T] { return Expr[T]{reduce(OpMin, x.Node(), axes, false)} }

// MinKeepDims is Min keeping the reduced axes with extent 1.
func (x Expr[T]) MinKeepDims(axes ...int) Expr[T] {
	return Expr[T]{reduce(OpMin, x.Node(), axes, true)}
}

// ArgMax returns the index of the maximum along axis (the first on ties, the
// first NaN if any).
func (x Expr[T]) ArgMax(axis int) Expr[int64] {
	return Expr[int64]{reduce(OpArgMax, x.Node(), []int{axis}, false)}
}

// ArgMin returns the index of the minimum along axis (the first on ties).
func (x Expr[T]) ArgMin(axis int) Expr[int64] {
	return Expr[int64]{reduce(OpArgMin, x.Node(), []int{axis}, false)}
}

// Any reports whether any element over axes is true (bool T).
func (x Expr[T]) Any(axes ...int) Expr[T] { return Expr[T]{reduce(OpAny, x.Node(), axes, false)} }

// All reports whether every element over axes is true (bool T).
func (x Expr[T]) All(axes ...int) Expr[T] { return Expr[T]{reduce(OpAll, x.Node(), axes, false)} }

// MeanAs returns the mean of x computed in the floating type F, NumPy's
// mean of integers (MeanAs[float64]).
func MeanAs[F dtype.Float, T dtype.Elem](x Expr[T], axes ...int) Expr[F] {
	return Cast[F](x).Mean(axes...)
}

// SumTo sums x down to shape, PyTorch's sum_to_size: the leading axes that
// shape lacks and every axis where shape has 1 are summed. x's shape must
// broadcast from shape.
func (x Expr[T]) SumTo(shape ...int) Expr[T] {
	a := x.Node()
	if a.err != nil {
		return x
	}
	if a.sym() != nil {
		return x.SumToDims(DimsOf(shape...)...)
	}
	target := tensor.Shape(shape)
	if _, err := tensor.BroadcastStrides(target, make([]int, len(target)), a.shape); err != nil {
		return Expr[T]{errNode(OpSum, &ShapeOpError{Op: "sum_to_size", Reason: fmt.Sprintf("size %v is not expandable to size %v", target, a.shape)})}
	}
	pad := len(a.shape) - len(target)
	var axes []int
	for i, d := range a.shape {
		if i < pad || (target[i-pad] == 1 && d != 1) {
			axes = append(axes, i)
		}
	}
	if len(axes) == 0 {
		return x.Reshape(shape...)
	}
	return x.SumKeepDims(axes...).Reshape(slices.Clone(shape)...)
}

// SumAs returns the sum of x computed in the element type U: NumPy's sum of
// small integers accumulates in int64 (SumAs[int64]), where Sum keeps T and
// wraps as Go's integer arithmetic does.
func SumAs[U dtype.Numeric, T dtype.Elem](x Expr[T], axes ...int) Expr[U] {
	return Cast[U](x).Sum(axes...)
}
