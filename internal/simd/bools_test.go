package simd_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/internal/simd"
)

var cmpOps = []simd.CmpOp{simd.Eq, simd.Ne, simd.Lt, simd.Le, simd.Gt, simd.Ge}

func goCompare[T simd.CmpElem](op simd.CmpOp, a, b T) bool {
	switch op {
	case simd.Eq:
		return a == b
	case simd.Ne:
		return a != b
	case simd.Lt:
		return a < b
	case simd.Le:
		return a <= b
	case simd.Gt:
		return a > b
	}
	return a >= b
}

// cmpValues mixes few distinct values (so that equal pairs are common) with
// the special ones for floats, the extremes for integers.
func cmpValues[T simd.CmpElem](r *rand.Rand, n int) []T {
	v := make([]T, n)
	var z T
	_, isFloat := any(z).(float64)
	if _, ok := any(z).(float32); ok {
		isFloat = true
	}
	for i := range v {
		switch {
		case isFloat && r.IntN(5) == 0:
			v[i] = T([]float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN()}[r.IntN(5)])
		case !isFloat && r.IntN(8) == 0:
			ext := []int64{math.MinInt32, math.MaxInt32}
			if reflectSize(z) == 8 {
				ext = []int64{math.MinInt64, math.MaxInt64}
			}
			v[i] = T(ext[r.IntN(2)]) // the extremes: a subtraction would overflow
		default:
			v[i] = T(r.IntN(5) - 2)
		}
	}
	return v
}

func reflectSize[T simd.CmpElem](z T) uintptr {
	switch any(z).(type) {
	case float64, int64:
		return 8
	}
	return 4
}

// testCompare runs every comparison in every form at every length up to
// maxLen, with guard cells after d, against Go's operators.
func testCompare[T simd.CmpElem](t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, op := range cmpOps {
		c, ok := simd.CompareOf[T](op)
		if !ok {
			t.Skip("no comparison loops here")
		}
		for n := 0; n <= maxLen; n++ {
			x, y := cmpValues[T](r, n+1)[1:], cmpValues[T](r, n)
			s := cmpValues[T](r, 1)[0]
			for _, form := range []string{"VV", "VS", "SV"} {
				buf := make([]bool, n+8)
				for i := range buf {
					buf[i] = true
				}
				d := buf[:n]
				want := make([]bool, n)
				for i := range want {
					switch form {
					case "VV":
						want[i] = goCompare(op, x[i], y[i])
					case "VS":
						want[i] = goCompare(op, x[i], s)
					default:
						want[i] = goCompare(op, s, y[i])
					}
				}
				switch form {
				case "VV":
					c.VV(d, x, y)
				case "VS":
					c.VS(d, x, s)
				default:
					c.SV(d, s, y)
				}
				require.Equal(t, want, d, "op %d %s n=%d x=%v y=%v s=%v", op, form, n, x, y, s)
				for i, v := range buf[n:] {
					require.True(t, v, "op %d %s n=%d: wrote past d at %d", op, form, n, i)
				}
			}
		}
	}
}

func TestCompare(t *testing.T) {
	t.Run("float64", testCompare[float64])
	t.Run("float32", testCompare[float32])
	t.Run("int64", testCompare[int64])
	t.Run("int32", testCompare[int32])
	_, ok := simd.CompareOf[float64](simd.Ge + 1)
	assert.False(t, ok, "out of range")
	type named int64
	_, ok = simd.CompareOf[named](simd.Eq)
	assert.False(t, ok, "named types have no loops")
}

// testWhere runs where in every form and the bool cast at every length up
// to maxLen against the Go loops, NaN payloads included (where moves bits).
func testWhere[T simd.Float](t *testing.T) {
	w, ok := simd.WhereOf[T]()
	cast, ok2 := simd.BoolsTo[T]()
	if !ok || !ok2 {
		t.Skip("no where loops here")
	}
	r := rand.New(rand.NewPCG(13, 14))
	bits := func(v T) uint64 { return math.Float64bits(float64(v)) }
	if _, ok := any(T(0)).(float32); ok {
		bits = func(v T) uint64 { return uint64(math.Float32bits(float32(v))) }
	}
	for n := 0; n <= maxLen; n++ {
		c := make([]bool, n)
		for i := range c {
			c[i] = r.IntN(2) == 0
		}
		x, y := values[T](r, n), values[T](r, n+2)[2:]
		s := values[T](r, 1)[0]
		for _, form := range []string{"VV", "VS", "SV"} {
			buf := make([]T, n+8)
			for i := range buf {
				buf[i] = 7
			}
			d := buf[:n]
			switch form {
			case "VV":
				w.VV(d, c, x, y)
			case "VS":
				w.VS(d, c, x, s)
			default:
				w.SV(d, c, s, y)
			}
			for i := range d {
				a, b := x[i], y[i]
				if form == "VS" {
					b = s
				}
				if form == "SV" {
					a = s
				}
				want := b
				if c[i] {
					want = a
				}
				require.Equal(t, bits(want), bits(d[i]), "%s n=%d i=%d", form, n, i)
			}
			for i, v := range buf[n:] {
				require.Equal(t, T(7), v, "%s n=%d: wrote past d at %d", form, n, i)
			}
		}
		d := make([]T, n)
		cast(d, c)
		for i := range d {
			want := T(0)
			if c[i] {
				want = 1
			}
			require.Equal(t, bits(want), bits(d[i]), "boolsTo n=%d i=%d", n, i)
		}
	}
}

func TestWhere(t *testing.T) {
	t.Run("float64", testWhere[float64])
	t.Run("float32", testWhere[float32])
}

func ExampleCompareOf() {
	lt, ok := simd.CompareOf[float64](simd.Lt)
	d := make([]bool, 5)
	if ok {
		lt.VS(d, []float64{1, 2, math.NaN(), 4, 5}, 3)
	} else { // no AVX2 here: what the loop computes
		for i, v := range []float64{1, 2, math.NaN(), 4, 5} {
			d[i] = v < 3
		}
	}
	fmt.Println(d)
	// Output: [true true false false false]
}
