//go:build amd64 && !purego

package simd_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/sys/cpu"

	"github.com/tensorplay/tensorplay/internal/simd"
)

// TestEnabledFollowsCPU: the loops are on exactly where the CPU has AVX2,
// so the tests that skip without AVX2 do run on an AVX2 machine.
func TestEnabledFollowsCPU(t *testing.T) {
	assert.Equal(t, cpu.X86.HasAVX2, simd.Enabled)
	_, ok := simd.BinaryOf[float64](simd.Add)
	assert.Equal(t, cpu.X86.HasAVX2, ok)
}

// TestSplitLoadsFollowsVendor: the loops read memory in halves exactly on
// AMD's CPUs (see splitLoads).
func TestSplitLoadsFollowsVendor(t *testing.T) {
	vendor, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip("no /proc/cpuinfo to name the vendor")
	}
	amd := strings.Contains(string(vendor), "AuthenticAMD") || strings.Contains(string(vendor), "HygonGenuine")
	assert.Equal(t, amd, simd.SplitLoads())
}
