package tensor

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
)

// TestCgroupLimit reads cgroup memory limits from fake file systems: v2 and
// v1, nested cgroups whose ancestors set a lower limit, "max" and v1's
// "no limit" value, and a system without cgroups.
func TestCgroupLimit(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	tests := []struct {
		name string
		fs   fstest.MapFS
		want int64
	}{
		{"no cgroups", fstest.MapFS{}, 0},
		{"v2 in a container", fstest.MapFS{
			"proc/self/cgroup":         file("0::/\n"),
			"sys/fs/cgroup/memory.max": file("4294967296\n"),
		}, 4 << 30},
		{"v2 max", fstest.MapFS{
			"proc/self/cgroup":         file("0::/\n"),
			"sys/fs/cgroup/memory.max": file("max\n"),
		}, 0},
		{"v2 nested, the parent lower", fstest.MapFS{
			"proc/self/cgroup": file("0::/user.slice/app.scope\n"),
			"sys/fs/cgroup/user.slice/app.scope/memory.max": file("max\n"),
			"sys/fs/cgroup/user.slice/memory.max":           file("1073741824\n"),
		}, 1 << 30},
		{"v2 nested, the child lower", fstest.MapFS{
			"proc/self/cgroup":             file("0::/a/b\n"),
			"sys/fs/cgroup/a/b/memory.max": file("536870912"),
			"sys/fs/cgroup/a/memory.max":   file("1073741824"),
		}, 512 << 20},
		{"hybrid: v2 unified, v1 memory", fstest.MapFS{
			"proc/self/cgroup": file("9:name=systemd:/\n4:memory:/process_api/x\n0::/\n"),
			"sys/fs/cgroup/memory/process_api/x/memory.limit_in_bytes": file("9223372036854771712\n"),
			"sys/fs/cgroup/memory/process_api/memory.limit_in_bytes":   file("2147483648\n"),
			"sys/fs/cgroup/unified/memory.max":                         file("max\n"),
		}, 2 << 30},
		{"v1 no limit", fstest.MapFS{
			"proc/self/cgroup":                           file("4:cpu,memory:/\n"),
			"sys/fs/cgroup/memory/memory.limit_in_bytes": file("9223372036854771712\n"),
		}, 0},
		{"garbage", fstest.MapFS{
			"proc/self/cgroup":         file("nonsense\n0::/\n"),
			"sys/fs/cgroup/memory.max": file("-5\n"),
		}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, cgroupLimit(tc.fs))
		})
	}
}

// TestDefaultLimit checks how the machine's memory and the cgroup's limit
// make the default: the lower of the known ones, never above maxAllocBytes.
func TestDefaultLimit(t *testing.T) {
	tests := []struct {
		name             string
		physical, cgroup int64
		want             int64
	}{
		{"neither known", 0, 0, maxAllocBytes},
		{"physical", 8 << 30, 0, 8 << 30},
		{"cgroup lower", 8 << 30, 2 << 30, 2 << 30},
		{"cgroup higher", 8 << 30, 16 << 30, 8 << 30},
		{"cgroup only", 0, 2 << 30, 2 << 30},
		{"more than the cap", 1 << 50, 0, maxAllocBytes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, int64(tc.want), defaultLimit(tc.physical, tc.cgroup))
		})
	}
}
