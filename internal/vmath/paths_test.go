package vmath

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kernels32 are the float32 kernels with a vector loop.
var kernels32 = map[string]*kernel[float32]{"exp": &exp32K, "log": &log32K, "sin": &sin32K, "cos": &cos32K, "tanh": &tanh32K, "sigmoid": &sigmoid32K}

// TestPaths32 checks that a kernel gives the bits of its Go loop whatever
// mix of vector loop and Go loop computes it: on random arguments in the
// fast path with special ones dropped in at every offset, for every length
// around the groups of eight.
func TestPaths32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	special := special32()
	for name, k := range kernels32 {
		t.Run(name, func(t *testing.T) {
			c := caseNamed(t, name)
			for n := range 40 {
				for _, sp := range []int{-1, 0, n / 2, n - 1} {
					xs := make([]float32, n)
					for i := range xs {
						xs[i] = float32(c.lo + (c.hi-c.lo)*r.Float64())
					}
					if sp >= 0 && sp < n {
						xs[sp] = special[r.IntN(len(special))]
					}
					want, got := make([]float32, n), make([]float32, n)
					k.goFn(want, xs)
					k.run(got, xs)
					for i := range xs {
						require.Equal(t, math.Float32bits(want[i]), math.Float32bits(got[i]), "%s(%v) at %d of %d", name, xs[i], i, n)
					}
				}
			}
		})
	}
}

// TestVectorLoops32 checks that the vector loops, where the CPU has them,
// take every group of eight on the fast path and stop at the first group
// that is not.
func TestVectorLoops32(t *testing.T) {
	for name, k := range kernels32 {
		if k.vec == nil {
			t.Skipf("no vector loops on this CPU or build")
		}
		xs := make([]float32, 37)
		for i := range xs {
			xs[i] = 0.25 + float32(i)/8
		}
		d := make([]float32, len(xs))
		assert.Equal(t, 32, k.vec(d, xs), name)
		xs[20] = float32(math.NaN())
		assert.Equal(t, 16, k.vec(d, xs), name)
		assert.Equal(t, 0, k.vec(d[:7], xs), name)
	}
}

func caseNamed(t *testing.T, name string) f32Case {
	for _, c := range f32Cases {
		if c.name == name {
			return c
		}
	}
	t.Fatalf("no case %s", name)
	return f32Case{}
}

// kernels64 are the float64 kernels with a vector loop.
var kernels64 = map[string]*kernel[float64]{"exp": &exp64K, "log": &log64K, "sin": &sin64K, "cos": &cos64K, "tanh": &tanh64K, "sigmoid": &sigmoid64K}

// TestPaths64 is TestPaths32 for the float64 kernels.
func TestPaths64(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	special := special64()
	for _, c := range f64Cases {
		k := kernels64[c.name]
		t.Run(c.name, func(t *testing.T) {
			for n := range 24 {
				for _, sp := range []int{-1, 0, n / 2, n - 1} {
					xs := make([]float64, n)
					for i := range xs {
						xs[i] = c.lo + (c.hi-c.lo)*r.Float64()
					}
					if sp >= 0 && sp < n {
						xs[sp] = special[r.IntN(len(special))]
					}
					want, got := make([]float64, n), make([]float64, n)
					k.goFn(want, xs)
					k.run(got, xs)
					for i := range xs {
						require.Equal(t, math.Float64bits(want[i]), math.Float64bits(got[i]), "%s(%v) at %d of %d", c.name, xs[i], i, n)
					}
				}
			}
		})
	}
}

// TestVectorLoops64 is TestVectorLoops32 for the float64 loops.
func TestVectorLoops64(t *testing.T) {
	for name, k := range kernels64 {
		if k.vec == nil {
			t.Skipf("no vector loops on this CPU or build")
		}
		xs := make([]float64, 19)
		for i := range xs {
			xs[i] = 0.25 + float64(i)/8
		}
		d := make([]float64, len(xs))
		assert.Equal(t, 16, k.vec(d, xs), name)
		xs[9] = math.NaN()
		assert.Equal(t, 8, k.vec(d, xs), name)
		assert.Equal(t, 0, k.vec(d[:3], xs), name)
	}
}

// TestNoAllocs checks that a kernel call allocates nothing (the executor
// calls one per block).
func TestNoAllocs(t *testing.T) {
	d32, a32 := make([]float32, 100), make([]float32, 100)
	d64, a64 := make([]float64, 100), make([]float64, 100)
	for _, f := range []func(){
		func() { Exp(d32, a32) }, func() { Sin(d32, a32) }, func() { Tanh(d32, a32) },
		func() { Exp(d64, a64) }, func() { Log(d64, a64) }, func() { Sigmoid(d64, a64) },
	} {
		assert.Zero(t, testing.AllocsPerRun(10, f))
	}
}

// TestPathsExhaustive32 checks that the vector loops give their Go loops'
// bits on every float32 of the fast paths of the kernels built on exp32's
// fused multiply-adds (with -vmath.exhaustive; a few minutes): the proof
// that fma32 is each VFMADD's value is in its comment and TestFma32, this
// is the check that the operations are the same ones in the same order.
func TestPathsExhaustive32(t *testing.T) {
	if !*exhaustive {
		t.Skip("with -vmath.exhaustive")
	}
	for _, c := range []struct {
		name string
		top  float32
	}{{"exp", exp32Fast}, {"tanh", 43}, {"sigmoid", exp32Fast}} {
		t.Run(c.name, func(t *testing.T) {
			k := kernels32[c.name]
			if k.vec == nil {
				t.Skip("no vector loop on this CPU or build")
			}
			want, got := make([]float32, 1<<16), make([]float32, 1<<16)
			bad := 0
			sweep32(0, math.Float32bits(c.top), 1, func(xs []float32) {
				k.goFn(want[:len(xs)], xs)
				k.run(got[:len(xs)], xs)
				for i, x := range xs {
					if math.Float32bits(want[i]) != math.Float32bits(got[i]) {
						if bad++; bad < 10 {
							t.Errorf("%s(%x): vector %x, Go %x", c.name, x, got[i], want[i])
						}
					}
				}
			})
			assert.Zero(t, bad)
		})
	}
}
