package npy

import (
	"encoding/binary"
	"strings"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Header is what a .npy header says about the array that follows it.
type Header struct {
	DType dtype.DType
	Shape tensor.Shape // empty for a 0-d array
	// Fortran is true when the data is stored column-major (NumPy's
	// fortran_order); tensors read from such a file are column-major views.
	Fortran bool
	// ByteOrder is binary.LittleEndian or binary.BigEndian. One-byte dtypes,
	// which NumPy marks "not applicable" ('|'), report LittleEndian.
	ByteOrder binary.ByteOrder
}

// typeCodes are NumPy's type codes (a descr without its byte-order
// character) for each dtype.
var typeCodes = [...]string{
	dtype.Bool: "b1",
	dtype.Int8: "i1", dtype.Int16: "i2", dtype.Int32: "i4", dtype.Int64: "i8",
	dtype.Uint8: "u1", dtype.Uint16: "u2", dtype.Uint32: "u4", dtype.Uint64: "u8",
	dtype.Float32: "f4", dtype.Float64: "f8",
	dtype.Complex64: "c8", dtype.Complex128: "c16",
}

// codeDTypes inverts typeCodes, adding "?", NumPy's one-character code for bool.
var codeDTypes = func() map[string]dtype.DType {
	m := map[string]dtype.DType{"?": dtype.Bool}
	for _, d := range dtype.All {
		m[typeCodes[d]] = d
	}
	return m
}()

// unsupportedKinds explains the NumPy kinds a tensor cannot hold.
var unsupportedKinds = map[byte]string{
	'f': "this float width has no tensorplay dtype",
	'c': "this complex width has no tensorplay dtype",
	'O': "object arrays need a Python unpickler",
	'U': "string arrays are not supported",
	'S': "byte-string arrays are not supported",
	'V': "void and structured arrays are not supported",
	'M': "datetime arrays are not supported",
	'm': "timedelta arrays are not supported",
}

// nativeOrder is the machine's byte order as one of the two concrete ones.
var nativeOrder binary.ByteOrder = func() binary.ByteOrder {
	if binary.NativeEndian.Uint16([]byte{1, 0}) == 1 {
		return binary.LittleEndian
	}
	return binary.BigEndian
}()

// parseDescr reads a header's descr value, quotes included ("'<f8'"), as
// NumPy writes it: an optional byte-order character and a type code.
func parseDescr(v string) (dtype.DType, binary.ByteOrder, error) {
	s := strings.TrimSpace(v)
	unsupported := func(reason string) (dtype.DType, binary.ByteOrder, error) {
		return dtype.Invalid, nil, &HeaderError{Field: "descr", Value: s, Reason: reason}
	}
	if len(s) < 3 || (s[0] != '\'' && s[0] != '"') || s[len(s)-1] != s[0] {
		if strings.HasPrefix(s, "[") || strings.HasPrefix(s, "(") {
			return unsupported("structured and sub-array dtypes are not supported")
		}
		return unsupported("not a quoted type string")
	}
	code := s[1 : len(s)-1]
	order := binary.ByteOrder(binary.LittleEndian)
	switch code[0] {
	case '<', '|':
		code = code[1:]
	case '>':
		order, code = binary.BigEndian, code[1:]
	case '=':
		order, code = nativeOrder, code[1:]
	}
	d, ok := codeDTypes[code]
	if !ok {
		if code != "" {
			if reason, ok := unsupportedKinds[code[0]]; ok {
				return unsupported(reason)
			}
		}
		return unsupported("unknown type code")
	}
	if d.Size() == 1 {
		order = binary.LittleEndian
	}
	return d, order, nil
}

// formatDescr returns NumPy's type string for d in the given order, unquoted:
// "<f8", ">i4", "|b1".
func formatDescr(d dtype.DType, order binary.ByteOrder) string {
	switch {
	case d.Size() == 1:
		return "|" + typeCodes[d]
	case order == binary.BigEndian:
		return ">" + typeCodes[d]
	}
	return "<" + typeCodes[d]
}
