//go:build !linux

package bench

import "github.com/tensorplay/tensorplay/interop/npy"

// dropCache is unsupported: outside Linux the suite cannot map files.
func dropCache(string) error { return npy.ErrMapUnsupported }

// freeBytes is unknown outside Linux.
func freeBytes(string) (int64, error) { return 0, npy.ErrMapUnsupported }
