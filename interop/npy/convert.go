package npy

import (
	"fmt"
	"io"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// decodeConvert reads the data after hr as the header's dtype and converts
// it to T.
func decodeConvert[T dtype.Elem](hr *headerReader, r io.Reader) (*tensor.Tensor[T], error) {
	if want := dtype.Of[T](); want == dtype.Invalid || want == hr.DType {
		return decode[T](hr, r)
	}
	switch hr.DType {
	case dtype.Bool:
		return decodeAs[bool, T](hr, r)
	case dtype.Int8:
		return decodeAs[int8, T](hr, r)
	case dtype.Int16:
		return decodeAs[int16, T](hr, r)
	case dtype.Int32:
		return decodeAs[int32, T](hr, r)
	case dtype.Int64:
		return decodeAs[int64, T](hr, r)
	case dtype.Uint8:
		return decodeAs[uint8, T](hr, r)
	case dtype.Uint16:
		return decodeAs[uint16, T](hr, r)
	case dtype.Uint32:
		return decodeAs[uint32, T](hr, r)
	case dtype.Uint64:
		return decodeAs[uint64, T](hr, r)
	case dtype.Float32:
		return decodeAs[float32, T](hr, r)
	case dtype.Float64:
		return decodeAs[float64, T](hr, r)
	case dtype.Complex64:
		return decodeAs[complex64, T](hr, r)
	case dtype.Complex128:
		return decodeAs[complex128, T](hr, r)
	}
	return nil, fmt.Errorf("npy: internal error: header dtype %v", hr.DType)
}

// decodeAs reads the data as S, the file's element type, and converts it to T.
func decodeAs[S, T dtype.Elem](hr *headerReader, r io.Reader) (*tensor.Tensor[T], error) {
	src, err := decodeData[S](hr, r)
	if err != nil {
		return nil, err
	}
	dst := make([]T, len(src))
	convert(dst, src)
	return layout(dst, hr.Header)
}

// convert is: for i, v := range src { dst[i] = T(v) }, with NumPy's rules
// where Go has no conversion (bool, complex to real).
func convert[T, S dtype.Elem](dst []T, src []S) {
	switch d := any(dst).(type) {
	case []bool:
		toBool(d, src)
	case []int8:
		toReal(d, src)
	case []int16:
		toReal(d, src)
	case []int32:
		toReal(d, src)
	case []int64:
		toReal(d, src)
	case []int:
		toReal(d, src)
	case []uint8:
		toReal(d, src)
	case []uint16:
		toReal(d, src)
	case []uint32:
		toReal(d, src)
	case []uint64:
		toReal(d, src)
	case []uint:
		toReal(d, src)
	case []float32:
		toReal(d, src)
	case []float64:
		toReal(d, src)
	case []complex64:
		toComplex(d, src)
	case []complex128:
		toComplex(d, src)
	}
}

// toReal converts src, of a file's element type, to the real type D.
func toReal[D dtype.Real, S dtype.Elem](dst []D, src []S) {
	switch s := any(src).(type) {
	case []bool:
		for i, v := range s {
			dst[i] = 0
			if v {
				dst[i] = 1
			}
		}
	case []int8:
		castReal(dst, s)
	case []int16:
		castReal(dst, s)
	case []int32:
		castReal(dst, s)
	case []int64:
		castReal(dst, s)
	case []uint8:
		castReal(dst, s)
	case []uint16:
		castReal(dst, s)
	case []uint32:
		castReal(dst, s)
	case []uint64:
		castReal(dst, s)
	case []float32:
		castReal(dst, s)
	case []float64:
		castReal(dst, s)
	case []complex64:
		for i, v := range s {
			dst[i] = D(real(v))
		}
	case []complex128:
		for i, v := range s {
			dst[i] = D(real(v))
		}
	}
}

// toComplex converts src, of a file's element type, to the complex type D.
func toComplex[D dtype.Complex, S dtype.Elem](dst []D, src []S) {
	switch s := any(src).(type) {
	case []bool:
		for i, v := range s {
			dst[i] = 0
			if v {
				dst[i] = 1
			}
		}
	case []int8:
		realToComplex(dst, s)
	case []int16:
		realToComplex(dst, s)
	case []int32:
		realToComplex(dst, s)
	case []int64:
		realToComplex(dst, s)
	case []uint8:
		realToComplex(dst, s)
	case []uint16:
		realToComplex(dst, s)
	case []uint32:
		realToComplex(dst, s)
	case []uint64:
		realToComplex(dst, s)
	case []float32:
		realToComplex(dst, s)
	case []float64:
		realToComplex(dst, s)
	case []complex64:
		for i, v := range s {
			dst[i] = D(v)
		}
	case []complex128:
		for i, v := range s {
			dst[i] = D(v)
		}
	}
}

// toBool converts src, of a file's element type, to bool: nonzero is true.
func toBool[S dtype.Elem](dst []bool, src []S) {
	switch s := any(src).(type) {
	case []bool:
		copy(dst, s)
	case []int8:
		nonzero(dst, s)
	case []int16:
		nonzero(dst, s)
	case []int32:
		nonzero(dst, s)
	case []int64:
		nonzero(dst, s)
	case []uint8:
		nonzero(dst, s)
	case []uint16:
		nonzero(dst, s)
	case []uint32:
		nonzero(dst, s)
	case []uint64:
		nonzero(dst, s)
	case []float32:
		nonzero(dst, s)
	case []float64:
		nonzero(dst, s)
	case []complex64:
		nonzero(dst, s)
	case []complex128:
		nonzero(dst, s)
	}
}

// castReal is: for i, v := range src { dst[i] = D(v) }.
func castReal[D, S dtype.Real](dst []D, src []S) {
	for i, v := range src {
		dst[i] = D(v)
	}
}

// realToComplex is: for i, v := range src { dst[i] = complex(v, 0) }.
func realToComplex[D dtype.Complex, S dtype.Real](dst []D, src []S) {
	for i, v := range src {
		dst[i] = D(complex(float64(v), 0))
	}
}

// nonzero is: for i, v := range src { dst[i] = v != 0 }.
func nonzero[S dtype.Numeric](dst []bool, src []S) {
	for i, v := range src {
		dst[i] = v != 0
	}
}
