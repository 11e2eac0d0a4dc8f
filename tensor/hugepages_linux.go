package tensor

import "syscall"

// hugePagesSupported says whether the system can give huge pages at all.
const hugePagesSupported = true

// madvHugePage is Linux's MADV_HUGEPAGE (the same on every architecture).
const madvHugePage = 14

// madviseHuge is madvise(addr, n, MADV_HUGEPAGE). The range holds no Go
// pointers and the call reads none.
func madviseHuge(addr, n uintptr) error {
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, addr, n, madvHugePage); e != 0 {
		return e
	}
	return nil
}
