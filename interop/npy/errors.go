package npy

import (
	"fmt"
	"strings"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// MagicError reports input that does not start with the .npy magic string
// "\x93NUMPY": it is not a .npy file.
type MagicError struct {
	Got []byte // the first bytes of the input, at most six
}

// Error describes the failure.
func (e *MagicError) Error() string {
	return fmt.Sprintf("npy: not a .npy file: starts with %q, want %q", e.Got, magic)
}

// HeaderError reports a header that is malformed, or well formed but
// describing something a tensor cannot hold (float16, strings, structured or
// object arrays, a format version after 3.0).
type HeaderError struct {
	Field  string // "version", "header length", "descr", "shape", "fortran_order" or "" for the whole header
	Value  string // the offending value as written in the file, if any
	Reason string
	Err    error // the underlying error, if any
}

// Error describes the failure.
func (e *HeaderError) Error() string {
	var b strings.Builder
	b.WriteString("npy: ")
	if e.Field == "" {
		b.WriteString("malformed header")
	} else {
		fmt.Fprintf(&b, "header field %s", e.Field)
		if e.Value != "" {
			fmt.Fprintf(&b, " %s", e.Value)
		}
	}
	if e.Reason != "" {
		b.WriteString(": ")
		b.WriteString(e.Reason)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *HeaderError) Unwrap() error { return e.Err }

// TruncatedError reports input that ends before the header or the data it
// announces is complete.
type TruncatedError struct {
	Section   string // "header" or "data"
	Want, Got int64  // bytes of the section needed and bytes present
}

// Error describes the failure.
func (e *TruncatedError) Error() string {
	return fmt.Sprintf("npy: truncated %s: need %d bytes, got %d", e.Section, e.Want, e.Got)
}

// LengthError reports a whole file or archive entry whose data is longer
// than its header's shape and dtype account for.
type LengthError struct {
	Shape     tensor.Shape
	DType     dtype.DType
	Want, Got int64 // data bytes the header accounts for and bytes present
}

// Error describes the failure.
func (e *LengthError) Error() string {
	return fmt.Sprintf("npy: data does not match the header: shape %v of %v is %d bytes, data has %d",
		e.Shape, e.DType, e.Want, e.Got)
}

// DTypeError reports a read into a tensor whose element type is not the
// file's dtype, or a write of a tensor whose element type has no NumPy dtype.
type DTypeError struct {
	File dtype.DType // the file's dtype; Invalid on writes
	Want dtype.DType // the tensor's dtype; Invalid for named types such as type Celsius float64
	Elem string      // the Go element type, as %T prints it (the tensor type for a dtype-erased write)
}

// Error describes the failure.
func (e *DTypeError) Error() string {
	if e.Want == dtype.Invalid {
		return fmt.Sprintf("npy: %s has no NumPy dtype (use a basic element type such as float64)", e.Elem)
	}
	return fmt.Sprintf("npy: file holds %v, cannot read it into a Tensor[%s] of %v (ReadConvert converts)",
		e.File, e.Elem, e.Want)
}

// ArchiveError reports a .npz archive that cannot be read or written, or an
// entry in it that fails; Err is the cause (fs.ErrNotExist for a missing
// entry, or one of this package's errors for a bad entry).
type ArchiveError struct {
	Name string // the entry, without ".npy"; "" for the archive as a whole
	Err  error
}

// Error describes the failure.
func (e *ArchiveError) Error() string {
	if e.Name == "" {
		return "npy: npz archive: " + e.Err.Error()
	}
	return fmt.Sprintf("npy: npz entry %q: %v", e.Name, e.Err)
}

// Unwrap returns the underlying error.
func (e *ArchiveError) Unwrap() error { return e.Err }
