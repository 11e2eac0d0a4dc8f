package exec_test

import (
	"math"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// The reference evaluator's reductions and matmul.

// reduceGroups returns the reduced shape and, per output element, the flat
// indices of the input elements it reduces, in row-major order.
func reduceGroups(in tensor.Shape, red []bool, keep bool) (tensor.Shape, [][]int) {
	out := tensor.Shape{}
	var outIdx []int // axes of in kept in out
	for i, d := range in {
		switch {
		case !red[i]:
			out = append(out, d)
			outIdx = append(outIdx, i)
		case keep:
			out = append(out, 1)
		}
	}
	var kept tensor.Shape
	for _, i := range outIdx {
		kept = append(kept, in[i])
	}
	st := rowStrides(kept)
	groups := make([][]int, numelOf(kept))
	forEachIndex(in, func(flat int, idx []int) {
		g := 0
		for k, i := range outIdx {
			g += idx[i] * st[k]
		}
		groups[g] = append(groups[g], flat)
	})
	return out, groups
}

// refFloatReduce reduces floats: sum, mean and prod are approximate, max,
// min and the arg forms exact (max and min up to the sign of a zero).
func refFloatReduce(op string, dt dtype.DType, data any, groups [][]int) (any, *approx) {
	xs := toF64(data)
	n := len(groups)
	ap := &approx{want: make([]float64, n), bound: make([]float64, n), skip: make([]bool, n)}
	var arg []int64
	for g, idx := range groups {
		vals := make([]float64, len(idx))
		for k, i := range idx {
			vals[k] = xs[i]
		}
		switch op {
		case "sum":
			ap.want[g], ap.bound[g], ap.skip[g] = sumApprox(dt, vals)
		case "mean":
			w, b, s := sumApprox(dt, vals)
			k := float64(len(vals))
			ap.want[g], ap.skip[g] = w/k, s
			ap.bound[g] = b/k + 2*ulp(dt, w/k)
		case "prod":
			ap.want[g], ap.bound[g], ap.skip[g] = prodApprox(dt, vals)
		case "max", "min":
			m := vals[0]
			for _, v := range vals[1:] {
				if m != m {
					break
				}
				if v != v || (op == "max" && v > m) || (op == "min" && v < m) {
					m = v
				}
			}
			ap.want[g] = m
		case "argmax", "argmin": // the first extreme; the first NaN if any
			best := 0
			for k, v := range vals {
				if vals[best] != vals[best] {
					break
				}
				if v != v || (op == "argmax" && v > vals[best]) || (op == "argmin" && v < vals[best]) {
					best = k
				}
			}
			arg = append(arg, int64(best))
		}
	}
	if arg != nil || (op == "argmax" || op == "argmin") {
		if arg == nil {
			arg = []int64{}
		}
		return arg, nil
	}
	return fromF64(dt, ap.want), ap
}

func refIntReduce[T int64 | int32 | uint8](op string, xs []T, groups [][]int) any {
	if op == "argmax" || op == "argmin" {
		out := make([]int64, len(groups))
		for g, idx := range groups {
			best := 0
			for k, i := range idx {
				if (op == "argmax" && xs[i] > xs[idx[best]]) || (op == "argmin" && xs[i] < xs[idx[best]]) {
					best = k
				}
			}
			out[g] = int64(best)
		}
		return out
	}
	out := make([]T, len(groups))
	for g, idx := range groups {
		var acc T
		if op == "prod" {
			acc = 1
		}
		for k, i := range idx {
			x := xs[i]
			switch {
			case op == "sum":
				acc += x
			case op == "prod":
				acc *= x
			case k == 0:
				acc = x
			case op == "max":
				acc = max(acc, x)
			case op == "min":
				acc = min(acc, x)
			}
		}
		out[g] = acc
	}
	return out
}

func refBoolReduce(op string, xs []bool, groups [][]int) []bool {
	out := make([]bool, len(groups))
	for g, idx := range groups {
		acc := op == "all"
		for _, i := range idx {
			if op == "all" {
				acc = acc && xs[i]
			} else {
				acc = acc || xs[i]
			}
		}
		out[g] = acc
	}
	return out
}

// matmulShape is NumPy's matmul shape rule; ok is false for an illegal pair.
func refMatMulShape(a, b tensor.Shape) (out, am, bm tensor.Shape, ok bool) {
	if len(a) == 0 || len(b) == 0 {
		return nil, nil, nil, false
	}
	am, bm = a, b
	if len(a) == 1 {
		am = tensor.Shape{1, a[0]}
	}
	if len(b) == 1 {
		bm = tensor.Shape{b[0], 1}
	}
	if am[len(am)-1] != bm[len(bm)-2] {
		return nil, nil, nil, false
	}
	batch, ok := refBroadcast(am[:len(am)-2], bm[:len(bm)-2])
	if !ok {
		return nil, nil, nil, false
	}
	out = append(slices.Clone(batch), am[len(am)-2], bm[len(bm)-1])
	if len(a) == 1 {
		out = slices.Delete(out, len(out)-2, len(out)-1)
	}
	if len(b) == 1 {
		out = out[:len(out)-1]
	}
	return out, am, bm, true
}

// matmulTerms returns, per element of the (batch, n, m) result, the flat
// indices (into a and b) of the k products that it sums.
func matmulTerms(am, bm tensor.Shape) (full tensor.Shape, ai, bi [][]int) {
	batch, _ := refBroadcast(am[:len(am)-2], bm[:len(bm)-2])
	n, k, m := am[len(am)-2], am[len(am)-1], bm[len(bm)-1]
	full = append(slices.Clone(batch), n, m)
	aBatch := bcastMap(batch, am[:len(am)-2])
	bBatch := bcastMap(batch, bm[:len(bm)-2])
	forEachIndex(full, func(flat int, idx []int) {
		bflat := flat / max(1, n*m)
		i, j := idx[len(idx)-2], idx[len(idx)-1]
		var as, bs []int
		for p := range k {
			as = append(as, aBatch[bflat]*n*k+i*k+p)
			bs = append(bs, bBatch[bflat]*k*m+p*m+j)
		}
		ai, bi = append(ai, as), append(bi, bs)
	})
	return full, ai, bi
}

func refIntMatMul[T int64 | int32 | uint8](a, b []T, ai, bi [][]int) []T {
	out := make([]T, len(ai))
	for g := range ai {
		var acc T
		for p := range ai[g] {
			acc += a[ai[g][p]] * b[bi[g][p]]
		}
		out[g] = acc
	}
	return out
}

// gemmSkipsZeros tolerates a bug FuzzGraph found (see
// TestFuzzGraphMatMulZeroTimesNaN): gonum's gemm, the default until the
// packed GEMM, gave 0, not NaN, for 0·NaN and 0·Inf terms whose zero is in
// the first operand. The packed GEMM keeps them, so it is off.
const gemmSkipsZeros = false

func refFloatMatMul(dt dtype.DType, a, b any, ai, bi [][]int) (any, *approx) {
	x, y := toF64(a), toF64(b)
	n := len(ai)
	ap := &approx{want: make([]float64, n), bound: make([]float64, n), skip: make([]bool, n)}
	for g := range ai {
		terms := make([]float64, len(ai[g]))
		for p := range ai[g] {
			terms[p] = x[ai[g][p]] * y[bi[g][p]]
		}
		w, bd, s := sumApprox(dt, terms)
		ap.want[g], ap.bound[g], ap.skip[g] = w, 2*bd, s
		if gemmSkipsZeros {
			for p := range ai[g] {
				if x[ai[g][p]] == 0 && math.IsNaN(terms[p]) {
					ap.skip[g] = true
				}
			}
		}
	}
	return fromF64(dt, ap.want), ap
}
