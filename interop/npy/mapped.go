package npy

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// MapMode says how OpenMapped maps a file.
type MapMode int

const (
	// ReadOnly maps the file for reading: the tensor cannot be written
	// (Set and the executor refuse it with a *tensor.ReadOnlyError).
	ReadOnly MapMode = iota
	// ReadWrite maps the file for reading and writing: writes into the
	// tensor reach the file (Flush makes them durable).
	ReadWrite
)

// String returns "ReadOnly" or "ReadWrite".
func (m MapMode) String() string {
	switch m {
	case ReadOnly:
		return "ReadOnly"
	case ReadWrite:
		return "ReadWrite"
	}
	return fmt.Sprintf("MapMode(%d)", int(m))
}

// ErrMapUnsupported is the error of OpenMapped and CreateMapped on systems
// where this package cannot map files (every system but Linux): use Load and
// Save there.
var ErrMapUnsupported = errors.New("npy: memory-mapped arrays are not supported on " + runtime.GOOS + " (use Load and Save)")

// Mapped is a .npy file mapped into memory, and the tensor whose storage is
// the file's data: nothing is read or copied when it is opened, the pages
// are read from the file as they are first touched, and (in ReadWrite mode
// or from CreateMapped) written elements reach the file. numpy.memmap and
// numpy.lib.format.open_memmap are the NumPy equivalents.
//
// The tensor's Backing is the mapping: the executor reads and writes it in
// tile order and gives back the pages of ranges it has finished with
// (madvise MADV_DONTNEED, after starting the write-back of written ones),
// so that evaluating over a file larger than memory keeps only a few tiles
// of it resident (see docs/out-of-core.md). The mapping is advised
// MADV_SEQUENTIAL: read ahead, and drop pages behind.
//
// Close unmaps the file: the tensor and its views must not be used after
// it (their storage is gone, and touching it faults), nor may another
// program shrink the file while it is mapped. A Mapped that becomes
// unreachable without Close is unmapped by a cleanup; a slice taken from
// the tensor's Data() does not keep it reachable, a tensor or view does.
// Methods are safe for concurrent use, but Close must not run while the
// tensor is in use.
type Mapped[T dtype.Elem] struct {
	m *mapping
	t *tensor.Tensor[T]
	h Header
}

// Tensor returns the tensor over the mapped data: row-major for a C-ordered
// file, a column-major view (strides 1, d0, d0*d1, …) for a Fortran-ordered
// one, as Load gives.
func (a *Mapped[T]) Tensor() *tensor.Tensor[T] { return a.t }

// Header returns the file's header.
func (a *Mapped[T]) Header() Header { return a.h }

// Path returns the file's path.
func (a *Mapped[T]) Path() string { return a.m.path }

// Flush writes the mapped output's changed pages to the file and waits for
// them (msync MS_SYNC, then fsync), and reports every I/O error met since
// the last Flush, including those of the write-backs the executor started
// while releasing pages. For a ReadOnly mapping it only reports those
// errors. After Close it returns an error wrapping os.ErrClosed.
func (a *Mapped[T]) Flush() error { return a.m.flush() }

// Close flushes a writable mapping (as Flush does), unmaps the file and
// closes it, returning the first error of these. The tensor must not be
// used afterwards. Closing again returns nil.
func (a *Mapped[T]) Close() error { return a.m.close() }

// OpenMapped maps the .npy file at path as a tensor of T without reading
// its data. The header is validated as Load validates it, T must be the
// file's dtype (else a *DTypeError), and the file's size must be the
// header's plus the data's: a shorter file is a *TruncatedError, a longer
// one a *LengthError. Data that cannot be used in place is refused with a
// *HeaderError naming why: a byte order other than the machine's, bool
// arrays (a byte other than 0 or 1 is no Go bool), or data not aligned to
// its element size. Load reads all of these.
func OpenMapped[T dtype.Elem](path string, mode MapMode) (*Mapped[T], error) {
	var flag int
	switch mode {
	case ReadOnly:
		flag = os.O_RDONLY
	case ReadWrite:
		flag = os.O_RDWR
	default:
		return nil, &tensor.ArgError{Op: "npy.OpenMapped", Reason: fmt.Sprintf("unknown mode %v", mode)}
	}
	if err := mappable[T](); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return nil, err
	}
	a, err := openMapped[T](f, path, mode == ReadOnly)
	if err != nil {
		f.Close()
		return nil, err
	}
	return a, nil
}

// openMapped validates the open file f and maps it.
func openMapped[T dtype.Elem](f *os.File, path string, readOnly bool) (*Mapped[T], error) {
	hr, err := readFileHeader(f)
	if err != nil {
		return nil, err
	}
	h := hr.Header
	if want := dtype.Of[T](); want != h.DType {
		return nil, &DTypeError{File: h.DType, Want: want, Elem: fmt.Sprintf("%T", *new(T))}
	}
	if h.DType.Size() > 1 && h.ByteOrder != nativeOrder {
		return nil, &HeaderError{Field: "descr", Value: "'" + formatDescr(h.DType, h.ByteOrder) + "'",
			Reason: "data in the other byte order than this machine's cannot be mapped (Load converts it)"}
	}
	dataOff, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	switch avail := fi.Size() - dataOff; {
	case avail < hr.size:
		return nil, &TruncatedError{Section: "data", Want: hr.size, Got: avail}
	case avail > hr.size:
		return nil, &LengthError{Shape: h.Shape, DType: h.DType, Want: hr.size, Got: avail}
	}
	if dataOff%int64(h.DType.Size()) != 0 {
		return nil, &HeaderError{Field: "header length", Value: fmt.Sprint(dataOff),
			Reason: fmt.Sprintf("the data starts at byte %d, not aligned to its %d-byte elements, and cannot be mapped (Load reads it)", dataOff, h.DType.Size())}
	}
	return mapOpen[T](f, path, h, int(dataOff), int(hr.size), readOnly)
}

// CreateMapped creates (or truncates) the .npy file at path for an array of
// T of the given shape, in C order and the machine's byte order, its data
// zero, and maps it for writing: what numpy.lib.format.open_memmap(path,
// mode="w+") makes. The file's space is reserved on disk first, so a full
// disk is an error here rather than a fault on a later write. Write the
// tensor (exec.EvalTo writes a mapped output in tile order), then Flush or
// Close.
func CreateMapped[T dtype.Elem](path string, shape ...int) (*Mapped[T], error) {
	if err := mappable[T](); err != nil {
		return nil, err
	}
	s := tensor.Shape(shape).Clone()
	n, err := s.Numel()
	if err != nil {
		return nil, err
	}
	d := dtype.Of[T]()
	if n > maxInt/d.Size() {
		return nil, &tensor.ShapeError{Shape: s, Axis: -1, Reason: "the data size overflows int"}
	}
	hdr := appendHeader(nil, d, s, false, nativeOrder)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	fail := func(step string, err error) (*Mapped[T], error) {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("npy: create %s: %s: %w", path, step, unwrapPath(err))
	}
	if _, err := f.Write(hdr); err != nil {
		return fail("write header", err)
	}
	size := n * d.Size()
	if err := reserve(f, int64(len(hdr)), int64(size)); err != nil {
		return fail("reserve space", err)
	}
	h := Header{DType: d, Shape: s, ByteOrder: nativeOrder}
	a, err := mapOpen[T](f, path, h, len(hdr), size, false)
	if err != nil {
		return fail("map", err)
	}
	return a, nil
}

// mappable reports whether tensors of T can be mapped at all.
func mappable[T dtype.Elem]() error {
	d := dtype.Of[T]()
	switch {
	case !mapSupported:
		return ErrMapUnsupported
	case d == dtype.Invalid:
		return &DTypeError{Want: d, Elem: fmt.Sprintf("%T", *new(T))}
	case d == dtype.Bool:
		return &HeaderError{Field: "descr", Value: "'|b1'", Reason: "bool arrays cannot be mapped: a byte other than 0 or 1 is no Go bool (Load reads them)"}
	case elemSize[T]() != d.Size():
		return &DTypeError{Want: d, Elem: fmt.Sprintf("%T (%d bytes here, %d in the file)", *new(T), elemSize[T](), d.Size())}
	}
	return nil
}

// mapOpen maps f, whose data of size bytes starts at dataOff, and wraps it.
func mapOpen[T dtype.Elem](f *os.File, path string, h Header, dataOff, size int, readOnly bool) (*Mapped[T], error) {
	mem, err := mapFile(f, dataOff+size, readOnly)
	if err != nil {
		return nil, fmt.Errorf("npy: map %s: %w", path, err)
	}
	m := &mapping{f: f, path: path, mem: mem, dataOff: dataOff, elemSize: h.DType.Size(), readOnly: readOnly}
	m.cleanup = runtime.AddCleanup(m, func(mem []byte) { _ = unmapFile(mem) }, mem)
	data := elems[T](mem[dataOff:], size/h.DType.Size())
	t, err := mappedLayout(data, m, h)
	if err != nil {
		m.close()
		return nil, err
	}
	return &Mapped[T]{m: m, t: t, h: h}, nil
}

// mappedLayout is layout for mapped data: a row-major tensor, or for a
// Fortran-ordered file of rank 2 or more the transposed view of the
// row-major tensor of the reversed shape.
func mappedLayout[T dtype.Elem](data []T, m *mapping, h Header) (*tensor.Tensor[T], error) {
	if !h.Fortran || len(h.Shape) < 2 {
		return tensor.FromBacking(data, m, h.Shape...)
	}
	r := len(h.Shape)
	rev, axes := make([]int, r), make([]int, r)
	for i, d := range h.Shape {
		rev[r-1-i], axes[i] = d, r-1-i
	}
	t, err := tensor.FromBacking(data, m, rev...)
	if err != nil {
		return nil, err
	}
	return t.Permute(axes...)
}

// mapping is a mapped .npy file: the tensor.Backing of a Mapped tensor,
// and the exec.RangeReleaser through which the executor releases its pages.
type mapping struct {
	f        *os.File
	path     string
	mem      []byte // the whole file, header included
	dataOff  int    // where the data starts in mem
	elemSize int
	readOnly bool
	cleanup  runtime.Cleanup

	mu     sync.Mutex
	err    error // the first I/O error of a release since the last flush
	closed bool
}

// ReadOnly reports whether the file is mapped for reading only.
func (m *mapping) ReadOnly() bool { return m.readOnly }

// ReleaseRange tells the kernel that elements [off, off+n) of the data
// will not be needed soon: the whole pages inside them are dropped from
// the process (MADV_DONTNEED), after the write-back of a writable
// mapping's pages has been started, so they stay in the file and the page
// cache but no longer count against the process. Touching them again reads
// them back. An I/O error is kept for Flush and Close to report.
func (m *mapping) ReleaseRange(off, n int) {
	if n <= 0 || off < 0 {
		return
	}
	lo := m.dataOff + off*m.elemSize
	hi := min(len(m.mem), lo+n*m.elemSize)
	lo = (lo + pageSize - 1) &^ (pageSize - 1)
	hi &^= pageSize - 1
	if hi <= lo {
		return
	}
	if err := releasePages(m, lo, hi); err != nil {
		m.mu.Lock()
		if m.err == nil {
			m.err = fmt.Errorf("npy: release pages of %s: %w", m.path, err)
		}
		m.mu.Unlock()
	}
}

// flush syncs a writable mapping and returns the first error since the
// last flush.
func (m *mapping) flush() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return fmt.Errorf("npy: flush %s: %w", m.path, os.ErrClosed)
	}
	err := m.err
	m.err = nil
	if !m.readOnly {
		if e := syncFile(m.mem); e != nil && err == nil {
			err = fmt.Errorf("npy: flush %s: msync: %w", m.path, e)
		}
		if e := m.f.Sync(); e != nil && err == nil {
			err = fmt.Errorf("npy: flush %s: fsync: %w", m.path, unwrapPath(e))
		}
	}
	return err
}

// close flushes, unmaps and closes the file, once.
func (m *mapping) close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.mu.Unlock()
	err := m.flush()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	m.cleanup.Stop()
	if e := unmapFile(m.mem); e != nil && err == nil {
		err = fmt.Errorf("npy: close %s: munmap: %w", m.path, e)
	}
	m.mem = nil
	if e := m.f.Close(); e != nil && err == nil {
		err = fmt.Errorf("npy: close %s: %w", m.path, unwrapPath(e))
	}
	return err
}

// unwrapPath returns a *fs.PathError's cause, so that messages name the
// .npy path once.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// pageSize is the granularity of madvise.
var pageSize = os.Getpagesize()
