//go:build !amd64 || purego

package simd

// Without the assembly there are no division loops.
var intDiv32 [2]Binary[int32]
