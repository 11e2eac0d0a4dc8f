package main

import (
	"os"
	"strings"
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

// TestStreamingStoresPlacement reads the generated assembly: only the
// Stream functions store non-temporally, and only after their peel has
// aligned d (the aligned: label) and before the scalar tail.
func TestStreamingStoresPlacement(t *testing.T) {
	asm, _ := generate()
	funcs := strings.Split(string(asm), "\nTEXT ·")[1:]
	require.NotEmpty(t, funcs)
	streams := 0
	for _, f := range funcs {
		name, _, _ := strings.Cut(f, "(")
		nt := strings.Count(f, "VMOVNTP")
		if !strings.Contains(name, "Stream") {
			assert.Zero(t, nt, "%s stores non-temporally", name)
			continue
		}
		streams++
		aligned, tail := strings.Index(f, "\naligned:"), strings.Index(f, "\ntail:")
		require.True(t, aligned > 0 && tail > aligned, "%s: no aligned: before tail:", name)
		assert.Equal(t, nt, strings.Count(f[aligned:tail], "VMOVNTP"), "%s: a non-temporal store outside the aligned loops", name)
		assert.Positive(t, nt, "%s never stores non-temporally", name)
	}
	assert.Equal(t, len(funcs)/2, streams, "one Stream form per loop (plus Fence)")
}
