package simd_test

import (
	"testing"

	"github.com/tensorplay/tensorplay/internal/simd"
)

// BenchmarkTwins times forms that run another form's loop (add's and mul's
// SV forms run VS, Fused's right forms of add and mul its left ones, the
// unsigned types the signed ones; see asmgen's twinOf) beside that loop, on
// 1000 elements in cache: the pairs should take the same time.
func BenchmarkTwins(b *testing.B) {
	const n = 1000
	x, y, z, d := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i], z[i] = float64(i), 1/float64(i+1), float64(n-i)
	}
	mul, ok := simd.BinaryOf[float64](simd.Mul)
	if !ok {
		b.Skip("no AVX2 loops here")
	}
	b.Run("float64 mul SV", func(b *testing.B) {
		for b.Loop() {
			mul.SV(d, 1.5, x)
		}
	})
	b.Run("float64 mul VS", func(b *testing.B) {
		for b.Loop() {
			mul.VS(d, x, 1.5)
		}
	})
	right, _ := simd.Fused[float64](simd.Add, simd.Mul, false)
	left, _ := simd.Fused[float64](simd.Add, simd.Mul, true)
	b.Run("float64 z+x*y", func(b *testing.B) {
		for b.Loop() {
			right(d, x, y, z)
		}
	})
	b.Run("float64 x*y+z", func(b *testing.B) {
		for b.Loop() {
			left(d, x, y, z)
		}
	})
	u, i := make([]uint32, n), make([]int32, n)
	uadd, _ := simd.IntBinaryOf[uint32](simd.Add)
	iadd, _ := simd.IntBinaryOf[int32](simd.Add)
	b.Run("uint32 add VV", func(b *testing.B) {
		for b.Loop() {
			uadd.VV(u, u, u)
		}
	})
	b.Run("int32 add VV", func(b *testing.B) {
		for b.Loop() {
			iadd.VV(i, i, i)
		}
	})
	u8, i8 := make([]uint8, n), make([]int8, n)
	u8add, _ := simd.IntBinaryOf[uint8](simd.Add)
	i8add, _ := simd.IntBinaryOf[int8](simd.Add)
	b.Run("uint8 add SV", func(b *testing.B) {
		for b.Loop() {
			u8add.SV(u8, 3, u8)
		}
	})
	b.Run("int8 add VS", func(b *testing.B) {
		for b.Loop() {
			i8add.VS(i8, i8, 3)
		}
	})
}
