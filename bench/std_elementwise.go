package bench

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// flatKernel is a hand loop body over one range of contiguous operands:
// dst and every in[k] have the same length.
type flatKernel[T dtype.Float] func(dst []T, in [][]T)

// flatCase sets up an elementwise workload over nIn contiguous inputs of
// p.Size elements: tensorplay evaluates build's expression into a
// preallocated output, the hand loop runs kernel over the same inputs with
// p.Workers goroutines. flopsPerElem and rtol describe the computation;
// peer names the peer scripts' function for it, over inputs a, b, c.
func flatCase[T dtype.Float](p Params, peer string, nIn int, build func(x []expr.Expr[T]) expr.Expr[T],
	kernel flatKernel[T], flopsPerElem int, rtol float64) (*Case, error) {
	n := p.Size
	ins := make([]*tensor.Tensor[T], nIn)
	xs := make([]expr.Expr[T], nIn)
	raw := make([][]T, nIn)
	for k := range ins {
		t, err := inputTensor[T](p.Seed+uint64(k), k, n)
		if err != nil {
			return nil, err
		}
		ins[k], xs[k], raw[k] = t, expr.Of(t), t.Data()
	}
	e := build(xs)
	if err := e.Err(); err != nil {
		return nil, err
	}
	out, err := tensor.New[T](n)
	if err != nil {
		return nil, err
	}
	hand := handStorage[T](n)
	var z T
	pc := &PeerCase{Pipeline: peer, Outputs: outputs(out)}
	for k, t := range ins {
		pc.Inputs = append(pc.Inputs, PeerInput{string(rune('a' + k)), t})
	}
	return &Case{
		Peer:       pc,
		Shape:      fmt.Sprint(n),
		Tensorplay: func() error { return exec.EvalToWith(p.Exec, out, e) },
		HandLoop: func() error {
			parallelFor(p.Workers, n, cacheLine, func(lo, hi int) {
				in := make([][]T, len(raw))
				for k, r := range raw {
					in[k] = r[lo:hi]
				}
				kernel(hand[lo:hi], in)
			})
			return nil
		},
		Check: func() error { return AllClose(out.Data(), hand, rtol, rtol) },
		Bytes: int64(nIn+1) * int64(n) * int64(unsafe.Sizeof(z)),
		Flops: int64(flopsPerElem) * int64(n),
	}, nil
}

// inputTensor returns the k-th input of a workload: uniform on [0, 1) for
// the first two, standard normal for the rest (so abs and signs matter).
func inputTensor[T dtype.Float](seed uint64, k int, shape ...int) (*tensor.Tensor[T], error) {
	if k < 2 {
		return tensor.Rand[T](seed, shape...)
	}
	return tensor.RandN[T](seed, shape...)
}

func w1[T dtype.Float](p Params) (*Case, error) {
	return flatCase(p, "w1", 2,
		func(x []expr.Expr[T]) expr.Expr[T] { return x[0].Add(x[1]) },
		func(dst []T, in [][]T) {
			a, b := in[0][:len(dst)], in[1][:len(dst)]
			for i := range dst {
				dst[i] = a[i] + b[i]
			}
		}, 1, tolerance[T](1e-14, 1e-6))
}

func w2[T dtype.Float](p Params) (*Case, error) {
	return flatCase(p, "w2", 3,
		func(x []expr.Expr[T]) expr.Expr[T] { return x[0].Mul(x[1]).Add(x[2]) },
		func(dst []T, in [][]T) {
			a, b, c := in[0][:len(dst)], in[1][:len(dst)], in[2][:len(dst)]
			for i := range dst {
				dst[i] = a[i]*b[i] + c[i]
			}
		}, 2, tolerance[T](1e-14, 1e-6))
}

// w3 interprets its graph; w3Kernel runs it through the kernel that
// kernels_tp.go registers.
func w3[T dtype.Float](p Params) (*Case, error) { return w3Case[T](interpreted(p)) }

func w3Kernel[T dtype.Float](p Params) (*Case, error) { return w3Case[T](p) }

func w3Case[T dtype.Float](p Params) (*Case, error) {
	return flatCase(p, "w3", 3,
		func(x []expr.Expr[T]) expr.Expr[T] {
			a, b, c := x[0], x[1], x[2]
			return a.Mul(b).Add(c).Mul(a.Sub(b)).Div(c.AddScalar(1.5))
		},
		func(dst []T, in [][]T) {
			a, b, c := in[0][:len(dst)], in[1][:len(dst)], in[2][:len(dst)]
			for i := range dst {
				dst[i] = (a[i]*b[i] + c[i]) * (a[i] - b[i]) / (c[i] + 1.5)
			}
		}, 6, tolerance[T](1e-14, 1e-5))
}

func w4[T dtype.Float](p Params) (*Case, error) {
	return flatCase(p, "w4", 3,
		func(x []expr.Expr[T]) expr.Expr[T] {
			return x[0].Exp().Mul(x[1].Sin()).Add(x[2].Abs().Sqrt())
		},
		func(dst []T, in [][]T) {
			a, b, c := in[0][:len(dst)], in[1][:len(dst)], in[2][:len(dst)]
			for i := range dst {
				dst[i] = T(math.Exp(float64(a[i])))*T(math.Sin(float64(b[i]))) +
					T(math.Sqrt(math.Abs(float64(c[i]))))
			}
		}, 6, tolerance[T](1e-12, 1e-5))
}
