package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"codeberg.org/sbinet/npyio"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

const magic = "\x93NUMPY"

// maxHeaderLen bounds the header length a file may announce. npyio allocates
// whatever the 4-byte length field says (up to 4 GiB); NumPy itself refuses
// headers over 10000 bytes by default.
const maxHeaderLen = 1 << 20

// headerReader holds a parsed header and the npyio reader that decodes the
// data after it. npyio reads from src; readHeader points src at the header
// bytes it has already checked, and the data stage swaps in the data source.
type headerReader struct {
	Header
	src  *swapReader
	npy  *npyio.Reader
	size int64 // data bytes: Numel * DType.Size()
}

// swapReader is an io.Reader whose source can be replaced between reads.
type swapReader struct{ r io.Reader }

func (s *swapReader) Read(p []byte) (int, error) { return s.r.Read(p) }

// readHeader consumes exactly the preamble and header of one array from r.
// A clean end of input before the first byte is io.EOF, so that a stream of
// concatenated arrays can be read until it ends.
func readHeader(r io.Reader) (*headerReader, error) {
	var pre [12]byte
	n, err := io.ReadFull(r, pre[:10])
	if n == 0 && err == io.EOF {
		return nil, io.EOF
	}
	if got := pre[:min(n, len(magic))]; !bytes.Equal(got, []byte(magic[:len(got)])) {
		return nil, &MagicError{Got: bytes.Clone(got)}
	}
	if err != nil {
		return nil, truncatedOr(err, "header", 10, int64(n))
	}
	major, minor := pre[6], pre[7]
	// The length stays unsigned until it is checked: a 4-byte length of
	// 2^31 or more would be negative as a 32-bit int.
	preLen, length := 10, uint64(binary.LittleEndian.Uint16(pre[8:10]))
	switch major {
	case 1:
	case 2, 3:
		// Version 3.0 differs from 2.0 only in allowing UTF-8 in the header,
		// which the dtypes we accept never need; npyio knows 2.0 only.
		pre[6] = 2
		if n, err := io.ReadFull(r, pre[10:12]); err != nil {
			return nil, truncatedOr(err, "header", 12, int64(10+n))
		}
		preLen, length = 12, uint64(binary.LittleEndian.Uint32(pre[8:12]))
	default:
		return nil, &HeaderError{Field: "version", Value: fmt.Sprintf("%d.%d", major, minor), Reason: "this reader knows versions 1.0, 2.0 and 3.0"}
	}
	if length > maxHeaderLen {
		return nil, &HeaderError{Field: "header length", Value: strconv.FormatUint(length, 10), Reason: fmt.Sprintf("larger than %d bytes", maxHeaderLen)}
	}
	raw := make([]byte, preLen+int(length))
	copy(raw, pre[:preLen])
	if n, err := io.ReadFull(r, raw[preLen:]); err != nil {
		return nil, truncatedOr(err, "header", int64(len(raw)), int64(preLen+n))
	}
	if bytes.IndexByte(raw[preLen:], '\n') < 0 {
		return nil, &HeaderError{Reason: "header does not end in a newline"}
	}
	src := &swapReader{r: bytes.NewReader(raw)}
	nr, err := parseWithNpyio(src)
	if err != nil {
		return nil, err
	}
	h, size, err := checkHeader(nr.Header)
	if err != nil {
		return nil, err
	}
	return &headerReader{Header: h, src: src, npy: nr, size: size}, nil
}

// parseWithNpyio runs npyio's header parser, which slices its input without
// bounds checks and so panics on some malformed headers.
func parseWithNpyio(r io.Reader) (nr *npyio.Reader, err error) {
	defer func() {
		if p := recover(); p != nil {
			nr, err = nil, &HeaderError{Reason: fmt.Sprintf("npyio cannot parse it (%v)", p)}
		}
	}()
	nr, err = npyio.NewReader(r)
	if err != nil {
		return nil, &HeaderError{Reason: strings.TrimPrefix(err.Error(), "npy: "), Err: err}
	}
	return nr, nil
}

// checkHeader turns npyio's header into ours, rejecting what a tensor
// cannot hold and shapes whose byte size overflows.
func checkHeader(nh npyio.Header) (Header, int64, error) {
	d, order, err := parseDescr(nh.Descr.Type)
	if err != nil {
		return Header{}, 0, err
	}
	shape := tensor.Shape(nh.Descr.Shape).Clone()
	n, err := shape.Numel()
	if err != nil {
		return Header{}, 0, &HeaderError{Field: "shape", Value: shapeRepr(nh.Descr.Shape), Reason: err.Error(), Err: err}
	}
	if n > maxInt/d.Size() {
		return Header{}, 0, &HeaderError{Field: "shape", Value: shapeRepr(shape), Reason: "the data size overflows int"}
	}
	return Header{DType: d, Shape: shape, Fortran: nh.Descr.Fortran, ByteOrder: order}, int64(n * d.Size()), nil
}

const maxInt = int(^uint(0) >> 1)

// truncatedOr maps the end of input to a *TruncatedError and returns other
// read errors as they are.
func truncatedOr(err error, section string, want, got int64) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return &TruncatedError{Section: section, Want: want, Got: got}
	}
	return err
}

// shapeRepr prints a shape as a Python tuple: "()", "(3,)", "(2, 3)".
func shapeRepr(s []int) string {
	if len(s) == 1 {
		return "(" + strconv.Itoa(s[0]) + ",)"
	}
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.Itoa(d)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// headerAlign is the alignment NumPy pads the data offset to.
const headerAlign = 64

// appendHeader appends the preamble and header NumPy would write for an
// array of this dtype, shape and layout: version 1.0 unless the header needs
// more than 65535 bytes, the dict padded with spaces and a newline so the
// data starts at a multiple of 64 bytes.
func appendHeader(buf []byte, d dtype.DType, shape tensor.Shape, fortran bool, order binary.ByteOrder) []byte {
	py := map[bool]string{false: "False", true: "True"}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }",
		formatDescr(d, order), py[fortran], shapeRepr(shape))
	major, preLen := byte(1), 10
	if pad(preLen+len(dict)+1) > 0xffff {
		major, preLen = 2, 12
	}
	hdrLen := pad(preLen+len(dict)+1) - preLen
	buf = append(buf, magic...)
	buf = append(buf, major, 0)
	if major == 1 {
		buf = binary.LittleEndian.AppendUint16(buf, uint16(hdrLen))
	} else {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(hdrLen))
	}
	buf = append(buf, dict...)
	buf = append(buf, bytes.Repeat([]byte{' '}, hdrLen-len(dict)-1)...)
	return append(buf, '\n')
}

// pad rounds n up to a multiple of headerAlign.
func pad(n int) int { return (n + headerAlign - 1) / headerAlign * headerAlign }
