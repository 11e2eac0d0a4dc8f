//go:build !linux

package npy

import (
	"os"

	"github.com/tensorplay/tensorplay/dtype"
)

// mapSupported is false: outside Linux nothing is mapped, and OpenMapped
// and CreateMapped return ErrMapUnsupported before any of these is called.
const mapSupported = false

func mapFile(*os.File, int, bool) ([]byte, error) { return nil, ErrMapUnsupported }

func unmapFile([]byte) error { return nil }

func syncFile([]byte) error { return nil }

func releasePages(*mapping, int, int) error { return nil }

func reserve(*os.File, int64, int64) error { return ErrMapUnsupported }

func elems[T dtype.Elem]([]byte, int) []T { return nil }

func elemSize[T dtype.Elem]() int { return 0 }
