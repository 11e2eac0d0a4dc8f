//go:build !amd64 || purego

package vmath

// lanesAVX2 is false: there are no vector loops.
const lanesAVX2 = false

func lanes32Vec(foldKind, *[8]float32, []float32, float32) int { return 0 }

func lanes64Vec(foldKind, *[8]float64, []float64, float64) int { return 0 }
