package bench

import (
	"fmt"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// MatMul returns the matmul suite (tpbench -suite matmul): square float32
// and float64 products at n = 64 to 2048 and the skinny shapes of the
// programs in Pipelines, each into a preallocated output, against gonum's
// blas32/blas64 Gemm (the hand loop), the FMA peak and, with peers, NumPy;
// and relu(x@W+b) as one graph against the product and the elementwise
// ops evaluated one after the other.
func MatMul() []Workload {
	var ws []Workload
	add := func(name, desc string, setup func(Params) (*Case, error)) {
		ws = append(ws, Workload{Name: name, Description: desc, Bound: ComputeBound, Setup: setup, Suite: "matmul", Fixed: true})
	}
	for _, n := range []int{64, 128, 256, 512, 1024, 2048} {
		add(fmt.Sprintf("mm/f32/%d", n), fmt.Sprintf("%d³ matmul f32", n), mmSetup[float32](n, n, n))
		add(fmt.Sprintf("mm/f64/%d", n), fmt.Sprintf("%d³ matmul f64", n), mmSetup[float64](n, n, n))
	}
	skinny := []struct {
		name, desc string
		m, k, n    int
	}{
		{"gemv", "matrix-vector (linear regression)", 1000, 8, 1},
		{"head", "MLP output layer", 64, 128, 10},
		{"layer", "MLP first layer", 64, 784, 128},
		{"tall", "tall times narrow", 4096, 256, 64},
	}
	for _, s := range skinny {
		add("mm/f32/"+s.name, s.desc+" f32", mmSetup[float32](s.m, s.k, s.n))
		add("mm/f64/"+s.name, s.desc+" f64", mmSetup[float64](s.m, s.k, s.n))
	}
	add("mm/epilogue", "relu(x@W+b) f32; hand: unfused", epilogueCase(1024, 784, 512))
	return ws
}

// mmSetup is the product of random [m,k] and [k,n] matrices.
func mmSetup[T float32 | float64](m, k, n int) func(Params) (*Case, error) {
	return func(p Params) (*Case, error) { return mmCase[T](p, m, k, n) }
}

// mmCase times a@b into a preallocated output against gonum's Gemm for T
// (blas32 or blas64, which parallelize over GOMAXPROCS themselves).
func mmCase[T float32 | float64](p Params, m, k, n int) (*Case, error) {
	a, err := tensor.Rand[T](p.Seed, m, k)
	if err != nil {
		return nil, err
	}
	b, err := tensor.Rand[T](p.Seed+1, k, n)
	if err != nil {
		return nil, err
	}
	e := expr.Of(a).MatMul(expr.Of(b))
	if err := e.Err(); err != nil {
		return nil, err
	}
	out, err := tensor.New[T](m, n)
	if err != nil {
		return nil, err
	}
	hand := make([]T, m*n)
	gemm := gonumGemm(a.Data(), b.Data(), hand, m, k, n)
	// Entries are sums of k products in [0, 1): scale the tolerance by k.
	rtol := tolerance[T](1e-12, 1e-4)
	size := int64(dtype.Of[T]().Size())
	reps := 0
	switch flops := 2 * m * k * n; {
	case flops >= 8<<30:
		reps = 3
	case flops >= 1<<30:
		reps = 5
	}
	return &Case{
		Shape:      mmShape(m, k, n),
		Tensorplay: func() error { return exec.EvalToWith(p.Exec, out, e) },
		HandLoop:   func() error { gemm(); return nil },
		Check:      func() error { return AllClose(out.Data(), hand, rtol, rtol*float64(k)) },
		Bytes:      size * int64(m*k+k*n+m*n),
		Flops:      2 * int64(m) * int64(k) * int64(n),
		PeakDType:  dtype.Of[T](),
		MaxReps:    reps,
		Peer:       &PeerCase{Pipeline: "matmul", Inputs: []PeerInput{{"a", a}, {"b", b}}, Outputs: outputs(out)},
	}, nil
}

// gonumGemm returns c = a@b through gonum's blas32 or blas64 Gemm, as a Go
// programmer calls BLAS directly.
func gonumGemm[T float32 | float64](a, b, c []T, m, k, n int) func() {
	switch a := any(a).(type) {
	case []float32:
		ga := blas32.General{Rows: m, Cols: k, Stride: k, Data: a}
		gb := blas32.General{Rows: k, Cols: n, Stride: n, Data: any(b).([]float32)}
		gc := blas32.General{Rows: m, Cols: n, Stride: n, Data: any(c).([]float32)}
		return func() { blas32.Gemm(blas.NoTrans, blas.NoTrans, 1, ga, gb, 0, gc) }
	case []float64:
		ga := blas64.General{Rows: m, Cols: k, Stride: k, Data: a}
		gb := blas64.General{Rows: k, Cols: n, Stride: n, Data: any(b).([]float64)}
		gc := blas64.General{Rows: m, Cols: n, Stride: n, Data: any(c).([]float64)}
		return func() { blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, ga, gb, 0, gc) }
	}
	panic("unreachable")
}

// w11F64 is W11: a MatMulN² float64 product against gonum's blas64.Gemm.
func w11F64(p Params) (*Case, error) {
	return mmCase[float64](p, p.MatMulN, p.MatMulN, p.MatMulN)
}

// w11F32 is W11 in float32, against blas32.Gemm.
func w11F32(p Params) (*Case, error) {
	return mmCase[float32](p, p.MatMulN, p.MatMulN, p.MatMulN)
}

// mmShape names a product's shape m×k×n, or n³ when it is square.
func mmShape(m, k, n int) string {
	if m == k && k == n {
		return fmt.Sprintf("%d³", n)
	}
	return fmt.Sprintf("%dx%dx%d", m, k, n)
}

// epilogueCase is relu(x@W + b) for x [m,k], W [k,n], b [n] in float32 as
// one graph (with a fused epilogue, one pass over the product), against
// the same arithmetic as two evaluations — the product into a tensor, then
// relu(t + b) — in the hand column, so the ratio is the epilogue's gain.
func epilogueCase(m, k, n int) func(Params) (*Case, error) {
	return func(p Params) (*Case, error) {
		x, err := tensor.Rand[float32](p.Seed, m, k)
		if err != nil {
			return nil, err
		}
		w, err := tensor.RandN[float32](p.Seed+1, k, n)
		if err != nil {
			return nil, err
		}
		b, err := tensor.RandN[float32](p.Seed+2, n)
		if err != nil {
			return nil, err
		}
		fused := expr.Of(x).MatMul(expr.Of(w)).Add(expr.Of(b)).Relu()
		prod := expr.Of(x).MatMul(expr.Of(w))
		out := tensor.Must(tensor.New[float32](m, n))
		t := tensor.Must(tensor.New[float32](m, n))
		split := tensor.Must(tensor.New[float32](m, n))
		then := expr.Of(t).Add(expr.Of(b)).Relu()
		bytes, flops := GraphCost(fused)
		return &Case{
			Shape:      mmShape(m, k, n),
			Tensorplay: func() error { return exec.EvalToWith(p.Exec, out, fused) },
			HandLoop: func() error {
				if err := exec.EvalToWith(p.Exec, t, prod); err != nil {
					return err
				}
				return exec.EvalToWith(p.Exec, split, then)
			},
			Check:     func() error { return AllClose(out.Data(), split.Data(), 0, 0) },
			Bytes:     bytes,
			Flops:     flops,
			PeakDType: dtype.Float32,
			Peer: &PeerCase{Pipeline: "linear_relu", Inputs: []PeerInput{{"x", x}, {"W", w}, {"b", b}},
				Outputs: outputs(out)},
		}, nil
	}
}
