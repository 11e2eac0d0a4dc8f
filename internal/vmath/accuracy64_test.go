package vmath

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// bigPi is pi to 1500 bits (Machin: 16 atan(1/5) - 4 atan(1/239)),
// enough to reduce any double.
var bigPi = func() *big.Float {
	const prec = 1500
	atanInv := func(n int64) *big.Float {
		x := new(big.Float).SetPrec(prec).Quo(big.NewFloat(1), new(big.Float).SetPrec(prec).SetInt64(n))
		x2 := new(big.Float).SetPrec(prec).Mul(x, x)
		sum, term := new(big.Float).SetPrec(prec).Set(x), new(big.Float).SetPrec(prec).Set(x)
		for k := int64(3); k < 2200; k += 2 {
			term.Mul(term, x2).Neg(term)
			sum.Add(sum, new(big.Float).SetPrec(prec).Quo(term, new(big.Float).SetPrec(prec).SetInt64(k)))
		}
		return sum
	}
	a := atanInv(5)
	a.Mul(a, big.NewFloat(16))
	b := atanInv(239)
	b.Mul(b, big.NewFloat(4))
	return a.Sub(a, b)
}()

// bigAtanh is atanh(y) = y + y³/3 + y⁵/5 + ... for |y| <= 1/3.
func bigAtanh(y *big.Float) *big.Float {
	sum, term, y2 := new(big.Float).SetPrec(refPrec).Set(y), new(big.Float).SetPrec(refPrec).Set(y), new(big.Float).SetPrec(refPrec).Mul(y, y)
	for n := 3; n < 400; n += 2 {
		term.Mul(term, y2)
		sum.Add(sum, new(big.Float).SetPrec(refPrec).Quo(term, bigF(float64(n))))
	}
	return sum
}

// refLog is log(x) rounded to a double: k*ln2 + 2*atanh((m-1)/(m+1)).
func refLog(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 1) {
		return math.Log(x)
	}
	m, k := math.Frexp(x) // m in [0.5, 1)
	bm := bigF(m)
	num := new(big.Float).SetPrec(refPrec).Sub(bm, bigF(1))
	den := new(big.Float).SetPrec(refPrec).Add(bm, bigF(1))
	l := bigAtanh(num.Quo(num, den))
	l.Mul(l, bigF(2))
	ln2 := bigAtanh(new(big.Float).SetPrec(refPrec).Quo(bigF(1), bigF(3)))
	ln2.Mul(ln2, bigF(2*float64(k)))
	f, _ := l.Add(l, ln2).Float64()
	return f
}

// refTrig is sin(x) (q = 0) or cos(x) (q = 1) rounded to a double: x
// reduced by pi/2 to enough bits for its size, then the Taylor series.
func refTrig(x float64, q int) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN()
	}
	if x == 0 && q == 0 {
		return x
	}
	_, e := math.Frexp(x)
	prec := uint(300 + max(e, 0))
	half := new(big.Float).SetPrec(prec).Quo(bigPi, big.NewFloat(2))
	bx := new(big.Float).SetPrec(prec).SetFloat64(x)
	quo := new(big.Float).SetPrec(prec).Quo(bx, half)
	quo.Add(quo, big.NewFloat(0.5))
	n, _ := quo.Int(nil)
	if quo.Sign() < 0 && !quo.IsInt() {
		n.Sub(n, big.NewInt(1)) // Int truncates: floor for negative quotients
	}
	r := new(big.Float).SetPrec(prec).Sub(bx, new(big.Float).SetPrec(prec).Mul(half, new(big.Float).SetPrec(prec).SetInt(n)))
	quad := int(new(big.Int).Mod(n, big.NewInt(4)).Int64()+int64(q)) % 4
	sum, term := new(big.Float).SetPrec(300), new(big.Float).SetPrec(300)
	r2 := new(big.Float).SetPrec(300).Mul(r, r)
	start := 0
	if quad%2 == 0 {
		start = 1
		term.Set(r)
	} else {
		term.SetInt64(1)
	}
	for k := start; k < 80; k += 2 {
		sum.Add(sum, term)
		term.Mul(term, r2)
		term.Quo(term, new(big.Float).SetInt64(int64(-(k+1)*(k+2))))
	}
	if quad >= 2 {
		sum.Neg(sum)
	}
	f, _ := sum.Float64()
	return f
}

// refExpAll is refExp, and math.Exp where the result is 0, +Inf or NaN.
func refExpAll(x float64) float64 {
	if !(math.Abs(x) < 746) {
		return math.Exp(x)
	}
	return refExp(x)
}

// f64Case is a float64 kernel and its math/big reference.
type f64Case struct {
	name   string
	fn     func(d, a []float64)
	ref    func(float64) float64
	lo, hi float64
	bound  uint64 // ulp
}

var f64Cases = []f64Case{
	{"exp", Exp[float64], refExpAll, -700, 700, 1},
	{"log", Log[float64], refLog, 0, 1e3, 1},
	{"sin", Sin[float64], func(x float64) float64 { return refTrig(x, 0) }, -1e6, 1e6, 1},
	{"cos", Cos[float64], func(x float64) float64 { return refTrig(x, 1) }, -1e6, 1e6, 1},
	{"tanh", Tanh[float64], refTanh, -30, 30, 2},
	{"sigmoid", Sigmoid[float64], refSigmoid, -40, 40, 2},
}

// refTanh is (e**2x - 1)/(e**2x + 1) rounded to a double.
func refTanh(x float64) float64 {
	if math.IsNaN(x) || math.Abs(x) > 30 || math.Abs(x) < 0x1p-30 {
		return math.Tanh(x) // ±1 beyond 19.1; x - x³/3 rounds to x below 2^-27
	}
	e := bigExp(2 * x)
	num := new(big.Float).SetPrec(refPrec).Sub(e, bigF(1))
	f, _ := num.Quo(num, e.Add(e, bigF(1))).Float64()
	return f
}

// refSigmoid is 1/(1 + e**-x) rounded to a double.
func refSigmoid(x float64) float64 {
	if math.IsNaN(x) || math.Abs(x) > 745 {
		return 1 / (1 + math.Exp(-x))
	}
	e := bigExp(-x)
	f, _ := new(big.Float).SetPrec(refPrec).Quo(bigF(1), e.Add(e, bigF(1))).Float64()
	return f
}

// special64 are arguments every float64 kernel is checked on.
func special64() []float64 {
	xs := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.SmallestNonzeroFloat64, 0x1p-1022, 0x1.fffffffffffffp-1023, math.MaxFloat64, -math.MaxFloat64,
		1, -1, 0.5, 2, 1e-300, 1e-17, 511.9, 512, 709.78, -745.1, 999999, 1e6, 1e7, 1e22,
		math.Pi / 2, math.Pi, 3 * math.Pi / 2, 6381956970095103 * 0x1p797, 0x1.6a09e667f3bccp-1, 0x1.6a09e667f3bcdp-1, 0x1.6a09e667f3bcdp0}
	for k := 1.0; k < 1e6; k *= 3 { // near multiples of pi/2
		xs = append(xs, math.Round(k)*math.Pi/2, math.Nextafter(math.Round(k)*math.Pi/2, 0))
	}
	return xs
}

// TestAccuracy64 checks the float64 kernels against math/big on random
// arguments in and beyond the fast paths, at every scale, and special ones:
// within the case's bound of the exact value, NaN where it is NaN.
func TestAccuracy64(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	n := 3000
	if testing.Short() {
		n = 200
	}
	for _, c := range f64Cases {
		t.Run(c.name, func(t *testing.T) {
			xs := special64()
			for range n {
				xs = append(xs, c.lo+(c.hi-c.lo)*r.Float64(), (2*r.Float64()-1)*math.Pi)
			}
			for range n / 10 {
				xs = append(xs, math.Float64frombits(r.Uint64()&^(1<<63)))
			}
			got := make([]float64, len(xs))
			c.fn(got, xs)
			var worst uint64
			for i, x := range xs {
				want := c.ref(x)
				if math.IsNaN(want) {
					assert.True(t, math.IsNaN(got[i]), "%s(%v) = %v, want NaN", c.name, x, got[i])
					continue
				}
				u := ulps(got[i], want)
				worst = max(worst, u)
				if !assert.LessOrEqual(t, u, c.bound, "%s(%v) = %v, want %v", c.name, x, got[i], want) {
					return
				}
			}
			t.Logf("worst error %d ulp over %d arguments", worst, len(xs))
		})
	}
}
