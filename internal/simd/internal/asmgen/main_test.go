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

// TestRegisterBank: a kernel with a fourth vector operand would spill into
// the mask and scalar registers; the generator refuses it.
func TestRegisterBank(t *testing.T) {
	for _, k := range kernels() {
		assert.NoError(t, checkRegisters(k), k.name)
	}
	four := kernel{"four", []bool{false, false, false, false}, bin("add", bin("mul", leaf(0), leaf(1)), bin("mul", leaf(2), leaf(3)))}
	assert.EqualError(t, checkRegisters(four), "asmgen: kernel four reads 4 vector operands; a register bank holds 3")
	scalar := kernel{"scalar", []bool{false, false, true, false}, bin("add", bin("mul", leaf(0), leaf(1)), bin("mul", leaf(2), leaf(3)))}
	assert.NoError(t, checkRegisters(scalar), "a scalar operand lives in Y15")
}
