package exec

import (
	"math/bits"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
)

// selectKth reorders s (which holds no NaN) so that s[k] is the element a
// sort would put there, every element before it no larger and every one
// after it no smaller, and returns s[k]. It is introselect: quickselect
// with a median-of-three pivot and a three-way partition (so runs of equal
// values cost one pass), falling back to a sort of what is left after
// 2·log2(n) partitions that did not find k, which bounds it by O(n log n)
// where quickselect alone would be quadratic.
func selectKth[T dtype.Real](s []T, k int) T {
	lo, hi := 0, len(s)
	budget := 2 * bits.Len(uint(len(s)))
	for hi-lo > 16 {
		if budget == 0 {
			slices.Sort(s[lo:hi])
			return s[k]
		}
		budget--
		a := s[lo:hi]
		p := medianOf3(a[0], a[len(a)/2], a[len(a)-1])
		lt, gt := partition3(a, p)
		switch {
		case k < lo+lt:
			hi = lo + lt
		case k >= lo+gt:
			lo += gt
		default:
			return p
		}
	}
	for i := lo + 1; i < hi; i++ { // insertion sort of the last few
		for j := i; j > lo && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[k]
}

func medianOf3[T dtype.Real](a, b, c T) T {
	if a > b {
		a, b = b, a
	}
	if b > c {
		b = c
	}
	return max(a, b)
}

// partition3 reorders a into the elements below p, those equal to it and
// those above it, and returns where the equal ones start and end.
func partition3[T dtype.Real](a []T, p T) (lt, gt int) {
	i, gt := 0, len(a)
	for i < gt {
		switch v := a[i]; {
		case v < p:
			a[lt], a[i] = v, a[lt]
			lt++
			i++
		case v > p:
			gt--
			a[gt], a[i] = v, a[gt]
		default:
			i++
		}
	}
	return lt, gt
}
