package exec_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestStreamingStores lowers the output size from which kernels store
// around the caches, so that small graphs stream, and requires the same
// bits as without streaming stores, for every kind of kernel that writes an
// output directly, into destinations at every alignment. An output updated
// in place never streams.
func TestStreamingStores(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no AVX2 loops on this machine")
	}
	t.Run("float64", testStreamingStores[float64])
	t.Run("float32", testStreamingStores[float32])
}

func testStreamingStores[T dtype.Float](t *testing.T) {
	const R, C = 23, 67
	r := newRand(61)
	a, b, c := randomTensor[T](t, r, R, C), randomTensor[T](t, r, R, C), randomTensor[T](t, r, R, C)
	x, y, z := expr.Of(a), expr.Of(b), expr.Of(c)
	row := expr.Of(randomTensor[T](t, r, 1, C))
	cases := map[string]expr.Expr[T]{
		"add":         x.Add(y),
		"scalar left": expr.Scalar(T(3)).Sub(y),
		"sqrt":        x.Abs().Sqrt(),
		"fused":       x.Mul(y).Add(z),
		"W3":          x.Mul(y).Add(z).Mul(x.Sub(y)).Div(z.AddScalar(1.5)),
		"row":         x.Mul(row),
		"exp":         x.Exp().Add(y), // a Go kernel before the streamed one
	}
	eval := func(stream bool, name string, e expr.Expr[T], off int) ([]T, string) {
		if stream {
			defer exec.SetStreamBytes(0)()
		}
		var plan bytes.Buffer
		x := exec.New(exec.Debug(&plan), exec.BlockSize(64), exec.Workers(2), exec.Grain(1))
		defer x.Close()
		buf := tensor.Must(tensor.New[T](R*C + 8))
		dst := tensor.Must(tensor.Must(buf.Slice(0, off, off+R*C, 1)).Reshape(R, C))
		require.NoError(t, exec.EvalToWith(x, dst, e), name)
		return dst.Values(), plan.String()
	}
	for name, e := range cases {
		for off := range 8 {
			want, _ := eval(false, name, e, off)
			got, plan := eval(true, name, e, off)
			assert.Contains(t, plan, "streaming stores", name)
			for i := range want {
				if !sameValue(want[i], got[i]) {
					t.Fatalf("%s at offset %d: element %d: %v streamed, %v not", name, off, i, got[i], want[i])
				}
			}
		}
	}

	// In place: a = a*b + c reads a's lines anyway.
	defer exec.SetStreamBytes(0)()
	var plan bytes.Buffer
	own := a.Clone()
	require.NoError(t, exec.EvalToWith(exec.New(exec.Debug(&plan)), own, expr.Of(own).Mul(y).Add(z)))
	assert.NotContains(t, plan.String(), "streaming stores", "in place")
	assert.True(t, strings.Contains(plan.String(), "(direct)"), plan.String())
	for i, v := range own.Values() {
		want := T(T(a.Values()[i]*b.Values()[i]) + c.Values()[i])
		require.True(t, sameValue(want, v), fmt.Sprint("in place, element ", i))
	}
}
