//go:build amd64 && !purego

package simd

import "golang.org/x/sys/cpu"

var hasAVX2 = cpu.X86.HasAVX2
