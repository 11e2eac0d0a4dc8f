package dtype

// Promote returns the dtype NumPy and PyTorch compute an operation on a and
// b in, by the table in the package documentation; use it to choose the type
// to Cast both operands to. Invalid operands give Invalid.
func Promote(a, b DType) DType {
	if !a.Valid() || !b.Valid() {
		return Invalid
	}
	if a == b {
		return a
	}
	ka, kb := a.Kind(), b.Kind()
	if ka < kb || (ka == kb && a.Size() < b.Size()) {
		a, b, ka, kb = b, a, kb, ka
	}
	// Now a is the higher kind, or the wider one of the same kind.
	switch {
	case kb == KindBool:
		return a
	case ka == KindComplex:
		if b == Float64 || b.Kind() == KindComplex && b.Size() > a.Size() {
			return Complex128
		}
		return a
	case ka == KindFloat:
		if kb == KindFloat && b.Size() > a.Size() {
			return b
		}
		return a
	case ka == kb:
		return a
	}
	// One signed, one unsigned integer.
	s, u := a, b
	if ka == KindUnsigned {
		s, u = b, a
	}
	if s.Size() > u.Size() {
		return s
	}
	switch u.Size() {
	case 1:
		return Int16
	case 2:
		return Int32
	case 4:
		return Int64
	}
	return Float64
}
