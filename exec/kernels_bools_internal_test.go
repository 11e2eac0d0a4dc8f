package exec

import (
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
)

// TestSIMDBoolLoopsWiredIn checks that the comparisons of float32,
// float64, int64 and int32, where over the floats and the cast of bools to
// a float look up the AVX2 loops (the executor's other tests compare
// results, which the Go loops would give too), and that other types keep
// their Go loops.
func TestSIMDBoolLoopsWiredIn(t *testing.T) {
	if _, ok := simd.CompareOf[float64](simd.Eq); !ok {
		t.Skip("no AVX2 comparison loops on this machine")
	}
	t.Run("float64", testCompareWiredIn[float64])
	t.Run("float32", testCompareWiredIn[float32])
	t.Run("int64", testCompareWiredIn[int64])
	t.Run("int32", testCompareWiredIn[int32])

	m := typedFor(dtype.Int16).(*impl[int16])
	got, ok := m.cmp(simdCmpOpsKey(simd.Eq))
	require.True(t, ok)
	name := runtime.FuncForPC(reflect.ValueOf(got.vv).Pointer()).Name()
	assert.True(t, strings.HasPrefix(name, "github.com/tensorplay/tensorplay/exec."), "int16 keeps its Go loop, not %s", name)

	w, ok := simdWhere[float32]()
	require.True(t, ok)
	want, _ := simd.WhereOf[float32]()
	assert.True(t, same(w.vv, want.VV) && same(w.vs, want.VS) && same(w.sv, want.SV))
	_, ok = simdWhere[int64]()
	assert.False(t, ok, "no where loops for integers")

	d32, d64 := make([]float32, 11), make([]float64, 11)
	c := []bool{true, false, true, true, false, false, false, true, true, false, true}
	assert.True(t, directBools(&d32, &c))
	assert.True(t, directBools(&d64, &c))
	assert.Equal(t, []float32{1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1}, d32)
	assert.Equal(t, []float64{1, 0, 1, 1, 0, 0, 0, 1, 1, 0, 1}, d64)
	var i64 []int64
	assert.False(t, directBools(&i64, &c), "bools to integers go through int64")
}

func testCompareWiredIn[T interface {
	dtype.Elem
	simd.CmpElem
}](t *testing.T) {
	m := typedFor(dtype.Of[T]()).(*impl[T])
	for op, o := range simdCmpOps {
		got, ok := m.cmp(op)
		require.True(t, ok, op)
		want, _ := simd.CompareOf[T](o)
		assert.True(t, same(got.vv, want.VV) && same(got.vs, want.VS) && same(got.sv, want.SV), "%s", op)
	}
}

// simdCmpOpsKey is the expr op of a comparison.
func simdCmpOpsKey(o simd.CmpOp) expr.Op {
	for op, c := range simdCmpOps {
		if c == o {
			return op
		}
	}
	panic("no such comparison")
}
