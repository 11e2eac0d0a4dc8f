package exec_test

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// rowsCase is a reduction along short rows and whether the blocks of whole
// rows must plan it (a transposed input keeps the row-at-a-time runs).
type rowsCase struct {
	name  string
	build func() expr.Any
	rows  bool
}

// shortRowsCases are reductions along rows shorter than 256 elements of
// every kind the blocks of whole rows compute: plain folds, a fused
// producer, a per-row operand, a dot product, arg reductions with ties,
// integer and bool rows, several kept axes, and more rows than one task
// holds.
func shortRowsCases(t *testing.T) []rowsCase {
	f32 := func(seed uint64, shape ...int) *tensor.Tensor[float32] {
		x, err := tensor.RandN[float32](seed, shape...)
		require.NoError(t, err)
		return x
	}
	f64 := func(seed uint64, shape ...int) *tensor.Tensor[float64] {
		x, err := tensor.RandN[float64](seed, shape...)
		require.NoError(t, err)
		return x
	}
	ties := tensor.Must(tensor.FromSlice([]float64{1, 3, 3, 0, 2, 2, 5, 5, 5, 0, 0, 0}, 4, 3))
	nan := math.NaN()
	nans := tensor.Must(tensor.FromSlice([]float64{nan, 1, 0, 2, nan, 0, 3, 1, nan, 1, 0, 2, nan, nan, 1, 4, 4, 4}, 6, 3))
	nans32 := tensor.Must(tensor.FromSlice([]float32{float32(nan), 1, 0, 2, float32(nan), 5, 3, 1, float32(nan), 1, 7, 2}, 4, 3))
	ints := tensor.Must(tensor.Arange[int32](0, 60, 1))
	ints = tensor.Must(ints.Reshape(6, 10))
	flags := tensor.Must(tensor.FromSlice([]bool{true, false, false, false, false, false, true, true, true}, 3, 3))
	inf := math.Inf(1)
	specials := tensor.Must(tensor.FromSlice([]float64{
		1, inf, 2, // +Inf
		-inf, -inf, -inf, // of -Inf only
		nan, 1, 2, // NaN
		-inf, 0, 3, // a -Inf element
		0, math.Copysign(0, -1), -0.5, // ±0 for the maximum
		700, 700, -700, // huge
	}, 6, 3))
	x := f32(1, 64, 10)
	big := f64(2, 8000, 9)
	tall := f64(15, 200000, 3)
	return []rowsCase{
		{"sum f32 64x10", func() expr.Any { return expr.Of(x).Sum(1) }, true},
		{"max f32 64x10", func() expr.Any { return expr.Of(x).MaxKeepDims(1) }, true},
		{"min f64 5x3x7", func() expr.Any { return expr.Of(f64(3, 5, 3, 7)).Min(2) }, true},
		{"mean f64 3x200", func() expr.Any { return expr.Of(f64(4, 3, 200)).Mean(1) }, true},
		{"sum f32 5x128 (one whole leaf)", func() expr.Any { return expr.Of(f32(16, 5, 128)).Sum(1) }, true},
		{"max f32 4x129 (a leaf and one)", func() expr.Any { return expr.Of(f32(17, 4, 129)).Max(1) }, true},
		{"dot f32 6x128 (one whole leaf)", func() expr.Any {
			a := expr.Of(f32(18, 6, 128))
			return a.Mul(expr.Of(f32(19, 1, 128))).Sum(1)
		}, true},
		{"prod f64 9x5", func() expr.Any { return expr.Of(f64(5, 9, 5)).Prod(1) }, true},
		{"softmax denominator", func() expr.Any {
			xs := expr.Of(x)
			return xs.Sub(xs.MaxKeepDims(1)).Exp().SumKeepDims(1)
		}, true},
		{"dot f64 64x10 by a row", func() expr.Any {
			return expr.Of(f64(6, 64, 10)).Mul(expr.Of(f64(7, 1, 10))).Sum(1)
		}, true},
		{"argmin with ties", func() expr.Any { return expr.Of(ties).ArgMin(1) }, true},
		{"argmax with ties", func() expr.Any { return expr.Of(ties).ArgMax(1) }, true},
		{"argmin f64 1000x4", func() expr.Any { return expr.Of(f64(8, 1000, 4)).ArgMin(1) }, true},
		{"argmin with NaNs", func() expr.Any { return expr.Of(nans).ArgMin(1) }, true},
		{"argmax with NaNs f32", func() expr.Any { return expr.Of(nans32).ArgMax(1) }, true},
		{"argmax int32 6x10", func() expr.Any { return expr.Of(ints).ArgMax(1) }, true},
		{"argmin of a broadcast row minus a product", func() expr.Any {
			return expr.Of(f64(20, 1, 4)).Sub(expr.Of(f64(21, 1000, 4)).MulScalar(2)).ArgMin(1)
		}, true},
		{"sum int32 6x10", func() expr.Any { return expr.Of(ints).Sum(1) }, true},
		{"logsumexp f32 64x10 (leafRows)", func() expr.Any { return expr.LogSumExp(expr.Of(x), true, 1) }, true},
		{"logsumexp f64 8000x9 (leafRows, several tasks)", func() expr.Any { return expr.LogSumExp(expr.Of(big), false, 1) }, true},
		{"logsumexp with special rows (leafRows)", func() expr.Any { return expr.LogSumExp(expr.Of(specials), false, 1) }, true},
		{"logsumexp f32 6x15 of a product (leafRows)", func() expr.Any {
			return expr.LogSumExp(expr.Of(f32(22, 6, 15)).MulScalar(3), false, 1)
		}, true},
		{"logsumexp f32 7x16 (the leaf folds)", func() expr.Any { return expr.LogSumExp(expr.Of(f32(23, 7, 16)), false, 1) }, true},
		{"logsumexp f64 5x200 (two leaves)", func() expr.Any { return expr.LogSumExp(expr.Of(f64(24, 5, 200)), false, 1) }, true},
		{"log_softmax f32 64x10", func() expr.Any { return expr.LogSoftmax(expr.Of(x), 1) }, true},
		{"var f32 64x10", func() expr.Any { return expr.Var(expr.Of(x), 1, false, 1) }, true},
		{"var f64 3x200", func() expr.Any { return expr.Var(expr.Of(f64(25, 3, 200)), 0, true, 1) }, true},
		{"any bool 3x3", func() expr.Any { return expr.Of(flags).Any(1) }, true},
		{"sum f64 8000x9 (several tasks)", func() expr.Any { return expr.Of(big).Sum(1) }, true},
		{"rows into columns: sum f64 1000x4", func() expr.Any { return expr.Of(f64(10, 1000, 4)).Sum(0) }, true},
		{"rows into columns: mean f32 300x7", func() expr.Any { return expr.Of(f32(11, 300, 7)).Mean(0) }, true},
		{"rows into columns: max of a product", func() expr.Any {
			return expr.Of(f64(12, 130, 5)).Mul(expr.Of(f64(13, 1, 5))).MaxKeepDims(0)
		}, true},
		{"rows into columns: several chunks", func() expr.Any { return expr.Of(tall).Sum(0) }, true},
		{"rows into columns: argmax keeps runs", func() expr.Any { return expr.Of(f64(14, 50, 4)).ArgMax(0) }, false},
		{"rows into columns: a transposed input", func() expr.Any { return expr.Of(f64(9, 10, 64)).T().Sum(1) }, true},
	}
}

// TestShortRowBlocksMatchRowRuns checks that reductions over short rows,
// computed in blocks of whole rows, give the bits of the row-at-a-time
// path, with one worker and with several splitting the rows into tasks,
// and that the debug plan shows the blocks where they apply.
func TestShortRowBlocksMatchRowRuns(t *testing.T) {
	for _, c := range shortRowsCases(t) {
		t.Run(c.name, func(t *testing.T) {
			restore := exec.SetShortRowBlocks(false)
			ref := exec.New(exec.Workers(1))
			want, err := ref.Run([]*expr.Node{c.build().Node()}, nil)
			ref.Close()
			restore()
			require.NoError(t, err)
			for _, opts := range [][]exec.Option{
				{exec.Workers(1)},
				{exec.Workers(3), exec.Grain(1)},
			} {
				var plan bytes.Buffer
				x := exec.New(append(opts, exec.Debug(&plan))...)
				got, err := x.Run([]*expr.Node{c.build().Node()}, nil)
				x.Close()
				require.NoError(t, err)
				assert.Equal(t, c.rows, strings.Contains(plan.String(), "short rows, "), plan.String())
				assert.Equal(t, want[0].Shape(), got[0].Shape())
				assert.Equal(t, bitsOf(t, want[0]), bitsOf(t, got[0]))
			}
		})
	}
}

// TestShortRowArgReductions checks the indices of arg reductions along
// short rows: the first extreme, and the first NaN when a row has one (as
// in NumPy), in blocks of whole rows and a row at a time.
func TestShortRowArgReductions(t *testing.T) {
	nan := math.NaN()
	x := tensor.Must(tensor.FromSlice([]float64{
		nan, 1, 0, // a NaN first
		2, nan, 0, // a NaN after a larger value
		3, 1, nan, // a NaN last
		1, 0, 2, // no NaN
		0, 2, 0, // ties
		5, 5, 5, // all equal
	}, 6, 3))
	for _, blocks := range []bool{true, false} {
		t.Run(fmt.Sprintf("blocks %v", blocks), func(t *testing.T) {
			restore := exec.SetShortRowBlocks(blocks)
			defer restore()
			x1 := exec.New(exec.Workers(2), exec.Grain(1))
			defer x1.Close()
			got, err := x1.Run([]*expr.Node{expr.Of(x).ArgMin(1).Node(), expr.Of(x).ArgMax(1).Node()}, nil)
			require.NoError(t, err)
			require.Len(t, got, 2)
			assert.Equal(t, []int64{0, 1, 2, 1, 0, 0}, got[0].(*tensor.Tensor[int64]).Values(), "argmin")
			assert.Equal(t, []int64{0, 1, 2, 2, 1, 0}, got[1].(*tensor.Tensor[int64]).Values(), "argmax")
		})
	}
}

// bitsOf returns a result's elements as bit patterns (NaNs compare).
func bitsOf(t *testing.T, a tensor.Any) []uint64 {
	var out []uint64
	switch v := a.(type) {
	case *tensor.Tensor[float32]:
		for _, x := range v.Values() {
			out = append(out, uint64(math.Float32bits(x)))
		}
	case *tensor.Tensor[float64]:
		for _, x := range v.Values() {
			out = append(out, math.Float64bits(x))
		}
	case *tensor.Tensor[int64]:
		for _, x := range v.Values() {
			out = append(out, uint64(x))
		}
	case *tensor.Tensor[int32]:
		for _, x := range v.Values() {
			out = append(out, uint64(x))
		}
	case *tensor.Tensor[bool]:
		for _, x := range v.Values() {
			if x {
				out = append(out, 1)
			} else {
				out = append(out, 0)
			}
		}
	default:
		t.Fatalf("bitsOf: no case for %T", a)
	}
	return out
}
