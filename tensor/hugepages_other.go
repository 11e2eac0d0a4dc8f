//go:build !linux

package tensor

import "errors"

// hugePagesSupported says whether the system can give huge pages at all.
const hugePagesSupported = false

// madviseHuge has nothing to ask outside Linux.
func madviseHuge(addr, n uintptr) error { return errors.ErrUnsupported }
