package gonumx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/mat"

	"github.com/tensorplay/tensorplay/interop/gonumx"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestMissingArguments calls every entry point with nil and typed-nil
// arguments: each is a *tensor.ArgError naming the function and the
// argument, never a panic.
func TestMissingArguments(t *testing.T) {
	var (
		t64 *tensor.Tensor[float64]
		t32 *tensor.Tensor[float32]
		d   *mat.Dense
		v   *mat.VecDense
		s   *mat.SymDense
	)
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"Dense nil", func() error { _, err := gonumx.Dense(t64); return err }, "gonumx.Dense: t is nil"},
		{"Matrix nil", func() error { _, err := gonumx.Matrix(t64); return err }, "gonumx.Matrix: t is nil"},
		{"VecDense nil", func() error { _, err := gonumx.VecDense(t64); return err }, "gonumx.VecDense: t is nil"},
		{"General32 nil", func() error { _, err := gonumx.General32(t32); return err }, "gonumx.General32: t is nil"},
		{"Vector32 nil", func() error { _, err := gonumx.Vector32(t32); return err }, "gonumx.Vector32: t is nil"},
		{"FromMatrix nil", func() error { _, err := gonumx.FromMatrix(nil); return err }, "gonumx.FromMatrix: m is nil"},
		{"FromMatrix typed nil Dense", func() error { _, err := gonumx.FromMatrix(d); return err }, "gonumx.FromMatrix: m is nil"},
		{"FromMatrix typed nil VecDense", func() error { _, err := gonumx.FromMatrix(v); return err }, "gonumx.FromMatrix: m is nil"},
		{"FromMatrix typed nil SymDense", func() error { _, err := gonumx.FromMatrix(s); return err }, "gonumx.FromMatrix: m is nil"},
		{"FromMatrix transpose of nil", func() error { _, err := gonumx.FromMatrix(mat.Transpose{}); return err }, "gonumx.FromMatrix: m is the transpose of nil"},
		{"FromMatrix transpose of typed nil", func() error {
			_, err := gonumx.FromMatrix(mat.Transpose{Matrix: d})
			return err
		}, "gonumx.FromMatrix: m is the transpose of nil"},
		{"FromMatrix nil transpose pointer", func() error { _, err := gonumx.FromMatrix((*mat.Transpose)(nil)); return err }, "gonumx.FromMatrix: m is nil"},
		{"FromVector nil", func() error { _, err := gonumx.FromVector(nil); return err }, "gonumx.FromVector: v is nil"},
		{"FromVector typed nil", func() error { _, err := gonumx.FromVector(v); return err }, "gonumx.FromVector: v is nil"},
		{"FromVector transpose of nil", func() error { _, err := gonumx.FromVector(mat.TransposeVec{}); return err }, "gonumx.FromVector: v is the transpose of nil"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = c.call() })
			var ae *tensor.ArgError
			require.ErrorAs(t, err, &ae)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestZeroValues checks zero-value arguments: empty gonum values give empty
// tensors, as the package documentation says, and invalid BLAS layouts are
// errors, never panics.
func TestZeroValues(t *testing.T) {
	cases := []struct {
		name  string
		call  func() (*tensor.Tensor[float64], error)
		shape tensor.Shape
	}{
		{"FromMatrix zero Dense", func() (*tensor.Tensor[float64], error) { return gonumx.FromMatrix(&mat.Dense{}) }, tensor.Shape{0, 0}},
		{"FromMatrix zero VecDense", func() (*tensor.Tensor[float64], error) { return gonumx.FromMatrix(&mat.VecDense{}) }, tensor.Shape{0, 0}}, // gonum: 0×0
		{"FromVector zero VecDense", func() (*tensor.Tensor[float64], error) { return gonumx.FromVector(&mat.VecDense{}) }, tensor.Shape{0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var x *tensor.Tensor[float64]
			var err error
			require.NotPanics(t, func() { x, err = c.call() })
			require.NoError(t, err)
			assert.Equal(t, c.shape, x.Shape())
		})
	}
	t.Run("FromGeneral32 zero", func(t *testing.T) {
		x, err := gonumx.FromGeneral32(blas32.General{})
		require.NoError(t, err)
		assert.Equal(t, tensor.Shape{0, 0}, x.Shape())
	})
	t.Run("FromVector32 zero", func(t *testing.T) {
		x, err := gonumx.FromVector32(blas32.Vector{})
		require.NoError(t, err)
		assert.Equal(t, tensor.Shape{0}, x.Shape())
	})
	bad := []struct {
		name string
		call func() error
	}{
		{"FromGeneral32 negative rows", func() error { _, err := gonumx.FromGeneral32(blas32.General{Rows: -1, Cols: 2, Stride: 2}); return err }},
		{"FromGeneral32 short data", func() error {
			_, err := gonumx.FromGeneral32(blas32.General{Rows: 2, Cols: 2, Stride: 2, Data: make([]float32, 3)})
			return err
		}},
		{"FromVector32 negative length", func() error { _, err := gonumx.FromVector32(blas32.Vector{N: -1, Inc: 1}); return err }},
		{"FromVector32 short data", func() error {
			_, err := gonumx.FromVector32(blas32.Vector{N: 3, Inc: 2, Data: make([]float32, 4)})
			return err
		}},
		{"Dense zero tensor", func() error { _, err := gonumx.Dense(&tensor.Tensor[float64]{}); return err }},
		{"VecDense zero tensor", func() error { _, err := gonumx.VecDense(&tensor.Tensor[float64]{}); return err }},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = c.call() })
			assert.Error(t, err)
		})
	}
}
