package bench

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Pipelines returns the pipelines suite (tpbench -suite pipelines): eight
// small programs ported from NumPy the way the README and docs/ teach,
// each at a small size, where the fixed cost of a call shows, and a large
// one. Each builds its step's graph once, as a loop of steps does
// (docs/executor.md, "A step built once"), and every run is one step: it
// evaluates the graph over the tensors' current values into preallocated
// destinations, with exec.AssignWith for the steps that update several
// tensors, and allocates nothing. Each pipeline's
// check compares one run with a plain Go reference (float64 arithmetic)
// from the same inputs, and NumPy and PyTorch rerun it as peers.
//
// Where an op is missing today the pipeline uses what a user would write
// instead: GELU is its tanh form, as there is no erf (the peers compute
// the same form). The integer labels of the losses pick their logit with
// a gather; xent1hot is xent with the one-hot mask (Eq against a row of
// class indices, then Where) that stood in for it before, for comparison.
func Pipelines() []Workload {
	var ws []Workload
	add := func(name, desc string, bound Bound, small, large func(Params) (*Case, error)) {
		ws = append(ws,
			Workload{Name: name + "/s", Description: desc, Bound: bound, Setup: small, Suite: "pipelines", Fixed: true},
			Workload{Name: name + "/l", Description: desc, Bound: bound, Setup: large, Suite: "pipelines", Fixed: true})
	}
	add("xent", "softmax cross-entropy, int labels (a gather), f32", ComputeBound, xentCase(64, 10, false), xentCase(4096, 1000, false))
	add("xent1hot", "xent with the one-hot Eq/Where label pick, f32", ComputeBound, xentCase(64, 10, true), xentCase(4096, 1000, true))
	add("linreg", "linear regression GD step, autograd, f64", ComputeBound, linregCase(1000, 8), linregCase(100_000, 32))
	add("kmeans", "k-means iteration (one-hot means), f64", ComputeBound, kmeansCase(1000, 8, 4), kmeansCase(100_000, 16, 16))
	add("chnorm", "NCHW per-channel norm to NHWC, f32", MemoryBound, chnormCase(4, 3, 32, 32), chnormCase(32, 3, 224, 224))
	add("jacobi", "u[1:-1,1:-1] = 0.25*(4 neighbours), f64", MemoryBound, jacobiCase(64), jacobiCase(2048))
	add("mlp", "MLP train step 784-h-10, relu, xent, SGD", ComputeBound, mlpCase(64, 128), mlpCase(512, 512))
	add("attn", "softmax(Q Kᵀ/√d) V, f32", ComputeBound, attnCase(2, 32, 32), attnCase(8, 512, 64))
	add("lngelu", "layer norm then GELU (tanh), f32", ComputeBound, lngeluCase(32, 64), lngeluCase(4096, 1024))
	return ws
}

// randLabels returns n class labels in [0, classes) drawn from seed.
func randLabels(seed uint64, n, classes int) *tensor.Tensor[int64] {
	r := rand.New(rand.NewPCG(seed, 7))
	t := tensor.Must(tensor.New[int64](n))
	for i := range t.Data() {
		t.Data()[i] = int64(r.IntN(classes))
	}
	return t
}

// classRow is [[0, 1, ..., classes-1]], the row a column of labels is
// compared with to make a one-hot mask.
func classRow(classes int) (*tensor.Tensor[int64], error) {
	c, err := tensor.Arange[int64](0, int64(classes), 1)
	if err != nil {
		return nil, err
	}
	return c.Reshape(1, classes)
}

// scaled returns t with every element multiplied by s (initial weights).
func scaled[T dtype.Float](t *tensor.Tensor[T], s float64) *tensor.Tensor[T] {
	for i, v := range t.Data() {
		t.Data()[i] = T(float64(v) * s)
	}
	return t
}

// f64s returns t's values as float64, in row-major order.
func f64s[T dtype.Float](t *tensor.Tensor[T]) []float64 {
	v := t.Values()
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// checkClose compares tensorplay's output with the reference, naming it.
func checkClose[T dtype.Float](what string, got *tensor.Tensor[T], want []float64, rtol, atol float64) error {
	if err := AllClose(f64s(got), want, rtol, atol); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// outputs makes a PeerCase's Outputs from tensors.
func outputs(ts ...tensor.Any) func() []tensor.Any {
	return func() []tensor.Any { return ts }
}

// refSoftmaxXent is the mean over rows of -log softmax(x)[label]; with
// grad non-nil it also writes d(loss)/dx into grad.
func refSoftmaxXent(x []float64, labels []int64, n, c int, grad []float64) float64 {
	loss := 0.0
	for i := range n {
		row := x[i*c : (i+1)*c]
		m := math.Inf(-1)
		for _, v := range row {
			m = max(m, v)
		}
		s := 0.0
		for _, v := range row {
			s += math.Exp(v - m)
		}
		lse := math.Log(s) + m
		loss -= row[labels[i]] - lse
		if grad != nil {
			g := grad[i*c : (i+1)*c]
			for j, v := range row {
				g[j] = math.Exp(v-lse) / float64(n)
			}
			g[labels[i]] -= 1 / float64(n)
		}
	}
	return loss / float64(n)
}

// refMatMul is c = a @ b for row-major a [m,k] and b [k,n].
func refMatMul(a, b []float64, m, k, n int) []float64 {
	c := make([]float64, m*n)
	for i := range m {
		ci := c[i*n : (i+1)*n]
		for p := range k {
			aip := a[i*k+p]
			bp := b[p*n : (p+1)*n]
			for j := range ci {
				ci[j] += aip * bp[j]
			}
		}
	}
	return c
}

// transposed returns the [cols, rows] transpose of row-major x [rows, cols].
func transposed(x []float64, rows, cols int) []float64 {
	t := make([]float64, len(x))
	for i := range rows {
		for j := range cols {
			t[j*rows+i] = x[i*cols+j]
		}
	}
	return t
}
