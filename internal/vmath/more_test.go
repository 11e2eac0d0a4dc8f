package vmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// bigLog is log(y) for y > 0: k*ln2 + 2*atanh((m-1)/(m+1)), y = m*2^k.
func bigLog(y *big.Float) *big.Float {
	m := new(big.Float).SetPrec(refPrec)
	k := y.MantExp(m) // m in [0.5, 1)
	num := new(big.Float).SetPrec(refPrec).Sub(m, bigF(1))
	den := new(big.Float).SetPrec(refPrec).Add(m, bigF(1))
	l := bigAtanh(num.Quo(num, den))
	l.Mul(l, bigF(2))
	ln2 := bigAtanh(new(big.Float).SetPrec(refPrec).Quo(bigF(1), bigF(3)))
	ln2.Mul(ln2, bigF(2*float64(k)))
	return l.Add(l, ln2)
}

func refExpm1(x float64) float64 {
	if !(math.Abs(x) < 700) || math.Abs(x) < 0x1p-200 {
		return math.Expm1(x)
	}
	f, _ := bigExp(x).Sub(bigExp(x), bigF(1)).Float64()
	return f
}

func refLog1p(x float64) float64 {
	if !(x > -1) || math.IsInf(x, 1) || math.Abs(x) < 0x1p-200 {
		return math.Log1p(x)
	}
	f, _ := bigLog(new(big.Float).SetPrec(refPrec).Add(bigF(1), bigF(x))).Float64()
	return f
}

// refErf is 2/sqrt(pi) * sum (-1)^n x^(2n+1)/(n!(2n+1)), at 400 bits so
// that the terms' growth to e**36 costs nothing.
func refErf(x float64) float64 {
	if math.IsNaN(x) || math.Abs(x) > 6 || math.Abs(x) < 0x1p-200 {
		return math.Erf(x) // ±1 in double precision beyond 5.9
	}
	const prec = 400
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	x2 := new(big.Float).SetPrec(prec).Mul(bx, bx)
	term := new(big.Float).SetPrec(prec).Set(bx) // x^(2n+1)/n! (-1)^n
	sum := new(big.Float).SetPrec(prec)
	for n := 0; n < 400; n++ {
		sum.Add(sum, new(big.Float).SetPrec(prec).Quo(term, new(big.Float).SetPrec(prec).SetInt64(int64(2*n+1))))
		term.Mul(term, x2)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(int64(-(n + 1))))
	}
	sqrtPi := new(big.Float).SetPrec(prec).Sqrt(new(big.Float).SetPrec(prec).Set(bigPi))
	sum.Mul(sum, big.NewFloat(2))
	f, _ := sum.Quo(sum, sqrtPi).Float64()
	return f
}

// TestMathLoops checks Expm1, Log1p and Erf against math/big in float64
// (within 1 ulp) and against their float64 results in float32 (within 1
// ulp), on random arguments and special ones.
func TestMathLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	cases := []struct {
		name   string
		f64    func(d, a []float64)
		f32    func(d, a []float32)
		ref    func(float64) float64
		lo, hi float64
	}{
		{"expm1", Expm1[float64], Expm1[float32], refExpm1, -40, 40},
		{"log1p", Log1p[float64], Log1p[float32], refLog1p, -1, 100},
		{"erf", Erf[float64], Erf[float32], refErf, -6, 6},
	}
	n := 1500
	if testing.Short() {
		n = 100
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			xs := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 1e-300, -1e-300, 1e-10, -0.5, 0.5, -1}
			for range n {
				xs = append(xs, c.lo+(c.hi-c.lo)*r.Float64(), (2*r.Float64()-1)*0.01)
			}
			got := make([]float64, len(xs))
			c.f64(got, xs)
			var worst uint64
			for i, x := range xs {
				want := c.ref(x)
				if math.IsNaN(want) {
					assert.True(t, math.IsNaN(got[i]), "%s(%v)", c.name, x)
					continue
				}
				worst = max(worst, ulps(got[i], want))
				assert.LessOrEqual(t, ulps(got[i], want), uint64(1), "%s(%v) = %v, want %v", c.name, x, got[i], want)
			}
			x32, got32 := make([]float32, len(xs)), make([]float32, len(xs))
			for i, x := range xs {
				x32[i] = float32(x)
			}
			c.f32(got32, x32)
			for i, x := range x32 {
				assert.LessOrEqual(t, err32(got32[i], c.ref(float64(x))), 1.0, "%s(%v) float32", c.name, x)
			}
			t.Logf("float64: worst error %d ulp over %d arguments", worst, len(xs))
		})
	}
}
