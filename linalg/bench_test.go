package linalg_test

import (
	"fmt"
	"testing"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/linalg"
)

// BenchmarkInvBatch inverts 256 matrices of 32×32 on 1 and 2 workers: the
// batch splits into one contiguous range per worker.
func BenchmarkInvBatch(b *testing.B) {
	const batch, n = 256, 32
	a := randomData(1, batch*n*n)
	for k := range batch {
		for i := range n {
			a[k*n*n+i*n+i] += float64(n)
		}
	}
	A := leaf[float64](a, batch, n, n)
	for _, w := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", w), func(b *testing.B) {
			x := exec.New(exec.Workers(w))
			defer x.Close()
			for b.Loop() {
				if _, err := linalg.Inv(A, linalg.Using(x)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEinsumMatMul compares einsum("ij,jk->ik") with the MatMul it
// is planned onto: the two should run at the same speed.
func BenchmarkEinsumMatMul(b *testing.B) {
	const n = 256
	A, B := leaf[float64](randomData(1, n*n), n, n), leaf[float64](randomData(2, n*n), n, n)
	for name, e := range map[string]interface{ Err() error }{
		"einsum": linalg.Einsum("ij,jk->ik", A, B),
		"matmul": A.MatMul(B),
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				var err error
				switch name {
				case "einsum":
					_, err = exec.Eval(linalg.Einsum("ij,jk->ik", A, B))
				default:
					_, err = exec.Eval(A.MatMul(B))
				}
				if err != nil || e.Err() != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
