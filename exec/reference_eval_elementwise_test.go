package exec_test

import (
	"fmt"
	"math"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
)

// The reference evaluator's elementwise ops: unary, binary, comparison,
// Where and casts, written from NumPy's semantics.

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
// float64 and rounded to T, as docs/expressions.md says; sin and cos are
// refTrig, exact where the math package is not.
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
		return m(func(x float64) float64 { return refTrig(x, 0) })
	case "cos":
		return m(func(x float64) float64 { return refTrig(x, 1) })
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
