package dtype

import (
	"fmt"
	"strings"
)

// DType is the runtime name of an element type.
type DType uint8

// The dtypes, in promotion order within each kind.
const (
	Invalid DType = iota
	Bool
	Int8
	Int16
	Int32
	Int64
	Uint8
	Uint16
	Uint32
	Uint64
	Float32
	Float64
	Complex64
	Complex128
)

// Kind is the family of a dtype, ordered for promotion.
type Kind uint8

// The kinds, in promotion order.
const (
	KindInvalid Kind = iota
	KindBool
	KindUnsigned
	KindSigned
	KindFloat
	KindComplex
)

var kindNames = [...]string{"invalid", "bool", "unsigned", "signed", "float", "complex"}

// String returns the kind's name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

type info struct {
	name string
	size int
	kind Kind
}

var infos = [...]info{
	Invalid:    {"invalid", 0, KindInvalid},
	Bool:       {"bool", 1, KindBool},
	Int8:       {"int8", 1, KindSigned},
	Int16:      {"int16", 2, KindSigned},
	Int32:      {"int32", 4, KindSigned},
	Int64:      {"int64", 8, KindSigned},
	Uint8:      {"uint8", 1, KindUnsigned},
	Uint16:     {"uint16", 2, KindUnsigned},
	Uint32:     {"uint32", 4, KindUnsigned},
	Uint64:     {"uint64", 8, KindUnsigned},
	Float32:    {"float32", 4, KindFloat},
	Float64:    {"float64", 8, KindFloat},
	Complex64:  {"complex64", 8, KindComplex},
	Complex128: {"complex128", 16, KindComplex},
}

// All lists every valid dtype.
var All = []DType{Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64, Float32, Float64, Complex64, Complex128}

func (d DType) info() info {
	if int(d) < len(infos) {
		return infos[d]
	}
	return infos[Invalid]
}

// String returns NumPy's name for the dtype ("float64").
func (d DType) String() string {
	if d != Invalid && int(d) >= len(infos) {
		return fmt.Sprintf("DType(%d)", uint8(d))
	}
	return d.info().name
}

// Short returns the compact name used in printed graphs ("f64", "c128",
// "i32", "bool").
func (d DType) Short() string {
	switch d.Kind() {
	case KindBool:
		return "bool"
	case KindSigned:
		return fmt.Sprintf("i%d", 8*d.Size())
	case KindUnsigned:
		return fmt.Sprintf("u%d", 8*d.Size())
	case KindFloat:
		return fmt.Sprintf("f%d", 8*d.Size())
	case KindComplex:
		return fmt.Sprintf("c%d", 8*d.Size())
	}
	return "invalid"
}

// Size returns the size of one element in bytes.
func (d DType) Size() int { return d.info().size }

// Kind returns the dtype's family.
func (d DType) Kind() Kind { return d.info().kind }

// IsFloat reports whether d is float32 or float64.
func (d DType) IsFloat() bool { return d.Kind() == KindFloat }

// IsComplex reports whether d is complex64 or complex128.
func (d DType) IsComplex() bool { return d.Kind() == KindComplex }

// IsInteger reports whether d is a signed or unsigned integer.
func (d DType) IsInteger() bool { k := d.Kind(); return k == KindSigned || k == KindUnsigned }

// Valid reports whether d names an element type.
func (d DType) Valid() bool { return d != Invalid && int(d) < len(infos) }

// Parse returns the dtype with NumPy's name ("float64", "complex64", …). It
// also accepts Go's "int" and "uint" (64-bit) and PyTorch's aliases "float"
// (float32, torch.float — not NumPy's float64), "double" (float64) and
// "long" (int64).
func Parse(name string) (DType, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "int":
		return Int64, nil
	case "uint":
		return Uint64, nil
	case "float":
		return Float32, nil
	case "double":
		return Float64, nil
	case "long":
		return Int64, nil
	}
	for _, d := range All {
		if d.String() == n {
			return d, nil
		}
	}
	return Invalid, fmt.Errorf("dtype: unknown dtype %q", name)
}

// Of returns the dtype of the element type T. Named types built on the basic
// types (type Celsius float64) are not element types of their own and give
// Invalid.
func Of[T Elem]() DType {
	var z T
	switch any(z).(type) {
	case bool:
		return Bool
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64, int:
		return Int64
	case uint8:
		return Uint8
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64, uint:
		return Uint64
	case float32:
		return Float32
	case float64:
		return Float64
	case complex64:
		return Complex64
	case complex128:
		return Complex128
	}
	return Invalid
}

// Restricted reports whether d is one of the six dtypes whose broadcasts must
// merge to fewer than 6 axes under the CANN rule: complex64, complex128,
// float64, int16, uint16 and uint64.
func (d DType) Restricted() bool {
	switch d {
	case Complex64, Complex128, Float64, Int16, Uint16, Uint64:
		return true
	}
	return false
}

// RestrictedDTypes lists the dtypes for which Restricted is true.
var RestrictedDTypes = []DType{Complex64, Complex128, Float64, Int16, Uint16, Uint64}
