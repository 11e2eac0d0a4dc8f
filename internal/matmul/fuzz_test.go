package matmul

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tensorplay/tensorplay/dtype"
)

// FuzzGemm runs Gemm on operands with arbitrary sizes, offsets and strides
// (zero and overlapping included) against the reference loop, for a type of
// each path: float64 and float32 through the packed GEMM (float64 also through
// gonum's BLAS), complex64 through BLAS, int32 and complex128 through the Go
// loop.
func FuzzGemm(f *testing.F) {
	f.Add(uint8(3), uint8(4), uint8(5), uint8(0), uint8(4), uint8(1), uint8(0), uint8(5), uint8(1), uint8(0), uint64(1))
	f.Add(uint8(3), uint8(4), uint8(5), uint8(2), uint8(1), uint8(3), uint8(1), uint8(1), uint8(4), uint8(1), uint64(2))
	f.Add(uint8(7), uint8(2), uint8(9), uint8(1), uint8(0), uint8(1), uint8(3), uint8(9), uint8(0), uint8(4), uint64(3))
	f.Add(uint8(1), uint8(9), uint8(1), uint8(0), uint8(2), uint8(2), uint8(0), uint8(1), uint8(1), uint8(3), uint64(4))
	f.Fuzz(func(t *testing.T, m, k, n, aOff, aRS, aCS, bOff, bRS, bCS, dstLayout uint8, seed uint64) {
		mi, ki, ni := int(m%12), int(k%12), int(n%12)
		la := fixedLayout(int(aOff%8), int(aRS%20), int(aCS%20))
		lb := fixedLayout(int(bOff%8), int(bRS%20), int(bCS%20))
		ld := dstLayouts[int(dstLayout)%len(dstLayouts)]
		r := rand.New(rand.NewPCG(seed, 0))
		fuzzOne(t, fillFloat[float64](r), mi, ki, ni, la, lb, ld)
		fuzzOne(t, fillFloat[float32](r), mi, ki, ni, la, lb, ld)
		was := UseBLAS(true)
		fuzzOne(t, fillFloat[float64](r), mi, ki, ni, la, lb, ld)
		UseBLAS(was)
		fuzzOne(t, fillComplex[complex64](r), mi, ki, ni, la, lb, ld)
		fuzzOne(t, fillInt[int32](r), mi, ki, ni, la, lb, ld)
		fuzzOne(t, fillComplex[complex128](r), mi, ki, ni, la, lb, ld)
	})
}

func fixedLayout(off, rs, cs int) layout {
	return layout{"fixed", func(int, int) (int, int, int) { return off, rs, cs }}
}

func fuzzOne[T dtype.Numeric](t *testing.T, fill func([]T), m, k, n int, la, lb, ld layout) {
	a := newMatrix(la, m, k, fill)
	b := newMatrix(lb, k, n, fill)
	dst := newMatrix(ld, m, n, fillSentinel[T])
	Gemm(dst, a, b)
	assert.Equal(t, naive(a, b), elements(dst), "a %v, b %v, dst %v", a, b, dst)
}
