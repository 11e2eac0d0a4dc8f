package tensor

import (
	"os"
	"reflect"
	"sync/atomic"

	"github.com/tensorplay/tensorplay/dtype"
)

// Large storage is backed by transparent huge pages where the kernel allows
// it, as NumPy does: alloc asks for them (madvise MADV_HUGEPAGE on Linux)
// for every allocation of hugePageMin bytes or more. A 2 MiB page takes one
// TLB entry where 4 KiB pages take 512, and one page-table walk where they
// take 512 page faults. Reads that jump between rows gain most: a + b.T on
// 3162² float64 (1e7 elements) ran 1.1–1.2x faster, and contiguous a + b
// 1.0–1.17x (BenchmarkHugePages in exec; the machine's memory was at its
// fastest where the gain was largest).
//
// The advice covers the whole pages inside the allocation, so it never
// reaches memory the tensor does not own, and it stays on that memory after
// the tensor is collected and Go reuses it (madvise has no undo that would
// not split the heap's mappings further; Go's own heap took the same course
// after 1.21). SetHugePages(false), or TENSORPLAY_HUGEPAGES=0 in the
// environment, turns it off; on other systems, and where the kernel has no
// transparent huge pages, it is off.

// hugePageMin is the smallest allocation that asks for huge pages: NumPy's
// threshold (4 MiB), two huge pages, at least one of them wholly inside.
const hugePageMin = 4 << 20

// pageSize is the granularity of madvise.
const pageSize = 4096

// hugePages holds whether alloc asks for huge pages.
var hugePages atomic.Bool

func init() { hugePages.Store(hugePagesByDefault(os.Getenv("TENSORPLAY_HUGEPAGES"))) }

// hugePagesByDefault is the setting at start, given TENSORPLAY_HUGEPAGES:
// on where the system has huge pages, unless the variable is "0".
func hugePagesByDefault(env string) bool { return hugePagesSupported && env != "0" }

// HugePages reports whether tensors of 4 MiB or more are allocated on
// transparent huge pages (see SetHugePages).
func HugePages() bool { return hugePages.Load() }

// SetHugePages turns on or off the huge-page advice for storage of 4 MiB or
// more that constructors, copies and evaluations allocate from now on, and
// returns the previous setting. It is on by default on Linux, as NumPy's
// madvise_hugepage is; TENSORPLAY_HUGEPAGES=0 in the environment turns it
// off at start. Where the system has no transparent huge pages it stays off.
// Safe for concurrent use.
func SetHugePages(on bool) (was bool) {
	return hugePages.Swap(on && hugePagesSupported)
}

// adviseHuge asks the kernel to back the pages from addr, n bytes, with huge
// pages; a variable so that tests can watch the calls.
var adviseHuge = madviseHuge

// alloc returns n zeroed elements: make, and for large storage the advice
// to back it with huge pages. The advice is given before any element is
// written, so that the first writes fault in huge pages directly.
func alloc[T dtype.Elem](n int) []T {
	s := make([]T, n)
	if hugePages.Load() && n*dtype.Of[T]().Size() >= hugePageMin {
		advise(s, n*dtype.Of[T]().Size())
	}
	return s
}

// advise gives s's whole pages, bytes long from its start, the huge-page
// advice. reflect gives the address without unsafe; Go's collector does not
// move heap objects, and the kernel only records the advice on the range.
// A kernel without transparent huge pages refuses it once, and the advice is
// then off.
func advise(s any, bytes int) {
	addr := reflect.ValueOf(s).Pointer()
	start := (addr + pageSize - 1) &^ (pageSize - 1)
	end := (addr + uintptr(bytes)) &^ (pageSize - 1)
	if end <= start {
		return
	}
	if err := adviseHuge(start, end-start); err != nil {
		hugePages.Store(false)
	}
}
