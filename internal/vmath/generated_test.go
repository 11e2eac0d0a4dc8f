package vmath

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKernelsGenerated checks that vec_amd64.s and vec_amd64.go are what
// the generator in _asm writes now. It needs the avo module (from the
// module cache or the proxy), so it is skipped with -short.
func TestKernelsGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	cmd := exec.Command(goTool, "run", ".", "-out", filepath.Join(dir, "vec_amd64.s"),
		"-stubs", filepath.Join(dir, "vec_amd64.go"), "-pkg", "vmath")
	cmd.Dir = "_asm"
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, name := range []string{"vec_amd64.s", "vec_amd64.go"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		want, err := os.ReadFile(name)
		require.NoError(t, err)
		// The first line names the command, with its output paths.
		_, got, _ = bytes.Cut(got, []byte("\n"))
		_, want, _ = bytes.Cut(want, []byte("\n"))
		assert.True(t, bytes.Equal(want, got), "%s is stale: run go generate", name)
	}
}

// TestConstantsNeverSplitLines checks that every constant of vec_amd64.s
// is a power of two of at most 32 bytes: the linker aligns such a symbol
// to its size, so a load of it never straddles two cache lines. A 64-byte
// ZMM constant was only 32-aligned, on either side of a line as the rest
// of the binary fell, and made the AVX-512 exp loops up to 1.5x slower in
// the builds where it straddled; the AVX-512 loops take 4- and 8-byte
// constants with embedded broadcast instead.
func TestConstantsNeverSplitLines(t *testing.T) {
	src, err := os.ReadFile("vec_amd64.s")
	require.NoError(t, err)
	globls := 0
	for line := range strings.Lines(string(src)) {
		if !strings.HasPrefix(line, "GLOBL ") {
			continue
		}
		globls++
		_, size, ok := strings.Cut(strings.TrimSpace(line), "$")
		require.True(t, ok, "no size in %q", line)
		n, err := strconv.Atoi(size)
		require.NoError(t, err, "%q", line)
		assert.True(t, n <= 32 && n&(n-1) == 0, "%s: %d bytes may straddle a cache line", strings.TrimSpace(line), n)
	}
	assert.Equal(t, 178, globls, "constants found")
}
