package tensor

import (
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tensorplay/tensorplay/dtype"
)

// Large storage can be backed by transparent huge pages, as NumPy's and
// PyTorch's allocators do: with SetHugePages(true) (or TENSORPLAY_HUGEPAGES=1
// in the environment), every allocation of hugePageMin bytes or more asks
// the kernel for them (madvise MADV_HUGEPAGE on Linux). A 2 MiB page takes
// one TLB entry where 4 KiB pages take 512, and one page fault where they
// take 512. Reads that jump between rows gain most: a + b.T on 3162²
// float64 (1e7 elements) ran 1.1–1.2x faster, contiguous a + b 1.03–1.17x,
// and an allocating Eval of a + b 1.1–1.3x (BenchmarkHugePages in exec, and
// round-robin runs in one process).
//
// It is off by default, as PyTorch's THP_MEM_ALLOC_ENABLE is, because the
// storage is Go heap memory: the advice stays on that memory after the
// tensor is collected and Go reuses it for anything, each advised range
// is a mapping of its own, and with the kernel's default defrag setting a
// page fault there may wait for memory to be compacted. Go's runtime stopped
// advising its heap for those reasons (since Go 1.21.4), and
// GODEBUG=disablethp=1 keeps the advice off here too.
//
// The advice covers the whole pages inside the allocation, so it never
// reaches memory the tensor does not own.

// hugePageMin is the smallest allocation that asks for huge pages: NumPy's
// threshold (4 MiB), two huge pages, at least one of them wholly inside.
const hugePageMin = 4 << 20

// maxElemSize is the widest element (complex128): a slice of fewer than
// hugePageMin/maxElemSize elements is never advised, whatever its type.
const maxElemSize = 16

// pageSize is the granularity of madvise: the system's page size.
var pageSize = uintptr(os.Getpagesize())

// hugePages holds whether alloc asks for huge pages.
var hugePages atomic.Bool

// hugePagesSupported says whether this system can give huge pages at all:
// Linux with transparent huge pages not "never", and GODEBUG without
// disablethp=1. It reads the kernel's mode the first time it is asked, not
// in every program that imports the package.
var hugePagesSupported = sync.OnceValue(func() bool {
	return hugePagesAvailable(TransparentHugePages(), os.Getenv("GODEBUG"))
})

func init() { hugePages.Store(hugePagesByDefault(os.Getenv("TENSORPLAY_HUGEPAGES"))) }

// hugePagesByDefault is the setting at start, given TENSORPLAY_HUGEPAGES:
// on where the system has huge pages and the variable is "1".
func hugePagesByDefault(env string) bool { return env == "1" && hugePagesSupported() }

// hugePagesAvailable reports whether huge pages can be had, given the
// kernel's transparent huge page mode ("" where there is none) and GODEBUG.
func hugePagesAvailable(mode, godebug string) bool {
	if mode == "" || mode == "never" {
		return false
	}
	for _, kv := range strings.Split(godebug, ",") {
		if strings.TrimSpace(kv) == "disablethp=1" {
			return false
		}
	}
	return true
}

// TransparentHugePages returns the kernel's transparent huge page mode:
// "always" (every large enough anonymous mapping gets them, advised or
// not), "madvise" (only advised memory: what SetHugePages changes), "never",
// or "" where the system has none. It is read once.
func TransparentHugePages() string { return thp() }

// thp is the kernel's mode, read the first time it is asked.
var thp = sync.OnceValue(thpMode)

// HugePages reports whether storage of 4 MiB or more is allocated on
// transparent huge pages (see SetHugePages).
func HugePages() bool { return hugePages.Load() }

// SetHugePages turns on or off the huge-page advice for storage of 4 MiB or
// more that constructors, copies, decoding and evaluations allocate from now
// on, and returns the previous setting. It is off by default;
// TENSORPLAY_HUGEPAGES=1 in the environment turns it on at start. It stays
// off where the system has no transparent huge pages (not Linux, the
// kernel's mode "never", or GODEBUG=disablethp=1), and after the kernel
// refused the advice. Safe for concurrent use.
func SetHugePages(on bool) (was bool) {
	return hugePages.Swap(on && hugePagesSupported())
}

// adviseHuge asks the kernel to back the pages from addr, n bytes, with huge
// pages; a variable so that tests can watch the calls.
var adviseHuge = madviseHuge

// alloc returns n zeroed elements: make, and for large storage the advice
// to back it with huge pages. The advice is given before any element is
// written, so that the first writes fault in huge pages directly.
func alloc[T dtype.Elem](n int) []T {
	s := make([]T, n)
	if n >= hugePageMin/maxElemSize && hugePages.Load() {
		if bytes := n * int(reflect.TypeFor[T]().Size()); bytes >= hugePageMin {
			advise(s, bytes)
		}
	}
	return s
}

// advise gives s's whole pages, bytes long from its start, the huge-page
// advice. reflect gives the address without unsafe; Go's collector does not
// move heap objects, and the kernel only records the advice on the range.
// A kernel that refuses it (no transparent huge pages, or a sandbox that
// forbids madvise) turns the advice off; a passing shortage does not.
func advise(s any, bytes int) {
	addr := reflect.ValueOf(s).Pointer()
	start := (addr + pageSize - 1) &^ (pageSize - 1)
	end := (addr + uintptr(bytes)) &^ (pageSize - 1)
	if end <= start {
		return
	}
	if err := adviseHuge(start, end-start); err != nil && !transient(err) {
		hugePages.Store(false)
	}
}
