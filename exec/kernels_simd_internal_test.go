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
	t.Run("int64", testSIMDIntKernelsWiredIn[int64])
	t.Run("uint64", testSIMDIntKernelsWiredIn[uint64])
	t.Run("int32", testSIMDIntKernelsWiredIn[int32])
	t.Run("uint32", testSIMDIntKernelsWiredIn[uint32])
	t.Run("int16", testSIMDIntKernelsWiredIn[int16])
	t.Run("uint16", testSIMDIntKernelsWiredIn[uint16])
	t.Run("int8", testSIMDIntKernelsWiredIn[int8])
	t.Run("uint8", testSIMDIntKernelsWiredIn[uint8])
}

// testSIMDIntKernelsWiredIn: the integer types look up the AVX2 loops for
// add, sub and (16- and 32-bit) mul, plain and streaming, and their Go loops for
// the rest; the planner counts exactly those as AVX2 loops.
func testSIMDIntKernelsWiredIn[T simd.Int](t *testing.T) {
	dt := dtype.Of[T]()
	m := typedFor(dt).(*impl[T])
	g := &region{slotDT: []dtype.DType{dt, dt, dt}}
	for op, o := range simdOps {
		want, ok := simd.IntBinaryOf[T](o)
		wantS, _ := simd.IntBinaryStreamOf[T](o)
		got, gotOK := m.binFor(op, false)
		gotS, _ := m.binFor(op, true)
		in := instrSpec{op: op, dst: 2, args: []int{0, 1}}
		assert.Equal(t, ok, g.vectorized(in), "%s: vectorized", op)
		if !ok {
			assert.True(t, gotOK || op == expr.OpDiv, "%s: a Go loop", op)
			continue
		}
		assert.True(t, same(got.vv, want.VV) && same(got.vs, want.VS) && same(got.sv, want.SV), "%s", op)
		assert.True(t, same(gotS.vv, wantS.VV) && same(gotS.vs, wantS.VS) && same(gotS.sv, wantS.SV), "%s stream", op)
	}
	// Division: int32's AVX2 loops, streaming or not (there is no
	// streaming form), the Go loops for the other types.
	for op, floor := range simdDivOps {
		want, ok := simd.IntDivOf[T](floor)
		in := instrSpec{op: op, dst: 2, args: []int{0, 1}}
		assert.Equal(t, ok, g.simdDiv(in), "%s: an AVX2 loop", op)
		assert.False(t, g.vectorized(in), "%s: bound by the divider, not memory", op)
		for _, stream := range []bool{false, true} {
			got, gotOK := m.binFor(op, stream)
			require.True(t, gotOK, "%s: a loop", op)
			if ok {
				assert.True(t, same(got.vv, want.VV) && same(got.vs, want.VS) && same(got.sv, want.SV), "%s stream %v", op, stream)
			}
		}
	}
	if dt == dtype.Int32 && simd.Enabled {
		_, ok := simd.IntDivOf[T](false)
		assert.True(t, ok, "int32 has division loops")
	}
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

	// The streaming forms, as instr and fusedInstr pick them.
	for op, o := range simdOps {
		got, ok := m.binFor(op, true)
		require.True(t, ok, op)
		want, _ := simd.BinaryStreamOf[T](o)
		plain, _ := simd.BinaryOf[T](o)
		assert.True(t, same(got.vv, want.VV) && same(got.vs, want.VS) && same(got.sv, want.SV), "%s stream", op)
		assert.False(t, same(want.VV, plain.VV), "%s: the streaming loop is another function", op)
		got, _ = m.binFor(op, false)
		assert.True(t, same(got.vv, plain.VV), "%s without stream", op)
		for inner, i := range simdOps {
			if i == simd.Div {
				continue
			}
			for _, left := range []bool{false, true} {
				fused, fusedS := m.fusedFor(op, inner, left, true)
				f, ok := fused(op, inner, left)
				require.True(t, ok)
				fs, ok := fusedS(op, inner, left)
				require.True(t, ok)
				wf, _ := simd.FusedStream[T](o, i, left)
				wfs, _ := simd.FusedSStream[T](o, i, left)
				assert.True(t, same(f, wf) && same(fs, wfs), "%s∘%s left=%v stream", op, inner, left)
			}
		}
	}
	for op, o := range simdUnaryOps {
		got, ok := m.unFor(op, true)
		require.True(t, ok, op)
		want, _ := simd.UnaryStream[T](o)
		assert.True(t, same(got, want), "%s stream", op)
	}
	_, ok = m.unFor(expr.OpExp, true)
	assert.True(t, ok, "ops without streaming loops fall back to their kernels")
}
