package npy_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/interop/npy"
	"github.com/tensorplay/tensorplay/tensor"
)

// FuzzRead feeds arbitrary bytes to the reader: it must never panic, must
// fail only with this package's typed errors, and what it reads must round
// trip: written back and read again it gives the same bytes when written
// once more (encode∘decode is a fixpoint after one step; the first step may
// change the byte order, the header's padding and the version). Seeds: every
// fixture (all dtypes, both byte orders, Fortran order, 0-d, empty, v2 and v3
// headers), truncations of a few of them, and testdata/fuzz/FuzzRead.
// Fuzz longer with go test -run '^$' -fuzz '^FuzzRead$' ./interop/npy.
func FuzzRead(f *testing.F) {
	for i, b := range fixtures(f, "*.npy") {
		f.Add(b)
		if i%8 == 0 { // truncations inside the preamble, the header and the data
			for _, n := range []int{7, 11, len(b) / 2, len(b) - 1} {
				f.Add(b[:min(n, len(b))])
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := npy.ReadAny(bytes.NewReader(data))
		_, streamErr := npy.ReadAny(io.MultiReader(bytes.NewReader(data)))
		assert.Equal(t, err == nil, streamErr == nil, "seekable and stream readers agree")
		if err != nil {
			assert.True(t, isTyped(err) || (len(data) == 0 && errors.Is(err, io.EOF)), "untyped error %T: %v", err, err)
			return
		}
		y, err := npy.ReadConvert[complex128](bytes.NewReader(data))
		require.NoError(t, err, "every dtype converts to complex128")
		assert.Equal(t, x.Shape(), y.Shape())

		once := encode(t, x)
		z, err := npy.ReadAny(bytes.NewReader(once))
		require.NoError(t, err, "a written array reads back")
		assert.Equal(t, x.DType(), z.DType())
		assert.Equal(t, x.Shape(), z.Shape())
		assert.Equal(t, once, encode(t, z), "encode(decode(encode(x))) == encode(x)")
	})
}

// FuzzReadNPZ feeds arbitrary bytes to the archive reader: NewNPZ, Names,
// Header and ReadAny must never panic and fail only with typed errors; the
// arrays that read must agree with their headers and round trip through
// NPZWriter with the same names and the same .npy encoding. Seeds: the
// NumPy archives (stored and deflated), one NPZWriter archive of every
// dtype, and truncations of each.
func FuzzReadNPZ(f *testing.F) {
	seeds := fixtures(f, "*.npz")
	var all bytes.Buffer
	w := npy.NewNPZWriter(&all)
	w.Compressed = true
	for i, b := range fixtures(f, "*_0d.npy") {
		x, err := npy.ReadAny(bytes.NewReader(b))
		require.NoError(f, err)
		require.NoError(f, w.Add(string(rune('a'+i)), x))
	}
	require.NoError(f, w.Close())
	seeds = append(seeds, all.Bytes())
	for _, b := range seeds {
		f.Add(b)
		for _, n := range []int{4, 40, len(b) / 2, len(b) - 22, len(b) - 1} {
			f.Add(b[:max(0, min(n, len(b)))])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := npy.NewNPZ(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			var ae *npy.ArchiveError
			assert.ErrorAs(t, err, &ae)
			return
		}
		defer a.Close()
		var names []string
		arrays := map[string]tensor.Any{}
		for _, name := range a.Names() {
			h, herr := a.Header(name)
			x, err := a.ReadAny(name)
			if err != nil {
				var ae *npy.ArchiveError
				assert.ErrorAs(t, err, &ae)
				continue
			}
			require.NoError(t, herr, "an entry that reads has a header")
			assert.Equal(t, h.DType, x.DType())
			assert.Equal(t, h.Shape, x.Shape())
			names = append(names, name)
			arrays[name] = x
		}
		var buf bytes.Buffer
		w := npy.NewNPZWriter(&buf)
		for _, name := range names {
			require.NoError(t, w.Add(name, arrays[name]))
		}
		require.NoError(t, w.Close())
		b, err := npy.NewNPZ(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
		require.NoError(t, err)
		assert.Equal(t, names, b.Names())
		for _, name := range names {
			y, err := b.ReadAny(name)
			require.NoError(t, err)
			assert.Equal(t, encode(t, arrays[name]), encode(t, y), "entry %q round trips", name)
		}
	})
}

// fixtures returns the contents of the testdata files matching pattern.
func fixtures(f *testing.F, pattern string) [][]byte {
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	require.NoError(f, err)
	require.NotEmpty(f, files)
	out := make([][]byte, len(files))
	for i, file := range files {
		out[i], err = os.ReadFile(file)
		require.NoError(f, err)
	}
	return out
}

// encode writes x, a tensor of any dtype a file can hold, with Write.
func encode(t *testing.T, x tensor.Any) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch x := x.(type) {
	case *tensor.Tensor[bool]:
		err = npy.Write(&buf, x)
	case *tensor.Tensor[int8]:
		err = npy.Write(&buf, x)
	case *tensor.Tensor[int16]:
		err = npy.Write(&buf, x)
	case *tensor.Tensor[int32]:
		err = npy.Write(&buf, x)
	case *tensor.Tensor[int64]:
		err = npy.Write(&buf, x)
	case *tensor.Tensor[uint8]:
		err = npy.Write(&buf, x)
	case *tensor.Tensor[uint16]:
		err = npy.Write(&buf, x)
	case *tensor.Tensor[uint32]:
		err = npy.Write(&buf, x)
	case *tensor.Tensor[uint64]:
		err = npy.Write(&buf, x)
	case *tensor.Tensor[float32]:
		err = npy.Write(&buf, x)
	case *tensor.Tensor[float64]:
		err = npy.Write(&buf, x)
	case *tensor.Tensor[complex64]:
		err = npy.Write(&buf, x)
	case *tensor.Tensor[complex128]:
		err = npy.Write(&buf, x)
	default:
		t.Fatalf("encode: %T", x)
	}
	require.NoError(t, err)
	return buf.Bytes()
}

// isTyped reports whether err is one of the package's typed read errors.
func isTyped(err error) bool {
	var (
		magic     *npy.MagicError
		header    *npy.HeaderError
		truncated *npy.TruncatedError
		length    *npy.LengthError
		dt        *npy.DTypeError
	)
	return errors.As(err, &magic) || errors.As(err, &header) || errors.As(err, &truncated) ||
		errors.As(err, &length) || errors.As(err, &dt)
}
