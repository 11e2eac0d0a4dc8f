package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGeneratedFilesAreCurrent fails when the checked-in files differ from
// what the generator writes: run go generate in internal/simd.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	asm, goSrc := generate()
	for name, want := range map[string][]byte{"simd_amd64.s": asm, "simd_amd64.go": goSrc} {
		got, err := os.ReadFile("../../" + name)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%s is stale: run go generate in internal/simd", name)
	}
}

func TestFrame(t *testing.T) {
	offs, size := frame(kernel{scalar: []bool{false, true, false}}, elems[1])
	assert.Equal(t, []int{24, 48, 56}, offs, "a float32 scalar between slices")
	assert.Equal(t, 80, size)
	offs, size = frame(kernel{scalar: []bool{false, true}}, elems[1])
	assert.Equal(t, []int{24, 48}, offs)
	assert.Equal(t, 52, size, "no padding after a trailing float32")
}
