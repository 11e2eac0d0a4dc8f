//go:build amd64 && !purego

package vmath

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/sys/cpu"
)

// TestAVX2WithoutAVX512 runs the path tests with the AVX-512 loops turned
// off, so that on a CPU with AVX-512 the AVX2 loops they replace are
// checked too (and the AVX-512 ones by the tests themselves).
func TestAVX2WithoutAVX512(t *testing.T) {
	if !lanesAVX512 {
		t.Skip("the AVX-512 loops do not run on this CPU: the other tests check the AVX2 ones")
	}
	vec32, vec64, tanh32, sin32, cos32 := exp32K.vec, exp64K.vec, tanh32K.vec, sin32K.vec, cos32K.vec
	sin64, cos64 := sin64K.vec, cos64K.vec
	lanesAVX512, exp32K.vec, tanh32K.vec, sin32K.vec, cos32K.vec = false, exp32AVX2, tanh32AVX2, sin32AVX2, cos32AVX2
	exp64K.vec = func(d, a []float64) int { return exp64AVX2(d, a, &expTable) }
	sin64K.vec, cos64K.vec = sin64AVX2, cos64AVX2
	defer func() {
		lanesAVX512, exp32K.vec, exp64K.vec, tanh32K.vec, sin32K.vec, cos32K.vec = true, vec32, vec64, tanh32, sin32, cos32
		sin64K.vec, cos64K.vec = sin64, cos64
	}()
	t.Run("lanes32", TestLanes32)
	t.Run("leaves32", TestLeaves32)
	t.Run("paths32", TestPaths32)
	t.Run("vectorloops32", TestVectorLoops32)
	t.Run("pathsexhaustive32", TestPathsExhaustive32)
	t.Run("lanes64", TestLanes64)
	t.Run("leaves64", TestLeaves64)
	t.Run("paths64", TestPaths64)
	t.Run("vectorloops64", TestVectorLoops64)
	t.Run("lanevectorloops", TestLaneVectorLoops)
}

// TestAVX512Loops checks the AVX-512 loops' stops, where the CPU has
// them: whole groups of sixteen up to the first group off the fast path,
// whole leaves up to the first leaf with one.
func TestAVX512Loops(t *testing.T) {
	if !(cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ) {
		t.Skip("no AVX-512 on this CPU")
	}
	assert.True(t, lanesAVX512)
	xs := make([]float32, 1024+37)
	d := make([]float32, len(xs))
	var s [8]float32
	assert.Equal(t, 1056, exp32AVX512(d, xs))
	assert.Equal(t, 1056, tanh32AVX512(d, xs))
	assert.Equal(t, 0, sin32AVX512(d, xs), "sin's fast path leaves out 0")
	for i := range xs {
		xs[i] = 0.5
	}
	assert.Equal(t, 1056, sin32AVX512(d, xs))
	assert.Equal(t, 1056, cos32AVX512(d, xs))
	xs[300] = 7000 // |x| < 6000 is the fast path
	assert.Equal(t, 288, sin32AVX512(d, xs))
	assert.Equal(t, 288, cos32AVX512(d, xs))
	clear(xs)
	assert.Equal(t, 1056, expSumLanes32AVX512(&s, xs, 0))
	var ls [8][8]float32
	assert.Equal(t, 8, expSumLeaves32AVX512(&ls, xs, 0, &xs[0]))
	assert.Equal(t, [8]float32{16, 16, 16, 16, 16, 16, 16, 16}, ls[7], "exp(0) sixteen times a lane")
	xs[300] = float32(math.Inf(-1))
	assert.Equal(t, 288, exp32AVX512(d, xs))
	assert.Equal(t, 288, tanh32AVX512(d, xs), "tanh's fast path is finite |x| < 43")
	assert.Equal(t, 288, expSumLanes32AVX512(&s, xs, 0))
	assert.Equal(t, 2, expSumLeaves32AVX512(&ls, xs, 0, &xs[0]), "the leaf of element 300 is the third")
	xs[300] = 0
	xs[5] = 100
	assert.Equal(t, 0, exp32AVX512(d[:15], xs))
	assert.Equal(t, 0, expSumLanes32AVX512(&s, xs, 0))
	assert.Equal(t, 0, expSumLeaves32AVX512(&ls, xs, 0, &xs[0]))
}

// TestAVX512Loops64 is TestAVX512Loops for the float64 loops: groups of
// eight, leaves of 128.
func TestAVX512Loops64(t *testing.T) {
	if !(cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ) {
		t.Skip("no AVX-512 on this CPU")
	}
	xs := make([]float64, 1024+37)
	d := make([]float64, len(xs))
	var s [8]float64
	assert.Equal(t, 1056, exp64AVX512(d, xs, &expTable))
	assert.Equal(t, [8]float64{1, 1, 1, 1, 1, 1, 1, 1}, [8]float64(d[1048:1056]), "exp(0)")
	assert.Equal(t, 1056, expSumLanes64AVX512(&s, xs, 0, &expTable))
	assert.Equal(t, [8]float64{132, 132, 132, 132, 132, 132, 132, 132}, s, "exp(0) 132 times a lane")
	var ls [8][8]float64
	assert.Equal(t, 8, expSumLeaves64AVX512(&ls, xs, 0, &expTable, &xs[0]))
	assert.Equal(t, [8]float64{16, 16, 16, 16, 16, 16, 16, 16}, ls[7], "exp(0) sixteen times a lane")
	xs[300] = math.Inf(-1)
	assert.Equal(t, 296, exp64AVX512(d, xs, &expTable))
	assert.Equal(t, 296, expSumLanes64AVX512(&s, xs, 0, &expTable))
	assert.Equal(t, 2, expSumLeaves64AVX512(&ls, xs, 0, &expTable, &xs[0]), "the leaf of element 300 is the third")
	xs[300] = 0
	xs[5] = 600
	assert.Equal(t, 0, exp64AVX512(d[:7], xs, &expTable))
	assert.Equal(t, 0, expSumLanes64AVX512(&s, xs, 0, &expTable))
	assert.Equal(t, 0, expSumLeaves64AVX512(&ls, xs, 0, &expTable, &xs[0]))
	xs[5] = 0
	xs[1023] = math.NaN()
	assert.Equal(t, 7, expSumLeaves64AVX512(&ls, xs, 0, &expTable, &xs[0]), "a NaN in the last leaf")

	// sin and cos: the fast path is 0 < |x| < 1e6 (sin(±0) keeps its sign
	// in Go), so a zero stops them as an infinity stops exp.
	ys := make([]float64, 1024+37)
	for i := range ys {
		ys[i] = 0.5
	}
	assert.Equal(t, 1056, sin64AVX512(d, ys))
	assert.Equal(t, math.Sin(0.5), d[1055], "sin(0.5)")
	assert.Equal(t, 1056, cos64AVX512(d, ys))
	assert.InDelta(t, math.Cos(0.5), d[1055], 1e-16, "cos(0.5)")
	ys[300] = 0
	assert.Equal(t, 296, sin64AVX512(d, ys))
	ys[300] = 2e6
	assert.Equal(t, 296, cos64AVX512(d, ys))
}

// TestMax32AVX512 checks Max's AVX-512 loop where the CPU has it: whole
// groups of sixteen, and the sum that tells a NaN (which VMAXPS may drop)
// or an infinity.
func TestMax32AVX512(t *testing.T) {
	if !(cpu.X86.HasAVX512F && cpu.X86.HasAVX512DQ) {
		t.Skip("no AVX-512 on this CPU")
	}
	xs := make([]float32, 64+16+5)
	for i := range xs {
		xs[i] = float32(i%16) - 20
	}
	xs[70] = 100
	xs[84] = 1000 // past the groups
	m, sum, n := max32AVX512(xs)
	assert.Equal(t, 80, n, "groups of sixteen")
	assert.Equal(t, float32(100), m)
	assert.Equal(t, float32(5*(120-320)+114), sum, "the sum of the groups (xs[70] -14 made 100)")
	m, _, _ = max32AVX512(xs[:16])
	assert.Equal(t, float32(-5), m, "one group")
	xs[5] = float32(math.NaN())
	_, sum, _ = max32AVX512(xs)
	assert.True(t, sum != sum, "the sum shows the NaN: %v", sum)
	xs[5] = float32(math.Inf(1))
	_, sum, _ = max32AVX512(xs)
	assert.True(t, math.IsInf(float64(sum), 1), "the sum shows the infinity: %v", sum)
}
