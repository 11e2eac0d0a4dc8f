package tensor

import "syscall"

// physicalMemory returns the machine's memory in bytes (sysinfo's total
// RAM), or 0 when it cannot be read.
func physicalMemory() int64 {
	var info syscall.Sysinfo_t
	if syscall.Sysinfo(&info) != nil {
		return 0
	}
	total := uint64(info.Totalram) * uint64(max(info.Unit, 1))
	if total >= 1<<62 {
		return 0
	}
	return int64(total)
}
