//go:build amd64 && !purego

package simd

import "golang.org/x/sys/cpu"

var hasAVX2 = cpu.X86.HasAVX2

// splitLoads makes the AVX2 loops' unrolled parts read memory in 16-byte
// halves, the faster form on the AMD EPYC it was measured on (see asmgen's
// gen.load; the vendor is a coarse proxy for the core, and newer AMD cores
// were not measured); elsewhere they read whole 32-byte vectors, as every
// loop's one-vector remainder does. Tests set it both ways.
var splitLoads = cpuVendorAMD()

// cpuVendorAMD reports whether CPUID names the vendor AMD (or Hygon, whose
// cores are AMD's).
func cpuVendorAMD() bool {
	ebx, ecx, edx := cpuidVendor()
	vendor := string([]byte{
		byte(ebx), byte(ebx >> 8), byte(ebx >> 16), byte(ebx >> 24),
		byte(edx), byte(edx >> 8), byte(edx >> 16), byte(edx >> 24),
		byte(ecx), byte(ecx >> 8), byte(ecx >> 16), byte(ecx >> 24),
	})
	return vendor == "AuthenticAMD" || vendor == "HygonGenuine"
}

// cpuidVendor is CPUID leaf 0's vendor registers.
func cpuidVendor() (ebx, ecx, edx uint32)

// hasBMI2 is PDEP, which the comparison loops use to spread their masks
// into bools.
var hasBMI2 = cpu.X86.HasBMI2

// Fence orders the streaming loops' non-temporal stores before the
// caller's later stores (SFENCE): call it after the last streaming loop of
// a piece of work, before another goroutine may read what they wrote.
func Fence()
