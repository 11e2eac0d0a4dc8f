package dtype

import "golang.org/x/exp/constraints"

// Signed is a signed integer element type.
type Signed = constraints.Signed

// Unsigned is an unsigned integer element type (uintptr excluded: it is an
// address, not a number).
type Unsigned interface {
	~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// Integer is a signed or unsigned integer element type.
type Integer interface {
	Signed | Unsigned
}

// Float is a floating-point element type.
type Float = constraints.Float

// Complex is a complex element type.
type Complex = constraints.Complex

// Real is an integer or floating-point element type: one that is ordered.
type Real interface {
	Integer | Float
}

// Numeric is any element type with arithmetic.
type Numeric interface {
	Real | Complex
}

// Elem is any element type a tensor can hold.
type Elem interface {
	Numeric | ~bool
}
