package tensor

import (
	"errors"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// advice is one recorded madvise call.
type advice struct{ start, n uintptr }

// watchAdvice records the huge-page advice alloc gives while a test runs,
// with the advice turned on (as it is by default on Linux), and puts both
// back after.
func watchAdvice(t *testing.T, fail error) *[]advice {
	t.Helper()
	var calls []advice
	was, prev := hugePages.Load(), adviseHuge
	hugePages.Store(true)
	adviseHuge = func(start, n uintptr) error {
		calls = append(calls, advice{start, n})
		return fail
	}
	t.Cleanup(func() { hugePages.Store(was); adviseHuge = prev })
	return &calls
}

// addrOf is the address of s's first element.
func addrOf(s any) uintptr { return reflect.ValueOf(s).Pointer() }

// checkAdvice asserts that calls hold exactly one piece of advice, on the
// whole pages of the bytes from addr: page-aligned, inside them, and less
// than a page short of them at either end.
func checkAdvice(t *testing.T, calls []advice, addr uintptr, bytes int) {
	t.Helper()
	require.Len(t, calls, 1)
	c := calls[0]
	end := addr + uintptr(bytes)
	assert.Zero(t, c.start%pageSize, "start on a page")
	assert.Zero(t, c.n%pageSize, "whole pages")
	assert.GreaterOrEqual(t, c.start, addr, "starts inside the storage")
	assert.LessOrEqual(t, c.start+c.n, end, "ends inside the storage")
	assert.Less(t, c.start-addr, uintptr(pageSize), "no whole page left out at the start")
	assert.Less(t, end-(c.start+c.n), uintptr(pageSize), "no whole page left out at the end")
}

func TestHugePageAdviceBySize(t *testing.T) {
	cases := []struct {
		name   string
		make   func() any
		bytes  int
		advise bool
	}{
		{"float64 a byte under 4 MiB", func() any { return Must(New[float64](hugePageMin/8 - 1)).Data() }, hugePageMin - 8, false},
		{"float64 4 MiB", func() any { return Must(New[float64](hugePageMin / 8)).Data() }, hugePageMin, true},
		{"float64 [1024,1024,3]", func() any { return Must(New[float64](1024, 1024, 3)).Data() }, 24 << 20, true},
		{"uint8 4 MiB", func() any { return Must(New[uint8](hugePageMin)).Data() }, hugePageMin, true},
		{"bool under 4 MiB", func() any { return Must(New[bool](hugePageMin - 1)).Data() }, hugePageMin - 1, false},
		{"complex128 4 MiB + 16", func() any { return Must(New[complex128](hugePageMin/16 + 1)).Data() }, hugePageMin + 16, true},
		{"int16 small", func() any { return Must(New[int16](3, 4)).Data() }, 24, false},
		{"Arange float32", func() any { return Must(Arange[float32](0, hugePageMin/4, 1)).Data() }, hugePageMin, true},
		{"Linspace float64", func() any { return Must(Linspace[float64](0, 1, hugePageMin/8)).Data() }, hugePageMin, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			calls := watchAdvice(t, nil)
			s := c.make()
			if !c.advise {
				assert.Empty(t, *calls)
				return
			}
			checkAdvice(t, *calls, addrOf(s), c.bytes)
		})
	}
}

// TestHugePageAdviceOnCopies checks the copies that allocate: Values of a
// contiguous and of a strided tensor, Clone, Contiguous and decoding. Small
// copies get no advice.
func TestHugePageAdviceOnCopies(t *testing.T) {
	big := Must(Arange[float64](0, hugePageMin/8, 1))
	bigT := Must(Must(big.Reshape(512, 1024)).T())
	enc, err := big.MarshalBinary()
	require.NoError(t, err)
	cases := []struct {
		name   string
		copy   func() []float64
		advise bool
		third  float64 // the copy's element 3
	}{
		{"Values contiguous", big.Values, true, 3},
		{"Values transposed", bigT.Values, true, 3 * 1024},
		{"Clone", func() []float64 { return big.Clone().Data() }, true, 3},
		{"Contiguous of a transposed view", func() []float64 { return bigT.Contiguous().Data() }, true, 3 * 1024},
		{"UnmarshalBinary", func() []float64 {
			var d Tensor[float64]
			require.NoError(t, d.UnmarshalBinary(enc))
			return d.Data()
		}, true, 3},
		{"Values of a small slice", func() []float64 { return Must(big.Slice(0, 0, 1000, 1)).Values() }, false, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			calls := watchAdvice(t, nil)
			s := c.copy()
			assert.Equal(t, c.third, s[3], "the copy holds the values")
			if !c.advise {
				assert.Empty(t, *calls)
				return
			}
			checkAdvice(t, *calls, addrOf(s), len(s)*8)
		})
	}
}

func TestSetHugePages(t *testing.T) {
	calls := watchAdvice(t, nil)
	assert.True(t, SetHugePages(false), "it was on")
	assert.False(t, HugePages())
	Must(New[float64](hugePageMin / 8))
	assert.Empty(t, *calls, "no advice while off")
	assert.False(t, SetHugePages(true), "it was off")
	assert.Equal(t, hugePagesSupported, HugePages(), "on where the system has huge pages")
}

func TestHugePagesByDefault(t *testing.T) {
	for env, want := range map[string]bool{"": hugePagesSupported, "1": hugePagesSupported, "0": false} {
		assert.Equal(t, want, hugePagesByDefault(env), "TENSORPLAY_HUGEPAGES=%q", env)
	}
	assert.Equal(t, runtime.GOOS == "linux", hugePagesSupported)
}

// TestHugePageRefusalTurnsAdviceOff: a kernel without transparent huge
// pages refuses the first advice, and no more is asked.
func TestHugePageRefusalTurnsAdviceOff(t *testing.T) {
	calls := watchAdvice(t, errors.ErrUnsupported)
	a := Must(New[float64](hugePageMin / 8))
	assert.Len(t, *calls, 1)
	assert.False(t, HugePages())
	Must(New[float64](hugePageMin / 8))
	assert.Len(t, *calls, 1, "no second attempt")
	assert.Equal(t, hugePageMin/8, a.Numel(), "the storage is made anyway")
}

// TestHugePageAdviceReachesKernel checks, on Linux, that the mapping holding
// a new 8 MiB tensor carries the kernel's huge-page flag ("hg" in its
// VmFlags in /proc/self/smaps).
func TestHugePageAdviceReachesKernel(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("huge-page advice is Linux's")
	}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("this kernel has no transparent huge pages")
	}
	was := SetHugePages(true)
	defer SetHugePages(was)
	a := Must(New[float64](1 << 20))
	page := (addrOf(a.Data()) + pageSize - 1) &^ (pageSize - 1)
	smaps, err := os.ReadFile("/proc/self/smaps")
	require.NoError(t, err)
	flags, ok := vmFlagsAt(string(smaps), page)
	require.True(t, ok, "a mapping holds %#x", page)
	assert.Contains(t, strings.Fields(flags), "hg", "VmFlags: %s", flags)
	runtime.KeepAlive(a)
}

// vmFlagsAt returns the VmFlags of the mapping in smaps that holds addr.
func vmFlagsAt(smaps string, addr uintptr) (string, bool) {
	in := false
	for _, line := range strings.Split(smaps, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(f[0], "-"); ok && !strings.HasSuffix(f[0], ":") {
			l, errL := strconv.ParseUint(lo, 16, 64)
			h, errH := strconv.ParseUint(hi, 16, 64)
			in = errL == nil && errH == nil && uint64(addr) >= l && uint64(addr) < h
			continue
		}
		if in && f[0] == "VmFlags:" {
			return strings.Join(f[1:], " "), true
		}
	}
	return "", false
}
