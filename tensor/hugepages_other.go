//go:build !linux

package tensor

import "errors"

// madviseHuge has nothing to ask outside Linux.
func madviseHuge(addr, n uintptr) error { return errors.ErrUnsupported }

// transient is false: nothing here fails for a while only.
func transient(error) bool { return false }

// thpMode is "": only Linux has transparent huge pages.
func thpMode() string { return "" }
