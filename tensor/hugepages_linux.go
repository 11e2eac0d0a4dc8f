package tensor

import (
	"errors"
	"os"
	"strings"
	"syscall"
)

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

// transient reports whether madvise failed for want of a resource that may
// come back (EAGAIN), or was interrupted: the advice stays on after those.
func transient(err error) bool {
	return errors.Is(err, syscall.EAGAIN) || errors.Is(err, syscall.EINTR)
}

// thpMode returns the kernel's transparent huge page mode, the bracketed
// word of /sys/kernel/mm/transparent_hugepage/enabled ("always", "madvise"
// or "never"), or "" where the kernel has none.
func thpMode() string {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return ""
	}
	return selectedMode(string(b))
}

// selectedMode returns the bracketed word of a sysfs choice list such as
// "always [madvise] never".
func selectedMode(s string) string {
	_, rest, ok := strings.Cut(s, "[")
	if !ok {
		return ""
	}
	mode, _, ok := strings.Cut(rest, "]")
	if !ok {
		return ""
	}
	return mode
}
