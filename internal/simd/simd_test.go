package simd_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

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
var lengths = []int{0, 1, 3, 4, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 67, 100, 257}

func TestEnabledOnAVX2(t *testing.T) {
	_, ok := simd.BinaryOf[float64](simd.Add)
	if runtime.GOARCH != "amd64" {
		assert.False(t, ok)
		return
	}
	assert.Equal(t, simd.Enabled, ok, "lookups follow Enabled")
}

func testBinary[T simd.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, op := range binOps {
		k, ok := simd.BinaryOf[T](op)
		if !ok {
			t.Skip("no AVX2 loops here")
		}
		for _, n := range lengths {
			a, b := values[T](r, n+1)[1:], values[T](r, n) // a starts off the vector alignment
			s := values[T](r, 1)[0]
			want, got := make([]T, n), make([]T, n+1)
			for i := range want {
				want[i] = apply(op, a[i], b[i])
			}
			k.VV(got[:n], a, b)
			sameSlices(t, want, got, fmt.Sprintf("op %d vv n=%d", op, n))
			assert.Zero(t, got[n], "wrote past d")
			for i := range want {
				want[i] = apply(op, a[i], s)
			}
			k.VS(got[:n], a, s)
			sameSlices(t, want, got, fmt.Sprintf("op %d vs n=%d", op, n))
			for i := range want {
				want[i] = apply(op, s, b[i])
			}
			k.SV(got[:n], s, b)
			sameSlices(t, want, got, fmt.Sprintf("op %d sv n=%d", op, n))
			// In place: d is a.
			for i := range want {
				want[i] = apply(op, a[i], b[i])
			}
			k.VV(a, a, b)
			sameSlices(t, want, a, fmt.Sprintf("op %d vv in place n=%d", op, n))
		}
	}
}

func testFused[T simd.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, outer := range binOps {
		for _, inner := range binOps[:3] {
			for _, left := range []bool{false, true} {
				f, ok := simd.Fused[T](outer, inner, left)
				fs, okS := simd.FusedS[T](outer, inner, left)
				if !ok || !okS {
					t.Skip("no AVX2 loops here")
				}
				ref := func(x, y, z T) T {
					in := T(apply(inner, x, y))
					if left {
						return apply(outer, in, z)
					}
					return apply(outer, z, in)
				}
				for _, n := range lengths {
					x, y, z := values[T](r, n), values[T](r, n), values[T](r, n)
					s := values[T](r, 1)[0]
					want, got := make([]T, n), make([]T, n)
					for i := range want {
						want[i] = ref(x[i], y[i], z[i])
					}
					f(got, x, y, z)
					what := fmt.Sprintf("outer %d inner %d left %v n=%d", outer, inner, left, n)
					sameSlices(t, want, got, what)
					for i := range want {
						want[i] = ref(x[i], s, z[i])
					}
					fs(got, x, s, z)
					sameSlices(t, want, got, what+" scalar y")
				}
			}
		}
	}
}

func testUnary[T simd.Float](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, op := range []simd.UnaryOp{simd.Neg, simd.Abs, simd.Sqrt, simd.Square} {
		f, ok := simd.Unary[T](op)
		if !ok {
			t.Skip("no AVX2 loops here")
		}
		for _, n := range lengths {
			x := values[T](r, n)
			want, got := make([]T, n), make([]T, n)
			for i := range want {
				want[i] = applyUnary(op, x[i])
			}
			f(got, x)
			for i := range want {
				// Neg and abs work on the sign bit: NaNs must match bit for bit too.
				if op == simd.Neg || op == simd.Abs {
					require.Equal(t, math.Float64bits(float64(want[i])), math.Float64bits(float64(got[i])), "op %d n=%d i=%d", op, n, i)
				}
			}
			sameSlices(t, want, got, fmt.Sprintf("unary %d n=%d", op, n))
		}
	}
}

func TestBinary(t *testing.T) {
	t.Run("float64", testBinary[float64])
	t.Run("float32", testBinary[float32])
}

func TestFused(t *testing.T) {
	t.Run("float64", testFused[float64])
	t.Run("float32", testFused[float32])
}

func TestUnary(t *testing.T) {
	t.Run("float64", testUnary[float64])
	t.Run("float32", testUnary[float32])
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
}

func TestOutOfRangeOps(t *testing.T) {
	_, ok := simd.BinaryOf[float64](simd.Div + 1)
	assert.False(t, ok)
	_, ok = simd.Fused[float64](simd.Add, simd.Div, true)
	assert.False(t, ok, "division is not an inner op")
	_, ok = simd.Unary[float64](simd.Square + 1)
	assert.False(t, ok)
}
