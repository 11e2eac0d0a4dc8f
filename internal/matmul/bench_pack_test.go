package matmul

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkPack measures packA and packB of one 256×256 block, row-major,
// at the kernels' mr and nr, in elements packed per nanosecond (reported
// as MB/s of elements read).
func BenchmarkPack(b *testing.B) {
	b.Run("float64", benchPack[float64](6, 8))
	b.Run("float32", benchPack[float32](6, 16))
}

func benchPack[F float](mr, nr int) func(b *testing.B) {
	return func(b *testing.B) {
		const n = 256
		r := rand.New(rand.NewPCG(3, 4))
		x := RowMajor(randSlice[F](r, n*n), n, n)
		buf := make([]F, (roundUp(n, mr)+nr)*n)
		for _, c := range []struct {
			name string
			m    Matrix[F]
		}{{"row-major", x}, {"transposed", x.T()}} {
			b.Run(fmt.Sprintf("A/%s", c.name), func(b *testing.B) {
				b.SetBytes(int64(n * n * sizeOf[F]()))
				for b.Loop() {
					packA(buf, c.m, mr)
				}
			})
			b.Run(fmt.Sprintf("B/%s", c.name), func(b *testing.B) {
				b.SetBytes(int64(n * n * sizeOf[F]()))
				for b.Loop() {
					packB(buf, c.m, nr)
				}
			})
		}
	}
}
