package npy

import (
	"archive/zip"
	"errors"
	"io"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"codeberg.org/sbinet/npyio/npz"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// NPZ is an open .npz archive, as NumPy's savez and savez_compressed write
// it: a zip file with one .npy entry per array, named after the array plus
// ".npy". Entries may be stored or deflated. The zero NPZ is an empty
// archive.
type NPZ struct {
	zr    *npz.Reader
	names []string          // array names, in archive order
	keys  map[string]string // array name -> zip entry name
}

// OpenNPZ opens the .npz archive at path. Close it when done.
func OpenNPZ(path string) (*NPZ, error) {
	zr, err := npz.Open(path)
	if err != nil {
		return nil, &ArchiveError{Err: err}
	}
	return newNPZ(zr), nil
}

// NewNPZ reads the .npz archive in r, which holds size bytes.
func NewNPZ(r io.ReaderAt, size int64) (*NPZ, error) {
	if err := nilArgError("npy.NewNPZ", "r", r); err != nil {
		return nil, err
	}
	zr, err := npz.NewReader(r, size)
	if err != nil {
		return nil, &ArchiveError{Err: err}
	}
	return newNPZ(zr), nil
}

func newNPZ(zr *npz.Reader) *NPZ {
	a := &NPZ{zr: zr, keys: map[string]string{}}
	for _, k := range zr.Keys() {
		name := strings.TrimSuffix(k, ".npy")
		prev, dup := a.keys[name]
		switch {
		case !dup:
			a.names = append(a.names, name)
		case strings.HasSuffix(prev, ".npy"):
			continue // "x.npy" wins over "x", as in NumPy
		}
		a.keys[name] = k
	}
	return a
}

// Names returns the names of the arrays in the archive, in archive order,
// without the ".npy" suffix of their entries, as NumPy's NpzFile.files does.
// A nil *NPZ has none.
func (a *NPZ) Names() []string {
	if a == nil {
		return nil
	}
	return slices.Clone(a.names)
}

// Close closes the file OpenNPZ opened; for NewNPZ and the zero NPZ it does
// nothing. Closing a nil *NPZ is a *tensor.ArgError.
func (a *NPZ) Close() error {
	switch {
	case a == nil:
		return nilNPZError("npy.NPZ.Close")
	case a.zr == nil:
		return nil
	}
	return a.zr.Close()
}

// nilNPZError is the error of a method called on a nil *NPZ.
func nilNPZError(fn string) error { return &tensor.ArgError{Op: fn, Reason: "nil *NPZ"} }

// ReadAny reads the named array into a tensor of its dtype, as ReadAny does.
func (a *NPZ) ReadAny(name string) (tensor.Any, error) {
	if a == nil {
		return nil, nilNPZError("npy.NPZ.ReadAny")
	}
	return readEntry(a, name, decodeAny)
}

// Header reads only the header of the named array.
func (a *NPZ) Header(name string) (Header, error) {
	if a == nil {
		return Header{}, nilNPZError("npy.NPZ.Header")
	}
	rc, err := a.open(name)
	if err != nil {
		return Header{}, err
	}
	defer rc.Close()
	hr, err := readFileHeader(rc)
	if err != nil {
		return Header{}, &ArchiveError{Name: name, Err: err}
	}
	return hr.Header, nil
}

// ReadNPZ reads the named array of a into a Tensor[T] as Read does; the entry
// must hold exactly one array. A nil a is a *tensor.ArgError.
func ReadNPZ[T dtype.Elem](a *NPZ, name string) (*tensor.Tensor[T], error) {
	if a == nil {
		return nil, &tensor.ArgError{Op: "npy.ReadNPZ", Reason: "a is nil"}
	}
	return readEntry(a, name, decode[T])
}

// ReadNPZConvert reads the named array of a into a Tensor[T], converting as
// ReadConvert does.
func ReadNPZConvert[T dtype.Elem](a *NPZ, name string) (*tensor.Tensor[T], error) {
	if a == nil {
		return nil, &tensor.ArgError{Op: "npy.ReadNPZConvert", Reason: "a is nil"}
	}
	return readEntry(a, name, decodeConvert[T])
}

// open opens the named entry.
func (a *NPZ) open(name string) (io.ReadCloser, error) {
	key, ok := a.keys[name]
	if !ok {
		return nil, &ArchiveError{Name: name, Err: fs.ErrNotExist}
	}
	rc, err := a.zr.Open(key)
	if err != nil {
		return nil, &ArchiveError{Name: name, Err: err}
	}
	return rc, nil
}

// readEntry decodes the named entry of a, which must hold exactly one array.
func readEntry[R any](a *NPZ, name string, dec func(*headerReader, io.Reader) (R, error)) (R, error) {
	var zero R
	rc, err := a.open(name)
	if err != nil {
		return zero, err
	}
	defer rc.Close()
	t, err := decodeWhole(rc, dec)
	if err != nil {
		return zero, &ArchiveError{Name: name, Err: err}
	}
	return t, nil
}

// LoadNPZ reads every array of the .npz archive at path, as NumPy's
// dict(np.load(path)) does; each value is a *tensor.Tensor of the array's
// dtype.
func LoadNPZ(path string) (map[string]tensor.Any, error) {
	a, err := OpenNPZ(path)
	if err != nil {
		return nil, err
	}
	defer a.Close()
	out := make(map[string]tensor.Any, len(a.names))
	for _, name := range a.names {
		if out[name], err = a.ReadAny(name); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// NPZWriter writes a .npz archive entry by entry. Its zero value is not
// usable; call NewNPZWriter.
type NPZWriter struct {
	// Compressed makes the entries added after it is set deflated, as
	// np.savez_compressed writes them; by default they are stored, as
	// np.savez writes them.
	Compressed bool

	zw    *zip.Writer
	names map[string]bool // nil in the zero value
	err   error           // NewNPZWriter's argument error, returned by every call
}

// NewNPZWriter returns a writer of a .npz archive to w. Close it to finish
// the archive; Close does not close w. A nil w (or one holding a nil
// pointer) gives a writer whose Add and Close return a *tensor.ArgError.
func NewNPZWriter(w io.Writer) *NPZWriter {
	if err := nilArgError("npy.NewNPZWriter", "w", w); err != nil {
		return &NPZWriter{err: err}
	}
	return &NPZWriter{zw: zip.NewWriter(w), names: map[string]bool{}}
}

// usable returns the *tensor.ArgError of a nil, zero or badly made writer.
func (w *NPZWriter) usable(fn string) error {
	switch {
	case w == nil:
		return &tensor.ArgError{Op: fn, Reason: "nil *NPZWriter"}
	case w.err != nil:
		return w.err
	case w.names == nil:
		return &tensor.ArgError{Op: fn, Reason: "zero NPZWriter (make one with NewNPZWriter)"}
	}
	return nil
}

// Add writes t as the array called name (entry name + ".npy"), as Write
// writes it. t must be a *tensor.Tensor of an element type with a NumPy
// dtype. Names must be unique and non-empty.
func (w *NPZWriter) Add(name string, t tensor.Any) error {
	if err := w.usable("npy.NPZWriter.Add"); err != nil {
		return err
	}
	switch {
	case w.zw == nil:
		return &ArchiveError{Name: name, Err: errors.New("writer is closed")}
	case name == "":
		return &ArchiveError{Name: name, Err: errors.New("empty array name")}
	case w.names[name]:
		return &ArchiveError{Name: name, Err: fs.ErrExist}
	}
	method := zip.Store
	if w.Compressed {
		method = zip.Deflate
	}
	ew, err := w.zw.CreateHeader(&zip.FileHeader{Name: name + ".npy", Method: method})
	if err != nil {
		return &ArchiveError{Name: name, Err: err}
	}
	w.names[name] = true
	if err := writeAny(ew, t); err != nil {
		return &ArchiveError{Name: name, Err: err}
	}
	return nil
}

// Close writes the archive's directory. It does not close the underlying
// writer. Closing a closed writer does nothing.
func (w *NPZWriter) Close() error {
	if err := w.usable("npy.NPZWriter.Close"); err != nil {
		return err
	}
	if w.zw == nil {
		return nil
	}
	err := w.zw.Close()
	w.zw = nil
	if err != nil {
		return &ArchiveError{Err: err}
	}
	return nil
}

// SaveNPZ writes arrays to the .npz file at path in name order, stored
// uncompressed as np.savez does. Like Save, it writes a temporary file and
// renames it, so a failed SaveNPZ leaves no partial archive at path.
func SaveNPZ(path string, arrays map[string]tensor.Any) error {
	return saveNPZ(path, arrays, false)
}

// SaveNPZCompressed is SaveNPZ with deflated entries, as
// np.savez_compressed writes them.
func SaveNPZCompressed(path string, arrays map[string]tensor.Any) error {
	return saveNPZ(path, arrays, true)
}

func saveNPZ(path string, arrays map[string]tensor.Any, compressed bool) error {
	return writeFileAtomic(path, func(f io.Writer) error {
		w := NewNPZWriter(f)
		w.Compressed = compressed
		for _, name := range slices.Sorted(maps.Keys(arrays)) {
			if err := w.Add(name, arrays[name]); err != nil {
				return err
			}
		}
		return w.Close()
	})
}
