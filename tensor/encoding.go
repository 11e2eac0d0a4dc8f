package tensor

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/dtype"
)

// binaryMagic opens every encoded tensor; its last byte is the format version.
const binaryMagic = "TPT\x01"

// MarshalBinary implements encoding.BinaryMarshaler (and so gob encoding):
// the magic "TPT\x01", the dtype's name as one length byte and the name, the
// rank and each extent as uvarints, then the elements in row-major order,
// little-endian (bools as one byte). Views are encoded by value: the result
// does not depend on t's strides. Named element types cannot be encoded,
// and an encoding over the memory limit is an *AllocError.
func (t *Tensor[T]) MarshalBinary() ([]byte, error) {
	t = t.orEmpty()
	dt := dtype.Of[T]()
	if !dt.Valid() {
		return nil, &ArgError{Op: "MarshalBinary", Reason: "element type has no dtype"}
	}
	if err := checkAlloc[T](t.shape, t.Numel()); err != nil {
		return nil, err
	}
	name := dt.String()
	buf := make([]byte, 0, len(binaryMagic)+1+len(name)+binary.MaxVarintLen64*(1+len(t.shape))+t.Numel()*dt.Size())
	buf = append(buf, binaryMagic...)
	buf = append(buf, byte(len(name)))
	buf = append(buf, name...)
	buf = binary.AppendUvarint(buf, uint64(len(t.shape)))
	for _, d := range t.shape {
		buf = binary.AppendUvarint(buf, uint64(d))
	}
	return appendElems(buf, t.Values()), nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler: it replaces t with
// a new row-major tensor decoded from data, which must hold a tensor of t's
// dtype encoded by MarshalBinary. Malformed data is an *ArgError and leaves
// t unchanged.
func (t *Tensor[T]) UnmarshalBinary(data []byte) error {
	bad := func(format string, args ...any) error {
		return &ArgError{Op: "UnmarshalBinary", Reason: fmt.Sprintf(format, args...)}
	}
	if !dtype.Of[T]().Valid() {
		return bad("element type has no dtype")
	}
	if len(data) < len(binaryMagic)+1 || string(data[:len(binaryMagic)]) != binaryMagic {
		return bad("not an encoded tensor")
	}
	p := data[len(binaryMagic):]
	n := int(p[0])
	if len(p) < 1+n {
		return bad("truncated dtype")
	}
	name := string(p[1 : 1+n])
	p = p[1+n:]
	if want := dtype.Of[T]().String(); name != want {
		return bad("data holds %s, not %s", name, want)
	}
	rank, k := binary.Uvarint(p)
	if k <= 0 || rank > uint64(len(p)) {
		return bad("bad rank")
	}
	p = p[k:]
	shape := make(Shape, rank)
	for i := range shape {
		d, k := binary.Uvarint(p)
		if k <= 0 || d > uint64(maxInt) {
			return bad("bad extent at dimension %d", i)
		}
		shape[i], p = int(d), p[k:]
	}
	numel, err := shape.Numel()
	if err != nil {
		return err
	}
	size := dtype.Of[T]().Size()
	if numel > len(p)/size || len(p) != numel*size {
		return bad("shape %v needs %d bytes of elements, have %d", shape, numel*size, len(p))
	}
	if err := checkAlloc[T](shape, numel); err != nil {
		return err
	}
	vals := alloc[T](numel)
	decodeElems(vals, p)
	*t = Tensor[T]{data: vals, shape: shape, strides: rowMajorStrides(shape)}
	return nil
}

// appendElems appends vals little-endian; T is a predeclared element type.
func appendElems[T dtype.Elem](buf []byte, vals []T) []byte {
	le := binary.LittleEndian
	switch v := any(vals).(type) {
	case []bool:
		for _, x := range v {
			b := byte(0)
			if x {
				b = 1
			}
			buf = append(buf, b)
		}
	case []int8:
		for _, x := range v {
			buf = append(buf, byte(x))
		}
	case []uint8:
		buf = append(buf, v...)
	case []int16:
		for _, x := range v {
			buf = le.AppendUint16(buf, uint16(x))
		}
	case []uint16:
		for _, x := range v {
			buf = le.AppendUint16(buf, x)
		}
	case []int32:
		for _, x := range v {
			buf = le.AppendUint32(buf, uint32(x))
		}
	case []uint32:
		for _, x := range v {
			buf = le.AppendUint32(buf, x)
		}
	case []int64:
		for _, x := range v {
			buf = le.AppendUint64(buf, uint64(x))
		}
	case []int:
		for _, x := range v {
			buf = le.AppendUint64(buf, uint64(x))
		}
	case []uint64:
		for _, x := range v {
			buf = le.AppendUint64(buf, x)
		}
	case []uint:
		for _, x := range v {
			buf = le.AppendUint64(buf, uint64(x))
		}
	case []float32:
		for _, x := range v {
			buf = le.AppendUint32(buf, math.Float32bits(x))
		}
	case []float64:
		for _, x := range v {
			buf = le.AppendUint64(buf, math.Float64bits(x))
		}
	case []complex64:
		for _, x := range v {
			buf = le.AppendUint32(buf, math.Float32bits(real(x)))
			buf = le.AppendUint32(buf, math.Float32bits(imag(x)))
		}
	case []complex128:
		for _, x := range v {
			buf = le.AppendUint64(buf, math.Float64bits(real(x)))
			buf = le.AppendUint64(buf, math.Float64bits(imag(x)))
		}
	}
	return buf
}

// decodeElems fills vals from p, which holds exactly len(vals) elements.
func decodeElems[T dtype.Elem](vals []T, p []byte) {
	le := binary.LittleEndian
	switch v := any(vals).(type) {
	case []bool:
		for i := range v {
			v[i] = p[i] != 0
		}
	case []int8:
		for i := range v {
			v[i] = int8(p[i])
		}
	case []uint8:
		copy(v, p)
	case []int16:
		for i := range v {
			v[i] = int16(le.Uint16(p[2*i:]))
		}
	case []uint16:
		for i := range v {
			v[i] = le.Uint16(p[2*i:])
		}
	case []int32:
		for i := range v {
			v[i] = int32(le.Uint32(p[4*i:]))
		}
	case []uint32:
		for i := range v {
			v[i] = le.Uint32(p[4*i:])
		}
	case []int64:
		for i := range v {
			v[i] = int64(le.Uint64(p[8*i:]))
		}
	case []int:
		for i := range v {
			v[i] = int(le.Uint64(p[8*i:]))
		}
	case []uint64:
		for i := range v {
			v[i] = le.Uint64(p[8*i:])
		}
	case []uint:
		for i := range v {
			v[i] = uint(le.Uint64(p[8*i:]))
		}
	case []float32:
		for i := range v {
			v[i] = math.Float32frombits(le.Uint32(p[4*i:]))
		}
	case []float64:
		for i := range v {
			v[i] = math.Float64frombits(le.Uint64(p[8*i:]))
		}
	case []complex64:
		for i := range v {
			v[i] = complex(math.Float32frombits(le.Uint32(p[8*i:])), math.Float32frombits(le.Uint32(p[8*i+4:])))
		}
	case []complex128:
		for i := range v {
			v[i] = complex(math.Float64frombits(le.Uint64(p[16*i:])), math.Float64frombits(le.Uint64(p[16*i+8:])))
		}
	}
}
