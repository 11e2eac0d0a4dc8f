package tensor_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// lowerMemoryLimit sets the memory limit for one test and restores the
// default after it.
func lowerMemoryLimit(t *testing.T, bytes int64) {
	t.Helper()
	tensor.SetMemoryLimit(bytes)
	t.Cleanup(func() { tensor.SetMemoryLimit(0) })
}

// TestMemoryLimitDefault checks the machine-derived limit: positive, at
// most the physical memory (on Linux, MemTotal), at most 64 TiB, and what
// SetMemoryLimit(0) restores.
func TestMemoryLimitDefault(t *testing.T) {
	limit := tensor.MemoryLimit()
	assert.Positive(t, limit)
	assert.LessOrEqual(t, limit, int64(min(1<<46, (1<<(strconv.IntSize-1)-1)>>1)))
	if runtime.GOOS == "linux" {
		total := memTotal(t)
		assert.LessOrEqual(t, limit, total, "the limit is at most the physical memory")
		assert.Greater(t, limit, total/64, "the limit is the machine's memory, not a fixed small cap")
	}
	prev := tensor.SetMemoryLimit(12345)
	assert.Equal(t, limit, prev, "SetMemoryLimit returns the previous limit")
	assert.Equal(t, int64(12345), tensor.MemoryLimit())
	assert.Equal(t, int64(12345), tensor.SetMemoryLimit(-1), "a negative limit restores the default")
	assert.Equal(t, limit, tensor.MemoryLimit())
	tensor.SetMemoryLimit(1 << 62)
	assert.Equal(t, int64(min(1<<46, (1<<(strconv.IntSize-1)-1)>>1)), tensor.MemoryLimit(), "capped at 64 TiB")
	assert.Equal(t, limit, func() int64 { tensor.SetMemoryLimit(0); return tensor.MemoryLimit() }())
}

// memTotal reads MemTotal from /proc/meminfo, in bytes.
func memTotal(t *testing.T) int64 {
	f, err := os.Open("/proc/meminfo")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			require.NoError(t, err)
			return kb << 10
		}
	}
	t.Fatal("no MemTotal in /proc/meminfo")
	return 0
}

// TestAllocErrors checks that every allocation the package makes is
// checked against the memory limit first and fails with an *AllocError
// naming the request and the limit. The limit is lowered to 1 MiB, so
// nothing large is ever allocated.
func TestAllocErrors(t *testing.T) {
	const limit = 1 << 20
	lowerMemoryLimit(t, limit)
	text := func(shape string, dt string, bytes int64) string {
		return fmt.Sprintf("tensor: allocating %s %s needs %d bytes, more than the memory limit of %d bytes (tensor.SetMemoryLimit)", shape, dt, bytes, limit)
	}
	one := tensor.Must(tensor.Full(1.0, 1))
	col := tensor.Must(tensor.Full(1.0, 2, 1))
	wide := tensor.Must(one.Expand(1 << 18)) // 2 MiB of float64 from 8 bytes
	tests := []struct {
		name string
		call func() error
		want string
	}{
		{"New", func() error { _, err := tensor.New[float64](1<<17, 2); return err }, text("[131072, 2]", "float64", 2<<20)},
		{"Zeros", func() error { _, err := tensor.Zeros[uint8](limit + 1); return err }, text("[1048577]", "uint8", limit+1)},
		{"Ones", func() error { _, err := tensor.Ones[int8](1 << 21); return err }, text("[2097152]", "int8", 2<<20)},
		{"Full", func() error { _, err := tensor.Full[int32](7, 1<<19); return err }, text("[524288]", "int32", 2<<20)},
		{"Eye", func() error { _, err := tensor.Eye[int8](1 << 11); return err }, text("[2048, 2048]", "int8", 4<<20)},
		{"Arange", func() error { _, err := tensor.Arange[int64](0, 1<<18, 1); return err }, text("[262144]", "int64", 2<<20)},
		{"Linspace", func() error { _, err := tensor.Linspace[float32](0, 1, 1<<19); return err }, text("[524288]", "float32", 2<<20)},
		{"Rand", func() error { _, err := tensor.Rand[float64](1, 1<<18); return err }, text("[262144]", "float64", 2<<20)},
		{"RandN", func() error { _, err := tensor.RandN[float32](1, 1<<19); return err }, text("[524288]", "float32", 2<<20)},
		{"Reshape copy", func() error {
			_, err := tensor.Must(col.Expand(2, 1<<17)).Reshape(-1)
			return err
		}, text("[262144]", "float64", 2<<20)},
		{"MarshalBinary", func() error { _, err := wide.MarshalBinary(); return err }, text("[262144]", "float64", 2<<20)},
		{"CheckAlloc", func() error { return tensor.CheckAlloc(dtype.Float64, tensor.Shape{1 << 18}) }, text("[262144]", "float64", 2<<20)},
		{"CheckAlloc invalid dtype", func() error { return tensor.CheckAlloc(dtype.Invalid, tensor.Shape{1 << 16, 2}) },
			text("[65536, 2]", dtype.Invalid.String(), 2<<20)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			var ae *tensor.AllocError
			require.ErrorAs(t, err, &ae)
			assert.EqualError(t, err, tc.want)
			assert.Equal(t, int64(limit), ae.Limit)
		})
	}
	t.Run("exactly the limit", func(t *testing.T) {
		x, err := tensor.New[complex128](limit / 16)
		require.NoError(t, err)
		assert.Equal(t, limit/16, x.Numel())
	})
}

// TestAllocPanics checks the copies whose signatures have no error: over
// the limit they panic with an *AllocError, which can be recovered, before
// allocating anything; under it they work.
func TestAllocPanics(t *testing.T) {
	lowerMemoryLimit(t, 1<<20)
	one := tensor.Must(tensor.Full(1.0, 1))
	wide := tensor.Must(one.Expand(1 << 18))
	fits := tensor.Must(one.Expand(1 << 17))
	tests := []struct {
		name string
		call func(x *tensor.Tensor[float64])
	}{
		{"Values", func(x *tensor.Tensor[float64]) { _ = x.Values() }},
		{"Clone", func(x *tensor.Tensor[float64]) { _ = x.Clone() }},
		{"Contiguous", func(x *tensor.Tensor[float64]) { _ = x.Contiguous() }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got any
			func() {
				defer func() { got = recover() }()
				tc.call(wide)
			}()
			err, ok := got.(error)
			require.True(t, ok, "panics with an error, got %v", got)
			var ae *tensor.AllocError
			assert.True(t, errors.As(err, &ae))
			assert.EqualError(t, err, "tensor: allocating [262144] float64 needs 2097152 bytes, more than the memory limit of 1048576 bytes (tensor.SetMemoryLimit)")
			assert.NotPanics(t, func() { tc.call(fits) })
		})
	}
}

// TestAllocDefaultLimit checks requests that no machine holds (over
// 64 TiB) under the default limit: an *AllocError, never the runtime's
// fatal out of memory.
func TestAllocDefaultLimit(t *testing.T) {
	if strconv.IntSize == 32 {
		t.Skip("the requests are sized for 64-bit")
	}
	pow := func(k uint) int { return 1 << k } // not a constant, so that 32-bit builds compile
	tests := []struct {
		name string
		call func() error
	}{
		{"New 2^44 float64", func() error { _, err := tensor.New[float64](pow(44)); return err }},
		{"Zeros 2^47 uint8", func() error { _, err := tensor.Zeros[uint8](pow(47)); return err }},
		{"Ones 2^47 int8", func() error { _, err := tensor.Ones[int8](pow(47)); return err }},
		{"Eye 2^24 int8", func() error { _, err := tensor.Eye[int8](pow(24)); return err }},
		{"Arange", func() error { _, err := tensor.Arange[int64](0, 1<<60, 1); return err }},
		{"Linspace", func() error { _, err := tensor.Linspace(0.0, 1, pow(50)); return err }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ae *tensor.AllocError
			err := tc.call()
			require.ErrorAs(t, err, &ae)
			assert.Equal(t, tensor.MemoryLimit(), ae.Limit)
			assert.Greater(t, ae.Bytes, ae.Limit)
			assert.Contains(t, err.Error(), "more than the memory limit of "+strconv.FormatInt(tensor.MemoryLimit(), 10)+" bytes")
		})
	}
	t.Run("Eye count overflow", func(t *testing.T) {
		_, err := tensor.Eye[int8](pow(32))
		assertShapeError(t, err, "invalid shape [4294967296, 4294967296] at dimension 1: number of elements overflows int")
	})
}
