package vmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const refPrec = 300 // bits

func bigF(x float64) *big.Float { return new(big.Float).SetPrec(refPrec).SetFloat64(x) }

// bigExp is e**x: exp(x/2^10) by its series, squared ten times.
func bigExp(x float64) *big.Float {
	y := bigF(x)
	y.SetMantExp(y, -10)
	sum, term := bigF(1), bigF(1)
	for n := 1; n < 200; n++ {
		term.Mul(term, y)
		term.Quo(term, bigF(float64(n)))
		sum.Add(sum, term)
	}
	for range 10 {
		sum.Mul(sum, sum)
	}
	return sum
}

// refExp is e**x rounded to a double.
func refExp(x float64) float64 {
	f, _ := bigExp(x).Float64()
	return f
}

// ulps is the distance between a and b in units in the last place.
func ulps(a, b float64) uint64 {
	ord := func(f float64) int64 {
		u := int64(math.Float64bits(f))
		if u < 0 {
			u = math.MinInt64 - u
		}
		return u
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

func uniform(r *rand.Rand, n int, lo, hi float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = lo + (hi-lo)*r.Float64()
	}
	return v
}

func TestExpAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := append(uniform(r, 300, -1, 1), uniform(r, 300, -511.9, 511.9)...)
	xs = append(xs, 1e-300, -1e-300, 1e-17, 0.5*math.Ln2/expN, math.Ln2, 1, -1, 511.99, -511.99)
	got := make([]float64, len(xs))
	Exp(got, xs)
	var worst uint64
	for i, x := range xs {
		u := ulps(got[i], refExp(x))
		worst = max(worst, u)
		assert.LessOrEqual(t, u, uint64(1), "exp(%v) = %v, want %v", x, got[i], refExp(x))
	}
	t.Logf("worst error %d ulp over %d arguments", worst, len(xs))
}

// TestSpecialValues checks the arguments outside exp's fast path against
// math/big (within 1 ulp, subnormal results included; 0, +Inf and NaN
// exactly, and 709.78, where the math package's amd64 Exp overflows), and
// a few exact results inside.
func TestSpecialValues(t *testing.T) {
	negZero := math.Copysign(0, -1)
	xs := []float64{512, -512, 709.78, 709.79, -745.1, -745.2, -1000, 1e300, -1e300, -740, -708.5, 600,
		math.Inf(1), math.Inf(-1), math.NaN()}
	got := make([]float64, len(xs))
	Exp(got, xs)
	for i, x := range xs {
		want := refExpAll(x)
		assert.True(t, ulps(want, got[i]) <= 1 || (math.IsNaN(want) && math.IsNaN(got[i])),
			"exp(%v) = %v, want %v", x, got[i], want)
	}
	assert.False(t, math.IsInf(got[2], 0), "exp(709.78) is finite")
	for _, x := range []float64{0, negZero, 1e-300, -1e-300, math.SmallestNonzeroFloat64, 0x1p-54} {
		Exp(got[:1], []float64{x})
		assert.Equal(t, 1.0, got[0], "exp(%v)", x)
	}
	Sigmoid(got[:3], []float64{0, math.Inf(1), math.Inf(-1)})
	assert.Equal(t, []float64{0.5, 1, 0}, got[:3], "sigmoid of 0, +Inf, -Inf")
}

func TestSigmoid(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	xs := append(uniform(r, 2000, -40, 40), uniform(r, 200, -800, 800)...)
	got := make([]float64, len(xs))
	Sigmoid(got, xs)
	for i, x := range xs {
		want := 1 / (1 + math.Exp(-x))
		require.LessOrEqual(t, ulps(got[i], want), uint64(2), "sigmoid(%v) = %v, want %v", x, got[i], want)
	}
}

// TestBlockIndependent checks that an element's result does not depend on
// its block: the whole slice at once equals one element at a time, also
// when the result overwrites the argument.
func TestBlockIndependent(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	xs := uniform(r, 513, -600, 600)
	for name, f := range map[string]func(d, a []float64){"exp": Exp[float64], "sigmoid": Sigmoid[float64]} {
		all := make([]float64, len(xs))
		f(all, xs)
		one := make([]float64, 1)
		for i := range xs {
			f(one, xs[i:i+1])
			require.Equal(t, math.Float64bits(all[i]), math.Float64bits(one[0]), "%s(%v)", name, xs[i])
		}
		inPlace := append([]float64(nil), xs...)
		f(inPlace, inPlace)
		assert.Equal(t, all, inPlace, "%s in place", name)
	}
}

// TestTableMatchesGenerator checks every entry of the generated table
// against 2^(i/N) computed here at 300 bits: s_i*(1+tail_i) must be within
// 2^-100 of it, and s_i the double nearest to it.
func TestTableMatchesGenerator(t *testing.T) {
	root := bigF(2) // 2^(2^-k) for k = 1..expBits, by square roots
	roots := make([]*big.Float, expBits+1)
	for k := 1; k <= expBits; k++ {
		root = new(big.Float).SetPrec(refPrec).Sqrt(root)
		roots[k] = root
	}
	for i := range expN {
		want := bigF(1)
		for k := 1; k <= expBits; k++ {
			if i&(1<<(expBits-k)) != 0 {
				want.Mul(want, roots[k])
			}
		}
		s := math.Float64frombits(expTable[i][1] + uint64(i)<<45)
		tail := math.Float64frombits(expTable[i][0])
		nearest, _ := want.Float64()
		assert.Equal(t, nearest, s, "s_%d is the double nearest 2^(%d/%d)", i, i, expN)
		got := new(big.Float).SetPrec(refPrec).Mul(bigF(s), new(big.Float).SetPrec(refPrec).Add(bigF(1), bigF(tail)))
		diff := new(big.Float).SetPrec(refPrec).Sub(got, want)
		diff.Quo(diff, want)
		d, _ := diff.Float64()
		assert.Less(t, math.Abs(d), 0x1p-100, "s_%d*(1+tail_%d) against 2^(%d/%d)", i, i, i, expN)
	}
}
