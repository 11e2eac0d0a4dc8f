package simd

// SetSplitLoads makes the AVX2 loops read memory in 16-byte halves (split)
// or whole 32-byte vectors, and returns a function that restores the CPU's
// choice.
func SetSplitLoads(split bool) (restore func()) {
	saved := splitLoads
	splitLoads = split
	return func() { splitLoads = saved }
}

// SplitLoads reports the CPU's choice of load form.
func SplitLoads() bool { return splitLoads }
