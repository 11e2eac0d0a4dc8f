package matmul

import (
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGemmComplexKernels runs complex products on every real kernel
// variant, at the default blocking and at smallBlocking, on 1, 2, 3 and 8
// workers, over the layouts that read a' in place, pack it as a real
// matrix and pack it element by element (strided, broadcast): with
// integer-valued parts the result must be the reference loop's exactly,
// and the same bits whatever the worker count.
func TestGemmComplexKernels(t *testing.T) {
	forEachKernel(t, func(t *testing.T) {
		t.Run("complex64", testComplexKernels[complex64, float32](func() microKernel[float32] { return kernel32 }))
		t.Run("complex128", testComplexKernels[complex128, float64](func() microKernel[float64] { return kernel64 }))
	})
}

func testComplexKernels[C complex64 | complex128, F float](kern func() microKernel[F]) func(t *testing.T) {
	return func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		fill := fillComplex[C](r)
		layouts := []layout{operandLayouts[0], operandLayouts[1], operandLayouts[4], operandLayouts[5], operandLayouts[8]}
		for _, s := range packedShapes {
			for _, la := range layouts {
				for _, lb := range layouts[:3] {
					m, k, n := s[0], s[1], s[2]
					if m == 0 || k == 0 || n == 0 {
						continue // gemm's own cases
					}
					a, b := newMatrix(la, m, k, fill), newMatrix(lb, k, n, fill)
					want := naive(a, b)
					for _, bl := range []blocking{blockingOf(kern()), smallBlocking} {
						var first []C
						for _, w := range []int{1, 2, 3, 8} {
							dst := RowMajor(make([]C, m*n), m, n)
							gemmComplex(dst, a, b, Goroutines(w), kern(), bl)
							name := fmt.Sprintf("%v a=%s b=%s kc=%d workers=%d", s, la.name, lb.name, bl.kc, w)
							if !assert.Equal(t, want, dst.Data, name) {
								return
							}
							if first == nil {
								first = dst.Data
							}
							assert.Equal(t, first, dst.Data, name)
						}
					}
				}
			}
		}
	}
}

// TestGemmComplexRandom compares complex products of random parts with the
// reference loop, within the error bound of sums of 2k real products:
// |error| of each part <= 2k·ε·Σ_p (|re a|+|im a|)(|re b|+|im b|), with a
// factor 2 to spare.
func TestGemmComplexRandom(t *testing.T) {
	t.Run("complex64", testComplexRandom[complex64](0x1p-23))
	t.Run("complex128", testComplexRandom[complex128](0x1p-52))
}

func testComplexRandom[C complex64 | complex128](eps float64) func(t *testing.T) {
	return func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		normal := func(s []C) {
			for i := range s {
				s[i] = C(complex(r.NormFloat64(), r.NormFloat64()))
			}
		}
		l1 := func(z C) float64 {
			c := complex128(z)
			return math.Abs(real(c)) + math.Abs(imag(c))
		}
		for _, s := range [][3]int{{7, 5, 9}, {13, 131, 17}, {40, 300, 33}, {1, 200, 9}, {9, 200, 1}} {
			m, k, n := s[0], s[1], s[2]
			a, b := newMatrix(operandLayouts[0], m, k, normal), newMatrix(operandLayouts[3], k, n, normal)
			dst := RowMajor(make([]C, m*n), m, n)
			gemm(dst, a, b, Goroutines(2), nil)
			for i := range m {
				for j := range n {
					bound := 0.0
					var want complex128
					for p := range k {
						want += complex128(a.At(i, p)) * complex128(b.At(p, j))
						bound += l1(a.At(i, p)) * l1(b.At(p, j))
					}
					got := complex128(dst.At(i, j))
					tol := 2 * 2 * float64(k) * eps * bound
					require.InDelta(t, real(want), real(got), tol, "%v (%d, %d) real part", s, i, j)
					require.InDelta(t, imag(want), imag(got), tol, "%v (%d, %d) imaginary part", s, i, j)
					require.False(t, cmplx.IsNaN(got))
				}
			}
		}
	}
}
