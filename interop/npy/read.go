package npy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Read reads one .npy array from r into a new tensor whose element type must
// be the file's dtype; otherwise it returns a *DTypeError naming both (see
// ReadConvert). It consumes exactly the array's bytes, so arrays written one
// after another to a stream are read back by calling Read again; at the end
// of such a stream it returns io.EOF.
//
// A C-ordered file gives a row-major tensor; a Fortran-ordered one gives a
// column-major view (strides 1, d0, d0*d1, …) of the data as stored, as
// NumPy's load does. Call Contiguous for a row-major copy.
//
// A nil r, or one holding a nil pointer, is a *tensor.ArgError, as for every
// reader, writer, tensor and archive argument of this package.
func Read[T dtype.Elem](r io.Reader) (*tensor.Tensor[T], error) {
	if err := nilArgError("npy.Read", "r", r); err != nil {
		return nil, err
	}
	hr, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	return decode[T](hr, r)
}

// ReadConvert reads one .npy array from r like Read, converting each element
// from the file's dtype to T as NumPy's astype does: integers wrap, floats
// are truncated toward zero, complex numbers lose their imaginary part,
// nonzero is true and true is 1. Floats out of the range of an integer T
// (and NaN) convert to an unspecified value, as in Go.
func ReadConvert[T dtype.Elem](r io.Reader) (*tensor.Tensor[T], error) {
	if err := nilArgError("npy.ReadConvert", "r", r); err != nil {
		return nil, err
	}
	hr, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	return decodeConvert[T](hr, r)
}

// ReadAny reads one .npy array from r into a tensor of the file's dtype:
// a *tensor.Tensor[float32] for a float32 file, and so on (int64 and uint64
// files give Tensor[int64] and Tensor[uint64]). It is np.load for callers
// that learn the dtype from the file.
func ReadAny(r io.Reader) (tensor.Any, error) {
	if err := nilArgError("npy.ReadAny", "r", r); err != nil {
		return nil, err
	}
	hr, err := readHeader(r)
	if err != nil {
		return nil, err
	}
	return decodeAny(hr, r)
}

// decodeAny reads the data after hr into a tensor of the header's dtype.
func decodeAny(hr *headerReader, r io.Reader) (tensor.Any, error) {
	var t tensor.Any
	var err error
	switch hr.DType {
	case dtype.Bool:
		t, err = decode[bool](hr, r)
	case dtype.Int8:
		t, err = decode[int8](hr, r)
	case dtype.Int16:
		t, err = decode[int16](hr, r)
	case dtype.Int32:
		t, err = decode[int32](hr, r)
	case dtype.Int64:
		t, err = decode[int64](hr, r)
	case dtype.Uint8:
		t, err = decode[uint8](hr, r)
	case dtype.Uint16:
		t, err = decode[uint16](hr, r)
	case dtype.Uint32:
		t, err = decode[uint32](hr, r)
	case dtype.Uint64:
		t, err = decode[uint64](hr, r)
	case dtype.Float32:
		t, err = decode[float32](hr, r)
	case dtype.Float64:
		t, err = decode[float64](hr, r)
	case dtype.Complex64:
		t, err = decode[complex64](hr, r)
	case dtype.Complex128:
		t, err = decode[complex128](hr, r)
	default:
		return nil, fmt.Errorf("npy: internal error: header dtype %v", hr.DType)
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// decode reads the data after hr from r into a Tensor[T], which must have
// the header's dtype.
func decode[T dtype.Elem](hr *headerReader, r io.Reader) (*tensor.Tensor[T], error) {
	if want := dtype.Of[T](); want != hr.DType {
		return nil, &DTypeError{File: hr.DType, Want: want, Elem: fmt.Sprintf("%T", *new(T))}
	}
	data, err := decodeData[T](hr, r)
	if err != nil {
		return nil, err
	}
	return layout(data, hr.Header)
}

// decodeData reads the data after hr from r as a flat []T in file order;
// T's dtype is the header's.
func decodeData[T dtype.Elem](hr *headerReader, r io.Reader) ([]T, error) {
	src, err := dataSource(r, hr.size)
	if err != nil {
		return nil, err
	}
	hr.src.r = src
	var out []T
	switch p := any(&out).(type) {
	case *[]int:
		var wide []int64
		err = hr.npy.Read(&wide)
		*p = make([]int, len(wide))
		for i, v := range wide {
			(*p)[i] = int(v)
		}
	case *[]uint:
		var wide []uint64
		err = hr.npy.Read(&wide)
		*p = make([]uint, len(wide))
		for i, v := range wide {
			(*p)[i] = uint(v)
		}
	default:
		err = hr.npy.Read(p)
	}
	if err != nil {
		return nil, truncatedOr(err, "data", hr.size, -1)
	}
	return out, nil
}

// dataSource returns a reader of exactly size bytes of r. The header's shape
// is not trusted: npyio allocates the whole result before reading, so the
// bytes must be known to exist first. A seekable r is measured; any other r
// is read into a buffer that grows only as data arrives.
func dataSource(r io.Reader, size int64) (io.Reader, error) {
	if avail, ok := remaining(r); ok {
		if avail < size {
			return nil, &TruncatedError{Section: "data", Want: size, Got: avail}
		}
		return bufio.NewReaderSize(io.LimitReader(r, size), 1<<16), nil
	}
	var buf bytes.Buffer
	n, err := io.CopyN(&buf, r, size)
	if err != nil {
		return nil, truncatedOr(err, "data", size, n)
	}
	return bytes.NewReader(buf.Bytes()), nil
}

// remaining reports how many bytes a seekable r holds past its position.
func remaining(r io.Reader) (int64, bool) {
	s, ok := r.(io.Seeker)
	if !ok {
		return 0, false
	}
	cur, err := s.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, false
	}
	end, err := s.Seek(0, io.SeekEnd)
	if _, err2 := s.Seek(cur, io.SeekStart); err != nil || err2 != nil {
		return 0, false
	}
	return end - cur, true
}

// layout wraps data, in file order, as a tensor of the header's shape:
// row-major, or a column-major view for a Fortran-ordered file.
func layout[T dtype.Elem](data []T, h Header) (*tensor.Tensor[T], error) {
	if !h.Fortran || len(h.Shape) < 2 {
		return tensor.FromSlice(data, h.Shape...)
	}
	strides := make([]int, len(h.Shape))
	acc := 1
	for i, d := range h.Shape {
		strides[i] = acc
		acc *= max(d, 1)
	}
	return tensor.AsStrided(data, h.Shape, strides, 0)
}

// checkEnd reports a *LengthError when r holds bytes past the array: for a
// whole file or archive entry, the data must be exactly what the header
// says.
func checkEnd(hr *headerReader, r io.Reader) error {
	extra, err := io.Copy(io.Discard, r)
	if err != nil {
		return err
	}
	if extra > 0 {
		return &LengthError{Shape: hr.Shape, DType: hr.DType, Want: hr.size, Got: hr.size + extra}
	}
	return nil
}
