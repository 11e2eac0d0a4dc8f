package tensor

import (
	"io/fs"
	"math"
	"math/bits"
	"os"
	"path"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tensorplay/tensorplay/dtype"
)

// Every allocation the package makes (constructors, copies, decoding, and
// the buffers exec allocates through CheckAlloc) is checked against a
// memory limit first, so that a request larger than the machine is an
// *AllocError rather than the runtime's unrecoverable "fatal error: out of
// memory". The limit bounds each allocation, not their sum: it catches the
// request that can never succeed, not a machine slowly filling up.
//
// By default the limit is the machine's memory: the physical memory, or the
// memory limit of the process's cgroup when that is lower (cgroup v2
// memory.max, or v1 memory.limit_in_bytes, of the process's cgroup and its
// ancestors). It is found once, the first time it is needed. Where it
// cannot be found (other systems than Linux) it is maxAllocBytes.

// maxAllocBytes bounds one allocation whatever the limit: past it make would
// panic ("len out of range") instead of the constructor returning an error.
// On 32-bit platforms it is half the address space.
const maxAllocBytes = min(1<<46, math.MaxInt>>1)

// memLimit is the limit SetMemoryLimit set, or 0 for the machine's.
var memLimit atomic.Int64

// machineLimit is the default limit, found on first use.
var machineLimit = sync.OnceValue(func() int64 {
	return defaultLimit(physicalMemory(), cgroupLimit(os.DirFS("/")))
})

// MemoryLimit returns the number of bytes one allocation of tensor storage
// may take: the value SetMemoryLimit set, or by default the machine's
// memory (physical memory, or the cgroup's memory limit when there is a
// lower one; 64 TiB where neither can be read). It is never more than
// 64 TiB (half the address space on 32-bit platforms). Safe for concurrent
// use.
func MemoryLimit() int64 { return effectiveLimit(memLimit.Load()) }

// SetMemoryLimit sets the number of bytes one allocation of tensor storage
// may take and returns the previous limit (as MemoryLimit reported it). A
// limit of 0 or less restores the default, the machine's memory. Requests
// over the limit fail with an *AllocError before anything is allocated; a
// limit above 64 TiB (half the address space on 32-bit platforms) acts as
// that. Safe for concurrent use.
func SetMemoryLimit(bytes int64) (previous int64) {
	return effectiveLimit(memLimit.Swap(max(bytes, 0)))
}

// effectiveLimit is the limit in force when memLimit holds set.
func effectiveLimit(set int64) int64 {
	if set <= 0 {
		return machineLimit()
	}
	return min(set, maxAllocBytes)
}

// CheckAlloc reports whether storage for a tensor of the given dtype and
// shape may be allocated: a *ShapeError when the shape is invalid (see
// Shape.Numel), an *AllocError when its bytes are more than MemoryLimit,
// else nil. Every constructor and copy in this package checks it before it
// allocates; packages that allocate tensor storage themselves (exec's
// buffers) call it first. An invalid dtype counts 16 bytes an element, the
// widest.
func CheckAlloc(dt dtype.DType, shape Shape) error {
	n, err := shape.Numel()
	if err != nil {
		return err
	}
	size := dt.Size()
	if size == 0 {
		size = 16
	}
	return checkBytes(dt, shape, n, size)
}

// checkAlloc is CheckAlloc for n elements of T, whose count s has already
// been checked.
func checkAlloc[T dtype.Elem](s Shape, n int) error {
	return checkBytes(dtype.Of[T](), s, n, int(reflect.TypeFor[T]().Size()))
}

// checkBytes reports an *AllocError when n elements of size bytes are more
// than the limit.
func checkBytes(dt dtype.DType, s Shape, n, size int) error {
	limit := MemoryLimit()
	hi, lo := bits.Mul64(uint64(n), uint64(size))
	if hi == 0 && lo <= uint64(limit) {
		return nil
	}
	bytes := int64(math.MaxInt64)
	if hi == 0 && lo <= math.MaxInt64 {
		bytes = int64(lo)
	}
	return &AllocError{Bytes: bytes, Limit: limit, Shape: s.Clone(), DType: dt}
}

// defaultLimit is the default memory limit given the physical memory and
// the cgroup's limit in bytes (each 0 when unknown).
func defaultLimit(physical, cgroup int64) int64 {
	limit := int64(maxAllocBytes)
	if physical > 0 {
		limit = min(limit, physical)
	}
	if cgroup > 0 {
		limit = min(limit, cgroup)
	}
	return limit
}

// cgroupLimit returns the lowest memory limit, in bytes, set on the cgroup
// of this process or any of its ancestors, read from fsys (the root file
// system), or 0 when there is none. It knows cgroup v2 (the unified
// hierarchy, mounted at /sys/fs/cgroup or /sys/fs/cgroup/unified, its
// limit in memory.max) and v1 (the memory controller at
// /sys/fs/cgroup/memory, memory.limit_in_bytes). "max" and values of 2^62
// or more (v1 writes "no limit" as about 2^63) are no limit.
func cgroupLimit(fsys fs.FS) int64 {
	b, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return 0
	}
	var limit int64
	// lower takes the limit file of the cgroup at p under the hierarchy
	// mounted at root, and of each of its ancestors up to root.
	lower := func(root, p, file string) {
		for dir := path.Join(root, p); ; dir = path.Dir(dir) {
			if v := readLimit(fsys, path.Join(dir, file)); v > 0 && (limit == 0 || v < limit) {
				limit = v
			}
			if dir == root || !strings.HasPrefix(dir, root+"/") {
				return
			}
		}
	}
	for _, line := range strings.Split(string(b), "\n") {
		// Each line is hierarchy-ID:controllers:path.
		fields := strings.SplitN(line, ":", 3)
		if len(fields) != 3 {
			continue
		}
		p := strings.Trim(path.Clean("/"+fields[2]), "/")
		switch {
		case fields[0] == "0" && fields[1] == "":
			lower("sys/fs/cgroup", p, "memory.max")
			lower("sys/fs/cgroup/unified", p, "memory.max")
		case hasController(fields[1], "memory"):
			lower("sys/fs/cgroup/memory", p, "memory.limit_in_bytes")
		}
	}
	return limit
}

// hasController reports whether the comma-separated list names c.
func hasController(list, c string) bool {
	for _, x := range strings.Split(list, ",") {
		if x == c {
			return true
		}
	}
	return false
}

// readLimit reads a cgroup memory limit file: the limit in bytes, or 0
// when the file is missing, says "max", or holds no plausible limit.
func readLimit(fsys fs.FS, name string) int64 {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return 0
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil || v <= 0 || v >= 1<<62 {
		return 0
	}
	return v
}
