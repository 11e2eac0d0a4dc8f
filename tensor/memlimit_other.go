//go:build !linux

package tensor

// physicalMemory is 0, unknown: the memory limit falls back to
// maxAllocBytes outside Linux.
func physicalMemory() int64 { return 0 }
