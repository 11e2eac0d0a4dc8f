package exec_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

// selectOps are the ops of ops_index.json whose result shapes depend on the
// values; the lazy indexing ops (take, gather, scatter, ...) are tested
// with the expressions that build them.
var selectOps = map[string]bool{"nonzero": true, "argwhere": true, "mask_select": true, "masked_select": true}

// TestSelectVectors runs every nonzero, argwhere, mask_select (NumPy's
// a[mask]) and masked_select case of ops_index.json.
func TestSelectVectors(t *testing.T) {
	f := vectors.Load[opCase](t, "ops_index.json")
	ran := 0
	for _, c := range f.Cases {
		if !selectOps[c.Op] {
			continue
		}
		ran++
		t.Run(c.ID+"_"+c.Op, func(t *testing.T) {
			forInputDType(t, c, 0, runSelectCase[float64], runSelectCase[float32], runSelectCase[int64], runSelectCase[bool])
		})
	}
	assert.Equal(t, 10, ran, "cases of the four ops")
}

func runSelectCase[T dtype.Elem](t *testing.T, c opCase, in *tensor.Tensor[T]) {
	x := expr.Of(in)
	var got []*tensor.Tensor[int64]
	var vals *tensor.Tensor[T]
	var err error
	switch c.Op {
	case "nonzero":
		got, err = exec.Nonzero(x)
	case "argwhere":
		var a *tensor.Tensor[int64]
		a, err = exec.ArgWhere(x)
		got = []*tensor.Tensor[int64]{a}
	case "mask_select", "masked_select":
		if mdt := inputDType(t, c, 1); mdt != "bool" {
			// A mask of another dtype is NumPy's IndexError; MaskSelect's
			// mask is an expr.Expr[bool], so Go rejects it at compile time.
			require.Equal(t, "dtype", c.ErrorKind, "a %s mask", mdt)
			return
		}
		mask := expr.Of(opInput[bool](t, c, 1))
		if c.Op == "mask_select" {
			vals, err = exec.MaskSelect(x, mask)
		} else {
			vals, err = exec.MaskedSelect(x, mask)
		}
	}
	if c.Expect == "error" {
		assertErrorKind(t, err, c.ErrorKind)
		return
	}
	require.NoError(t, err)
	want, tols := expectedOf(t, c)
	if vals != nil {
		require.Len(t, want, 1)
		assertTensor(t, vals, want[0], tols[0], "values")
		return
	}
	require.Len(t, got, len(want))
	for k := range got {
		assertTensor(t, got[k], want[k], tols[k], "output")
	}
}

// TestSelectProperties checks Nonzero, ArgWhere and MaskSelect against each
// other on a strided float input with NaNs and signed zeros.
func TestSelectProperties(t *testing.T) {
	data := []float64{0, 1, math.NaN(), math.Copysign(0, -1), 2, 0, 0, 3, -1, 0, 0, 0}
	base := tensor.Must(tensor.FromSlice(data, 3, 4))
	x := expr.Of(tensor.Must(base.Permute(1, 0))) // [4,3], not contiguous
	nz, err := exec.Nonzero(x)
	require.NoError(t, err)
	require.Len(t, nz, 2)
	aw, err := exec.ArgWhere(x)
	require.NoError(t, err)
	want := [][2]int64{}
	for i := range 4 {
		for j := range 3 {
			if v := data[j*4+i]; v != 0 {
				want = append(want, [2]int64{int64(i), int64(j)})
			}
		}
	}
	require.Equal(t, tensor.Shape{len(want), 2}, aw.Shape())
	for k, w := range want {
		assert.Equal(t, w[0], nz[0].Values()[k])
		assert.Equal(t, w[1], nz[1].Values()[k])
		assert.Equal(t, w[:], aw.Values()[2*k:2*k+2])
	}
	// x[x != 0] has the nonzero values in the same order.
	sel, err := exec.MaskSelect(x, x.Ne(x.MulScalar(0)).Or(x.Ne(x)))
	require.NoError(t, err)
	require.Equal(t, tensor.Shape{len(want)}, sel.Shape())
	rows, err := exec.MaskSelect(x, expr.Of(tensor.Must(tensor.FromSlice([]bool{true, false, false, true}, 4))))
	require.NoError(t, err)
	assert.Equal(t, tensor.Shape{2, 3}, rows.Shape())
}

// TestSelectErrors checks the typed errors of MaskSelect.
func TestSelectErrors(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.New[float32](3, 4)))
	var shapeErr *tensor.ShapeError
	_, err := exec.MaskSelect(x, expr.Of(tensor.Must(tensor.New[bool](3, 4, 1))))
	assert.ErrorAs(t, err, &shapeErr)
	_, err = exec.MaskSelect(x, expr.Of(tensor.Must(tensor.New[bool](3, 5))))
	require.ErrorAs(t, err, &shapeErr)
	assert.Equal(t, 1, shapeErr.Axis)
	assert.Contains(t, err.Error(), "dimension is 4 but corresponding boolean dimension is 5")
	_, err = exec.MaskedSelect(x, expr.Of(tensor.Must(tensor.New[bool](2))))
	var bErr *tensor.BroadcastError
	assert.ErrorAs(t, err, &bErr)
	_, err = exec.Nonzero(x, exec.Using(nil))
	assert.ErrorIs(t, err, exec.ErrNilExecutor)
}
