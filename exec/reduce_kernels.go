package exec

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// reduceFns are one element type's reduction kernels. Every op combines with
// an associative combine; sums additionally reduce each block pairwise, so
// the rounding error grows with the logarithm of the length, not the length.
type reduceFns[T dtype.Elem] struct {
	sum, prod, max, min, any, all *reduceOp[T]
	dot                           func(a, b []T) T  // pairwise sum of a[i]*b[i]
	argmax, argmin                func(a, b T) bool // a beats b strictly
	scale                         func(d []T, count int)
}

// reduceOp is one reduction: its identity, how a block reduces to one
// value, and how two partial results combine (elementwise for vectors).
type reduceOp[T dtype.Elem] struct {
	identity T
	block    func(v []T) T
	combine  func(a, b T) T
	vcombine func(d, a []T) // d[i] = combine(d[i], a[i])
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

func sumOp[T dtype.Numeric]() *reduceOp[T] {
	return &reduceOp[T]{
		identity: 0,
		block:    pairwiseSum[T],
		combine:  func(a, b T) T { return a + b },
		vcombine: func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] += a[i]
			}
		},
	}
}

// pairwiseDot is pairwiseSum of a[i]*b[i], without the products' buffer.
// Each product is converted to T, which forces it to be rounded as a stored
// product would be (Go may otherwise fuse the multiply-add, as it does on
// arm64), so the dot path gives the bits of the unfused sum.
func pairwiseDot[T dtype.Numeric](a, b []T) T {
	b = b[:len(a)]
	if len(a) <= 64 {
		var s [8]T
		i := 0
		for ; i+8 <= len(a); i += 8 {
			x, y := a[i:i+8:i+8], b[i:i+8:i+8]
			s[0] += T(x[0] * y[0])
			s[1] += T(x[1] * y[1])
			s[2] += T(x[2] * y[2])
			s[3] += T(x[3] * y[3])
			s[4] += T(x[4] * y[4])
			s[5] += T(x[5] * y[5])
			s[6] += T(x[6] * y[6])
			s[7] += T(x[7] * y[7])
		}
		r := ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))
		for ; i < len(a); i++ {
			r += T(a[i] * b[i])
		}
		return r
	}
	h := len(a) / 2
	h -= h % 8
	return pairwiseDot(a[:h], b[:h]) + pairwiseDot(a[h:], b[h:])
}

// pairwiseSum is NumPy's pairwise summation: blocks of 8 summed in 8
// lanes, halves summed recursively.
func pairwiseSum[T dtype.Numeric](v []T) T {
	if len(v) <= 64 {
		var s [8]T
		i := 0
		for ; i+8 <= len(v); i += 8 {
			w := v[i : i+8 : i+8]
			s[0] += w[0]
			s[1] += w[1]
			s[2] += w[2]
			s[3] += w[3]
			s[4] += w[4]
			s[5] += w[5]
			s[6] += w[6]
			s[7] += w[7]
		}
		r := ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))
		for ; i < len(v); i++ {
			r += v[i]
		}
		return r
	}
	h := len(v) / 2
	h -= h % 8
	return pairwiseSum(v[:h]) + pairwiseSum(v[h:])
}

func prodOp[T dtype.Numeric]() *reduceOp[T] {
	return &reduceOp[T]{
		identity: 1,
		block: func(v []T) T {
			r := T(1)
			for _, x := range v {
				r *= x
			}
			return r
		},
		combine: func(a, b T) T { return a * b },
		vcombine: func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] *= a[i]
			}
		},
	}
}

func extremeOp[T dtype.Real](pick func(a, b T) T) *reduceOp[T] {
	return &reduceOp[T]{
		block: func(v []T) T {
			r := v[0]
			for _, x := range v[1:] {
				r = pick(r, x)
			}
			return r
		},
		combine: pick,
		vcombine: func(d, a []T) {
			a = a[:len(d)]
			for i := range d {
				d[i] = pick(d[i], a[i])
			}
		},
	}
}

func boolOp(and bool) *reduceOp[bool] {
	return &reduceOp[bool]{
		identity: and,
		block: func(v []bool) bool {
			for _, x := range v {
				if x != and {
					return x
				}
			}
			return and
		},
		combine: func(a, b bool) bool {
			if and {
				return a && b
			}
			return a || b
		},
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
	}
}

// beatsMax reports whether a should replace the current best b of an argmax:
// strictly larger, or the first NaN (NaN wins, as in NumPy).
func beatsMax[T dtype.Real](a, b T) bool { return (a > b || a != a) && b == b }

func beatsMin[T dtype.Real](a, b T) bool { return (a < b || a != a) && b == b }

func realReduces[T dtype.Real]() reduceFns[T] {
	return reduceFns[T]{sum: sumOp[T](), prod: prodOp[T](), dot: pairwiseDot[T],
		max: extremeOp(maxNaN[T]), min: extremeOp(minNaN[T]),
		argmax: beatsMax[T], argmin: beatsMin[T]}
}

func floatReduces[T dtype.Float]() reduceFns[T] {
	r := realReduces[T]()
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
	return reduceFns[T]{sum: sumOp[T](), prod: prodOp[T](), dot: pairwiseDot[T], scale: scaleComplex[T]}
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
