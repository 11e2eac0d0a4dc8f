package exec

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
)

// TestSIMDKernelsWiredIn checks that float32 and float64 look up the AVX2
// loops for every op and form they cover: the kernels are those very
// functions (exec's other tests compare results, which the Go loops would
// give too).
func TestSIMDKernelsWiredIn(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no AVX2 loops on this machine")
	}
	t.Run("float64", testSIMDKernelsWiredIn[float64])
	t.Run("float32", testSIMDKernelsWiredIn[float32])
}

func same(a, b any) bool { return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() }

func testSIMDKernelsWiredIn[T dtype.Float](t *testing.T) {
	m := typedFor(dtype.Of[T]()).(*impl[T])
	for op, o := range simdOps {
		got, ok := m.bin(op)
		require.True(t, ok, op)
		want, _ := simd.BinaryOf[T](o)
		assert.True(t, same(got.vv, want.VV) && same(got.vs, want.VS) && same(got.sv, want.SV), "%s", op)
		for inner, i := range simdOps {
			if i == simd.Div {
				continue
			}
			assert.True(t, m.hasFused(op, inner), "%s∘%s fuses", op, inner)
			for _, left := range []bool{false, true} {
				f, ok := m.fused(op, inner, left)
				require.True(t, ok)
				wf, _ := simd.Fused[T](o, i, left)
				fs, ok := m.fusedS(op, inner, left)
				require.True(t, ok)
				wfs, _ := simd.FusedS[T](o, i, left)
				assert.True(t, same(f, wf) && same(fs, wfs), "%s∘%s left=%v", op, inner, left)
			}
		}
	}
	for op, o := range simdUnaryOps {
		got, ok := m.un(op)
		require.True(t, ok, op)
		want, _ := simd.Unary[T](o)
		assert.True(t, same(got, want), "%s", op)
	}
	_, ok := m.un(expr.OpExp)
	assert.True(t, ok, "ops without AVX2 loops still have kernels")

	// The streaming forms.
	for op, o := range simdOps {
		got, ok := m.binStream(op)
		require.True(t, ok, op)
		want, _ := simd.BinaryStreamOf[T](o)
		assert.True(t, same(got.vv, want.VV) && same(got.vs, want.VS) && same(got.sv, want.SV), "%s stream", op)
		for inner, i := range simdOps {
			if i == simd.Div {
				continue
			}
			f, ok := m.fusedStream(op, inner, true)
			require.True(t, ok)
			wf, _ := simd.FusedStream[T](o, i, true)
			fs, ok := m.fusedSStream(op, inner, false)
			require.True(t, ok)
			wfs, _ := simd.FusedSStream[T](o, i, false)
			assert.True(t, same(f, wf) && same(fs, wfs), "%s∘%s stream", op, inner)
		}
	}
	for op, o := range simdUnaryOps {
		got, ok := m.unStream(op)
		require.True(t, ok, op)
		want, _ := simd.UnaryStream[T](o)
		assert.True(t, same(got, want), "%s stream", op)
	}
}
