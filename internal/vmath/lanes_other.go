//go:build !amd64 || purego

package vmath

// lanesAVX2 is false: there are no vector loops.
const lanesAVX2 = false

// lanesAVX512 is false: there are no vector loops.
const lanesAVX512 = false

func lanes32Vec(foldKind, *[8]float32, []float32, float32) int { return 0 }

func lanes64Vec(foldKind, *[8]float64, []float64, float64) int { return 0 }

func leaves32Vec(foldKind, *[8][8]float32, []float32, float32) {}

func leaves64Vec(foldKind, *[4][8]float64, []float64, float64) {}

func expSumLeaves32AVX512(*[8][8]float32, []float32, float32, *float32) int { return 0 }

func expSumLeaves64AVX512(*[8][8]float64, []float64, float64, *[128][2]uint64, *float64) int {
	return 0
}

func sumTotals64AVX512([]float64, []float64) {}

func max32AVX512([]float32) (m, sum float32, n int) { return 0, 0, 0 }

func expStoreSumLanes32AVX512(*[8]float32, []float32, []float32, float32, *float32) int { return 0 }
