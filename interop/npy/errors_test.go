package npy_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/interop/npy"
)

// npyFile builds a version 1.0 .npy file from a header dict and data.
func npyFile(dict string, data []byte) []byte {
	hdr := dict + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(hdr)), byte(len(hdr)>>8))
	return append(append(b, hdr...), data...)
}

// f64Header is a valid header for a (2, 3) float64 array.
const f64Header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }"

func TestBadInput(t *testing.T) {
	data48 := make([]byte, 48)
	v4 := npyFile(f64Header, data48)
	v4[6] = 4
	hugeHeader := []byte("\x93NUMPY\x02\x00\x00\x00\x00\x80")
	// npyio parses extents as int, so the shapes below are sized by the word:
	// an extent of 1<<62 (1<<30 on 32-bit) times 8 overflows int, and so do
	// 1<<61 (1<<29) complex128s' bytes. hugeN float64s fit int but are far
	// more than the 48 bytes there: 10^12 on 64-bit, 10^8 (8e8 bytes) on
	// 32-bit, where 10^12 does not parse.
	const overShape, overBytes = 1 << (strconv.IntSize - 2), 1 << (strconv.IntSize - 3)
	hugeN := int64(1e12)
	if strconv.IntSize < 64 {
		hugeN = 1e8
	}

	headerErr := func(field string) func(t *testing.T, err error) {
		return func(t *testing.T, err error) {
			var e *npy.HeaderError
			require.ErrorAs(t, err, &e)
			assert.Equal(t, field, e.Field)
		}
	}
	truncated := func(section string, want, got int64) func(t *testing.T, err error) {
		return func(t *testing.T, err error) {
			var e *npy.TruncatedError
			require.ErrorAs(t, err, &e)
			assert.Equal(t, npy.TruncatedError{Section: section, Want: want, Got: got}, *e)
		}
	}
	cases := []struct {
		name  string
		input []byte
		check func(t *testing.T, err error)
	}{
		{"wrong magic", []byte("PK\x03\x04 this is a zip"), func(t *testing.T, err error) {
			var e *npy.MagicError
			require.ErrorAs(t, err, &e)
			assert.Equal(t, []byte("PK\x03\x04 t"), e.Got)
		}},
		{"text file", []byte("1,2,3\n"), func(t *testing.T, err error) {
			var e *npy.MagicError
			require.ErrorAs(t, err, &e)
		}},
		{"truncated magic", []byte("\x93NUM"), truncated("header", 10, 4)},
		{"truncated preamble", []byte("\x93NUMPY\x01\x00\x76"), truncated("header", 10, 9)},
		{"truncated v2 preamble", []byte("\x93NUMPY\x02\x00\x76\x00"), truncated("header", 12, 10)},
		{"truncated header", npyFile(f64Header, nil)[:40], truncated("header", 10+int64(len(f64Header))+1, 40)},
		{"version 4.0", v4, headerErr("version")},
		{"huge header length", hugeHeader, headerErr("header length")},
		{"no newline", append([]byte("\x93NUMPY\x01\x00\x04\x00"), "{}  "...), headerErr("")},
		{"empty dict", npyFile("{}", nil), headerErr("")},
		{"keys out of order", npyFile("{'shape': (2, 3), 'fortran_order': False, 'descr': '<f8', }", data48), headerErr("")},
		{"shape without parens", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': 6, }", data48), headerErr("")},
		{"shape not numbers", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (a, b), }", data48), headerErr("")},
		{"fortran_order not bool", npyFile("{'descr': '<f8', 'fortran_order': 0, 'shape': (2, 3), }", data48), headerErr("")},
		{"float16", npyFile("{'descr': '<f2', 'fortran_order': False, 'shape': (2, 3), }", data48), headerErr("descr")},
		{"float128", npyFile("{'descr': '<f16', 'fortran_order': False, 'shape': (3,), }", data48), headerErr("descr")},
		{"unicode", npyFile("{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", data48[:24]), headerErr("descr")},
		{"object", npyFile("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", data48[:16]), headerErr("descr")},
		{"datetime", npyFile("{'descr': '<M8[s]', 'fortran_order': False, 'shape': (2,), }", data48[:16]), headerErr("descr")},
		{"structured", npyFile("{'descr': [('a', '<f8'), ('b', '<i4')], 'fortran_order': False, 'shape': (2,), }", data48[:24]), headerErr("descr")},
		{"unquoted descr", npyFile("{'descr': f8, 'fortran_order': False, 'shape': (2, 3), }", data48), headerErr("descr")},
		{"negative shape", npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (-1, 3), }", data48), headerErr("shape")},
		{"overflowing shape", npyFile(fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d, 8), }", overShape), data48), headerErr("shape")},
		{"overflowing byte size", npyFile(fmt.Sprintf("{'descr': '<c16', 'fortran_order': False, 'shape': (%d,), }", overBytes), data48), headerErr("shape")},
		{"truncated data", npyFile(f64Header, data48[:40]), truncated("data", 48, 40)},
		{"no data", npyFile(f64Header, nil), truncated("data", 48, 0)},
		{"huge shape, little data", npyFile(fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d,), }", hugeN), data48), truncated("data", 8*hugeN, 48)},
	}
	readers := map[string]func([]byte) io.Reader{
		"seekable": func(b []byte) io.Reader { return bytes.NewReader(b) },
		"stream":   func(b []byte) io.Reader { return io.MultiReader(bytes.NewReader(b)) },
	}
	for _, c := range cases {
		for rname, reader := range readers {
			t.Run(c.name+"/"+rname, func(t *testing.T) {
				x, err := npy.Read[float64](reader(c.input))
				require.Error(t, err)
				assert.Nil(t, x)
				c.check(t, err)
				assert.NotEmpty(t, err.Error())

				_, err = npy.ReadAny(reader(c.input))
				c.check(t, err)
			})
		}
		t.Run(c.name+"/file", func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bad.npy")
			require.NoError(t, os.WriteFile(path, c.input, 0o644))
			_, err := npy.Load[float64](path)
			c.check(t, err)
		})
	}
}

func TestEmptyInput(t *testing.T) {
	_, err := npy.Read[float64](bytes.NewReader(nil))
	assert.ErrorIs(t, err, io.EOF, "a stream that ends between arrays")

	path := filepath.Join(t.TempDir(), "empty.npy")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	_, err = npy.Load[float64](path)
	var e *npy.TruncatedError
	require.ErrorAs(t, err, &e, "an empty file is not a .npy file")
	assert.Equal(t, "header", e.Section)
}

func TestTrailingData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.npy")
	require.NoError(t, os.WriteFile(path, npyFile(f64Header, make([]byte, 56)), 0o644))
	_, err := npy.Load[float64](path)
	var e *npy.LengthError
	require.ErrorAs(t, err, &e)
	assert.Equal(t, int64(48), e.Want)
	assert.Equal(t, int64(56), e.Got)
	assert.Equal(t, dtype.Float64, e.DType)
	assert.EqualError(t, err, "npy: data does not match the header: shape [2, 3] of float64 is 48 bytes, data has 56")

	// A stream may hold more after the array: Read leaves it unread.
	r := bytes.NewReader(npyFile(f64Header, make([]byte, 56)))
	_, err = npy.Read[float64](r)
	require.NoError(t, err)
	assert.Equal(t, 8, r.Len())
}

type celsius float64

func TestDTypeMismatch(t *testing.T) {
	path := filepath.Join("testdata", "float64.npy")
	cases := []struct {
		name string
		read func() error
		want npy.DTypeError
		text string
	}{
		{"float32", func() error { _, err := npy.Load[float32](path); return err },
			npy.DTypeError{File: dtype.Float64, Want: dtype.Float32, Elem: "float32"},
			"npy: file holds float64, cannot read it into a Tensor[float32] of float32 (ReadConvert converts)"},
		{"int", func() error { _, err := npy.Load[int](path); return err },
			npy.DTypeError{File: dtype.Float64, Want: dtype.Int64, Elem: "int"},
			"npy: file holds float64, cannot read it into a Tensor[int] of int64 (ReadConvert converts)"},
		{"complex128", func() error { _, err := npy.Load[complex128](path); return err },
			npy.DTypeError{File: dtype.Float64, Want: dtype.Complex128, Elem: "complex128"},
			"npy: file holds float64, cannot read it into a Tensor[complex128] of complex128 (ReadConvert converts)"},
		{"named type", func() error { _, err := npy.Load[celsius](path); return err },
			npy.DTypeError{File: dtype.Float64, Want: dtype.Invalid, Elem: "npy_test.celsius"},
			"npy: npy_test.celsius has no NumPy dtype (use a basic element type such as float64)"},
		{"named type converting", func() error { _, err := npy.LoadConvert[celsius](path); return err },
			npy.DTypeError{File: dtype.Float64, Want: dtype.Invalid, Elem: "npy_test.celsius"},
			"npy: npy_test.celsius has no NumPy dtype (use a basic element type such as float64)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.read()
			var e *npy.DTypeError
			require.ErrorAs(t, err, &e)
			assert.Equal(t, c.want, *e)
			assert.EqualError(t, err, c.text)
		})
	}
}

func TestWriteErrors(t *testing.T) {
	x := sampleTensor[float64](t)
	t.Run("named type", func(t *testing.T) {
		var buf bytes.Buffer
		err := npy.Write(&buf, tensorOf(t, []celsius{1, 2}))
		var e *npy.DTypeError
		require.ErrorAs(t, err, &e)
		assert.Equal(t, dtype.Invalid, e.Want)
		assert.Zero(t, buf.Len(), "nothing written")
	})
	t.Run("byte order", func(t *testing.T) {
		err := npy.WriteOrder(io.Discard, x, oddOrder{})
		assert.Error(t, err)
	})
	t.Run("native order", func(t *testing.T) {
		var buf bytes.Buffer
		require.NoError(t, npy.WriteOrder(&buf, x, binary.NativeEndian))
		got, err := npy.Read[float64](&buf)
		require.NoError(t, err)
		assert.Equal(t, x.Values(), got.Values())
	})
	t.Run("writer fails", func(t *testing.T) {
		boom := errors.New("disk full")
		for _, n := range []int{0, 128, 130} {
			err := npy.Write(&failingWriter{n: n, err: boom}, x)
			assert.ErrorIs(t, err, boom, "after %d bytes", n)
		}
	})
}

// oddOrder is a byte order that is neither little- nor big-endian.
type oddOrder struct{ binary.ByteOrder }

func (oddOrder) String() string { return "odd" }

// failingWriter accepts n bytes, then fails with err.
type failingWriter struct {
	n   int
	err error
}

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, w.err
	}
	w.n -= len(p)
	return len(p), nil
}
