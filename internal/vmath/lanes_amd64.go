//go:build amd64 && !purego

package vmath

// lanesAVX2 reports whether the lane folds' vector loops run (set by init).
var lanesAVX2 bool

// lanesAVX512 reports whether ExpSumLanes's and ExpSumLeaves's folds run
// their AVX-512 loops (set by init): sixteen float32 exponentials (eight
// float64) an instruction where the AVX2 loops compute eight (four),
// faster on CPUs with full-width AVX-512 units (BenchmarkLanes32 and
// BenchmarkLanes64, expsum), the same operations and bits.
var lanesAVX512 bool

// lanes32Vec runs f's vector loop on a prefix of a and returns its length.
func lanes32Vec(f foldKind, s *[8]float32, a []float32, k float32) int {
	if !lanesAVX2 {
		return 0
	}
	switch f {
	case foldMax:
		return maxLanes32AVX2(s, a)
	case foldSum:
		return sumLanes32AVX2(s, a)
	case foldMaxOf:
		return maxOfLanes32AVX2(s, a)
	case foldMinOf:
		return minOfLanes32AVX2(s, a)
	case foldSqDev:
		return sqDevLanes32AVX2(s, a, k)
	default:
		if lanesAVX512 {
			// Groups of 16, then groups of 8 in the AVX2 loop, the same
			// operations and lanes (element i into lane i%8): the 8
			// left in a row of 1000's last leaf, or the half on exp's
			// fast path of a group of 16 off it. In the Go loop, whose
			// fused multiply-adds are emulated (fma32), a row of 1000's
			// last 8 took 28% of xent/l's profile.
			n := expSumLanes32AVX512(s, a, k)
			if len(a)-n >= 8 {
				n += expSumLanes32AVX2(s, a[n:], k)
			}
			return n
		}
		return expSumLanes32AVX2(s, a, k)
	}
}

func lanes64Vec(f foldKind, s *[8]float64, a []float64, k float64) int {
	if !lanesAVX2 {
		return 0
	}
	switch f {
	case foldMax:
		return maxLanes64AVX2(s, a)
	case foldSum:
		return sumLanes64AVX2(s, a)
	case foldMaxOf:
		return maxOfLanes64AVX2(s, a)
	case foldMinOf:
		return minOfLanes64AVX2(s, a)
	case foldSqDev:
		return sqDevLanes64AVX2(s, a, k)
	default:
		if lanesAVX512 {
			return expSumLanes64AVX512(s, a, k, &expTable)
		}
		return expSumLanes64AVX2(s, a, k, &expTable)
	}
}

// leaves32Vec folds the eight leaves at a's start (f: foldSum or
// foldSqDev) into s, from zero lanes.
func leaves32Vec(f foldKind, s *[8][8]float32, a []float32, k float32) {
	if f == foldSum {
		sumLeaves32AVX2(s, a)
		return
	}
	sqDevLeaves32AVX2(s, a, k)
}

func leaves64Vec(f foldKind, s *[4][8]float64, a []float64, k float64) {
	if f == foldSum {
		sumLeaves64AVX2(s, a)
		return
	}
	sqDevLeaves64AVX2(s, a, k)
}
