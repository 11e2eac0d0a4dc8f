package vmath

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
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
