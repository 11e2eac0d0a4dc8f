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

// celsius is a named element type: its size comes from the type itself.
type celsius float64

func TestHugePageAdviceBySize(t *testing.T) {
	cases := []struct {
		name   string
		make   func() any
		bytes  int
		advise bool
	}{
		{"float64 8 bytes under 4 MiB", func() any { return Must(New[float64](hugePageMin/8 - 1)).Data() }, hugePageMin - 8, false},
		{"float64 4 MiB", func() any { return Must(New[float64](hugePageMin / 8)).Data() }, hugePageMin, true},
		{"float64 [1024,1024,3]", func() any { return Must(New[float64](1024, 1024, 3)).Data() }, 24 << 20, true},
		{"uint8 4 MiB", func() any { return Must(New[uint8](hugePageMin)).Data() }, hugePageMin, true},
		{"bool under 4 MiB", func() any { return Must(New[bool](hugePageMin - 1)).Data() }, hugePageMin - 1, false},
		{"complex128 4 MiB + 16", func() any { return Must(New[complex128](hugePageMin/16 + 1)).Data() }, hugePageMin + 16, true},
		{"int16 small", func() any { return Must(New[int16](3, 4)).Data() }, 24, false},
		// int is 4 bytes on 32-bit platforms: 2 MiB there, not advised.
		{"int, 4 MiB where int is 64-bit", func() any { return Must(New[int](hugePageMin / 8)).Data() }, hugePageMin / 8 * strconv.IntSize / 8, strconv.IntSize == 64},
		{"a named element type", func() any { return Must(New[celsius](hugePageMin / 8)).Data() }, hugePageMin, true},
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
	assert.Equal(t, hugePagesSupported(), HugePages(), "on where the system has huge pages")
}

// TestAdviceOnUnalignedStorage: storage that does not start on a page
// (a large object always does, a slice of one need not) is advised from its
// first whole page.
func TestAdviceOnUnalignedStorage(t *testing.T) {
	calls := watchAdvice(t, nil)
	s := make([]float64, hugePageMin/8+1)[1:]
	advise(s, len(s)*8)
	checkAdvice(t, *calls, addrOf(s), len(s)*8)
	assert.NotEqual(t, addrOf(s), (*calls)[0].start, "rounded up to the next page")
}

func TestHugePagesByDefault(t *testing.T) {
	for env, want := range map[string]bool{"": false, "0": false, "1": hugePagesSupported(), "yes": false} {
		assert.Equal(t, want, hugePagesByDefault(env), "TENSORPLAY_HUGEPAGES=%q", env)
	}
	if runtime.GOOS != "linux" {
		assert.False(t, hugePagesSupported(), "only Linux has them")
	}
}

func TestHugePagesAvailable(t *testing.T) {
	cases := []struct {
		mode, godebug string
		want          bool
	}{
		{"madvise", "", true},
		{"always", "", true},
		{"never", "", false},
		{"", "", false},
		{"madvise", "disablethp=1", false},
		{"madvise", "gctrace=1, disablethp=1", false},
		{"madvise", "disablethp=0", true},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, hugePagesAvailable(c.mode, c.godebug), "mode %q GODEBUG %q", c.mode, c.godebug)
	}
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
	was := SetHugePages(true)
	defer SetHugePages(was)
	a := Must(New[float64](1 << 20))
	if !HugePages() {
		t.Skip("this system gives no transparent huge pages, or refused the advice")
	}
	addr := addrOf(a.Data())
	first := (addr + pageSize - 1) &^ (pageSize - 1)
	last := (addr+8<<20)&^(pageSize-1) - pageSize
	smaps, err := os.ReadFile("/proc/self/smaps")
	require.NoError(t, err)
	for _, page := range []uintptr{first, last} {
		flags, ok := vmFlagsAt(string(smaps), page)
		require.True(t, ok, "a mapping holds %#x", page)
		assert.Contains(t, strings.Fields(flags), "hg", "page %#x, VmFlags: %s", page, flags)
	}
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
