package vmath

import (
	"unsafe"

	"github.com/tensorplay/tensorplay/dtype"
)

// Leaf sums: the lane folds of a run of whole leaves at once. A leaf is
// LeafLen consecutive elements (package exec's reduceLeaf; the last leaf
// of a run may be shorter); its elements fold into eight lanes from zero,
// element i into lane i%8 as in the lane folds, and its total is
// ((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7)). The AVX2 loops fold eight
// float32 leaves (four float64) a call, one after another, and the
// float64 AVX-512 sum every whole leaf of the call with its totals, so
// that each lane's adds, a chain within one leaf, overlap with the next
// leaves' instead of waiting on each other's latency: the same operations
// in the same order per leaf, so the same bits as one leaf at a time and
// as the Go loops (NaN payloads aside: which of two NaNs an add keeps is
// not pinned, as Go's compiler may commute an add's operands).

// LeafLen is the elements of a leaf.
const LeafLen = 128

// SumLeaves sets t[j] to the total of leaf j of a's sums (len(t) >= the
// leaves of a).
func SumLeaves[T dtype.Float](t, a []T) { leaves(foldSum, t, a, 0, nil) }

// SqDevLeaves sets t[j] to the total of leaf j of a's squared deviations
// from k, (a[i]-k)², the difference and the square each rounded to T.
func SqDevLeaves[T dtype.Float](t, a []T, k T) { leaves(foldSqDev, t, a, k, nil) }

// ExpSumLeaves sets t[j] to the total of leaf j of a's exponentials
// exp(a[i]-k), the difference rounded to T and the exponential Exp's: the
// leaves of ExpSumLanes.
func ExpSumLeaves[T dtype.Float](t, a []T, k T) { leaves(foldExpSum, t, a, k, nil) }

// ExpSumLeavesAhead is ExpSumLeaves, and asks, while it computes, for the
// cache lines of ahead (what its caller folds next, when it is 8 leaves or
// more) to be brought into the caches (float32 into L1, float64 into L2):
// the exponentials of a block in L1 then run while the next block streams
// in, instead of the memory waiting on them.
// The prefetches are hints; they change no result (and are none without
// the AVX-512 loop).
func ExpSumLeavesAhead[T dtype.Float](t, a []T, k T, ahead []T) { leaves(foldExpSum, t, a, k, ahead) }

// LanesTotal is the total of eight lanes as a leaf's:
// ((s0+s1)+(s2+s3))+((s4+s5)+(s6+s7)).
func LanesTotal[T dtype.Float](s *[8]T) T {
	return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]))
}

func leaves[T dtype.Float](f foldKind, t, a []T, k T, ahead []T) {
	if unsafe.Sizeof(k) == 4 {
		leaves32(f, as[float32](t), as[float32](a), float32(k), as[float32](ahead))
		return
	}
	leaves64(f, as[float64](t), as[float64](a), float64(k), as[float64](ahead))
}

// nextBlock is where the vector loop folding the block of 8 leaves at a's
// start prefetches: a's next block when a holds a whole one, else ahead's
// start when ahead does, else a itself (lines already in L1).
func nextBlock[T dtype.Float](a, ahead []T) *T {
	switch {
	case len(a) >= 16*LeafLen:
		return &a[8*LeafLen]
	case len(ahead) >= 8*LeafLen:
		return &ahead[0]
	}
	return &a[0]
}

func leaves32(f foldKind, t, a []float32, k float32, ahead []float32) {
	j := 0
	if f == foldExpSum && lanesAVX512 {
		// Eight leaves a call while they are on exp's fast path; a leaf
		// that is not is left to the fold below, one leaf at a time.
		var s [8][8]float32
		for len(a) >= 8*LeafLen {
			d := expSumLeaves32AVX512(&s, a, k, nextBlock(a, ahead))
			for l := range d {
				t[j+l] = LanesTotal(&s[l])
			}
			j += d
			a = a[d*LeafLen:]
			if d < 8 {
				break
			}
		}
	}
	if lanesAVX2 && f != foldExpSum {
		var s [8][8]float32
		for ; len(a) >= 8*LeafLen; a = a[8*LeafLen:] {
			leaves32Vec(f, &s, a, k)
			for l := range s {
				t[j+l] = LanesTotal(&s[l])
			}
			j += 8
		}
	}
	for ; len(a) > 0; j++ {
		n := min(LeafLen, len(a))
		var s [8]float32
		fold32(f, &s, a[:n], k)
		t[j] = LanesTotal(&s)
		a = a[n:]
	}
}

func leaves64(f foldKind, t, a []float64, k float64, ahead []float64) {
	j := 0
	if f == foldExpSum && lanesAVX512 {
		// As leaves32's: eight leaves a call while they are on exp's
		// fast path.
		var s [8][8]float64
		for len(a) >= 8*LeafLen {
			d := expSumLeaves64AVX512(&s, a, k, &expTable, nextBlock(a, ahead))
			for l := range d {
				t[j+l] = LanesTotal(&s[l])
			}
			j += d
			a = a[d*LeafLen:]
			if d < 8 {
				break
			}
		}
	}
	if f == foldSum && lanesAVX512 {
		// Every whole leaf in one call, totals and all.
		if n := len(a) / LeafLen; n > 0 {
			sumTotals64AVX512(t[j:j+n], a[:n*LeafLen])
			j += n
			a = a[n*LeafLen:]
		}
	}
	if lanesAVX2 && f != foldExpSum {
		var s [4][8]float64
		for ; len(a) >= 4*LeafLen; a = a[4*LeafLen:] {
			leaves64Vec(f, &s, a, k)
			for l := range s {
				t[j+l] = LanesTotal(&s[l])
			}
			j += 4
		}
	}
	for ; len(a) > 0; j++ {
		n := min(LeafLen, len(a))
		var s [8]float64
		fold64(f, &s, a[:n], k)
		t[j] = LanesTotal(&s)
		a = a[n:]
	}
}
