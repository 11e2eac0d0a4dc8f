package exec_test

import (
	"fmt"
	"math"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// The naive reference evaluator of FuzzGraph. It knows nothing of package
// exec: a value is a shape and its elements in row-major order, and every
// op is a loop over the logical indices of its result, written from the
// documented semantics (docs/expressions.md, docs/reductions.md), which are
// NumPy's unless the docs say otherwise. Values are []T for the element
// types the fuzzer uses: float64, float32, int64, int32, uint8 and bool.

// rval is a reference value: shape and row-major elements ([]T).
type rval struct {
	shape tensor.Shape
	data  any
}

func numelOf(s tensor.Shape) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// rowStrides returns the row-major strides of s.
func rowStrides(s tensor.Shape) []int {
	st := make([]int, len(s))
	acc := 1
	for i := len(s) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= s[i]
	}
	return st
}

// forEachIndex calls f for every index of s in row-major order.
func forEachIndex(s tensor.Shape, f func(flat int, idx []int)) {
	n := numelOf(s)
	idx := make([]int, len(s))
	for flat := range n {
		f(flat, idx)
		for k := len(idx) - 1; k >= 0; k-- {
			idx[k]++
			if idx[k] < s[k] {
				break
			}
			idx[k] = 0
		}
	}
}

// refBroadcast is NumPy's rule: align on the right; per axis the extents
// other than 1 must agree (0 included), and the result takes them.
func refBroadcast(shapes ...tensor.Shape) (tensor.Shape, bool) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make(tensor.Shape, rank)
	for i := range out {
		out[i] = 1
		for _, s := range shapes {
			j := i - (rank - len(s))
			if j < 0 || s[j] == 1 {
				continue
			}
			if out[i] != 1 && out[i] != s[j] {
				return nil, false
			}
			out[i] = s[j]
		}
	}
	return out, true
}

// bcastMap gives, for each element of out, the flat index of the element
// of an operand of shape in that broadcasting reads.
func bcastMap(out, in tensor.Shape) []int {
	st := rowStrides(in)
	pad := len(out) - len(in)
	m := make([]int, numelOf(out))
	forEachIndex(out, func(i int, idx []int) {
		j := 0
		for k := range in {
			if in[k] != 1 {
				j += idx[pad+k] * st[k]
			}
		}
		m[i] = j
	})
	return m
}

// gatherView reads the elements of a strided view of data, row-major.
func gatherView[T any](data []T, off int, shape tensor.Shape, strides []int) []T {
	out := make([]T, numelOf(shape))
	forEachIndex(shape, func(i int, idx []int) {
		a := off
		for k, x := range idx {
			a += x * strides[k]
		}
		out[i] = data[a]
	})
	return out
}

// viewAddrs returns the storage index of every element of a view, row-major.
func viewAddrs(off int, shape tensor.Shape, strides []int) []int {
	out := make([]int, numelOf(shape))
	forEachIndex(shape, func(i int, idx []int) {
		a := off
		for k, x := range idx {
			a += x * strides[k]
		}
		out[i] = a
	})
	return out
}

// remap returns out[i] = data[m[i]], or the zero value where m[i] < 0: every
// shape op (permute, expand, slice, reshape, embed) is such a map.
func remap(data any, m []int) any {
	switch d := data.(type) {
	case []float64:
		return remapT(d, m)
	case []float32:
		return remapT(d, m)
	case []int64:
		return remapT(d, m)
	case []int32:
		return remapT(d, m)
	case []uint8:
		return remapT(d, m)
	case []bool:
		return remapT(d, m)
	}
	panic(fmt.Sprintf("remap %T", data))
}

func remapT[T any](d []T, m []int) []T {
	out := make([]T, len(m))
	for i, j := range m {
		if j >= 0 {
			out[i] = d[j]
		}
	}
	return out
}

func ewise1[T, U any](a []T, f func(T) U) []U {
	out := make([]U, len(a))
	for i, x := range a {
		out[i] = f(x)
	}
	return out
}

func ewise2[T, U any](a []T, ia []int, b []T, ib []int, f func(T, T) U) []U {
	out := make([]U, len(ia))
	for i := range out {
		out[i] = f(a[ia[i]], b[ib[i]])
	}
	return out
}

// refFloatUnary is op on a float slice: Go's math functions computed in
// float64 and rounded to T, as docs/expressions.md says.
func refFloatUnary[T float32 | float64](op string, a []T) []T {
	m := func(g func(float64) float64) []T {
		return ewise1(a, func(x T) T { return T(g(float64(x))) })
	}
	switch op {
	case "neg":
		return ewise1(a, func(x T) T { return -x })
	case "abs":
		return m(math.Abs)
	case "square":
		return ewise1(a, func(x T) T { return x * x })
	case "sqrt":
		return m(math.Sqrt)
	case "exp":
		return m(math.Exp)
	case "log":
		return m(math.Log)
	case "log1p":
		return m(math.Log1p)
	case "expm1":
		return m(math.Expm1)
	case "sin":
		return m(math.Sin)
	case "cos":
		return m(math.Cos)
	case "tanh":
		return m(math.Tanh)
	case "sigmoid":
		return m(func(x float64) float64 { return 1 / (1 + math.Exp(-x)) })
	case "floor":
		return m(math.Floor)
	case "ceil":
		return m(math.Ceil)
	case "round":
		return m(math.RoundToEven)
	case "relu": // torch.relu: NaN stays NaN; -0 gives +0
		return ewise1(a, func(x T) T {
			if x > 0 || x != x {
				return x
			}
			return 0
		})
	case "sign": // np.sign: +0 for ±0, NaN for NaN
		return ewise1(a, func(x T) T {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return -1
			case x == 0:
				return 0
			}
			return x
		})
	}
	panic("float unary " + op)
}

// refIntUnary is op on an integer slice, wrapping as Go does.
func refIntUnary[T int64 | int32 | uint8](op string, a []T) []T {
	switch op {
	case "neg":
		return ewise1(a, func(x T) T { return -x })
	case "abs":
		return ewise1(a, func(x T) T {
			if x < 0 {
				return -x
			}
			return x
		})
	case "square":
		return ewise1(a, func(x T) T { return x * x })
	case "relu":
		return ewise1(a, func(x T) T { return max(x, 0) })
	case "sign":
		return ewise1(a, func(x T) T {
			switch {
			case x > 0:
				return 1
			case x < 0:
				return T(0) - 1
			}
			return 0
		})
	case "floor", "ceil", "round":
		return slices.Clone(a)
	}
	panic("int unary " + op)
}

// refFloorDivFloat is NumPy's npy_divmod floor division (Python's //).
func refFloorDivFloat[T float32 | float64](a, b T) T {
	if b == 0 {
		return a / b
	}
	mod := T(math.Mod(float64(a), float64(b)))
	div := (a - mod) / b
	if mod != 0 && (b < 0) != (mod < 0) {
		div -= 1
	}
	if div == 0 {
		return T(math.Copysign(0, float64(a/b)))
	}
	fl := T(math.Floor(float64(div)))
	if div-fl > 0.5 {
		fl += 1
	}
	return fl
}

func refFloatBinary[T float32 | float64](op string, a []T, ia []int, b []T, ib []int) []T {
	var f func(x, y T) T
	switch op {
	case "add":
		f = func(x, y T) T { return x + y }
	case "sub":
		f = func(x, y T) T { return x - y }
	case "mul":
		f = func(x, y T) T { return x * y }
	case "div":
		f = func(x, y T) T { return x / y }
	case "div_trunc":
		f = func(x, y T) T { q := x / y; return T(math.Trunc(float64(q))) }
	case "div_floor":
		f = refFloorDivFloat[T]
	case "pow":
		f = func(x, y T) T { return T(math.Pow(float64(x), float64(y))) }
	case "maximum": // NaN propagates; on ±0 ties the second operand (see report)
		f = func(x, y T) T {
			if x > y || x != x {
				return x
			}
			return y
		}
	case "minimum":
		f = func(x, y T) T {
			if x < y || x != x {
				return x
			}
			return y
		}
	default:
		panic("float binary " + op)
	}
	return ewise2(a, ia, b, ib, f)
}

func refIntBinary[T int64 | int32 | uint8](op string, a []T, ia []int, b []T, ib []int) []T {
	var f func(x, y T) T
	switch op {
	case "add":
		f = func(x, y T) T { return x + y }
	case "sub":
		f = func(x, y T) T { return x - y }
	case "mul":
		f = func(x, y T) T { return x * y }
	case "div_trunc": // NumPy: integer division by zero gives 0
		f = func(x, y T) T {
			if y == 0 {
				return 0
			}
			return x / y
		}
	case "div_floor":
		f = func(x, y T) T {
			if y == 0 {
				return 0
			}
			q := x / y
			if x%y != 0 && (x < 0) != (y < 0) {
				q--
			}
			return q
		}
	case "pow": // exponents are never negative here (issue 19 item 4)
		f = func(x, y T) T {
			r := T(1)
			for ; y > 0; y-- {
				r *= x
			}
			return r
		}
	case "maximum":
		f = func(x, y T) T { return max(x, y) }
	case "minimum":
		f = func(x, y T) T { return min(x, y) }
	default:
		panic("int binary " + op)
	}
	return ewise2(a, ia, b, ib, f)
}

func refCompare[T int64 | int32 | uint8 | float32 | float64](op string, a []T, ia []int, b []T, ib []int) []bool {
	var f func(x, y T) bool
	switch op {
	case "eq":
		f = func(x, y T) bool { return x == y }
	case "ne":
		f = func(x, y T) bool { return x != y }
	case "lt":
		f = func(x, y T) bool { return x < y }
	case "le":
		f = func(x, y T) bool { return x <= y }
	case "gt":
		f = func(x, y T) bool { return x > y }
	case "ge":
		f = func(x, y T) bool { return x >= y }
	default:
		panic("compare " + op)
	}
	return ewise2(a, ia, b, ib, f)
}

func refBoolBinary(op string, a []bool, ia []int, b []bool, ib []int) []bool {
	switch op {
	case "and":
		return ewise2(a, ia, b, ib, func(x, y bool) bool { return x && y })
	case "or":
		return ewise2(a, ia, b, ib, func(x, y bool) bool { return x || y })
	case "eq":
		return ewise2(a, ia, b, ib, func(x, y bool) bool { return x == y })
	case "ne":
		return ewise2(a, ia, b, ib, func(x, y bool) bool { return x != y })
	}
	panic("bool binary " + op)
}

func whereT[T any](c []bool, ic []int, a []T, ia []int, b []T, ib []int) []T {
	out := make([]T, len(ic))
	for i := range out {
		if c[ic[i]] {
			out[i] = a[ia[i]]
		} else {
			out[i] = b[ib[i]]
		}
	}
	return out
}

// refWhere is np.where(c, a, b) on values already broadcast by the maps.
func refWhere(c []bool, ic []int, a any, ia []int, b any, ib []int) any {
	switch a := a.(type) {
	case []float64:
		return whereT(c, ic, a, ia, b.([]float64), ib)
	case []float32:
		return whereT(c, ic, a, ia, b.([]float32), ib)
	case []int64:
		return whereT(c, ic, a, ia, b.([]int64), ib)
	case []int32:
		return whereT(c, ic, a, ia, b.([]int32), ib)
	case []uint8:
		return whereT(c, ic, a, ia, b.([]uint8), ib)
	case []bool:
		return whereT(c, ic, a, ia, b.([]bool), ib)
	}
	panic(fmt.Sprintf("where %T", a))
}

// castReal is NumPy's astype between real types: Go's conversion, which
// rounds once to the nearest float (int64 to float32 included) and
// truncates floats toward zero (the fuzzer keeps them in range).
func castReal[U, T dtype.Real](a []T) []U { return ewise1(a, func(x T) U { return U(x) }) }

func castFromBool[U dtype.Real](a []bool) []U {
	return ewise1(a, func(x bool) U {
		if x {
			return 1
		}
		return 0
	})
}

func castToBool[T dtype.Real](a []T) []bool { return ewise1(a, func(x T) bool { return x != 0 }) }

func refCastValues(data any, to dtype.DType) any {
	switch a := data.(type) {
	case []float64:
		return castFrom(a, to)
	case []float32:
		return castFrom(a, to)
	case []int64:
		return castFrom(a, to)
	case []int32:
		return castFrom(a, to)
	case []uint8:
		return castFrom(a, to)
	case []bool:
		switch to {
		case dtype.Float64:
			return castFromBool[float64](a)
		case dtype.Float32:
			return castFromBool[float32](a)
		case dtype.Int64:
			return castFromBool[int64](a)
		case dtype.Int32:
			return castFromBool[int32](a)
		case dtype.Uint8:
			return castFromBool[uint8](a)
		case dtype.Bool:
			return slices.Clone(a)
		}
	}
	panic(fmt.Sprintf("cast %T to %v", data, to))
}

func castFrom[T dtype.Real](a []T, to dtype.DType) any {
	switch to {
	case dtype.Float64:
		return castReal[float64](a)
	case dtype.Float32:
		return castReal[float32](a)
	case dtype.Int64:
		return castReal[int64](a)
	case dtype.Int32:
		return castReal[int32](a)
	case dtype.Uint8:
		return castReal[uint8](a)
	case dtype.Bool:
		return castToBool(a)
	}
	panic(fmt.Sprintf("cast %T to %v", a, to))
}

// approx is what an inexact node's value is checked against: a value
// computed in float64 (or better) and the distance allowed from it. skip
// marks elements whose value the docs leave open (a sum whose partial sums
// may overflow).
type approx struct {
	want, bound []float64
	skip        []bool
}

// within reports whether got (a []float32 or []float64) matches a, and the
// first element that does not.
func (a *approx) within(got any) (int, bool) {
	var g []float64
	inf := math.Inf(1)
	big := math.MaxFloat64
	switch got := got.(type) {
	case []float64:
		g = got
	case []float32:
		g = castReal[float64](got)
		big = math.MaxFloat32
	}
	for i, w := range a.want {
		x := g[i]
		switch {
		case a.skip[i]:
		case w != w:
			if x == x {
				return i, false
			}
		case math.IsInf(w, 0) || math.Abs(w) > big:
			if x != math.Copysign(inf, w) && math.Abs(x-w) > a.bound[i] {
				return i, false
			}
		case !(math.Abs(x-w) <= a.bound[i]):
			return i, false
		}
	}
	return 0, true
}

func epsOf(dt dtype.DType) float64 {
	if dt == dtype.Float32 {
		return 0x1p-24
	}
	return 0x1p-53
}

// ulp returns the spacing of floats of type dt at x.
func ulp(dt dtype.DType, x float64) float64 {
	x = math.Abs(x)
	if dt == dtype.Float32 {
		f := float32(x)
		return float64(math.Nextafter32(f, float32(math.Inf(1))) - f)
	}
	return math.Nextafter(x, math.Inf(1)) - x
}

// sumApprox is the reference of a float sum: the exact class (NaN, ±Inf) or
// a compensated sum, with the error bound of any summation order,
// (n+1)·eps·Σ|x|.
func sumApprox(dt dtype.DType, xs []float64) (want, bound float64, skip bool) {
	var posInf, negInf, nan bool
	var s, c, abs float64
	for _, x := range xs {
		switch {
		case x != x:
			nan = true
		case math.IsInf(x, 1):
			posInf = true
		case math.IsInf(x, -1):
			negInf = true
		default:
			t := s + x
			if math.Abs(s) >= math.Abs(x) {
				c += (s - t) + x
			} else {
				c += (x - t) + s
			}
			s = t
			abs += math.Abs(x)
		}
	}
	switch {
	case nan || posInf && negInf:
		return math.NaN(), 0, false
	case posInf:
		return math.Inf(1), 0, false
	case negInf:
		return math.Inf(-1), 0, false
	}
	limit, tiny := 1e300, 1e-300 // tiny: products that underflow in T (matmul)
	if dt == dtype.Float32 {
		limit, tiny = 1e37, 1e-37
	}
	if abs > limit {
		return 0, 0, true
	}
	return s + c, float64(len(xs)+1) * (epsOf(dt)*abs + tiny), false
}

// prodApprox is the reference of a float product.
func prodApprox(dt dtype.DType, xs []float64) (want, bound float64, skip bool) {
	var nan, inf, zero bool
	big, small, p := 1.0, 1.0, 1.0
	for _, x := range xs {
		switch a := math.Abs(x); {
		case x != x:
			nan = true
		case math.IsInf(x, 0):
			inf = true
		case x == 0:
			zero = true
		case a > 1:
			big *= a
		default:
			small *= a
		}
		p *= x
	}
	switch {
	case nan || inf && zero:
		return math.NaN(), 0, false
	case inf || zero:
		return p, 0, false // ±Inf or ±0 (a ±0 compares equal to either zero)
	}
	hi, lo := 1e300, 1e-290
	if dt == dtype.Float32 {
		hi, lo = 1e37, 1e-36
	}
	if big > hi || small < lo {
		return 0, 0, true
	}
	return p, float64(2*len(xs)+2) * epsOf(dt) * math.Abs(p), false
}

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

func toF64(data any) []float64 {
	switch d := data.(type) {
	case []float64:
		return d
	case []float32:
		return castReal[float64](d)
	}
	panic(fmt.Sprintf("toF64 %T", data))
}

func fromF64(dt dtype.DType, v []float64) any {
	if dt == dtype.Float32 {
		return castReal[float32](v)
	}
	return v
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

// gemmSkipsZeros tolerates a found bug (TestFuzzGraphMatMulZeroTimesNaN):
// float matmul gives 0, not NaN, for 0·NaN and 0·Inf terms whose zero is
// in the first operand. Set it to false once that is fixed.
const gemmSkipsZeros = true

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

// ulpApprox checks an elementwise result within k ulps of T of want.
func ulpApprox(dt dtype.DType, want []float64, k float64) *approx {
	ap := &approx{want: want, bound: make([]float64, len(want)), skip: make([]bool, len(want))}
	for i, w := range want {
		tiny := 1e-300 // below it (subnormal results) any small value will do
		if dt == dtype.Float32 {
			tiny = 1e-37
		}
		ap.bound[i] = max(k*ulp(dt, w), tiny)
	}
	return ap
}
