package exec_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/tensor"
)

// The naive reference evaluator of FuzzGraph. It knows nothing of package
// exec: a value is a shape and its elements in row-major order, and every
// op is a loop over the logical indices of its result, written from the
// documented semantics (docs/expressions.md, docs/reductions.md), which are
// NumPy's unless the docs say otherwise. Values are []T for the element
// types the fuzzer uses: float64, float32, int64, int32, uint8 and bool.

// rval is a reference value: shape and row-major elements ([]T).
type rval struct {
	shape tensor.Shape
	data  any
}

func numelOf(s tensor.Shape) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// rowStrides returns the row-major strides of s.
func rowStrides(s tensor.Shape) []int {
	st := make([]int, len(s))
	acc := 1
	for i := len(s) - 1; i >= 0; i-- {
		st[i] = acc
		acc *= s[i]
	}
	return st
}

// forEachIndex calls f for every index of s in row-major order.
func forEachIndex(s tensor.Shape, f func(flat int, idx []int)) {
	n := numelOf(s)
	idx := make([]int, len(s))
	for flat := range n {
		f(flat, idx)
		for k := len(idx) - 1; k >= 0; k-- {
			idx[k]++
			if idx[k] < s[k] {
				break
			}
			idx[k] = 0
		}
	}
}

// refBroadcast is NumPy's rule: align on the right; per axis the extents
// other than 1 must agree (0 included), and the result takes them.
func refBroadcast(shapes ...tensor.Shape) (tensor.Shape, bool) {
	rank := 0
	for _, s := range shapes {
		rank = max(rank, len(s))
	}
	out := make(tensor.Shape, rank)
	for i := range out {
		out[i] = 1
		for _, s := range shapes {
			j := i - (rank - len(s))
			if j < 0 || s[j] == 1 {
				continue
			}
			if out[i] != 1 && out[i] != s[j] {
				return nil, false
			}
			out[i] = s[j]
		}
	}
	return out, true
}

// bcastMap gives, for each element of out, the flat index of the element
// of an operand of shape in that broadcasting reads.
func bcastMap(out, in tensor.Shape) []int {
	st := rowStrides(in)
	pad := len(out) - len(in)
	m := make([]int, numelOf(out))
	forEachIndex(out, func(i int, idx []int) {
		j := 0
		for k := range in {
			if in[k] != 1 {
				j += idx[pad+k] * st[k]
			}
		}
		m[i] = j
	})
	return m
}

// gatherView reads the elements of a strided view of data, row-major.
func gatherView[T any](data []T, off int, shape tensor.Shape, strides []int) []T {
	out := make([]T, numelOf(shape))
	forEachIndex(shape, func(i int, idx []int) {
		a := off
		for k, x := range idx {
			a += x * strides[k]
		}
		out[i] = data[a]
	})
	return out
}

// viewAddrs returns the storage index of every element of a view, row-major.
func viewAddrs(off int, shape tensor.Shape, strides []int) []int {
	out := make([]int, numelOf(shape))
	forEachIndex(shape, func(i int, idx []int) {
		a := off
		for k, x := range idx {
			a += x * strides[k]
		}
		out[i] = a
	})
	return out
}

// remap returns out[i] = data[m[i]], or the zero value where m[i] < 0: every
// shape op (permute, expand, slice, reshape, embed) is such a map.
func remap(data any, m []int) any {
	switch d := data.(type) {
	case []float64:
		return remapT(d, m)
	case []float32:
		return remapT(d, m)
	case []int64:
		return remapT(d, m)
	case []int32:
		return remapT(d, m)
	case []uint8:
		return remapT(d, m)
	case []bool:
		return remapT(d, m)
	}
	panic(fmt.Sprintf("remap %T", data))
}

func remapT[T any](d []T, m []int) []T {
	out := make([]T, len(m))
	for i, j := range m {
		if j >= 0 {
			out[i] = d[j]
		}
	}
	return out
}
