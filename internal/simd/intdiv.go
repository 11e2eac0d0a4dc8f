package simd

// IntDivOf returns the loops of integer division for T: rounding toward
// zero, as Go's / does, or with floor toward negative infinity (Python's
// and NumPy's //); division by zero gives 0, and the most negative value
// divided by -1 wraps to itself, as in Go. Only int32 has them, and only
// with AVX2: each quotient is taken in float64, where a quotient of two
// int32 values is never rounded across an integer: the rounding error is
// at most |x/y|·2⁻⁵³ = (|x|·2⁻⁵³)/|y| < 1/|y| (as |x| ≤ 2³¹), and a
// quotient that is not an integer lies at least 1/|y| from the nearest
// one; so truncating or flooring it is exact. VDIVPD divides four a step
// where IDIV divides one (BenchmarkIntDiv).
func IntDivOf[T Int](floor bool) (Binary[T], bool) {
	if !Enabled {
		return Binary[T]{}, false
	}
	k := any(intDiv32[0])
	if floor {
		k = intDiv32[1]
	}
	b, ok := k.(Binary[T])
	return b, ok && b.VV != nil
}

// divTrunc32 and divFloor32 are the loops' scalar forms, for the elements
// after the last whole vector.
func divTrunc32(x, y int32) int32 {
	if y == 0 {
		return 0
	}
	return x / y
}

func divFloor32(x, y int32) int32 {
	if y == 0 {
		return 0
	}
	q := x / y
	if x%y != 0 && (x < 0) != (y < 0) {
		q--
	}
	return q
}
