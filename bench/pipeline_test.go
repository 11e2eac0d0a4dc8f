package bench

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

func TestGraphCost(t *testing.T) {
	a := tensor.Must(tensor.Rand[float64](1, 10, 20))
	b := tensor.Must(tensor.Rand[float64](2, 1, 20))
	bx := tensor.Must(b.Expand(10, 20))
	m := tensor.Must(tensor.Rand[float32](3, 4, 5))
	n := tensor.Must(tensor.Rand[float32](4, 5, 6))
	tests := []struct {
		name         string
		e            expr.Any
		bytes, flops int64
	}{
		{"add", expr.Of(a).Add(expr.Of(a)), (200 + 200) * 8, 200}, // one leaf, read once
		{"broadcast row then sum", expr.Of(a).Add(expr.Of(b)).Sum(-1), (200 + 20 + 10) * 8, 200 + 200},
		{"expanded view reads what it stores", expr.Of(a).Mul(expr.Of(bx)), (200 + 20 + 200) * 8, 200},
		{"scalar is free", expr.Of(a).AddScalar(1.5).Exp(), (200 + 200) * 8, 400},
		{"matmul", expr.Of(m).MatMul(expr.Of(n)), (20 + 30 + 24) * 4, 2 * 4 * 5 * 6},
		{"transposed view", expr.Of(a).T(), (200 + 200) * 8, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bytes, flops := GraphCost(tt.e)
			assert.Equal(t, tt.bytes, bytes)
			assert.Equal(t, tt.flops, flops)
		})
	}
}

func TestPipeline(t *testing.T) {
	build := func(wrong bool) func(p Params) (expr.Expr[float32], func([]float32), error) {
		return func(p Params) (expr.Expr[float32], func([]float32), error) {
			x, err := tensor.Rand[float32](p.Seed, p.Size)
			if err != nil {
				return expr.Expr[float32]{}, nil, err
			}
			hand := func(dst []float32) {
				for i, v := range x.Data() {
					dst[i] = 2*v + 1
				}
				if wrong {
					dst[0]++
				}
			}
			return expr.Of(x).MulScalar(2).AddScalar(1), hand, nil
		}
	}
	noHand := Pipeline("nohand", "x*2", func(p Params) (expr.Expr[float64], func([]float64), error) {
		x, err := tensor.Rand[float64](p.Seed, p.Size)
		return expr.Of(x).MulScalar(2), nil, err
	})
	badShape := Pipeline("badshape", "a+b", func(p Params) (expr.Expr[float64], func([]float64), error) {
		a, b := tensor.Must(tensor.New[float64](2)), tensor.Must(tensor.New[float64](3))
		return expr.Of(a).Add(expr.Of(b)), nil, nil
	})
	rep, err := Run(Options{Sizes: []int{1000}, Reps: 2, NoProbe: true},
		Pipeline("good", "2x+1", build(false)), Pipeline("wrong", "2x+1", build(true)), noHand, badShape)
	require.NoError(t, err)
	require.Len(t, rep.Rows, 4)

	good := rep.Rows[0]
	assert.Empty(t, good.Err)
	assert.Equal(t, "1000", good.Shape)
	assert.Equal(t, int64(8000), good.Bytes)
	assert.Equal(t, int64(2000), good.Flops)
	assert.Positive(t, good.Ratio)

	assert.Contains(t, rep.Rows[1].Err, "refused: output differs from the hand loop at element 0")

	assert.Empty(t, rep.Rows[2].Err)
	assert.Nil(t, rep.Rows[2].HandLoop)
	assert.Zero(t, rep.Rows[2].Ratio)

	assert.Contains(t, rep.Rows[3].Err, "setup: The size of tensor a (2) must match the size of tensor b (3)")
}

func TestShapeString(t *testing.T) {
	assert.Equal(t, "scalar", shapeString(nil))
	assert.Equal(t, "7", shapeString(tensor.Shape{7}))
	assert.Equal(t, "2x3x4", shapeString(tensor.Shape{2, 3, 4}))
}
