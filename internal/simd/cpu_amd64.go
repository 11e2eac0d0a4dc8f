//go:build amd64 && !purego

package simd

import "golang.org/x/sys/cpu"

var hasAVX2 = cpu.X86.HasAVX2

// hasBMI2 is PDEP, which the comparison loops use to spread their masks
// into bools.
var hasBMI2 = cpu.X86.HasBMI2

// Fence orders the streaming loops' non-temporal stores before the
// caller's later stores (SFENCE): call it after the last streaming loop of
// a piece of work, before another goroutine may read what they wrote.
func Fence()
