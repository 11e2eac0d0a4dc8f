package npy

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/tensorplay/tensorplay/dtype"
)

// mapSupported says that files are mapped here.
const mapSupported = true

// mapFile maps the first size bytes of f, shared (writes reach the file),
// for reading or for reading and writing, and advises the kernel that they
// will be read in order (MADV_SEQUENTIAL: aggressive read-ahead, and pages
// behind the reader are the first to go).
func mapFile(f *os.File, size int, readOnly bool) ([]byte, error) {
	prot := unix.PROT_READ
	if !readOnly {
		prot |= unix.PROT_WRITE
	}
	mem, err := unix.Mmap(int(f.Fd()), 0, size, prot, unix.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	_ = unix.Madvise(mem, unix.MADV_SEQUENTIAL) // advice only: a kernel may refuse it
	return mem, nil
}

// unmapFile unmaps mem.
func unmapFile(mem []byte) error { return unix.Munmap(mem) }

// syncFile writes mem's dirty pages to the file and waits for them.
func syncFile(mem []byte) error { return unix.Msync(mem, unix.MS_SYNC) }

// releasePages drops the pages of m.mem[lo:hi] (page-aligned) from the
// process. For a writable mapping it first starts the write-back of the
// range (sync_file_range SYNC_FILE_RANGE_WRITE, the asynchronous msync
// that Linux's MS_ASYNC no longer is), so that dirty pages leave memory
// at the pace they are written instead of all at Flush; MADV_DONTNEED on
// a shared file mapping keeps their contents in the page cache, dirty or
// not.
func releasePages(m *mapping, lo, hi int) error {
	var err error
	if !m.readOnly {
		err = unix.SyncFileRange(int(m.f.Fd()), int64(lo), int64(hi-lo), unix.SYNC_FILE_RANGE_WRITE)
	}
	if e := unix.Madvise(m.mem[lo:hi], unix.MADV_DONTNEED); e != nil && err == nil {
		err = e
	}
	return err
}

// reserve gives f size bytes of data after its header, allocated on disk
// (fallocate), or where the file system cannot allocate ahead, as a hole
// (ftruncate).
func reserve(f *os.File, header, size int64) error {
	if size > 0 {
		err := unix.Fallocate(int(f.Fd()), 0, header, size)
		if err == nil {
			return nil
		}
		if err != unix.EOPNOTSUPP && err != unix.ENOSYS {
			return err
		}
	}
	return f.Truncate(header + size)
}

// elems is mem's first n elements of T, in place: the mapping's bytes are
// the tensor's storage. mem starts on a page plus the data offset, which
// openMapped checked is a multiple of T's size, and T holds no pointers.
func elems[T dtype.Elem](mem []byte, n int) []T {
	if n == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(mem))), n)
}

// elemSize is T's size in memory.
func elemSize[T dtype.Elem]() int { return int(unsafe.Sizeof(*new(T))) }
