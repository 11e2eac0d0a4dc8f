package dtype

// PromoteNumPy returns the dtype NumPy 1.24's promote_types gives a and b.
// It is Promote except where a float meets an integer: NumPy picks a float
// that holds every value of the integer, so float32 (and complex64) with
// a 4- or 8-byte integer gives float64 (complex128), where Promote keeps
// PyTorch's float32. Concatenate of several dtypes uses it.
func PromoteNumPy(a, b DType) DType {
	p := Promote(a, b)
	if p != Float32 && p != Complex64 {
		return p
	}
	for _, d := range [2]DType{a, b} {
		if d.IsInteger() && d.Size() >= 4 {
			if p == Float32 {
				return Float64
			}
			return Complex128
		}
	}
	return p
}
