package vmath

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTrigLargeArguments checks sin and cos of float64 and float32 at large
// |x| (1e5 to 1e30, where the fast path ends and the Payne-Hanek reduction
// begins), on the Go loop and the dispatched path, bit for bit the same
// and within 1 ulp: against values computed once with math/big to 3000
// bits (arguments where the math package is wrong by 40 to 5000 ulp: sin
// of 1e30 was FuzzGraph's find), and against refTrig on log-uniform
// arguments.
func TestTrigLargeArguments(t *testing.T) {
	exact := []struct{ x, sin, cos float64 }{
		{1e30, 0x1.31c608f107767p-07, -0x1.fffa4b11f1b45p-01},                   // math.Sin: 40 ulp
		{5.3847229831608125e+14, -0x1.bce9914caeb07p-14, 0x1.ffffffcfac4fbp-01}, // math.Sin: 5027 ulp
		{2.801122212367227e+12, -0x1.ffffffcc7d387p-01, -0x1.cb55b685c5f33p-14}, // math.Cos: 3070 ulp
	}
	for _, c := range exact {
		for _, sg := range []float64{1, -1} {
			xs := []float64{sg * c.x}
			want := map[string]float64{"sin": sg * c.sin, "cos": c.cos}
			for name, w := range want {
				k := kernels64[name]
				goGot, got := make([]float64, 1), make([]float64, 1)
				k.goFn(goGot, xs)
				k.run(got, xs)
				require.Equal(t, math.Float64bits(goGot[0]), math.Float64bits(got[0]), "%s(%v): paths differ", name, xs[0])
				assert.LessOrEqual(t, ulps(got[0], w), uint64(1), "%s(%v) = %x, want %x", name, xs[0], got[0], w)
			}
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	n := 400
	if testing.Short() {
		n = 50
	}
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = math.Pow(10, 5+25*r.Float64())
		if i%2 == 1 {
			xs[i] = -xs[i]
		}
	}
	x32 := make([]float32, n)
	for i, x := range xs {
		x32[i] = float32(x)
	}
	for q, name := range []string{"sin", "cos"} {
		k, k32 := kernels64[name], kernels32[name]
		goGot, got := make([]float64, n), make([]float64, n)
		k.goFn(goGot, xs)
		k.run(got, xs)
		go32, got32 := make([]float32, n), make([]float32, n)
		k32.goFn(go32, x32)
		k32.run(got32, x32)
		for i, x := range xs {
			require.Equal(t, math.Float64bits(goGot[i]), math.Float64bits(got[i]), "%s(%v): paths differ", name, x)
			assert.LessOrEqual(t, ulps(got[i], refTrig(x, q)), uint64(1), "%s(%v)", name, x)
			require.Equal(t, math.Float32bits(go32[i]), math.Float32bits(got32[i]), "float32 %s(%v): paths differ", name, x32[i])
			w32 := refTrig(float64(x32[i]), q)
			assert.Less(t, err32(got32[i], w32), 1.0, "float32 %s(%v) = %v, want %v", name, x32[i], got32[i], w32)
		}
	}
}
