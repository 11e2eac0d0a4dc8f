package exec

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/simd"
)

// leafByLanes is one leaf the long way: lanes from the identity, then the
// leaf's tree, both through the op's functions.
func leafByLanes[T dtype.Elem](r *reduceOp[T], v []T) T {
	s := [8]T{r.identity, r.identity, r.identity, r.identity, r.identity, r.identity, r.identity, r.identity}
	r.lanes(&s, 0, v)
	return r.leaf(&s)
}

// leafValues are n finite values of a spread of magnitudes (so that adds
// in another order round differently) with signed zeros mixed in, and
// with special an infinity and a NaN.
func leafValues[T float32 | float64](n int, special bool) []T {
	v := make([]T, n)
	for i := range v {
		switch {
		case i%11 == 3:
			v[i] = T(math.Copysign(0, -1))
		case i%13 == 5:
			v[i] = 0
		case special && i%17 == 7:
			v[i] = T(math.Inf(1 - 2*(i%2)))
		case special && i == n/2:
			v[i] = T(math.NaN())
		default:
			v[i] = T(math.Sin(float64(i)*1.7) * math.Pow(10, float64(i%9-4)))
		}
	}
	return v
}

// leafBits is v's bits, with every NaN as one value: which NaN a sum of
// a NaN and inf-inf gives is the first operand's on x86, and the compiler
// orders a commutative add's operands as it likes (under -race it orders
// them differently), so NaN payloads and signs are not part of the result.
func leafBits[T float32 | float64](v T) uint64 {
	switch x := any(v).(type) {
	case float32:
		if x != x {
			return math.Float64bits(math.NaN())
		}
		return uint64(math.Float32bits(x))
	case float64:
		if x != x {
			return math.Float64bits(math.NaN())
		}
		return math.Float64bits(x)
	}
	panic("unreachable")
}

// TestLeafOfMatchesLanes checks the one-call leaf of sum, max and min
// (leafOf) against lanes then leaf, bit for bit (any NaN as one), at every row length a
// short row can have, for float32, float64 and int32, with signed zeros,
// infinities and NaN.
func TestLeafOfMatchesLanes(t *testing.T) {
	f32, f64, i32 := realReduces[float32](), realReduces[float64](), realReduces[int32]()
	for _, withNaN := range []bool{false, true} {
		for n := 1; n <= reduceLeaf; n++ {
			t.Run(fmt.Sprintf("n=%d nan=%v", n, withNaN), func(t *testing.T) {
				a, b := leafValues[float32](n, withNaN), leafValues[float64](n, withNaN)
				c := make([]int32, n)
				for i := range c {
					c[i] = int32(i*7919%2001 - 1000)
				}
				for name, r := range map[string]*reduceOp[float32]{"sum": f32.sum, "max": f32.max, "min": f32.min} {
					require.NotNil(t, r.leafOf, name)
					assert.Equal(t, leafBits(leafByLanes(r, a)), leafBits(r.leafOf(new([8]float32), a)), "float32 %s", name)
				}
				for name, r := range map[string]*reduceOp[float64]{"sum": f64.sum, "max": f64.max, "min": f64.min} {
					require.NotNil(t, r.leafOf, name)
					assert.Equal(t, leafBits(leafByLanes(r, b)), leafBits(r.leafOf(new([8]float64), b)), "float64 %s", name)
				}
				for name, r := range map[string]*reduceOp[int32]{"sum": i32.sum, "max": i32.max, "min": i32.min} {
					require.NotNil(t, r.leafOf, name)
					assert.Equal(t, leafByLanes(r, c), r.leafOf(new([8]int32), c), "int32 %s", name)
				}
			})
		}
	}
}

// TestLeafOfSignedZero pins the sums and extremes of signed zeros: -0
// alone sums to +0 (the lanes start at +0), max(-0, +0) is +0 and
// min(+0, -0) is -0.
func TestLeafOfSignedZero(t *testing.T) {
	r := realReduces[float64]()
	negZero := math.Copysign(0, -1)
	assert.Equal(t, math.Float64bits(0), math.Float64bits(r.sum.leafOf(new([8]float64), []float64{negZero})))
	assert.Equal(t, math.Float64bits(0), math.Float64bits(r.max.leafOf(new([8]float64), []float64{negZero, 0})))
	assert.Equal(t, math.Float64bits(negZero), math.Float64bits(r.min.leafOf(new([8]float64), []float64{0, negZero})))
	assert.True(t, math.IsNaN(r.max.leafOf(new([8]float64), []float64{1, math.NaN(), 2})))
}

// TestSimdSumVcombine checks the sum's vector combine on both sides of
// shortVector (the Go loop below it, the AVX2 add from it on) against
// d[i] + a[i], bit for bit, for float32 (through a Go add) and float64
// (through internal/simd's add).
func TestSimdSumVcombine(t *testing.T) {
	f32 := simdSum(sumOp[float32](), func(d, x, y []float32) {
		for i := range d {
			d[i] = x[i] + y[i]
		}
	})
	add64 := func(d, x, y []float64) { // purego: internal/simd has no loops
		for i := range d {
			d[i] = x[i] + y[i]
		}
	}
	if add, ok := simd.BinaryOf[float64](simd.Add); ok {
		add64 = add.VV // the AVX2 add where simd.Enabled
	}
	f64 := simdSum(sumOp[float64](), add64)
	for _, n := range []int{1, 4, shortVector - 1, shortVector, shortVector + 5, 100} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			d, a := leafValues[float32](n, true), leafValues[float32](n+3, false)[3:]
			want := make([]float32, n)
			for i := range want {
				want[i] = d[i] + a[i]
			}
			f32.vcombine(d, a)
			for i := range want {
				assert.Equal(t, math.Float32bits(want[i]), math.Float32bits(d[i]), "element %d", i)
			}
			e, b := leafValues[float64](n, true), leafValues[float64](n+3, false)[3:]
			want64 := make([]float64, n)
			for i := range want64 {
				want64[i] = e[i] + b[i]
			}
			f64.vcombine(e, b)
			for i := range want64 {
				assert.Equal(t, math.Float64bits(want64[i]), math.Float64bits(e[i]), "float64 element %d", i)
			}
		})
	}
}

// TestFeedLeavesMatchFlush checks sum's whole-leaf fold in feed (leaves,
// several leaves a call) against feed without it, leaf by leaf through
// flush: the same total, bit for bit, for float32 and float64, over
// lengths around whole leaves and leafBatch, fed whole or in pieces that
// start mid-leaf, with signed zeros, infinities and NaN.
func TestFeedLeavesMatchFlush(t *testing.T) {
	t.Run("float32", testFeedLeaves[float32])
	t.Run("float64", testFeedLeaves[float64])
}

func testFeedLeaves[T float32 | float64](t *testing.T) {
	r := realReduces[T]().sum
	require.NotNil(t, r.leaves)
	plain := *r
	plain.leaves = nil
	total := func(op *reduceOp[T], v []T, piece int) T {
		var a leafAcc[T]
		a.reset(op)
		for len(v) > 0 {
			k := min(piece, len(v))
			a.feed(op, nil, v[:k], nil)
			v = v[k:]
		}
		return a.total(op)
	}
	for _, n := range []int{2 * reduceLeaf, 2*reduceLeaf + 1, 5*reduceLeaf - 3, leafBatch * reduceLeaf, (leafBatch+3)*reduceLeaf + 77, 100 * reduceLeaf} {
		for _, special := range []bool{false, true} {
			v := leafValues[T](n, special)
			for _, piece := range []int{n, 3*reduceLeaf + 5, 1000} {
				assert.Equal(t, leafBits(total(&plain, v, piece)), leafBits(total(r, v, piece)), "n=%d special=%v pieces of %d", n, special, piece)
			}
		}
	}
}

// TestPushSumsMatchesPushes checks that pushSums, which pushes whole trees
// of leaves, leaves the binary counter exactly as pushing the leaves one
// by one does: the same nodes, weights and bits, from empty stacks and
// from stacks left by 1 to 40 earlier pushes, for 0 to 70 leaves.
func TestPushSumsMatchesPushes(t *testing.T) {
	add := func(a, b float64) float64 { return a + b }
	xs := leafValues[float64](110, false)
	for before := 0; before <= 40; before += 3 {
		for n := 0; n <= 70; n++ {
			var want, got pstack[float64]
			for _, x := range xs[:before] {
				want.push(x, add)
				got.push(x, add)
			}
			for _, x := range xs[before : before+n] {
				want.push(x, add)
			}
			pushSums(&got, xs[before:before+n])
			require.Equal(t, want.n, got.n, "%d leaves after %d", n, before)
			assert.Equal(t, want.w[:want.n], got.w[:got.n], "%d leaves after %d", n, before)
			for i := range want.n {
				assert.Equal(t, math.Float64bits(want.v[i]), math.Float64bits(got.v[i]), "node %d: %d leaves after %d", i, n, before)
			}
		}
	}
}
