package simd_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/internal/simd"
)

var binOps = []simd.Op{simd.Add, simd.Sub, simd.Mul, simd.Div}

func apply[T simd.Float](op simd.Op, a, b T) T {
	switch op {
	case simd.Add:
		return T(a + b)
	case simd.Sub:
		return T(a - b)
	case simd.Mul:
		return T(a * b)
	}
	return T(a / b)
}

func applyUnary[T simd.Float](op simd.UnaryOp, a T) T {
	switch op {
	case simd.Neg:
		return -a
	case simd.Abs:
		return T(math.Abs(float64(a)))
	case simd.Sqrt:
		return T(math.Sqrt(float64(a)))
	case simd.Copy:
		return a
	case simd.Relu:
		if a > 0 || a != a {
			return a
		}
		return 0
	case simd.Sign:
		switch {
		case a > 0:
			return 1
		case a < 0:
			return -1
		case a == 0:
			return 0
		}
		return a
	}
	return T(a * a)
}

// values returns n values for T that mix ordinary numbers with the special
// ones: ±0, ±Inf, NaN, subnormals, and results that overflow or underflow.
func values[T simd.Float](r *rand.Rand, n int) []T {
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		1e-310, -1e-40, 1e308, -3e38, 1, -1, 0.1, 1.5}
	v := make([]T, n)
	for i := range v {
		if r.IntN(4) == 0 {
			v[i] = T(special[r.IntN(len(special))])
		} else {
			v[i] = T(r.NormFloat64() * math.Pow(10, float64(r.IntN(9)-4)))
		}
	}
	return v
}

// same is bit equality, with any NaN equal to any NaN.
func same[T simd.Float](a, b T) bool {
	if a != a && b != b {
		return true
	}
	return math.Float64bits(float64(a)) == math.Float64bits(float64(b))
}

func sameSlices[T simd.Float](t *testing.T, want, got []T, what string) {
	t.Helper()
	for i := range want {
		if !same(want[i], got[i]) {
			t.Fatalf("%s: element %d of %d: got %v, want %v", what, i, len(want), got[i], want[i])
		}
	}
}

// lengths cover the unrolled loop, the one-vector loop and the scalar tail.
func TestEnabledOnAVX2(t *testing.T) {
	_, ok := simd.BinaryOf[float64](simd.Add)
	if runtime.GOARCH != "amd64" {
		assert.False(t, ok)
		return
	}
	assert.Equal(t, simd.Enabled, ok, "lookups follow Enabled")
}

// maxLen: every length up to it is tried, covering the unrolled loop (16
// or 32 elements a step), the one-vector loop and the scalar tail.
const maxLen = 140

// maxIntLen reaches the unrolled loop of every integer type after the
// longest peel: 63 int8s, then two steps of 128.
const maxIntLen = 63 + 2*128 + 64

// guard is the number of cells checked on each side of d.
const guard = 9

// form is one loop under test: run computes d from the vector operands v
// (each of length len(d)) and the scalar s; ref is the reference for one
// element.
type form[T simd.Float] struct {
	name    string
	vectors int
	run     func(d []T, v [][]T, s T)
	ref     func(v []T, s T) T
}

// forms lists every loop of the package for T, and with stream its
// streaming forms.
func forms[T simd.Float](t *testing.T, stream bool) []form[T] {
	binaryOf, fusedOf, fusedSOf, unaryOf := simd.BinaryOf[T], simd.Fused[T], simd.FusedS[T], simd.Unary[T]
	if stream {
		binaryOf, fusedOf, fusedSOf, unaryOf = simd.BinaryStreamOf[T], simd.FusedStream[T], simd.FusedSStream[T], simd.UnaryStream[T]
	}
	var fs []form[T]
	for _, op := range binOps {
		k, ok := binaryOf(op)
		if !ok {
			t.Skip("no AVX2 loops here")
		}
		fs = append(fs,
			form[T]{fmt.Sprintf("op %d vv", op), 2, func(d []T, v [][]T, _ T) { k.VV(d, v[0], v[1]) }, func(v []T, _ T) T { return apply(op, v[0], v[1]) }},
			form[T]{fmt.Sprintf("op %d vs", op), 1, func(d []T, v [][]T, s T) { k.VS(d, v[0], s) }, func(v []T, s T) T { return apply(op, v[0], s) }},
			form[T]{fmt.Sprintf("op %d sv", op), 1, func(d []T, v [][]T, s T) { k.SV(d, s, v[0]) }, func(v []T, s T) T { return apply(op, s, v[0]) }},
		)
	}
	for _, outer := range binOps {
		for _, inner := range binOps[:3] {
			for _, left := range []bool{false, true} {
				f, _ := fusedOf(outer, inner, left)
				fS, _ := fusedSOf(outer, inner, left)
				ref := func(x, y, z T) T {
					in := T(apply(inner, x, y))
					if left {
						return apply(outer, in, z)
					}
					return apply(outer, z, in)
				}
				name := fmt.Sprintf("outer %d inner %d left %v", outer, inner, left)
				fs = append(fs,
					form[T]{name, 3, func(d []T, v [][]T, _ T) { f(d, v[0], v[1], v[2]) }, func(v []T, _ T) T { return ref(v[0], v[1], v[2]) }},
					form[T]{name + " scalar y", 2, func(d []T, v [][]T, s T) { fS(d, v[0], s, v[1]) }, func(v []T, s T) T { return ref(v[0], s, v[1]) }},
				)
			}
		}
	}
	for _, op := range []simd.UnaryOp{simd.Neg, simd.Abs, simd.Sqrt, simd.Square, simd.Copy, simd.Relu, simd.Sign} {
		f, _ := unaryOf(op)
		fs = append(fs, form[T]{fmt.Sprintf("unary %d", op), 1, func(d []T, v [][]T, _ T) { f(d, v[0]) }, func(v []T, _ T) T { return applyUnary(op, v[0]) }})
	}
	return fs
}

// testForms runs every loop (streaming or not) at every length up to
// maxLen, with operands starting at different offsets, d at every offset
// from a 64-byte boundary (the streaming loops' peel), guard cells on both
// sides of d, and in place with d each operand in turn.
func testForms[T simd.Float](t *testing.T, stream bool) {
	r := rand.New(rand.NewPCG(1, 2))
	sentinel := T(-12345.5)
	for _, f := range forms[T](t, stream) {
		for n := 0; n <= maxLen; n++ {
			v := make([][]T, f.vectors)
			for k := range v {
				v[k] = values[T](r, n+k+1)[k+1:]
			}
			s := values[T](r, 1)[0]
			want := make([]T, n)
			args := make([]T, f.vectors)
			for i := range want {
				for k := range v {
					args[k] = v[k][i]
				}
				want[i] = f.ref(args, s)
			}
			// d at every offset from a 64-byte boundary, by its address.
			size := int(reflect.TypeFor[T]().Size())
			buf := make([]T, n+2*guard+64/size)
			base := int(reflect.ValueOf(buf).Pointer() % 64)
			for lane := 0; lane < 64/size; lane++ {
				off := guard + (lane*size-base+64)%64/size
				for i := range buf {
					buf[i] = sentinel
				}
				f.run(buf[off:off+n], v, s)
				what := fmt.Sprintf("%s n=%d, d %d bytes past a 64-byte boundary", f.name, n, lane*size)
				sameSlices(t, want, buf[off:off+n], what)
				for i, x := range buf {
					if (i < off || i >= off+n) && x != sentinel {
						t.Fatalf("%s: wrote outside d, at %d", what, i-off)
					}
				}
			}
			what := fmt.Sprintf("%s n=%d", f.name, n)
			for k := range v { // in place: d is operand k
				in := make([][]T, len(v))
				copy(in, v)
				in[k] = append([]T(nil), v[k]...)
				f.run(in[k], in, s)
				sameSlices(t, want, in[k], fmt.Sprintf("%s in place as operand %d", what, k))
			}
		}
	}
}

// bothLoads runs f with the loops reading memory in whole vectors and in
// halves (see splitLoads): each loop has its unrolled part in both forms.
func bothLoads(t *testing.T, f func(t *testing.T)) {
	for _, split := range []bool{false, true} {
		t.Run(fmt.Sprintf("split=%v", split), func(t *testing.T) {
			defer simd.SetSplitLoads(split)()
			f(t)
		})
	}
}

func TestForms(t *testing.T) {
	bothLoads(t, func(t *testing.T) {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("float64 stream=%v", stream), func(t *testing.T) { testForms[float64](t, stream) })
			t.Run(fmt.Sprintf("float32 stream=%v", stream), func(t *testing.T) { testForms[float32](t, stream) })
		}
		simd.Fence()
	})
}

// testUnary also requires neg, abs and copy to give NaNs the same bits.
func testUnary[T simd.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, op := range []simd.UnaryOp{simd.Neg, simd.Abs, simd.Sqrt, simd.Square, simd.Copy, simd.Relu, simd.Sign} {
		f, ok := simd.Unary[T](op)
		if !ok {
			t.Skip("no AVX2 loops here")
		}
		for n := 0; n <= maxLen; n++ {
			x := values[T](r, n)
			want, got := make([]T, n), make([]T, n)
			for i := range want {
				want[i] = applyUnary(op, x[i])
			}
			f(got, x)
			for i := range want {
				// Neg and abs work on the sign bit and copy moves bits: NaNs
				// must match bit for bit too.
				if op == simd.Neg || op == simd.Abs || op == simd.Copy {
					require.Equal(t, math.Float64bits(float64(want[i])), math.Float64bits(float64(got[i])), "op %d n=%d i=%d", op, n, i)
				}
			}
			sameSlices(t, want, got, fmt.Sprintf("unary %d n=%d", op, n))
		}
	}
}

func TestUnary(t *testing.T) {
	bothLoads(t, func(t *testing.T) {
		t.Run("float64", testUnary[float64])
		t.Run("float32", testUnary[float32])
	})
}

func TestShortOperandPanics(t *testing.T) {
	k, ok := simd.BinaryOf[float64](simd.Add)
	if !ok {
		t.Skip("no AVX2 loops here")
	}
	d := make([]float64, 8)
	assert.Panics(t, func() { k.VV(d, make([]float64, 8), make([]float64, 7)) })
	assert.Panics(t, func() { k.SV(d, 1, make([]float64, 3)) })
}

func TestDisabled(t *testing.T) {
	saved := simd.Enabled
	t.Cleanup(func() { simd.Enabled = saved })
	simd.Enabled = false
	_, ok := simd.BinaryOf[float64](simd.Add)
	assert.False(t, ok)
	_, ok = simd.Fused[float32](simd.Add, simd.Mul, true)
	assert.False(t, ok)
	_, ok = simd.FusedS[float32](simd.Add, simd.Mul, true)
	assert.False(t, ok)
	_, ok = simd.Unary[float64](simd.Sqrt)
	assert.False(t, ok)
	_, ok = simd.IntBinaryOf[int32](simd.Add)
	assert.False(t, ok)
}

func TestOutOfRangeOps(t *testing.T) {
	_, ok := simd.BinaryOf[float64](simd.Div + 1)
	assert.False(t, ok)
	_, ok = simd.Fused[float64](simd.Add, simd.Div, true)
	assert.False(t, ok, "division is not an inner op")
	_, ok = simd.Unary[float64](simd.Sign + 1)
	assert.False(t, ok)
}

// testIntBinary runs every integer loop (streaming or not) at every length
// up to maxIntLen, with d at every offset from a 64-byte boundary (the
// streaming loops' peel), against the Go loop: wrapping results must match
// exactly.
func testIntBinary[T simd.Int](t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	val := func() T {
		switch r.IntN(4) {
		case 0: // extremes: wrap around
			return T(r.IntN(3)-1) + T(1)<<(8*unsafe.Sizeof(T(0))-1)
		case 1:
			return T(r.IntN(5)) - 2
		}
		return T(r.Uint64())
	}
	ops := map[simd.Op]func(a, b T) T{
		simd.Add: func(a, b T) T { return a + b },
		simd.Sub: func(a, b T) T { return a - b },
		simd.Mul: func(a, b T) T { return a * b },
	}
	for op, ref := range ops {
		for _, lookup := range []func(simd.Op) (simd.Binary[T], bool){simd.IntBinaryOf[T], simd.IntBinaryStreamOf[T]} {
			k, ok := lookup(op)
			if size := unsafe.Sizeof(T(0)); op == simd.Mul && (size == 8 || size == 1) {
				require.False(t, ok, "AVX2 has no 8- or 64-bit multiply")
				continue
			}
			if !ok {
				t.Skip("no AVX2 loops here")
			}
			size := int(unsafe.Sizeof(T(0)))
			for n := 0; n <= maxIntLen; n += 1 + n/64 {
				lane := n % (64 / size) // d lane*size bytes past a 64-byte boundary
				x, y, s := make([]T, n), make([]T, n), val()
				for i := range x {
					x[i], y[i] = val(), val()
				}
				buf := make([]T, n+64/size)
				base := int(uintptr(unsafe.Pointer(unsafe.SliceData(buf))) % 64)
				off := (lane*size - base + 64) % 64 / size
				d := buf[off : off+n]
				k.VV(d, x, y)
				for i := range d {
					require.Equal(t, ref(x[i], y[i]), d[i], "op %d VV n=%d i=%d", op, n, i)
				}
				k.VS(d, x, s)
				for i := range d {
					require.Equal(t, ref(x[i], s), d[i], "op %d VS n=%d i=%d", op, n, i)
				}
				k.SV(d, s, y)
				for i := range d {
					require.Equal(t, ref(s, y[i]), d[i], "op %d SV n=%d i=%d", op, n, i)
				}
			}
		}
	}
	simd.Fence()
	_, ok := simd.IntBinaryOf[T](simd.Div)
	assert.False(t, ok, "no integer division")
}

func TestIntBinary(t *testing.T) {
	bothLoads(t, func(t *testing.T) {
		t.Run("int64", testIntBinary[int64])
		t.Run("uint64", testIntBinary[uint64])
		t.Run("int32", testIntBinary[int32])
		t.Run("uint32", testIntBinary[uint32])
		t.Run("int16", testIntBinary[int16])
		t.Run("uint16", testIntBinary[uint16])
		t.Run("int8", testIntBinary[int8])
		t.Run("uint8", testIntBinary[uint8])
	})
}
