package exec

import (
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Order statistics: median and quantiles as NumPy 1.24 computes them.
// Like Sort they evaluate their input (they are not lazy nodes): each line
// along the axis is copied, its NaNs dealt with, and the few order
// statistics the quantiles need are found by selection (quickselect, with a
// sort for a line on which it partitions badly), O(n) per line; lines are
// shared among the executor's workers and the results do not depend on
// their number. Without an axis option the flattened input is used
// (NumPy's axis=None). The result type F is the caller's: NumPy gives
// float64 for integer input and for every quantile, and float32 for the
// median of float32.

// A QuantileMethod is how a quantile between two order statistics is
// taken (NumPy's method=).
type QuantileMethod uint8

// NumPy's methods. For a line of n sorted values and quantile q, the
// virtual index is v = (n-1)q, between the order statistics i = floor(v)
// and j = i+1 (both the last for v = n-1).
const (
	// Linear interpolates: x[i] + (x[j]-x[i])(v-i), NumPy's default.
	Linear QuantileMethod = iota
	// Lower is x[floor(v)].
	Lower
	// Higher is x[ceil(v)].
	Higher
	// Nearest is x[round(v)], half to even as np.around rounds.
	Nearest
	// Midpoint is (x[floor(v)] + x[ceil(v)]) / 2, interpolated as Linear is.
	Midpoint
)

func (m QuantileMethod) String() string {
	switch m {
	case Linear:
		return "linear"
	case Lower:
		return "lower"
	case Higher:
		return "higher"
	case Nearest:
		return "nearest"
	case Midpoint:
		return "midpoint"
	}
	return fmt.Sprintf("QuantileMethod(%d)", uint8(m))
}

// Method sets the quantile method (Linear by default).
func Method(m QuantileMethod) SortOption { return func(c *sortConfig) { c.method = m } }

// OverAxis makes Median and the quantiles work along axis (negative counts
// from the end) instead of over the flattened input; with KeepDims the
// axis stays with size 1.
func OverAxis(axis int) SortOption { return func(c *sortConfig) { c.qaxis = &axis } }

// Median returns the median of x (np.median): the middle order statistic,
// or the mean of the two middle ones, computed in F. A line holding a NaN
// has median NaN; an empty one NaN too (NumPy warns). Options: OverAxis,
// KeepDims, Using.
func Median[F dtype.Float, T dtype.Real](x expr.Expr[T], opts ...SortOption) (*tensor.Tensor[F], error) {
	return orderStats[F](x, []float64{0.5}, statsSpec{op: "Median", median: true, scalar: true}, sortOptions(opts))
}

// NanMedian is np.nanmedian: the median of each line's non-NaN values, NaN
// for a line that has none.
func NanMedian[F dtype.Float, T dtype.Real](x expr.Expr[T], opts ...SortOption) (*tensor.Tensor[F], error) {
	return orderStats[F](x, []float64{0.5}, statsSpec{op: "NanMedian", median: true, scalar: true, skipNaN: true}, sortOptions(opts))
}

// Quantile returns the q-th quantile of x (np.quantile with a scalar q,
// 0 <= q <= 1) by the method set with Method. A line holding a NaN gives
// NaN; an empty line is an error, as in NumPy. Options: OverAxis,
// KeepDims, Method, Using.
func Quantile[F dtype.Float, T dtype.Real](x expr.Expr[T], q float64, opts ...SortOption) (*tensor.Tensor[F], error) {
	return orderStats[F](x, []float64{q}, statsSpec{op: "Quantile", scalar: true}, sortOptions(opts))
}

// Quantiles is np.quantile with a list of quantiles: the result has a
// leading axis of len(qs), one entry per quantile, before the axes of a
// single quantile's result.
func Quantiles[F dtype.Float, T dtype.Real](x expr.Expr[T], qs []float64, opts ...SortOption) (*tensor.Tensor[F], error) {
	return orderStats[F](x, qs, statsSpec{op: "Quantiles"}, sortOptions(opts))
}

// NanQuantile is np.nanquantile with a scalar q: NaNs are left out; a line
// of NaNs gives NaN.
func NanQuantile[F dtype.Float, T dtype.Real](x expr.Expr[T], q float64, opts ...SortOption) (*tensor.Tensor[F], error) {
	return orderStats[F](x, []float64{q}, statsSpec{op: "NanQuantile", scalar: true, skipNaN: true}, sortOptions(opts))
}

// NanQuantiles is np.nanquantile with a list of quantiles.
func NanQuantiles[F dtype.Float, T dtype.Real](x expr.Expr[T], qs []float64, opts ...SortOption) (*tensor.Tensor[F], error) {
	return orderStats[F](x, qs, statsSpec{op: "NanQuantiles", skipNaN: true}, sortOptions(opts))
}

// Percentile is np.percentile with a scalar p: Quantile of p/100,
// 0 <= p <= 100.
func Percentile[F dtype.Float, T dtype.Real](x expr.Expr[T], p float64, opts ...SortOption) (*tensor.Tensor[F], error) {
	return orderStats[F](x, []float64{p}, statsSpec{op: "Percentile", scalar: true, percent: true}, sortOptions(opts))
}

// Percentiles is np.percentile with a list of percentiles.
func Percentiles[F dtype.Float, T dtype.Real](x expr.Expr[T], ps []float64, opts ...SortOption) (*tensor.Tensor[F], error) {
	return orderStats[F](x, ps, statsSpec{op: "Percentiles", percent: true}, sortOptions(opts))
}

// NanPercentile is np.nanpercentile with a scalar p.
func NanPercentile[F dtype.Float, T dtype.Real](x expr.Expr[T], p float64, opts ...SortOption) (*tensor.Tensor[F], error) {
	return orderStats[F](x, []float64{p}, statsSpec{op: "NanPercentile", scalar: true, percent: true, skipNaN: true}, sortOptions(opts))
}

// NanPercentiles is np.nanpercentile with a list of percentiles.
func NanPercentiles[F dtype.Float, T dtype.Real](x expr.Expr[T], ps []float64, opts ...SortOption) (*tensor.Tensor[F], error) {
	return orderStats[F](x, ps, statsSpec{op: "NanPercentiles", percent: true, skipNaN: true}, sortOptions(opts))
}

// statsSpec says which order statistic a function computes.
type statsSpec struct {
	op      string
	median  bool // the mean of the two middle values, not a quantile
	scalar  bool // one q, no leading q axis
	percent bool // qs are percentages
	skipNaN bool
}

// qPoint is where one quantile lies among a line's sorted values: the
// order statistics lo and hi and the weight of hi.
type qPoint struct {
	lo, hi int
	gamma  float64
}

// quantilePoint places quantile q (0 <= q <= 1) among n sorted values
// by method m, as NumPy's _quantile does.
func quantilePoint(n int, q float64, m QuantileMethod) qPoint {
	v := float64(n-1) * q
	switch m {
	case Lower:
		i := int(math.Floor(v))
		return qPoint{i, i, 0}
	case Higher:
		i := int(math.Ceil(v))
		return qPoint{i, i, 0}
	case Nearest:
		i := int(math.RoundToEven(v))
		return qPoint{i, i, 0}
	case Midpoint:
		lo := math.Floor(v)
		g := 0.5
		if v == lo {
			g = 0
		}
		v = 0.5 * (lo + math.Ceil(v))
		return clampPoint(v, g, n)
	}
	return clampPoint(v, v-math.Floor(v), n)
}

// clampPoint is NumPy's _get_indexes: indices at or past the last value
// take the last, below the first the first.
func clampPoint(v, gamma float64, n int) qPoint {
	lo := int(math.Floor(v))
	p := qPoint{lo, lo + 1, gamma}
	if v >= float64(n-1) {
		p.lo, p.hi = n-1, n-1
	}
	if v < 0 {
		p.lo, p.hi = 0, 0
	}
	return p
}

// lerp is NumPy's _lerp: a + (b-a)t, computed from b for t >= 0.5 so that
// t = 1 gives b exactly; diff is b-a in the input's arithmetic.
func lerp(a, b, diff, t float64) float64 {
	if t >= 0.5 {
		return b - diff*(1-t)
	}
	return a + diff*t
}

// orderStats computes spec's statistic of x at each of qs.
func orderStats[F dtype.Float, T dtype.Real](x expr.Expr[T], qs []float64, spec statsSpec, c sortConfig) (*tensor.Tensor[F], error) {
	if err := c.x.usable(); err != nil {
		return nil, err
	}
	if err := x.Err(); err != nil {
		return nil, err
	}
	if c.method > Midpoint {
		return nil, &tensor.ArgError{Op: spec.op, Reason: fmt.Sprintf("%v is not a valid method; use Linear, Lower, Higher, Nearest or Midpoint", c.method)}
	}
	fracs := make([]float64, len(qs))
	for i, q := range qs {
		f, hi, what := q, 1.0, "Quantiles"
		if spec.percent {
			f, hi, what = q/100, 100, "Percentiles"
		}
		if !(q >= 0 && q <= hi) {
			return nil, &tensor.ArgError{Op: spec.op, Reason: fmt.Sprintf("%s must be in the range [0, %v], got %v", what, hi, q)}
		}
		fracs[i] = f
	}
	rank := len(x.Shape())
	e, axis := x, 0
	if c.qaxis == nil {
		e = x.Reshape(-1)
	} else {
		ax, err := tensor.Axis(*c.qaxis, rank)
		if err != nil {
			return nil, err
		}
		axis = ax
	}
	in, rows, err := evalRows(c.x, e, axis)
	if err != nil {
		return nil, err
	}
	if rows.N == 0 && rows.Count() > 0 && !spec.median {
		return nil, &tensor.ShapeError{Shape: x.Shape(), Axis: axis, Reason: spec.op + ": cannot take a quantile of an empty axis"}
	}
	var shape tensor.Shape
	if !spec.scalar {
		shape = tensor.Shape{len(qs)}
	}
	switch {
	case c.qaxis == nil && c.keepDims:
		for range rank {
			shape = append(shape, 1)
		}
	case c.qaxis == nil:
	default:
		for d, s := range in.Shape() {
			switch {
			case d != axis:
				shape = append(shape, s)
			case c.keepDims:
				shape = append(shape, 1)
			}
		}
	}
	out, err := tensor.New[F](shape...)
	if err != nil {
		return nil, err
	}
	src, dst, lines := in.Values(), out.Data(), rows.Count()
	err = c.x.forRows(rows, rowsFunc(func(lo, hi int) {
		buf := make([]T, rows.N)
		for r := lo; r < hi; r++ {
			start := rows.Start(r)
			for j := range buf {
				buf[j] = src[start+j*rows.Inner]
			}
			line := dropNaN(buf, spec.skipNaN)
			for qi, q := range fracs {
				dst[qi*lines+r] = F(lineStat(line, q, spec.median, c.method, len(buf)))
			}
		}
	}))
	if err != nil {
		return nil, err
	}
	return out, nil
}

// dropNaN returns line without its NaNs when skip is set (nil when every
// element is NaN), or nil when line holds a NaN and skip is not set.
func dropNaN[T dtype.Real](line []T, skip bool) []T {
	m := 0
	for _, v := range line {
		if v == v {
			line[m] = v
			m++
		} else if !skip {
			return nil
		}
	}
	if m == 0 {
		return nil
	}
	return line[:m]
}

// lineStat is the statistic of line at quantile q, selecting in place the
// order statistics it needs; NaN when line is nil (a NaN or no values).
func lineStat[T dtype.Real](line []T, q float64, median bool, m QuantileMethod, n int) float64 {
	if line == nil {
		return math.NaN()
	}
	if median {
		h := len(line) / 2
		b := selectKth(line, h)
		if len(line)%2 == 1 {
			return float64(b)
		}
		a := largest(line[:h]) // selection left the smaller half before h
		return meanOfTwo(a, b)
	}
	p := quantilePoint(len(line), q, m)
	a := float64(selectKth(line, p.lo))
	if p.hi == p.lo {
		return a
	}
	bv := selectKth(line[p.lo+1:], p.hi-p.lo-1) // the smallest of the rest
	return lerp(a, float64(bv), diffOf(line[p.lo], bv), p.gamma)
}

// meanOfTwo is np.mean of two values: their sum over 2, in the input's
// float type (float64 for integers, as NumPy's mean sums them).
func meanOfTwo[T dtype.Real](a, b T) float64 {
	switch any(a).(type) {
	case float32:
		return float64((float32(a) + float32(b)) / 2)
	}
	return (float64(a) + float64(b)) / 2
}

// diffOf is b - a as NumPy's _lerp subtracts: in the input's type for
// floats (float32 rounds), in float64 for integers.
func diffOf[T dtype.Real](a, b T) float64 {
	switch any(a).(type) {
	case float32, float64:
		return float64(b - a)
	}
	return float64(b) - float64(a)
}

func largest[T dtype.Real](s []T) T {
	m := s[0]
	for _, v := range s[1:] {
		m = max(m, v)
	}
	return m
}
