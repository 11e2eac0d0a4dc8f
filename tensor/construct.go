package tensor

import (
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/dtype"
)

// Must returns t, and panics if err is not nil. It is for constructors whose
// arguments are known to be valid, as in regexp.MustCompile:
//
//	x := tensor.Must(tensor.Arange[float64](0, 6, 1))
func Must[T dtype.Elem](t *Tensor[T], err error) *Tensor[T] {
	if err != nil {
		panic(err)
	}
	return t
}

// Full returns a row-major tensor of the given shape with every element v.
func Full[T dtype.Elem](v T, shape ...int) (*Tensor[T], error) {
	t, err := New[T](shape...)
	if err != nil {
		return nil, err
	}
	var zero T
	if v != zero {
		for i := range t.data {
			t.data[i] = v
		}
	}
	return t, nil
}

// Ones returns a row-major tensor of the given shape filled with 1 (true for
// bool). T must be one of the predeclared element types, not a named type
// built on one.
func Ones[T dtype.Elem](shape ...int) (*Tensor[T], error) {
	one, ok := oneOf[T]()
	if !ok {
		return nil, &ArgError{Op: "Ones", Reason: "element type has no dtype; use Full"}
	}
	return Full(one, shape...)
}

// Eye returns the n×n identity matrix. T must be one of the predeclared
// element types.
func Eye[T dtype.Elem](n int) (*Tensor[T], error) {
	one, ok := oneOf[T]()
	if !ok {
		return nil, &ArgError{Op: "Eye", Reason: "element type has no dtype"}
	}
	t, err := New[T](n, n)
	if err != nil {
		return nil, err
	}
	for i := 0; i < n; i++ {
		t.data[i*n+i] = one
	}
	return t, nil
}

// oneOf returns 1 (or true) as a T; ok is false for named element types,
// whose constant 1 cannot be spelled without reflection.
func oneOf[T dtype.Elem]() (T, bool) {
	var z T
	switch p := any(&z).(type) {
	case *bool:
		*p = true
	case *int8:
		*p = 1
	case *int16:
		*p = 1
	case *int32:
		*p = 1
	case *int64:
		*p = 1
	case *int:
		*p = 1
	case *uint8:
		*p = 1
	case *uint16:
		*p = 1
	case *uint32:
		*p = 1
	case *uint64:
		*p = 1
	case *uint:
		*p = 1
	case *float32:
		*p = 1
	case *float64:
		*p = 1
	case *complex64:
		*p = 1
	case *complex128:
		*p = 1
	default:
		return z, false
	}
	return z, true
}

// Arange returns the 1-D tensor start, start+step, start+2*step, … up to but
// excluding stop, as numpy.arange does. Its length is ceil((stop-start)/step):
// for integer types counted exactly in integer arithmetic, whatever the
// bounds (Arange[uint64](1<<64-3, 1<<64-1, 1) has 2 elements); for floats
// computed in float64, NumPy's rule. Element i is start + T(i)*step computed
// in T (PyTorch's rule), which for integers is exact: every element lies
// between start and stop, so the wrap-around of the intermediate product
// cancels. A zero step, a non-finite float bound or a range of more than
// math.MaxInt elements is an *ArgError; an empty range gives shape [0].
func Arange[T dtype.Real](start, stop, step T) (*Tensor[T], error) {
	if step == 0 {
		return nil, &ArgError{Op: "Arange", Reason: "step must not be zero"}
	}
	var n int
	if T(1)/T(2) == 0 { // an integer type
		count, ok := intRangeLen(start, stop, step)
		if !ok {
			return nil, &ArgError{Op: "Arange", Reason: fmt.Sprintf("the range from %v to %v by %v has more than %d elements", start, stop, step, maxInt)}
		}
		n = count
	} else {
		fs, fe, fd := float64(start), float64(stop), float64(step)
		if !finite(fs) || !finite(fe) || !finite(fd) {
			return nil, &ArgError{Op: "Arange", Reason: fmt.Sprintf("start, stop and step must be finite, got %v, %v, %v", start, stop, step)}
		}
		fn := math.Ceil((fe - fs) / fd)
		if !(fn > 0) {
			fn = 0
		}
		if fn >= float64(maxInt) {
			return nil, &ArgError{Op: "Arange", Reason: fmt.Sprintf("a range of %g elements is too large", fn)}
		}
		n = int(fn)
	}
	if err := checkAlloc[T](Shape{n}, n); err != nil {
		return nil, err
	}
	data := alloc[T](n)
	for i := range data {
		data[i] = start + T(i)*step
	}
	return &Tensor[T]{data: data, shape: Shape{n}, strides: []int{1}}, nil
}

// intRangeLen returns ceil((stop-start)/step) for an integer type T and a
// nonzero step, 0 for an empty range, and false when the count passes
// maxInt. The bounds are mapped to uint64 preserving their order (signed
// values with the sign bit flipped), so that stop-start is exact.
func intRangeLen[T dtype.Real](start, stop, step T) (int, bool) {
	var zero T
	signed := zero-1 < 0
	key := func(x T) uint64 {
		if signed {
			return uint64(int64(x)) ^ (1 << 63)
		}
		return uint64(x)
	}
	lo, hi, by := key(start), key(stop), uint64(step)
	if signed {
		by = uint64(int64(step))
	}
	if step < 0 {
		lo, hi, by = hi, lo, -by // the magnitude of step; exact for the most negative step too
	}
	if hi <= lo {
		return 0, true
	}
	n := (hi-lo-1)/by + 1
	if n > uint64(maxInt) {
		return 0, false
	}
	return int(n), true
}

// Linspace returns n evenly spaced values from start to stop inclusive, as
// numpy.linspace does: computed in float64 as start + i*((stop-start)/(n-1)),
// with the last value exactly stop. n = 0 gives an empty tensor and n = 1
// gives [start]; a negative n is an *ArgError.
func Linspace[T dtype.Float](start, stop T, n int) (*Tensor[T], error) {
	if n < 0 {
		return nil, &ArgError{Op: "Linspace", Reason: fmt.Sprintf("number of samples %d must be non-negative", n)}
	}
	if err := checkAlloc[T](Shape{n}, n); err != nil {
		return nil, err
	}
	data := alloc[T](n)
	fs, fe := float64(start), float64(stop)
	if n > 0 {
		data[0] = start
	}
	if n > 1 {
		div := float64(n - 1)
		delta := fe - fs
		step := delta / div
		for i := 1; i < n-1; i++ {
			if step == 0 { // delta is zero or step underflowed (NumPy gh-5437)
				data[i] = T(float64(i)/div*delta + fs)
			} else {
				data[i] = T(float64(i)*step + fs)
			}
		}
		data[n-1] = stop
	}
	return &Tensor[T]{data: data, shape: Shape{n}, strides: []int{1}}, nil
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// FromNested2 copies a [][]T into a new rows×cols tensor. Every row must have
// the length of the first (a ragged slice is an *ArgError naming the row);
// an empty outer slice gives shape [0, 0].
func FromNested2[T dtype.Elem](rows [][]T) (*Tensor[T], error) {
	cols := 0
	if len(rows) > 0 {
		cols = len(rows[0])
	}
	for i, r := range rows {
		if len(r) != cols {
			return nil, &ArgError{Op: "FromNested2", Reason: fmt.Sprintf("row %d has %d elements, want %d (the length of row 0)", i, len(r), cols)}
		}
	}
	t, err := New[T](len(rows), cols)
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		copy(t.data[i*cols:], r)
	}
	return t, nil
}

// FromNested3 copies a [][][]T into a new tensor of shape [len(x),
// len(x[0]), len(x[0][0])]. Every block and row must match the first; a
// ragged slice is an *ArgError naming the offending [i] or [i][j].
func FromNested3[T dtype.Elem](x [][][]T) (*Tensor[T], error) {
	rows, cols := 0, 0
	if len(x) > 0 {
		rows = len(x[0])
		if rows > 0 {
			cols = len(x[0][0])
		}
	}
	for i, b := range x {
		if len(b) != rows {
			return nil, &ArgError{Op: "FromNested3", Reason: fmt.Sprintf("block [%d] has %d rows, want %d (the length of [0])", i, len(b), rows)}
		}
		for j, r := range b {
			if len(r) != cols {
				return nil, &ArgError{Op: "FromNested3", Reason: fmt.Sprintf("row [%d][%d] has %d elements, want %d (the length of [0][0])", i, j, len(r), cols)}
			}
		}
	}
	t, err := New[T](len(x), rows, cols)
	if err != nil {
		return nil, err
	}
	for i, b := range x {
		for j, r := range b {
			copy(t.data[(i*rows+j)*cols:], r)
		}
	}
	return t, nil
}
