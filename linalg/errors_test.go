package linalg_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/linalg"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestErrors checks every kind of bad input by the error's type and text.
func TestErrors(t *testing.T) {
	sing := []float64{1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 4} // [2, 2, 2, 2]: [1, 1] singular
	S := leaf[float64](sing, 2, 2, 2, 2)
	notPD := leaf[float64]([]float64{2, 0, 0, 1, 1, 2, 2, 1}, 2, 2, 2) // second: eigenvalues 3, -1
	rect := leaf[float64](make([]float64, 6), 2, 3)
	vec := leaf[float64](make([]float64, 3), 3)
	cases := []struct {
		name string
		run  func() error
		as   any
		text string
	}{
		{"inv singular", func() error { _, err := linalg.Inv(S); return err },
			new(*linalg.SingularError), "linalg.Inv: the matrix at batch index [1, 1] is singular"},
		{"solve singular", func() error {
			_, err := linalg.Solve(leaf[float64]([]float64{1, 2, 2, 4}, 2, 2), leaf[float64]([]float64{1, 1}, 2))
			return err
		}, new(*linalg.SingularError), "linalg.Solve: the matrix is singular"},
		{"solve broadcast singular", func() error {
			a := leaf[float64]([]float64{1, 0, 0, 1, 1, 2, 2, 4}, 2, 1, 2, 2)
			_, err := linalg.Solve(a, leaf[float64](make([]float64, 12), 1, 3, 2, 2))
			return err
		}, new(*linalg.SingularError), "linalg.Solve: the matrix at batch index [1, 0] is singular"},
		{"cholesky not PD", func() error { _, err := linalg.Cholesky(notPD); return err },
			new(*linalg.NotPositiveDefiniteError), "linalg.Cholesky: the matrix at batch index [1] is not positive definite"},
		{"inv not square", func() error { _, err := linalg.Inv(rect); return err },
			new(*tensor.ShapeError), "invalid shape [2, 3] at dimension 1: linalg.Inv needs square matrices, these are 2×3"},
		{"det of a vector", func() error { _, err := linalg.Det(vec); return err },
			new(*tensor.ShapeError), "invalid shape [3]: linalg.Det needs at least 2 dimensions"},
		{"solve rows", func() error { _, err := linalg.Solve(leaf[float64](eye(2), 2, 2), vec); return err },
			new(*tensor.ShapeError), "invalid shape [3] at dimension 0: linalg.Solve: b has 3 rows, a (shape [2, 2]) has 2"},
		{"solve batch", func() error {
			_, err := linalg.Solve(leaf[float64](make([]float64, 8), 2, 2, 2), leaf[float64](make([]float64, 12), 3, 2, 2))
			return err
		}, new(*tensor.ShapeError), "linalg.Solve: the batch dimensions of a [2, 2, 2] and b [3, 2, 2] do not broadcast"},
		{"norm order", func() error { _, err := linalg.Norm(rect, linalg.Ord(42)); return err },
			new(*tensor.ArgError), "linalg.Norm: unknown matrix norm order 42"},
		{"norm of empty", func() error { _, err := linalg.Norm(leaf[float64](nil, 0, 2), linalg.Two); return err },
			new(*tensor.ArgError), "linalg.Norm: the 2 norm of an empty 0×2 matrix is undefined"},
		{"svd of NaN", func() error {
			_, _, _, err := linalg.SVD(leaf[float64]([]float64{1, 2, 3, 4, math.NaN(), 1, 1, 1}, 2, 2, 2))
			return err
		}, new(*linalg.ConvergenceError), "linalg.SVD: the matrix at batch index [1] did not converge"},
		{"input error", func() error { _, err := linalg.Inv(rect.Reshape(7)); return err },
			new(*expr.ShapeOpError), "expr: reshape: shape [7] is invalid for input of size 6"},
		{"zero expression", func() error { _, err := linalg.Inv(expr.Expr[float64]{}); return err },
			new(*tensor.ArgError), "use of a zero Expr"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.run()
			require.Error(t, err)
			assert.ErrorAs(t, err, c.as)
			assert.Contains(t, err.Error(), c.text)
		})
	}
	t.Run("nil executor", func(t *testing.T) {
		_, err := linalg.Inv(leaf[float64](eye(2), 2, 2), linalg.Using(nil))
		assert.ErrorIs(t, err, exec.ErrNilExecutor)
	})
	t.Run("first failing matrix on any worker count", func(t *testing.T) {
		// 40 singular matrices among 64: the error names the first, [3].
		const n = 8
		data := make([]float64, 64*n*n)
		for b := range 64 {
			for i := range n {
				if b < 3 || b%3 != 0 || i < n-1 {
					data[b*n*n+i*n+i] = 1
				}
			}
		}
		for _, w := range []int{1, 2, 8} {
			x := exec.New(exec.Workers(w))
			_, err := linalg.Inv(leaf[float64](data, 64, n, n), linalg.Using(x))
			x.Close()
			var se *linalg.SingularError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, []int{3}, se.Batch, "workers %d", w)
		}
	})
}

// TestEighReadsOneTriangle checks that NaN in the triangle Eigh does not
// read is ignored, and NaN in the one it reads is a *ConvergenceError.
func TestEighReadsOneTriangle(t *testing.T) {
	nan := math.NaN()
	w, _, err := linalg.Eigh(leaf[float64]([]float64{2, nan, 1, 2}, 2, 2))
	require.NoError(t, err)
	assertNear(t, w.Values(), []float64{1, 3}, 1e-12, "eigenvalues of [[2, 1], [1, 2]]")
	_, _, err = linalg.Eigh(leaf[float64]([]float64{2, nan, 1, 2}, 2, 2), linalg.Upper())
	var ce *linalg.ConvergenceError
	require.ErrorAs(t, err, &ce)
	assert.EqualError(t, err, "linalg.Eigh: the matrix did not converge (does it hold NaN or infinities?)")
}
