package vmath

import "math"

// Tanh and sigmoid from the exp kernels, in the lanes of their type: for
// |x| < 0.625 tanh is Cephes' odd polynomial (float32, tanhf) or rational
// function (float64, as the math package), beyond it 1 - 2/(e**2|x| + 1)
// with the sign of x; sigmoid is 1/(1 + e) for x ≥ 0 and e/(1 + e)
// for x < 0, with e = e**-|x| ≤ 1 (1 + e**|x| would round away a whole ulp). The AVX2 loops compute
// both of tanh's forms and select, with the same operations as the Go
// loops. Off the fast paths (large |x|, NaN) the math package's value is
// used.
const (
	tanh32T0 = float32(-5.70498872745e-3)
	tanh32T1 = float32(2.06390887954e-2)
	tanh32T2 = float32(-5.37397155531e-2)
	tanh32T3 = float32(1.33314422036e-1)
	tanh32T4 = float32(-3.33332819422e-1)

	tanh64P0 = -9.64399179425052238628e-1
	tanh64P1 = -9.92877231001918586564e1
	tanh64P2 = -1.61468768441708447952e3
	tanh64Q0 = 1.12811678491632931402e2
	tanh64Q1 = 2.23548839060100448583e3
	tanh64Q2 = 4.84406305325125486048e3

	tanhSmall  = 0.625
	tanh32Fast = float32(43) // 2|x| on exp32's fast path
	tanh64Fast = 256.0       // 2|x| on exp's fast path
)

// tanh32Go is the Go loop of float32 tanh.
func tanh32Go(d, a []float32) {
	a = a[:len(d)]
	for i, x := range a {
		ax := abs32(x)
		switch {
		case !(ax < tanh32Fast):
			d[i] = float32(math.Tanh(float64(x)))
		case ax < tanhSmall:
			z := float32(x * x)
			p := float32(z*tanh32T0) + tanh32T1
			p = float32(p*z) + tanh32T2
			p = float32(p*z) + tanh32T3
			p = float32(p*z) + tanh32T4
			d[i] = float32(float32(p*z)*x) + x
		default:
			t := 1 - 2/(exp32Fast1(ax+ax)+1)
			d[i] = math.Float32frombits(math.Float32bits(t) | math.Float32bits(x)&(1<<31))
		}
	}
}

// tanh64Go is the Go loop of float64 tanh.
func tanh64Go(d, a []float64) {
	a = a[:len(d)]
	for i, x := range a {
		ax := math.Abs(x)
		switch {
		case !(ax < tanh64Fast):
			d[i] = math.Tanh(x)
		case ax < tanhSmall:
			s := float64(x * x)
			p := float64(tanh64P0*s) + tanh64P1
			p = float64(p*s) + tanh64P2
			q := s + tanh64Q0
			q = float64(q*s) + tanh64Q1
			q = float64(q*s) + tanh64Q2
			d[i] = x + float64(float64(float64(x*s)*p)/q)
		default:
			t := 1 - 2/(expTail(expReduce(ax+ax))+1)
			d[i] = math.Float64frombits(math.Float64bits(t) | math.Float64bits(x)&(1<<63))
		}
	}
}

// sigmoid32Go is the Go loop of float32 sigmoid.
func sigmoid32Go(d, a []float32) {
	a = a[:len(d)]
	for i, x := range a {
		if !(abs32(x) < exp32Fast) {
			d[i] = float32(1 / (1 + math.Exp(-float64(x))))
			continue
		}
		e := exp32Fast1(-abs32(x))
		n := float32(1)
		if x < 0 {
			n = e
		}
		d[i] = n / (1 + e)
	}
}

// sigmoid64Go is the Go loop of float64 sigmoid.
func sigmoid64Go(d, a []float64) {
	a = a[:len(d)]
	for i := range d {
		x := a[i]
		if (math.Float64bits(x)>>52)&0x7ff >= expFastTop {
			d[i] = 1 / (1 + expSpecial(-x))
			continue
		}
		e := expTail(expReduce(-math.Abs(x)))
		n := 1.0
		if x < 0 {
			n = e
		}
		d[i] = n / (1 + e)
	}
}
