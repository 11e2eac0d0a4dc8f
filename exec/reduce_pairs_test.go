package exec_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// The paired reductions (logsumexp, the sum of squared deviations) against
// two-pass float64 loops: rows shorter and longer than a leaf, leaves cut
// between blocks, outer axes, every axis split into chunks, axes of extent
// 1 and 0, and float32. Their bits' independence of layout and workers is
// in reduce_order_test.go (orderReductions).

// twoPass returns, per group of x's elements, logsumexp as max + log(sum
// of exp(x - max)) and the squared deviations from the mean, both in two
// passes over the group, in float64.
func twoPass(xs []float64, groups [][]int) (lse, m2 []float64) {
	for _, idx := range groups {
		m, sum := math.Inf(-1), 0.0
		for _, i := range idx {
			m = math.Max(m, xs[i])
			sum += xs[i]
		}
		s, mean, q := 0.0, sum/float64(len(idx)), 0.0
		for _, i := range idx {
			s += math.Exp(xs[i] - m)
			q += (xs[i] - mean) * (xs[i] - mean)
		}
		lse, m2 = append(lse, m+math.Log(s)), append(m2, q)
	}
	return lse, m2
}

func TestPairedReductionsMatchTwoPass(t *testing.T) {
	cases := []struct {
		shape []int
		axes  []int
	}{
		{[]int{7, 5}, []int{1}},
		{[]int{7, 300}, []int{1}},
		{[]int{300, 7}, []int{0}},
		{[]int{3, 5, 129}, []int{0, 2}},
		{[]int{3, 4097}, []int{1}}, // a leaf cut between the producer's blocks
		{[]int{200000}, nil},       // split into chunks
		{[]int{5, 1}, []int{1}},    // extent 1: each result is its element's
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.shape, c.axes), func(t *testing.T) {
			testPairs[float64](t, c.shape, c.axes, 1e-12, 1e-9)
			testPairs[float32](t, c.shape, c.axes, 2e-6, 2e-3)
		})
	}
}

func testPairs[T dtype.Float](t *testing.T, shape, axes []int, lseTol, m2Tol float64) {
	r := newRand(uint64(len(shape)*1000 + shape[0]))
	n := 1
	for _, d := range shape {
		n *= d
	}
	vals := make([]T, n)
	for i := range vals {
		vals[i] = T(r.NormFloat64()*3 + 1)
	}
	x := fromValues(t, vals, shape...)
	red := make([]bool, len(shape))
	for _, a := range axes {
		red[a] = true
	}
	if axes == nil {
		for i := range red {
			red[i] = true
		}
	}
	_, groups := reduceGroups(tensor.Shape(shape), red, false)
	xs := make([]float64, 0, x.Numel())
	for _, v := range x.Values() {
		xs = append(xs, float64(v))
	}
	wantLSE, wantM2 := twoPass(xs, groups)
	for _, tx := range append(testExecutors[:len(testExecutors):len(testExecutors)], struct {
		name string
		x    *exec.Executor
	}{"odd", odd}) {
		lse := evalWith(t, tx.x, expr.LogSumExp(expr.Of(x), false, axes...)).Values()
		m2 := evalWith(t, tx.x, expr.SumSqDev(expr.Of(x), false, axes...)).Values()
		require.Len(t, lse, len(groups))
		require.Len(t, m2, len(groups))
		for i := range groups {
			assert.InDelta(t, wantLSE[i], float64(lse[i]), lseTol*math.Max(1, math.Abs(wantLSE[i])), "%s logsumexp[%d] on %s", dtype.Of[T](), i, tx.name)
			assert.InDelta(t, wantM2[i], float64(m2[i]), m2Tol*math.Max(1, wantM2[i]), "%s sumsqdev[%d] on %s", dtype.Of[T](), i, tx.name)
		}
	}
}

// TestPairedReductionsEmpty: an empty slice's logsumexp is -Inf and its
// squared deviations sum to 0 (var divides them by 0: NaN).
func TestPairedReductionsEmpty(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.Zeros[float64](0, 3)))
	assert.Equal(t, []float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}, evalWith(t, serial, expr.LogSumExp(x, false, 0)).Values())
	assert.Equal(t, []float64{0, 0, 0}, evalWith(t, serial, expr.SumSqDev(x, false, 0)).Values())
	v := evalWith(t, serial, expr.Var(x, 0, false, 0)).Values()
	for _, f := range v {
		assert.True(t, math.IsNaN(f), "var of an empty slice is NaN, got %v", v)
	}
}
