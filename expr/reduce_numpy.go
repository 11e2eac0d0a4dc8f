package expr

import (
	"math"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
)

// NumPy's reductions and normalizations (issue 22), composed from the
// reductions and elementwise ops of the table, so that they fuse,
// differentiate and stay deterministic as those do. axes is as for Sum:
// none means every axis, negative ones count from the end; keepDim keeps
// the reduced axes with extent 1.

// sumK is Sum or SumKeepDims.
func sumK[T dtype.Elem](x Expr[T], keepDim bool, axes []int) Expr[T] {
	if keepDim {
		return x.SumKeepDims(axes...)
	}
	return x.Sum(axes...)
}

func maxK[T dtype.Elem](x Expr[T], keepDim bool, axes []int) Expr[T] {
	if keepDim {
		return x.MaxKeepDims(axes...)
	}
	return x.Max(axes...)
}

func minK[T dtype.Elem](x Expr[T], keepDim bool, axes []int) Expr[T] {
	if keepDim {
		return x.MinKeepDims(axes...)
	}
	return x.Min(axes...)
}

// reducedCount is the number of elements each result over axes combines
// (1 for axes the reduction itself will refuse).
func reducedCount(n *Node, axes []int) int {
	if n.err != nil || n.sym() != nil {
		return 1
	}
	c := 1
	if len(axes) == 0 {
		for _, d := range n.shape {
			c *= d
		}
		return c
	}
	for _, a := range axes {
		if a < 0 {
			a += len(n.shape)
		}
		if a < 0 || a >= len(n.shape) {
			return 1
		}
		c *= n.shape[a]
	}
	return c
}

// Var returns NumPy's var: the mean of |x - mean(x)|² with the divisor
// max(n - ddof, 0), so ddof >= n gives +Inf, or NaN where the squares sum
// to 0; an empty axis gives NaN. The squares' sum is one reduction that
// reads x once (SumSqDev); integers are Cast[float64] first, as NumPy
// computes them; see ComplexVar for complex x.
func Var[T dtype.Float](x Expr[T], ddof int, keepDim bool, axes ...int) Expr[T] {
	return SumSqDev(x, keepDim, axes...).Div(Scalar(T(max(reducedCount(x.Node(), axes)-ddof, 0))))
}

// SumSqDev returns the sum of (x - mean(x))² over axes, in one pass over
// x: each output's elements fold as (count, mean, sum of squares) pairs,
// a leaf of 128 elements from its mean, leaves combined by Chan's update
// in a fixed tree (docs/reductions.md). An empty slice gives 0.
func SumSqDev[T dtype.Float](x Expr[T], keepDim bool, axes ...int) Expr[T] {
	return Expr[T]{reduce(OpSumSqDev, x.Node(), axes, keepDim)}
}

// Std returns NumPy's std, the square root of Var.
func Std[T dtype.Float](x Expr[T], ddof int, keepDim bool, axes ...int) Expr[T] {
	return Var(x, ddof, keepDim, axes...).Sqrt()
}

// ComplexVar is Var for complex x: a real result, the mean of the squared
// moduli of x - mean(x).
func ComplexVar[F dtype.Float, C dtype.Complex](x Expr[C], ddof int, keepDim bool, axes ...int) Expr[F] {
	d := CAbs[F](x.Sub(x.MeanKeepDims(axes...)))
	return sumK(d.Square(), keepDim, axes).Div(Scalar(F(max(reducedCount(x.Node(), axes)-ddof, 0))))
}

// LogSumExp returns log(sum(exp(x))) over axes in one pass over x: each
// output's elements fold as (max, sum of exp(x - max)) pairs, rescaled
// when pairs combine (the online softmax's trick; docs/reductions.md).
// Rows with +Inf give +Inf, rows of -Inf and empty rows give -Inf, NaN
// gives NaN (PyTorch's logsumexp).
func LogSumExp[T dtype.Float](x Expr[T], keepDim bool, axes ...int) Expr[T] {
	return Expr[T]{reduce(OpLogSumExp, x.Node(), axes, keepDim)}
}

// Softmax returns exp(x - max) / sum(exp(x - max)) along axis (PyTorch's
// softmax), numerically stable, as a line op (OpSoftmax, run by the
// executor's scan step): each line's maximum, then exp(x - max) written
// and summed, then the line scaled by the reciprocal of its sum while it
// is in cache. That is one read of x, one exp per element and one write.
// An elementwise x is stored first, as a scan's operand is (the form
// exp(x - logsumexp(x)) stores it too, and reads it twice). A line with
// +Inf or NaN, or of -Inf only, is NaN throughout.
func Softmax[T dtype.Float](x Expr[T], axis int) Expr[T] {
	return Expr[T]{scan(OpSoftmax, x.Node(), axis, false, dtype.Of[T]())}
}

// LogSoftmax returns x - max - log(sum(exp(x - max))) along axis
// (PyTorch's log_softmax), x - lse, with Softmax's special rows.
func LogSoftmax[T dtype.Float](x Expr[T], axis int) Expr[T] {
	return x.Sub(softmaxShift(x, axis))
}

// softmaxShift is the rows' logsumexp along axis, kept, with NaN where it
// is infinite: a row of -Inf (lse -Inf) or with +Inf (lse +Inf) is NaN
// throughout, as x - max is there.
func softmaxShift[T dtype.Float](x Expr[T], axis int) Expr[T] {
	lse := LogSumExp(x, true, axis)
	return Where(lse.IsInf(), Scalar(T(math.NaN())), lse)
}

// NanSum returns the sum with NaN counted as 0 (an all-NaN slice sums to
// 0). NumPy's nansum of integers is its sum: SumAs[int64].
func NanSum[T dtype.Float](x Expr[T], keepDim bool, axes ...int) Expr[T] {
	return sumK(Where(x.IsNaN(), Scalar(T(0)), x), keepDim, axes)
}

// NanMean returns the mean of the non-NaN values (NaN for an all-NaN or
// empty slice).
func NanMean[T dtype.Float](x Expr[T], keepDim bool, axes ...int) Expr[T] {
	n := sumK(Where(x.IsNaN(), Scalar(T(0)), Scalar(T(1))), keepDim, axes)
	return NanSum(x, keepDim, axes...).Div(n)
}

// NanMax returns the maximum ignoring NaN; an all-NaN slice gives NaN, an
// empty one an error as Max does.
func NanMax[T dtype.Float](x Expr[T], keepDim bool, axes ...int) Expr[T] {
	nan := x.IsNaN()
	m := maxK(Where(nan, Scalar(T(math.Inf(-1))), x), keepDim, axes)
	all := Wrap[bool](reduce(OpAll, nan.Node(), axes, keepDim))
	return Where(all, Scalar(T(math.NaN())), m)
}

// NanMin returns the minimum ignoring NaN (see NanMax).
func NanMin[T dtype.Float](x Expr[T], keepDim bool, axes ...int) Expr[T] {
	nan := x.IsNaN()
	m := minK(Where(nan, Scalar(T(math.Inf(1))), x), keepDim, axes)
	all := Wrap[bool](reduce(OpAll, nan.Node(), axes, keepDim))
	return Where(all, Scalar(T(math.NaN())), m)
}

// CountNonzero returns the number of non-zero elements over axes (NaN
// counts), as int64.
func CountNonzero[T dtype.Elem](x Expr[T], keepDim bool, axes ...int) Expr[int64] {
	return sumK(Cast[int64](truth(x)), keepDim, axes)
}

// Ptp returns max - min over axes in T (wrapping for integers; NaN
// propagates).
func Ptp[T dtype.Real](x Expr[T], keepDim bool, axes ...int) Expr[T] {
	return maxK(x, keepDim, axes).Sub(minK(x, keepDim, axes))
}

// AllTrue returns NumPy's all for any T: every element over axes is
// non-zero (NaN is true, -0 false; an empty slice is true).
func AllTrue[T dtype.Elem](x Expr[T], keepDim bool, axes ...int) Expr[bool] {
	return Wrap[bool](reduce(OpAll, truth(x).Node(), axes, keepDim))
}

// AnyTrue returns NumPy's any for any T (see AllTrue; an empty slice is
// false).
func AnyTrue[T dtype.Elem](x Expr[T], keepDim bool, axes ...int) Expr[bool] {
	return Wrap[bool](reduce(OpAny, truth(x).Node(), axes, keepDim))
}

// ArgMaxKeepDim is ArgMax with the axis kept as extent 1.
func (x Expr[T]) ArgMaxKeepDim(axis int) Expr[int64] { return keepAxis(x.Node(), x.ArgMax(axis), axis) }

// ArgMinKeepDim is ArgMin with the axis kept as extent 1.
func (x Expr[T]) ArgMinKeepDim(axis int) Expr[int64] { return keepAxis(x.Node(), x.ArgMin(axis), axis) }

func keepAxis(n *Node, r Expr[int64], axis int) Expr[int64] {
	if r.Err() != nil || n.sym() != nil {
		return r
	}
	if axis < 0 {
		axis += len(n.shape)
	}
	shape := slices.Clone([]int(n.shape))
	shape[axis] = 1
	return r.Reshape(shape...)
}

// Norm returns NumPy's vector norm of order ord over axes: 2 is the
// Euclidean norm (sqrt(sum(x²)), 0 for an empty slice), 1 the sum of
// |x|, +Inf the maximum of |x| and -Inf the minimum (an error for an empty
// slice), 0 the number of non-zero elements (NaN counts), any other p
// sum(|x|^p)^(1/p).
func Norm[T dtype.Float](x Expr[T], ord float64, keepDim bool, axes ...int) Expr[T] {
	a := x.Abs()
	switch {
	case ord == 2:
		return sumK(x.Square(), keepDim, axes).Sqrt()
	case ord == 1:
		return sumK(a, keepDim, axes)
	case math.IsInf(ord, 1):
		return maxK(a, keepDim, axes)
	case math.IsInf(ord, -1):
		return minK(a, keepDim, axes)
	case ord == 0:
		return sumK(Cast[T](x.Ne(Scalar(T(0)))), keepDim, axes)
	}
	return sumK(a.Pow(Scalar(T(ord))), keepDim, axes).Pow(Scalar(T(1 / ord)))
}
