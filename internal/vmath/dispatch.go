package vmath

import (
	"unsafe"

	"github.com/tensorplay/tensorplay/dtype"
)

// A block kernel is a Go loop that handles every argument, and, where the
// CPU has them, a vector loop (vec) that takes groups of lanes from the
// start for as long as every lane of a group is on the fast path and
// returns how many elements it wrote. The Go loop then takes one group and
// hands back to the vector loop, so that the results are the vector
// loop's on the fast path and the Go loop's elsewhere — the same bits,
// since both do the same operations. Where vec is an AVX-512 loop, half is
// the AVX2 loop of half its lanes, which takes the groups vec leaves
// before the Go loop does: a length's last 8 to 15 float32 elements (4 to
// 7 float64), or the half on the fast path of a group that is not.
type kernel[T float32 | float64] struct {
	vec   func(d, a []T) int
	half  func(d, a []T) int
	goFn  func(d, a []T)
	lanes int
}

func (k *kernel[T]) run(d, a []T) {
	a = a[:len(d)]
	if k.vec == nil {
		k.goFn(d, a)
		return
	}
	for i := 0; i < len(d); {
		i += k.vec(d[i:], a[i:])
		if k.half != nil && i < len(d) {
			i += k.half(d[i:], a[i:])
		}
		end := min(i+k.lanes, len(d))
		k.goFn(d[i:end], a[i:end])
		i = end
	}
}

// The kernels; vector loops are filled in by init on CPUs that have them.
var (
	exp32K = kernel[float32]{goFn: exp32Go, lanes: 8}
	log32K = kernel[float32]{goFn: log32Go, lanes: 8}
	sin32K = kernel[float32]{goFn: sin32Go, lanes: 8}
	cos32K = kernel[float32]{goFn: cos32Go, lanes: 8}
	exp64K = kernel[float64]{goFn: exp64, lanes: 4}
	log64K = kernel[float64]{goFn: log64Go, lanes: 4}
	sin64K = kernel[float64]{goFn: sin64, lanes: 4}
	cos64K = kernel[float64]{goFn: cos64, lanes: 4}

	tanh32K    = kernel[float32]{goFn: tanh32Go, lanes: 8}
	tanh64K    = kernel[float64]{goFn: tanh64Go, lanes: 4}
	sigmoid32K = kernel[float32]{goFn: sigmoid32Go, lanes: 8}
	sigmoid64K = kernel[float64]{goFn: sigmoid64Go, lanes: 4}
)

// call runs k32 or k64 on d and a, as T's size says (T's underlying type is
// float32 or float64, so the slices are reinterpreted in place).
func call[T dtype.Float](d, a []T, k32 *kernel[float32], k64 *kernel[float64]) {
	a = a[:len(d)]
	if unsafe.Sizeof(*new(T)) == 4 {
		k32.run(as[float32](d), as[float32](a))
		return
	}
	k64.run(as[float64](d), as[float64](a))
}

// as reinterprets s, whose elements have U as their underlying type.
func as[U, T dtype.Float](s []T) []U {
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}
