package exec_test

import (
	"fmt"
	"testing"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// BenchmarkEpilogue measures relu(x@W + b), and (x@W + b)*0.5, at
// [4096,256]@[256,256]+[256] three ways, into preallocated tensors on the
// default executor: "fused", one plan whose matmul applies the head to
// each block of its result (the epilogue); "unfused", the matmul into a
// tensor and then the elementwise head as a second evaluation (what the
// plan did before, and what NumPy does); "matmul", the product alone, the
// floor of both.
func BenchmarkEpilogue(b *testing.B) {
	b.Run("float32", benchEpilogue[float32])
	b.Run("float64", benchEpilogue[float64])
}

func benchEpilogue[T float32 | float64](b *testing.B) {
	const m, k, n = 4096, 256, 256
	x := tensor.Must(tensor.RandN[T](1, m, k))
	w := tensor.Must(tensor.RandN[T](2, k, n))
	bias := tensor.Must(tensor.RandN[T](3, n))
	c := tensor.Must(tensor.Zeros[T](m, n))
	res := tensor.Must(tensor.Zeros[T](m, n))
	prod := expr.Of(x).MatMul(expr.Of(w))
	flops := func(b *testing.B) {
		b.ReportMetric(2*float64(m*k*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	}
	for _, variant := range []string{"relu/fused", "relu/unfused", "scale/fused", "scale/unfused", "matmul"} {
		fused, head := benchHead(prod, bias, variant[0] == 'r'), benchHead(expr.Of(c), bias, variant[0] == 'r')
		b.Run(fmt.Sprintf("%dx%dx%d/%s", m, k, n, variant), func(b *testing.B) {
			for b.Loop() {
				var err error
				switch {
				case variant == "matmul":
					err = exec.EvalTo(c, prod)
				case variant == "relu/fused" || variant == "scale/fused":
					err = exec.EvalTo(res, fused)
				default:
					if err = exec.EvalTo(c, prod); err == nil {
						err = exec.EvalTo(res, head)
					}
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			flops(b)
		})
	}
}

// benchHead is relu(y + b), or (y + b)*0.5.
func benchHead[T float32 | float64](y expr.Expr[T], b *tensor.Tensor[T], relu bool) expr.Expr[T] {
	z := y.Add(expr.Of(b))
	if relu {
		return z.Relu()
	}
	return z.MulScalar(0.5)
}
