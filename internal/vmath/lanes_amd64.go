//go:build amd64 && !purego

package vmath

// lanesAVX2 reports whether the lane folds' vector loops run (set by init).
var lanesAVX2 bool

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
		return expSumLanes64AVX2(s, a, k, &expTable)
	}
}
