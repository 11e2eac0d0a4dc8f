package dtype

// FloatFor returns the dtype NumPy computes a float function (sqrt, exp,
// sin, trunc, ...) of a d operand in: d itself for float and complex
// dtypes, float32 for bool and 1- and 2-byte integers, float64 for wider
// ones. NumPy gives float16 for bool, int8 and uint8, a dtype tensorplay
// lacks; float32 holds every such value exactly. Invalid gives Invalid.
func FloatFor(d DType) DType {
	switch k := d.Kind(); {
	case !d.Valid():
		return Invalid
	case k == KindFloat || k == KindComplex:
		return d
	case k == KindBool || d.Size() <= 2:
		return Float32
	}
	return Float64
}

// SumFor returns the dtype NumPy's sum, prod, cumsum and cumprod of a d
// operand accumulate in and return: int64 for bool and signed integers,
// uint64 for unsigned ones, d itself otherwise.
func SumFor(d DType) DType {
	switch d.Kind() {
	case KindBool, KindSigned:
		return Int64
	case KindUnsigned:
		return Uint64
	}
	return d
}
