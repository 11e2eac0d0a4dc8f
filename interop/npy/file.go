package npy

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Load reads the .npy file at path into a Tensor[T] as Read does. The file
// must hold exactly one array: data past it is a *LengthError, and an empty
// file is a *TruncatedError.
func Load[T dtype.Elem](path string) (*tensor.Tensor[T], error) {
	return loadFile(path, decode[T])
}

// LoadConvert reads the .npy file at path into a Tensor[T], converting as
// ReadConvert does.
func LoadConvert[T dtype.Elem](path string) (*tensor.Tensor[T], error) {
	return loadFile(path, decodeConvert[T])
}

// LoadAny reads the .npy file at path into a tensor of the file's dtype, as
// ReadAny does.
func LoadAny(path string) (tensor.Any, error) {
	return loadFile(path, decodeAny)
}

// LoadHeader reads only the header of the .npy file at path: its dtype,
// shape, memory order and byte order, for choosing T before Load[T].
func LoadHeader(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	hr, err := readFileHeader(f)
	if err != nil {
		return Header{}, err
	}
	return hr.Header, nil
}

// readFileHeader is readHeader for input that must hold an array: an empty
// file is truncated, not the clean end of a stream.
func readFileHeader(r io.Reader) (*headerReader, error) {
	hr, err := readHeader(r)
	if err == io.EOF {
		return nil, &TruncatedError{Section: "header", Want: 10}
	}
	return hr, err
}

// loadFile opens path and decodes the one array it holds.
func loadFile[R any](path string, dec func(*headerReader, io.Reader) (R, error)) (R, error) {
	var zero R
	f, err := os.Open(path)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	return decodeWhole(f, dec)
}

// decodeWhole decodes the single array r must hold from start to end.
func decodeWhole[R any](r io.Reader, dec func(*headerReader, io.Reader) (R, error)) (R, error) {
	var zero R
	hr, err := readFileHeader(r)
	if err != nil {
		return zero, err
	}
	t, err := dec(hr, r)
	if err != nil {
		return zero, err
	}
	if err := checkEnd(hr, r); err != nil {
		return zero, err
	}
	return t, nil
}

// Save writes t to the .npy file at path as Write does. The file appears
// whole or not at all: the array is written to a temporary file in the same
// directory, which is renamed to path only once it is complete, so a failed
// Save leaves any previous file at path as it was.
func Save[T dtype.Elem](path string, t *tensor.Tensor[T]) error {
	if err := tensorArgError("npy.Save", t); err != nil {
		return err
	}
	return writeFileAtomic(path, func(w io.Writer) error { return Write(w, t) })
}

// writeFileAtomic runs write on a buffered temporary file next to path and
// renames it to path if write and the flush, sync and close all succeed;
// otherwise it removes the temporary file. A new file gets mode 0644; a
// replaced one keeps its mode. A file system error names path, not the
// temporary file, and wraps its cause (see saveError).
func writeFileAtomic(path string, write func(io.Writer) error) (err error) {
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return saveError(path, "create temporary file", err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return saveError(path, "write", err)
	}
	if err := bw.Flush(); err != nil {
		return saveError(path, "write", err)
	}
	if err := f.Chmod(mode); err != nil {
		return saveError(path, "chmod", err)
	}
	if err := f.Sync(); err != nil {
		return saveError(path, "sync", err)
	}
	if err := f.Close(); err != nil {
		return saveError(path, "close", err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return saveError(path, "rename temporary file", err)
	}
	return nil
}

// saveError returns a file system error met while saving to path as
// "npy: save path: step: cause", wrapping the cause (a syscall.Errno, so
// errors.Is(err, fs.ErrNotExist) holds) with the temporary file's name taken
// out. Other errors (this package's, or write's) are returned as they are.
func saveError(path, step string, err error) error {
	switch e := err.(type) {
	case *fs.PathError:
		err = e.Err
	case *os.LinkError:
		err = e.Err
	default:
		return err
	}
	return fmt.Errorf("npy: save %s: %s: %w", path, step, err)
}
