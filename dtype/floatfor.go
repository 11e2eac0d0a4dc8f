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
