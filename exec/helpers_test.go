package exec_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Executors shared by the tests (each owns a worker pool, so tests do not
// make their own). tiled forces tiling and the pool on small inputs.
var (
	serial = exec.New(exec.Workers(1))
	tiled  = exec.New(exec.Workers(2), exec.Grain(1), exec.BlockSize(16))
	wide   = exec.New(exec.Workers(8), exec.Grain(1), exec.BlockSize(16))
	odd    = exec.New(exec.Workers(3), exec.Grain(1), exec.BlockSize(37))
)

// testExecutors are the executors every op is checked with.
var testExecutors = []struct {
	name string
	x    *exec.Executor
}{{"default", exec.Default}, {"serial", serial}, {"tiled", tiled}}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x7e57)) }

// fromValues returns a row-major tensor holding vals.
func fromValues[T dtype.Elem](t testing.TB, vals []T, shape ...int) *tensor.Tensor[T] {
	t.Helper()
	return tensor.Must(tensor.FromSlice(vals, shape...))
}

// randomTensor returns a row-major tensor of random values.
func randomTensor[T dtype.Elem](t testing.TB, r *rand.Rand, shape ...int) *tensor.Tensor[T] {
	t.Helper()
	n, err := tensor.Shape(shape).Numel()
	require.NoError(t, err)
	return fromValues(t, randomValues[T](r, n), shape...)
}

// broadcastValues returns x's elements broadcast to shape, row-major: the
// reference side of every comparison reads its operands through this.
func broadcastValues[T dtype.Elem](t testing.TB, x *tensor.Tensor[T], shape tensor.Shape) []T {
	t.Helper()
	v := tensor.Must(x.BroadcastTo(shape...))
	return v.Values()
}

// randomValues returns n values of T drawn so that the interesting cases
// show up: extremes, zeros and small values for integers; NaN, ±Inf, ±0,
// halves and values of very different magnitudes for floats.
func randomValues[T dtype.Elem](r *rand.Rand, n int) []T {
	var z T
	var out any
	switch any(z).(type) {
	case bool:
		v := make([]bool, n)
		for i := range v {
			v[i] = r.IntN(2) == 1
		}
		out = v
	case int8:
		out = randInts[int8](r, n)
	case int16:
		out = randInts[int16](r, n)
	case int32:
		out = randInts[int32](r, n)
	case int64:
		out = randInts[int64](r, n)
	case uint8:
		out = randInts[uint8](r, n)
	case uint16:
		out = randInts[uint16](r, n)
	case uint32:
		out = randInts[uint32](r, n)
	case uint64:
		out = randInts[uint64](r, n)
	case float32:
		out = randFloats[float32](r, n)
	case float64:
		out = randFloats[float64](r, n)
	case complex64:
		re, im := randFloats[float32](r, n), randFloats[float32](r, n)
		v := make([]complex64, n)
		for i := range v {
			v[i] = complex(re[i], im[i])
		}
		out = v
	case complex128:
		re, im := randFloats[float64](r, n), randFloats[float64](r, n)
		v := make([]complex128, n)
		for i := range v {
			v[i] = complex(re[i], im[i])
		}
		out = v
	default:
		panic(fmt.Sprintf("randomValues: %T", z))
	}
	return out.([]T)
}

// intRange returns the smallest and largest value of T.
func intRange[T dtype.Integer]() (lo, hi T) {
	hi = ^T(0)
	if hi < 0 { // signed: ^0 is -1
		lo = T(1) << (8*dtype.Of[T]().Size() - 1)
		hi = ^lo
	}
	return lo, hi
}

func randInts[T dtype.Integer](r *rand.Rand, n int) []T {
	lo, hi := intRange[T]()
	special := []T{0, 1, lo, hi, lo + 1, hi - 1, T(0) - 1}
	v := make([]T, n)
	for i := range v {
		switch p := r.IntN(10); {
		case p == 0:
			v[i] = special[r.IntN(len(special))]
		case p < 4:
			v[i] = T(r.IntN(19) - 9)
		default:
			v[i] = T(r.Uint64())
		}
	}
	return v
}

func randFloats[T dtype.Float](r *rand.Rand, n int) []T {
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 0.5, -0.5, 1.5, 2.5, -2.5, 1, -1}
	scales := []float64{1e-3, 1, 10, 1e3}
	v := make([]T, n)
	for i := range v {
		switch p := r.IntN(10); {
		case p == 0:
			v[i] = T(special[r.IntN(len(special))])
		case p < 3:
			v[i] = T(float64(r.IntN(21)-10) / 2)
		default:
			v[i] = T(r.NormFloat64() * scales[r.IntN(len(scales))])
		}
	}
	return v
}

// sameValue reports whether a and b are the same value: the same bits, or
// both NaN (a NaN's payload is not part of any contract).
func sameValue[T dtype.Elem](a, b T) bool {
	switch x := any(a).(type) {
	case float32:
		y := any(b).(float32)
		return math.Float32bits(x) == math.Float32bits(y) || (x != x && y != y)
	case float64:
		y := any(b).(float64)
		return math.Float64bits(x) == math.Float64bits(y) || (x != x && y != y)
	case complex64:
		y := any(b).(complex64)
		return sameValue(real(x), real(y)) && sameValue(imag(x), imag(y))
	case complex128:
		y := any(b).(complex128)
		return sameValue(real(x), real(y)) && sameValue(imag(x), imag(y))
	}
	return a == b
}

// withinULPs matches float32 and float64 values at most n units in the last
// place apart (NaN matches NaN, infinities match only themselves); other
// types must be the same value.
func withinULPs[T dtype.Elem](n uint64) func(a, b T) bool {
	ord := func(u uint64, sign uint64) int64 { // bits to a monotonic integer
		if u&sign != 0 {
			return -int64(u &^ sign)
		}
		return int64(u)
	}
	dist := func(a, b int64) uint64 {
		if a > b {
			return uint64(a - b)
		}
		return uint64(b - a)
	}
	return func(a, b T) bool {
		switch x := any(a).(type) {
		case float64:
			y := any(b).(float64)
			if x != x || y != y || math.IsInf(x, 0) || math.IsInf(y, 0) {
				return sameValue(a, b)
			}
			return dist(ord(math.Float64bits(x), 1<<63), ord(math.Float64bits(y), 1<<63)) <= n
		case float32:
			y := any(b).(float32)
			if x != x || y != y || math.IsInf(float64(x), 0) || math.IsInf(float64(y), 0) {
				return sameValue(a, b)
			}
			return dist(ord(uint64(math.Float32bits(x)), 1<<31), ord(uint64(math.Float32bits(y)), 1<<31)) <= n
		}
		return sameValue(a, b)
	}
}

// closeTo matches values within atol + rtol times the larger magnitude of
// each other (NaN matches NaN).
func closeTo[T dtype.Float](rtol, atol float64) func(a, b T) bool {
	return func(a, b T) bool {
		x, y := float64(a), float64(b)
		if x == y || (x != x && y != y) {
			return true
		}
		return math.Abs(x-y) <= atol+rtol*max(math.Abs(x), math.Abs(y))
	}
}

// assertValues fails t when got and want differ anywhere (sameValue), listing
// the first few differing elements with their flat row-major indices.
func assertValues[T dtype.Elem](t testing.TB, want, got []T, format string, args ...any) bool {
	t.Helper()
	return assertWith(t, sameValue[T], want, got, format, args...)
}

// assertBits is assertValues, named where a test's point is that two
// computations agree bit for bit (any NaN still matches any NaN: IEEE 754
// leaves a computed NaN's sign and payload open, and they differ between
// equally right kernels such as x-y and -1*y+x).
func assertBits[T dtype.Elem](t testing.TB, want, got []T, format string, args ...any) bool {
	t.Helper()
	return assertValues(t, want, got, format, args...)
}

func assertWith[T dtype.Elem](t testing.TB, eq func(a, b T) bool, want, got []T, format string, args ...any) bool {
	t.Helper()
	ctx := fmt.Sprintf(format, args...)
	if len(want) != len(got) {
		t.Errorf("%s: %d values, want %d", ctx, len(got), len(want))
		return false
	}
	var diffs []string
	bad := 0
	for i := range want {
		if !eq(want[i], got[i]) {
			bad++
			if len(diffs) < 5 {
				diffs = append(diffs, fmt.Sprintf("[%d] got %v want %v", i, got[i], want[i]))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d values differ: %s", ctx, bad, len(want), strings.Join(diffs, "; "))
		return false
	}
	return true
}

// evalWith evaluates e with x, failing the test on error.
func evalWith[T dtype.Elem](t testing.TB, x *exec.Executor, e expr.Expr[T]) *tensor.Tensor[T] {
	t.Helper()
	require.NoError(t, e.Err())
	out, err := exec.EvalWith(x, e)
	require.NoError(t, err)
	require.Equal(t, e.Shape(), out.Shape(), "result shape")
	return out
}

// evalNoPanic is evalWith that turns a panic of the executor into a test
// failure, so one bad case does not end the whole run.
func evalNoPanic[T dtype.Elem](t testing.TB, x *exec.Executor, e expr.Expr[T]) (out *tensor.Tensor[T]) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Fatalf("evaluation panicked: %v", p)
		}
	}()
	return evalWith(t, x, e)
}
