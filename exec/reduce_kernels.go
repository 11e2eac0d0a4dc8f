package exec

import (
	"math/bits"
	"unsafe"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vmath"
)

// reduceFns are one element type's reduction kernels. Each op folds the
// fixed tree described at reduceStep: lanes, leaves, a binary counter.
type reduceFns[T dtype.Elem] struct {
	sum, prod, max, min, any, all *reduceOp[T]
	dot                           func(s *[8]T, lane int, a, b []T) // sum's lanes of a[i]*b[i]
	argmax, argmin                func(a, b T) bool                 // a beats b strictly
	argmaxRow, argminRow          func(row []T) int64               // the index the beats loop picks
	scale                         func(d []T, count int)
	lse, sqDev                    *pairOp[T] // paired reductions (reduce_pairs.go), floats only
}

// pair returns the paired reduction of op, or nil.
func (r *reduceFns[T]) pair(o expr.Op) *pairOp[T] {
	switch o {
	case expr.OpLogSumExp:
		return r.lse
	case expr.OpSumSqDev:
		return r.sqDev
	}
	return nil
}

// reduceOp is one reduction: its identity, how elements fold into the eight
// lanes of a leaf, and how two partial results combine (elementwise for
// vectors).
type reduceOp[T dtype.Elem] struct {
	identity T
	// lanes folds v into s, element i into lane (lane+i)%8, in order:
	// s[l] = combine(s[l], v[i]).
	lanes    func(s *[8]T, lane int, v []T)
	combine  func(a, b T) T
	vcombine func(d, a []T) // d[i] = combine(d[i], a[i])
	vinit    func(d, a []T) // d[i] = combine(identity, a[i])
	// leafOf, when set, is one leaf of 0 < len(v) <= reduceLeaf elements
	// (lanes from the identity, then leaf) in one call with the combines
	// inline: the same operations in the same order as lanes and leaf. s
	// is scratch for the lanes (a caller's, so that nothing escapes).
	leafOf func(s *[8]T, v []T) T
	// leaves, when set, sets t[j] to leaf j of v, whole leaves of
	// reduceLeaf elements (len(t) = len(v)/reduceLeaf): lanes from the
	// identity, then leaf, the same bits, several leaves a call.
	leaves func(t, v []T)
	// pushAll, when set, pushes xs into ps with the bits of pushing them
	// one by one by ps.push(x, combine), as whole power-of-two trees with
	// combine inline (a sum's leaves, 32 at a time: pushSums).
	pushAll func(ps *pstack[T], xs []T)
}

func (r *reduceFns[T]) op(o expr.Op) *reduceOp[T] {
	switch o {
	case expr.OpSum, expr.OpMean:
		return r.sum
	case expr.OpProd:
		return r.prod
	case expr.OpMax:
		return r.max
	case expr.OpMin:
		return r.min
	case expr.OpAny:
		return r.any
	case expr.OpAll:
		return r.all
	}
	return nil
}

// leaf combines a leaf's eight lanes: ((0+1)+(2+3))+((4+5)+(6+7)).
func (r *reduceOp[T]) leaf(s *[8]T) T {
	c := r.combine
	return c(c(c(s[0], s[1]), c(s[2], s[3])), c(c(s[4], s[5]), c(s[6], s[7])))
}

// vleaf is leaf for vectors of lanes, into s[0].
func (r *reduceOp[T]) vleaf(s *[8][]T) {
	vc := r.vcombine
	vc(s[0], s[1])
	vc(s[2], s[3])
	vc(s[0], s[2])
	vc(s[4], s[5])
	vc(s[6], s[7])
	vc(s[4], s[6])
	vc(s[0], s[4])
}

func sumOp[T dtype.Numeric]() *reduceOp[T] {
	return &reduceOp[T]{
		identity: 0,
		lanes:    vectorLanes(sumLanes[T], vmath.SumLanes[float32], vmath.SumLanes[float64]),
		combine:  func(a, b T) T { return a + b },
		vcombine: func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] += a[i]
			}
		},
		vinit: func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = 0 + a[i] // as the lanes start: -0 becomes +0
			}
		},
		leafOf:  sumLeaf[T],
		leaves:  vectorLeaves[T](vmath.SumLeaves[float32], vmath.SumLeaves[float64]),
		pushAll: pushSums[T],
	}
}

// pushSums is sum's pushAll: ps.push(x, a+b) for each x of xs, the adds
// inline rather than calls of combine (on row sums of 3162 float64s they
// took a tenth of the time). The leaves go in as whole trees, each the
// largest power of two of them that is left and that no node on the stack
// is smaller than (pushTree's condition), summed level by level, left +
// right, as the counter would sum them pushed one by one: the same adds
// without the counter's loop for each leaf.
func pushSums[T dtype.Numeric](ps *pstack[T], xs []T) {
	var level [leafBatch]T
	for len(xs) > 0 {
		w := min(len(xs), leafBatch)
		if ps.n > 0 {
			w = min(w, ps.w[ps.n-1])
		}
		w = 1 << (bits.Len(uint(w)) - 1)
		t := level[:w]
		copy(t, xs[:w])
		for ; len(t) > 1; t = t[:len(t)/2] {
			for i := range len(t) / 2 {
				t[i] = t[2*i] + t[2*i+1]
			}
		}
		ps.v[ps.n], ps.w[ps.n] = t[0], w
		ps.n++
		for ps.n >= 2 && ps.w[ps.n-1] == ps.w[ps.n-2] {
			ps.v[ps.n-2] += ps.v[ps.n-1]
			ps.w[ps.n-2] *= 2
			ps.n--
		}
		xs = xs[w:]
	}
}

// sliceAs is s as a slice of U, for a T whose type switch found it to be U
// (a float32 or float64 under a type parameter).
func sliceAs[U, T any](s []T) []U {
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// vectorLeaves returns f32 or f64 (package vmath's leaf folds, whose
// leaves vmath.LeafLen = reduceLeaf long start their lanes at +0, as
// sum's do) as a reduceOp's leaves for float32 and float64; nil for other
// element types.
func vectorLeaves[T dtype.Elem](f32 func(t, a []float32), f64 func(t, a []float64)) func(t, v []T) {
	var zero T
	switch any(zero).(type) {
	case float32:
		return func(t, v []T) {
			f32(sliceAs[float32](t), sliceAs[float32](v))
		}
	case float64:
		return func(t, v []T) {
			f64(sliceAs[float64](t), sliceAs[float64](v))
		}
	}
	return nil
}

// sumLeaf is sum's leafOf: the lanes by sumLanes' Go loop (a short row
// spent more in the calls down to the AVX2 lane fold than in its adds),
// then leaf's tree.
func sumLeaf[T dtype.Numeric](s *[8]T, v []T) T {
	*s = [8]T{}
	sumLanes(s, 0, v)
	return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))
}

// vectorLanes returns the lanes of a reduction of float32 or float64
// elements as goLanes up to lane 0, then package vmath's lane fold f32 or
// f64 (vector loops with AVX2), which does goLanes' operations in the same
// lanes and order: the same bits. Other element types keep goLanes.
func vectorLanes[T dtype.Elem](goLanes func(s *[8]T, lane int, v []T), f32 func(*[8]float32, []float32), f64 func(*[8]float64, []float64)) func(s *[8]T, lane int, v []T) {
	var zero T
	switch any(zero).(type) {
	case float32:
		return func(s *[8]T, lane int, v []T) {
			k := min((8-lane)&7, len(v))
			if k > 0 {
				goLanes(s, lane, v[:k])
			}
			if v = v[k:]; len(v) > 0 {
				f32((*[8]float32)(unsafe.Pointer(s)), sliceAs[float32](v))
			}
		}
	case float64:
		return func(s *[8]T, lane int, v []T) {
			k := min((8-lane)&7, len(v))
			if k > 0 {
				goLanes(s, lane, v[:k])
			}
			if v = v[k:]; len(v) > 0 {
				f64((*[8]float64)(unsafe.Pointer(s)), sliceAs[float64](v))
			}
		}
	}
	return goLanes
}

// sumLanes is: for i, x := range v { s[(lane+i)%8] += x }.
func sumLanes[T dtype.Numeric](s *[8]T, lane int, v []T) {
	for ; len(v) > 0 && lane != 0; lane = (lane + 1) & 7 {
		s[lane] += v[0]
		v = v[1:]
	}
	s0, s1, s2, s3, s4, s5, s6, s7 := s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
	i := 0
	for ; i+8 <= len(v); i += 8 {
		w := v[i : i+8 : i+8]
		s0 += w[0]
		s1 += w[1]
		s2 += w[2]
		s3 += w[3]
		s4 += w[4]
		s5 += w[5]
		s6 += w[6]
		s7 += w[7]
	}
	*s = [8]T{s0, s1, s2, s3, s4, s5, s6, s7}
	for l := 0; i < len(v); i, l = i+1, l+1 {
		s[l] += v[i]
	}
}

// dotLanes is sumLanes of a[i]*b[i], without the products' buffer. Each
// product is converted to T, which forces it to be rounded as a stored
// product would be (Go may otherwise fuse the multiply-add, as it does on
// arm64), so the dot path gives the bits of the unfused sum.
func dotLanes[T dtype.Numeric](s *[8]T, lane int, a, b []T) {
	b = b[:len(a)]
	for ; len(a) > 0 && lane != 0; lane = (lane + 1) & 7 {
		s[lane] += T(a[0] * b[0])
		a, b = a[1:], b[1:]
	}
	s0, s1, s2, s3, s4, s5, s6, s7 := s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]
	i := 0
	for ; i+8 <= len(a); i += 8 {
		x, y := a[i:i+8:i+8], b[i:i+8:i+8]
		s0 += T(x[0] * y[0])
		s1 += T(x[1] * y[1])
		s2 += T(x[2] * y[2])
		s3 += T(x[3] * y[3])
		s4 += T(x[4] * y[4])
		s5 += T(x[5] * y[5])
		s6 += T(x[6] * y[6])
		s7 += T(x[7] * y[7])
	}
	*s = [8]T{s0, s1, s2, s3, s4, s5, s6, s7}
	for l := 0; i < len(a); i, l = i+1, l+1 {
		s[l] += T(a[i] * b[i])
	}
}

func prodOp[T dtype.Numeric]() *reduceOp[T] {
	return &reduceOp[T]{
		identity: 1,
		lanes: func(s *[8]T, lane int, v []T) {
			for _, x := range v {
				s[lane] *= x
				lane = (lane + 1) & 7
			}
		},
		combine: func(a, b T) T { return a * b },
		vcombine: func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] *= a[i]
			}
		},
		vinit: func(d, a []T) { copy(d, a) }, // 1*x is x
	}
}

// maxOf and minOf are max and min whose result does not depend on the
// order of the operands, so a reduction's bits do not depend on its order:
// NaN wins (NumPy's rule), and of +0 and -0, max is +0 and min is -0.
// (Which NaN, when NaNs with different payloads meet, is left open, as
// IEEE 754 leaves it.)
func maxOf[T dtype.Real](x, y T) T {
	switch {
	case x > y || x != x:
		return x
	case y > x || y != y:
		return y
	}
	if x == 0 {
		return x + y // ±0: +0 + -0 is +0
	}
	return x
}

func minOf[T dtype.Real](x, y T) T {
	switch {
	case x < y || x != x:
		return x
	case y < x || y != y:
		return y
	}
	if x == 0 {
		return -(-x + -y) // ±0: -(-0 + +0) is -0
	}
	return x
}

func extremeOp[T dtype.Real](pick func(a, b T) T, identity T, isMax bool) *reduceOp[T] {
	lanes := func(s *[8]T, lane int, v []T) {
		for _, x := range v {
			s[lane] = minOf(s[lane], x)
			lane = (lane + 1) & 7
		}
	}
	if isMax {
		lanes = func(s *[8]T, lane int, v []T) {
			for _, x := range v {
				s[lane] = maxOf(s[lane], x)
				lane = (lane + 1) & 7
			}
		}
	}
	if isMax {
		lanes = vectorLanes(lanes, vmath.MaxOfLanes[float32], vmath.MaxOfLanes[float64])
	} else {
		lanes = vectorLanes(lanes, vmath.MinOfLanes[float32], vmath.MinOfLanes[float64])
	}
	leafOf := func(s *[8]T, v []T) T {
		*s = [8]T{identity, identity, identity, identity, identity, identity, identity, identity}
		lanes(s, 0, v)
		return minOf(minOf(minOf(s[0], s[1]), minOf(s[2], s[3])), minOf(minOf(s[4], s[5]), minOf(s[6], s[7])))
	}
	if isMax {
		leafOf = func(s *[8]T, v []T) T {
			*s = [8]T{identity, identity, identity, identity, identity, identity, identity, identity}
			lanes(s, 0, v)
			return maxOf(maxOf(maxOf(s[0], s[1]), maxOf(s[2], s[3])), maxOf(maxOf(s[4], s[5]), maxOf(s[6], s[7])))
		}
	}
	return &reduceOp[T]{
		identity: identity,
		lanes:    lanes,
		leafOf:   leafOf,
		combine:  pick,
		vcombine: func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = pick(d[i], a[i])
			}
		},
		vinit: func(d, a []T) { copy(d, a) }, // the identity loses to every x
	}
}

// extremes returns T's lowest and highest values (±Inf for floats): the
// identities of max and min. Doubling -1 until it stops growing finds the
// lowest for every signed type; unsigned -1 wraps to the highest.
func extremes[T dtype.Real]() (lo, hi T) {
	m := -1
	x := T(m)
	if x > 0 {
		return 0, x
	}
	for y := x * 2; y < x; y = x * 2 {
		x = y
	}
	return x, -(x + 1)
}

func boolOp(and bool) *reduceOp[bool] {
	combine := func(a, b bool) bool {
		if and {
			return a && b
		}
		return a || b
	}
	return &reduceOp[bool]{
		identity: and,
		lanes: func(s *[8]bool, lane int, v []bool) {
			for _, x := range v {
				s[lane] = combine(s[lane], x)
				lane = (lane + 1) & 7
			}
		},
		combine: combine,
		vcombine: func(d, a []bool) {
			a = a[:len(d)]
			for i := range d {
				if and {
					d[i] = d[i] && a[i]
				} else {
					d[i] = d[i] || a[i]
				}
			}
		},
		vinit: func(d, a []bool) { copy(d, a) },
	}
}

// beatsMax reports whether a should replace the current best b of an argmax:
// strictly larger, or the first NaN (NaN wins, as in NumPy).
func beatsMax[T dtype.Real](a, b T) bool { return (a > b || a != a) && b == b }

func beatsMin[T dtype.Real](a, b T) bool { return (a < b || a != a) && b == b }

func realReduces[T dtype.Real]() reduceFns[T] {
	lo, hi := extremes[T]()
	return reduceFns[T]{sum: sumOp[T](), prod: prodOp[T](), dot: dotLanes[T],
		max: extremeOp(maxOf[T], lo, true), min: extremeOp(minOf[T], hi, false),
		argmax: beatsMax[T], argmin: beatsMin[T], argmaxRow: argmaxRow[T], argminRow: argminRow[T]}
}

// argmaxRow is the index of row's first maximum, or of its first NaN if
// it has one (the element beatsMax picks scanning the row), 0 for an
// empty row: one call per row, the comparisons inline. It takes the
// maximum in four chains (max is NaN when either is) and then the index
// holding it (indexOfExtreme), with no branch on the data: comparing each
// element with the best so far mispredicts a few times a row, and
// k-means' argmin over 16 distances a row took 2.2x the time.
func argmaxRow[T dtype.Real](row []T) int64 {
	n := len(row)
	if n == 0 {
		return 0
	}
	m0, m1, m2, m3 := row[0], row[0], row[0], row[0]
	j := 0
	for ; j+4 <= n; j += 4 {
		m0, m1, m2, m3 = max(m0, row[j]), max(m1, row[j+1]), max(m2, row[j+2]), max(m3, row[j+3])
	}
	for ; j < n; j++ {
		m0 = max(m0, row[j])
	}
	return indexOfExtreme(row, max(max(m0, m1), max(m2, m3)))
}

// argminRow is argmaxRow for the first minimum: a copy with min for max,
// as one function taking the extreme as a parameter ran 100000 rows of 16
// in 2.10 ms against these copies' 1.55 (the call stays indirect).
func argminRow[T dtype.Real](row []T) int64 {
	n := len(row)
	if n == 0 {
		return 0
	}
	m0, m1, m2, m3 := row[0], row[0], row[0], row[0]
	j := 0
	for ; j+4 <= n; j += 4 {
		m0, m1, m2, m3 = min(m0, row[j]), min(m1, row[j+1]), min(m2, row[j+2]), min(m3, row[j+3])
	}
	for ; j < n; j++ {
		m0 = min(m0, row[j])
	}
	return indexOfExtreme(row, min(min(m0, m1), min(m2, m3)))
}

// indexOfExtreme is the index of row's first NaN when m is NaN, else of the
// first element equal to m, found from the end by conditional moves (±0
// compare equal, as they do when the row is scanned with > or <).
func indexOfExtreme[T dtype.Real](row []T, m T) int64 {
	if m != m {
		for j, x := range row {
			if x != x {
				return int64(j)
			}
		}
	}
	at := 0
	for j := len(row) - 1; j >= 0; j-- {
		if row[j] == m {
			at = j
		}
	}
	return int64(at)
}

func floatReduces[T dtype.Float]() reduceFns[T] {
	r := realReduces[T]()
	r.lse, r.sqDev = lseOp[T](), sqDevOp[T]()
	r.scale = func(d []T, count int) {
		// Divide, not multiply by 1/count: that would round twice.
		c := T(count)
		for i := range d {
			d[i] /= c
		}
	}
	return r
}

func complexReduces[T dtype.Complex]() reduceFns[T] {
	return reduceFns[T]{sum: sumOp[T](), prod: prodOp[T](), dot: dotLanes[T], scale: scaleComplex[T]}
}

// scaleComplex divides each part by count, as NumPy's complex mean does
// (a complex division by count+0i could round differently).
func scaleComplex[T dtype.Complex](d []T, count int) {
	c := float64(count)
	for i := range d {
		z := complex128(d[i])
		d[i] = T(complex(real(z)/c, imag(z)/c))
	}
}

func boolReduces() reduceFns[bool] {
	return reduceFns[bool]{any: boolOp(false), all: boolOp(true)}
}
