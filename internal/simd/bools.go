package simd

// CmpOp is a comparison, whose loops write bools.
type CmpOp uint8

// The comparisons, in table order. Each is Go's operator on the element
// type: for floats, every one but Ne is false when an operand is NaN.
const (
	Eq CmpOp = iota
	Ne
	Lt
	Le
	Gt
	Ge
)

// CmpElem is the element types with comparison loops: the floats, and
// int64 and int32 (labels and indices). Named types satisfy it but have no
// loops: their lookups report false.
type CmpElem interface {
	~float32 | ~float64 | ~int64 | ~int32
}

// Compare holds the three forms of one comparison: d[i] = a[i] op b[i]
// with both operands vectors, with b a scalar, and with a a scalar. The
// vector operands must be at least as long as d.
type Compare[T CmpElem] struct {
	VV func(d []bool, a, b []T)
	VS func(d []bool, a []T, s T)
	SV func(d []bool, s T, b []T)
}

// Where holds the three forms of d[i] = c[i] ? a[i] : b[i]: both operands
// vectors, b a scalar, a a scalar. It moves bits: a NaN keeps its payload.
type Where[T Float] struct {
	VV func(d []T, c []bool, a, b []T)
	VS func(d []T, c []bool, a []T, s T)
	SV func(d []T, c []bool, s T, b []T)
}

// CompareOf returns the loops of op for T. They need BMI2's PDEP besides
// AVX2.
func CompareOf[T CmpElem](op CmpOp) (Compare[T], bool) {
	if !Enabled || !hasBMI2 || op > Ge {
		return Compare[T]{}, false
	}
	var k any
	switch any(*new(T)).(type) {
	case float64:
		k = compare64[op]
	case float32:
		k = compare32[op]
	case int64:
		k = compareI64[op]
	case int32:
		k = compareI32[op]
	}
	c, ok := k.(Compare[T])
	return c, ok && c.VV != nil
}

// WhereOf returns the where loops for T.
func WhereOf[T Float]() (Where[T], bool) {
	w, ok := choose[T, Where[T]](where64, where32)
	return w, ok && Enabled && w.VV != nil
}

// BoolsTo returns the loop d[i] = 1 if c[i] else 0 for T.
func BoolsTo[T Float]() (func(d []T, c []bool), bool) {
	f, ok := choose[T, func(d []T, c []bool)](boolsTo64, boolsTo32)
	return f, ok && Enabled && f != nil
}
