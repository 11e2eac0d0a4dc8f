package npy

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Write writes t to w as one little-endian .npy array (format version 1.0,
// or 2.0 for headers too long for 1.0), as NumPy's save does: C order, or
// Fortran order when t is a column-major view that is not also row-major,
// so either is written from t's storage without a copy. Other layouts
// (transposes of 3-D tensors, slices, broadcasts) are written in C order from
// a row-major copy of their elements.
func Write[T dtype.Elem](w io.Writer, t *tensor.Tensor[T]) error {
	return writeOrder("npy.Write", w, t, binary.LittleEndian)
}

// WriteOrder is Write with the data in the given byte order:
// binary.LittleEndian, binary.BigEndian or binary.NativeEndian; any other
// order, like a nil w or t, is a *tensor.ArgError.
func WriteOrder[T dtype.Elem](w io.Writer, t *tensor.Tensor[T], order binary.ByteOrder) error {
	return writeOrder("npy.WriteOrder", w, t, order)
}

// writeOrder is WriteOrder, its argument errors naming fn.
func writeOrder[T dtype.Elem](fn string, w io.Writer, t *tensor.Tensor[T], order binary.ByteOrder) error {
	if err := nilArgError(fn, "w", w); err != nil {
		return err
	}
	if err := tensorArgError(fn, t); err != nil {
		return err
	}
	d := dtype.Of[T]()
	if d == dtype.Invalid {
		return &DTypeError{Want: d, Elem: fmt.Sprintf("%T", *new(T))}
	}
	switch order {
	case binary.LittleEndian, binary.BigEndian:
	case binary.NativeEndian:
		order = nativeOrder
	default:
		return &tensor.ArgError{Op: fn, Reason: fmt.Sprintf("byte order %v is neither little- nor big-endian", order)}
	}
	data, fortran := storageOrder(t)
	buf := appendHeader(nil, d, t.Shape(), fortran, order)
	if _, err := w.Write(buf); err != nil {
		return err
	}
	const chunk = 1 << 13 // elements per write
	for len(data) > 0 {
		n := min(len(data), chunk)
		buf = appendElems(buf[:0], order, data[:n])
		if _, err := w.Write(buf); err != nil {
			return err
		}
		data = data[n:]
	}
	return nil
}

// storageOrder returns t's elements in the order they are written, and
// whether that order is Fortran's. Dense row-major and column-major tensors
// are written from their storage; others are copied.
func storageOrder[T dtype.Elem](t *tensor.Tensor[T]) ([]T, bool) {
	n := t.Numel()
	switch {
	case t.IsContiguous():
		return t.Data()[t.Offset() : t.Offset()+n], false
	case isColumnMajor(t.Shape(), t.Strides()):
		return t.Data()[t.Offset() : t.Offset()+n], true
	}
	return t.Values(), false
}

// isColumnMajor reports whether strides are those of a dense column-major
// array of this shape, ignoring size-1 axes.
func isColumnMajor(shape tensor.Shape, strides []int) bool {
	acc := 1
	for i, d := range shape {
		if d == 1 {
			continue
		}
		if strides[i] != acc {
			return false
		}
		acc *= d
	}
	return true
}

// appendElems appends src's elements to buf in the given byte order.
func appendElems[T dtype.Elem](buf []byte, order binary.ByteOrder, src []T) []byte {
	ao := order.(binary.AppendByteOrder)
	switch s := any(src).(type) {
	case []int:
		for _, v := range s {
			buf = ao.AppendUint64(buf, uint64(v))
		}
		return buf
	case []uint:
		for _, v := range s {
			buf = ao.AppendUint64(buf, uint64(v))
		}
		return buf
	}
	// Every other element type is a fixed-size basic type, which
	// binary.Append always accepts.
	buf, _ = binary.Append(buf, order, src)
	return buf
}

// writeAny writes t with Write, for tensors whose element type is known only
// at run time.
func writeAny(w io.Writer, t tensor.Any) error {
	switch t := t.(type) {
	case *tensor.Tensor[bool]:
		return Write(w, t)
	case *tensor.Tensor[int8]:
		return Write(w, t)
	case *tensor.Tensor[int16]:
		return Write(w, t)
	case *tensor.Tensor[int32]:
		return Write(w, t)
	case *tensor.Tensor[int64]:
		return Write(w, t)
	case *tensor.Tensor[int]:
		return Write(w, t)
	case *tensor.Tensor[uint8]:
		return Write(w, t)
	case *tensor.Tensor[uint16]:
		return Write(w, t)
	case *tensor.Tensor[uint32]:
		return Write(w, t)
	case *tensor.Tensor[uint64]:
		return Write(w, t)
	case *tensor.Tensor[uint]:
		return Write(w, t)
	case *tensor.Tensor[float32]:
		return Write(w, t)
	case *tensor.Tensor[float64]:
		return Write(w, t)
	case *tensor.Tensor[complex64]:
		return Write(w, t)
	case *tensor.Tensor[complex128]:
		return Write(w, t)
	case nil:
		return &tensor.ArgError{Op: "npy.Write", Reason: "t is nil"}
	}
	return &DTypeError{Want: dtype.Invalid, Elem: fmt.Sprintf("%T", t)}
}
