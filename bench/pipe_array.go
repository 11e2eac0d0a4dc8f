package bench

import (
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// kmeansCase is one Lloyd iteration over n points of d float64 features
// and k centroids, written back into the centroids: each point goes to the
// centroid that minimizes |c|² - 2x·c (|x|² does not change the argmin),
// and each centroid becomes the mean of its points, summed by a one-hot
// matmul (no scatter-add op yet); an empty cluster's centroid becomes 0.
func kmeansCase(n, d, k int) func(Params) (*Case, error) {
	return func(p Params) (*Case, error) {
		x, err := tensor.RandN[float64](p.Seed, n, d)
		if err != nil {
			return nil, err
		}
		first, err := x.Slice(0, 0, k, 1)
		if err != nil {
			return nil, err
		}
		c := first.Clone()
		c0 := c.Clone().Data()
		ids, err := classRow(k)
		if err != nil {
			return nil, err
		}
		// Built once: every step evaluates the same graph over the centroids'
		// current values (docs/executor.md, "A step built once").
		xs, cs := expr.Of(x), expr.Of(c)
		dist := cs.Square().Sum(1).Unsqueeze(0).Sub(xs.MatMul(cs.T()).MulScalar(2))
		onehot := expr.Cast[float64](dist.ArgMin(1).Unsqueeze(1).Eq(expr.Of(ids)))
		counts := onehot.Sum(0).Unsqueeze(1)
		e := onehot.T().MatMul(xs).Div(counts.Maximum(expr.Scalar(1.0)))
		bytes, flops := GraphCost(e)
		return &Case{
			Shape:      fmt.Sprintf("%dx%d,k%d", n, d, k),
			Tensorplay: func() error { return exec.EvalToWith(p.Exec, c, e) },
			Check: func() error {
				return checkClose("centroids", c, refKMeansStep(x.Data(), c0, n, d, k), 1e-10, 1e-12)
			},
			Bytes: bytes, Flops: flops,
			Peer: &PeerCase{Pipeline: "kmeans", Inputs: []PeerInput{{"X", x}, {"C", c}}, Outputs: outputs(c)},
		}, nil
	}
}

// refKMeansStep is the iteration of kmeansCase, point by point.
func refKMeansStep(x, c []float64, n, d, k int) []float64 {
	norms := make([]float64, k)
	for j := range k {
		for _, v := range c[j*d : (j+1)*d] {
			norms[j] += v * v
		}
	}
	sums := make([]float64, k*d)
	counts := make([]float64, k)
	for i := range n {
		xi := x[i*d : (i+1)*d]
		best, bestD := 0, math.Inf(1)
		for j := range k {
			dot := 0.0
			for t, v := range c[j*d : (j+1)*d] {
				dot += xi[t] * v
			}
			if dist := norms[j] - 2*dot; dist < bestD {
				best, bestD = j, dist
			}
		}
		counts[best]++
		for t, v := range xi {
			sums[best*d+t] += v
		}
	}
	for j := range k {
		for t := range d {
			sums[j*d+t] /= max(counts[j], 1)
		}
	}
	return sums
}

// chnormEps is the epsilon of the per-channel normalization.
const chnormEps = 1e-5

// chnormCase normalizes each channel of an NCHW float32 batch to zero mean
// and unit variance (over N, H and W) and writes the result as NHWC.
func chnormCase(n, c, h, w int) func(Params) (*Case, error) {
	return func(p Params) (*Case, error) {
		x, err := tensor.RandN[float32](p.Seed, n, c, h, w)
		if err != nil {
			return nil, err
		}
		out := tensor.Must(tensor.New[float32](n, h, w, c))
		xs := expr.Of(x)
		xc := xs.Sub(xs.MeanKeepDims(0, 2, 3))
		y := xc.Div(xc.Square().MeanKeepDims(0, 2, 3).AddScalar(chnormEps).Sqrt())
		e := y.Permute(0, 2, 3, 1) // built once, as kmeansCase's
		bytes, flops := GraphCost(e)
		return &Case{
			Shape:      fmt.Sprintf("%dx%dx%dx%d", n, c, h, w),
			Tensorplay: func() error { return exec.EvalToWith(p.Exec, out, e) },
			Check: func() error {
				return checkClose("NHWC", out, refChannelNorm(f64s(x), n, c, h, w), 1e-4, 1e-5)
			},
			Bytes: bytes, Flops: flops,
			Peer: &PeerCase{Pipeline: "channelnorm", Inputs: []PeerInput{{"x", x}},
				Params: map[string]float64{"eps": chnormEps}, Outputs: outputs(out)},
		}, nil
	}
}

// refChannelNorm is chnormCase's result in NHWC order.
func refChannelNorm(x []float64, n, c, h, w int) []float64 {
	out := make([]float64, len(x))
	m := float64(n * h * w)
	for ch := range c {
		mu, v := 0.0, 0.0
		each := func(f func(i, o int)) {
			for b := range n {
				for s := range h * w {
					f((b*c+ch)*h*w+s, (b*h*w+s)*c+ch)
				}
			}
		}
		each(func(i, _ int) { mu += x[i] })
		mu /= m
		each(func(i, _ int) { v += (x[i] - mu) * (x[i] - mu) })
		sd := math.Sqrt(v/m + chnormEps)
		each(func(i, o int) { out[o] = (x[i] - mu) / sd })
	}
	return out
}

// jacobiCase is one Jacobi sweep of an n×n float64 grid in NumPy's
// in-place slice form, u[1:-1,1:-1] = 0.25*(u[:-2,1:-1] + u[2:,1:-1] +
// u[1:-1,:-2] + u[1:-1,2:]): EvalTo into the interior view from four
// shifted views of the same grid, every value computed from the old ones.
func jacobiCase(n int) func(Params) (*Case, error) {
	return func(p Params) (*Case, error) {
		u, err := tensor.Rand[float64](p.Seed, n, n)
		if err != nil {
			return nil, err
		}
		u0 := u.Clone().Data()
		// NumPy's subscripts, one Idx each (docs/views.md): the interior
		// u[1:-1,1:-1], then u[:-2,1:-1], u[2:,1:-1], u[1:-1,:-2], u[1:-1,2:].
		in, up, down := tensor.S(1, -1), tensor.To(-2), tensor.From(2)
		subscripts := [5][2]tensor.IndexItem{{in, in}, {up, in}, {down, in}, {in, up}, {in, down}}
		var vs [5]*tensor.Tensor[float64]
		for i, sub := range subscripts {
			if vs[i], err = u.Idx(sub[0], sub[1]); err != nil {
				return nil, err
			}
		}
		// Built once, as kmeansCase's: the views read u's current values.
		inner := vs[0]
		e := expr.Of(vs[1]).Add(expr.Of(vs[2])).Add(expr.Of(vs[3])).Add(expr.Of(vs[4])).MulScalar(0.25)
		bytes, flops := GraphCost(e)
		return &Case{
			Shape:      fmt.Sprintf("%dx%d", n, n),
			Tensorplay: func() error { return exec.EvalToWith(p.Exec, inner, e) },
			Check:      func() error { return checkClose("u", u, refJacobi(u0, n), 1e-14, 0) },
			Bytes:      bytes, Flops: flops,
			Peer: &PeerCase{Pipeline: "jacobi", Inputs: []PeerInput{{"u", u}}, Outputs: outputs(u)},
		}, nil
	}
}

// refJacobi is one sweep of u computed from the old values.
func refJacobi(u []float64, n int) []float64 {
	out := append([]float64(nil), u...)
	for i := 1; i < n-1; i++ {
		for j := 1; j < n-1; j++ {
			out[i*n+j] = 0.25 * (u[(i-1)*n+j] + u[(i+1)*n+j] + u[i*n+j-1] + u[i*n+j+1])
		}
	}
	return out
}
