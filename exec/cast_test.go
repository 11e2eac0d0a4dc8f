package exec_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Casts between every pair of dtypes, against Go's conversions: they agree
// with NumPy's astype wherever both are defined (integers wrap, floats
// truncate toward zero, complex to real keeps the real part, non-zero is
// true), and the data below stays where they are defined.

// refCast converts x to U directly, with one rounding.
func refCast[U, T dtype.Elem](x T) U {
	switch v := any(x).(type) {
	case bool:
		if v {
			return realTo[U](uint8(1))
		}
		return realTo[U](uint8(0))
	case int8:
		return realTo[U](v)
	case int16:
		return realTo[U](v)
	case int32:
		return realTo[U](v)
	case int64:
		return realTo[U](v)
	case uint8:
		return realTo[U](v)
	case uint16:
		return realTo[U](v)
	case uint32:
		return realTo[U](v)
	case uint64:
		return realTo[U](v)
	case float32:
		return realTo[U](v)
	case float64:
		return realTo[U](v)
	case complex64:
		return complexTo[U](complex128(v))
	case complex128:
		return complexTo[U](v)
	}
	panic(fmt.Sprintf("refCast from %T", x))
}

func realTo[U dtype.Elem, S dtype.Real](x S) U {
	var z U
	var out any
	switch any(z).(type) {
	case bool:
		out = x != 0
	case int8:
		out = int8(x)
	case int16:
		out = int16(x)
	case int32:
		out = int32(x)
	case int64:
		out = int64(x)
	case uint8:
		out = uint8(x)
	case uint16:
		out = uint16(x)
	case uint32:
		out = uint32(x)
	case uint64:
		out = uint64(x)
	case float32:
		out = float32(x)
	case float64:
		out = float64(x)
	case complex64:
		out = complex(float32(x), 0)
	case complex128:
		out = complex(float64(x), 0)
	}
	return out.(U)
}

func complexTo[U dtype.Elem](c complex128) U {
	var z U
	switch any(z).(type) {
	case complex64:
		return any(complex64(c)).(U)
	case complex128:
		return any(c).(U)
	case bool:
		return any(c != 0).(U)
	}
	return realTo[U](real(c))
}

// targets is a set of dtypes to cast to.
type targets map[dtype.DType]bool

var (
	allTargets    = targets{}
	signedTargets = targets{dtype.Bool: true, dtype.Int8: true, dtype.Int16: true, dtype.Int32: true, dtype.Int64: true,
		dtype.Float32: true, dtype.Float64: true, dtype.Complex64: true, dtype.Complex128: true}
	inexactTargets = targets{dtype.Bool: true, dtype.Float32: true, dtype.Float64: true, dtype.Complex64: true, dtype.Complex128: true}
)

func init() {
	for _, d := range dtype.All {
		allTargets[d] = true
	}
}

// castToAll casts src to every dtype in to.
func castToAll[T dtype.Elem](t *testing.T, src *tensor.Tensor[T], to targets) {
	castCheck[bool](t, src, to)
	castCheck[int8](t, src, to)
	castCheck[int16](t, src, to)
	castCheck[int32](t, src, to)
	castCheck[int64](t, src, to)
	castCheck[uint8](t, src, to)
	castCheck[uint16](t, src, to)
	castCheck[uint32](t, src, to)
	castCheck[uint64](t, src, to)
	castCheck[float32](t, src, to)
	castCheck[float64](t, src, to)
	castCheck[complex64](t, src, to)
	castCheck[complex128](t, src, to)
}

func castCheck[U, T dtype.Elem](t *testing.T, src *tensor.Tensor[T], to targets) {
	if !to[dtype.Of[U]()] {
		return
	}
	t.Run("to_"+dtype.Of[U]().String(), func(t *testing.T) {
		e := expr.Cast[U](expr.Of(src))
		require.NoError(t, e.Err())
		require.Equal(t, dtype.Of[U](), e.DType())
		in := src.Values()
		want := make([]U, len(in))
		for i, v := range in {
			want[i] = refCast[U](v)
		}
		for _, x := range testExecutors {
			got := evalWith(t, x.x, e)
			assertValues(t, want, got.Values(), "%s executor, input %v", x.name, in)
		}
		// Inside a fused kernel, next to other work on the same block.
		f := expr.Where(expr.Of(src).Eq(expr.Of(src)), expr.Cast[U](expr.Of(src)), expr.Cast[U](expr.Of(src)))
		got := evalWith(t, tiled, f)
		assertValues(t, want, got.Values(), "fused")
	})
}

// castSources returns, per source dtype, data on which every conversion to
// the given targets is defined.
func castSourceValues[T dtype.Elem](r *rand.Rand, n int, signed bool) []T {
	v := randomValues[T](r, n)
	lo, hi := 0.0, 127.99
	if signed {
		lo = -127.99
	}
	fix := func(f float64) float64 {
		if math.IsNaN(f) || math.IsInf(f, 0) || f < lo || f > hi {
			return lo + r.Float64()*(hi-lo)
		}
		return f
	}
	for i := range v {
		switch x := any(v[i]).(type) {
		case float32:
			v[i] = any(float32(fix(float64(x)))).(T)
		case float64:
			v[i] = any(fix(x)).(T)
		case complex64:
			v[i] = any(complex(float32(fix(float64(real(x)))), imag(x))).(T)
		case complex128:
			v[i] = any(complex(fix(real(x)), imag(x))).(T)
		}
	}
	return v
}

func testCastFrom[T dtype.Elem](t *testing.T) {
	r := newRand(uint64(dtype.Of[T]()) + 100)
	n := 3*cols + 1
	t.Run("in range", func(t *testing.T) {
		castToAll(t, fromValues(t, castSourceValues[T](r, n, false), n), allTargets)
	})
	t.Run("strided", func(t *testing.T) {
		src := fromValues(t, castSourceValues[T](r, 2*rows*cols, false), cols, 2*rows)
		castToAll(t, tensor.Must(tensor.Must(src.Slice(1, 0, math.MaxInt, 2)).T()), allTargets)
	})
	switch dtype.Of[T]().Kind() {
	case dtype.KindFloat, dtype.KindComplex:
		t.Run("negative", func(t *testing.T) {
			castToAll(t, fromValues(t, castSourceValues[T](r, n, true), n), signedTargets)
		})
		t.Run("special", func(t *testing.T) {
			castToAll(t, fromValues(t, specialInexact[T](), len(specialInexact[T]())), inexactTargets)
		})
	}
}

// specialInexact are values whose conversions between inexact types (and
// to bool) are defined: NaN, infinities, overflow and underflow of float32.
func specialInexact[T dtype.Elem]() []T {
	fs := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e300, -1e300, 3.5e38, 1e-46, 1e-40, 0.1, 1 / 3.0, 16777217}
	out := make([]T, 0, len(fs))
	for i, f := range fs {
		var v any
		switch any(*new(T)).(type) {
		case float32:
			v = float32(f)
		case float64:
			v = f
		case complex64:
			v = complex(float32(f), float32(fs[(i+1)%len(fs)]))
		case complex128:
			v = complex(f, fs[(i+1)%len(fs)])
		}
		out = append(out, v.(T))
	}
	return out
}

// TestCast casts every dtype to every dtype.
func TestCast(t *testing.T) {
	t.Run("bool", testCastFrom[bool])
	t.Run("int8", testCastFrom[int8])
	t.Run("int16", testCastFrom[int16])
	t.Run("int32", testCastFrom[int32])
	t.Run("int64", testCastFrom[int64])
	t.Run("uint8", testCastFrom[uint8])
	t.Run("uint16", testCastFrom[uint16])
	t.Run("uint32", testCastFrom[uint32])
	t.Run("uint64", testCastFrom[uint64])
	t.Run("float32", testCastFrom[float32])
	t.Run("float64", testCastFrom[float64])
	t.Run("complex64", testCastFrom[complex64])
	t.Run("complex128", testCastFrom[complex128])
}

// TestCastTable pins conversions whose results are easy to get wrong.
func TestCastTable(t *testing.T) {
	t.Run("float to int truncates toward zero", func(t *testing.T) {
		got := evalWith(t, tiled, expr.Cast[int32](expr.Of(fromValues(t, []float64{2.7, -2.7, 0.5, -0.5, 1e9}, 5))))
		require.Equal(t, []int32{2, -2, 0, 0, 1000000000}, got.Values())
	})
	t.Run("int wraps", func(t *testing.T) {
		got := evalWith(t, tiled, expr.Cast[uint8](expr.Of(fromValues(t, []int64{300, -1, 256, -255}, 4))))
		require.Equal(t, []uint8{44, 255, 0, 1}, got.Values())
		got2 := evalWith(t, tiled, expr.Cast[int64](expr.Of(fromValues(t, []uint64{math.MaxUint64, 1 << 63}, 2))))
		require.Equal(t, []int64{-1, math.MinInt64}, got2.Values())
	})
	t.Run("to bool is non-zero", func(t *testing.T) {
		got := evalWith(t, tiled, expr.Cast[bool](expr.Of(fromValues(t, []float64{0, math.Copysign(0, -1), math.NaN(), 1e-300, -1}, 5))))
		require.Equal(t, []bool{false, false, true, true, true}, got.Values())
		gotc := evalWith(t, tiled, expr.Cast[bool](expr.Of(fromValues(t, []complex64{0, 1i, 1, complex(float32(math.NaN()), 0)}, 4))))
		require.Equal(t, []bool{false, true, true, true}, gotc.Values())
	})
	t.Run("complex to real keeps the real part", func(t *testing.T) {
		got := evalWith(t, tiled, expr.Cast[int16](expr.Of(fromValues(t, []complex128{3.9 + 7i, -3.9 - 7i}, 2))))
		require.Equal(t, []int16{3, -3}, got.Values())
	})
	t.Run("bool to numbers", func(t *testing.T) {
		got := evalWith(t, tiled, expr.Cast[complex64](expr.Of(fromValues(t, []bool{true, false}, 2))))
		require.Equal(t, []complex64{1, 0}, got.Values())
	})
	t.Run("64-bit integers beyond 2^53 round once", func(t *testing.T) {
		i := []int64{1<<60 + 1<<36 + 1, -(1<<60 + 1<<36 + 1), 1<<62 + 1<<38 + 1}
		u := []uint64{1<<63 + 1<<39 + 1, 1<<60 + 1<<36 + 1}
		wantI := make([]float32, len(i))
		for k, v := range i {
			wantI[k] = float32(v)
		}
		wantU := make([]float32, len(u))
		for k, v := range u {
			wantU[k] = float32(v)
		}
		assertValues(t, wantI, evalWith(t, tiled, expr.Cast[float32](expr.Of(fromValues(t, i, len(i))))).Values(), "int64 -> float32")
		assertValues(t, wantU, evalWith(t, tiled, expr.Cast[float32](expr.Of(fromValues(t, u, len(u))))).Values(), "uint64 -> float32")
		wantC := make([]complex64, len(i))
		for k, v := range i {
			wantC[k] = complex(float32(v), 0)
		}
		assertValues(t, wantC, evalWith(t, tiled, expr.Cast[complex64](expr.Of(fromValues(t, i, len(i))))).Values(), "int64 -> complex64")
	})
}
