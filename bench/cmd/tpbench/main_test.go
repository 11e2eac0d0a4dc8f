package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/bench"
)

// small makes every standard workload run in about a millisecond.
var small = []string{"-size", "4096", "-matmul", "16", "-reps", "2", "-warmup", "1", "-nopeers"}

func runArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errw bytes.Buffer
	code = run(append(args, small...), &out, &errw)
	return code, out.String(), errw.String()
}

func TestStandardRunPrintsEveryRow(t *testing.T) {
	code, stdout, stderr := runArgs(t)
	require.Equal(t, bench.ExitOK, code, stderr)
	for _, w := range bench.Standard() {
		assert.Regexp(t, `(?m)^`+w.Name+` `, stdout)
	}
	assert.Contains(t, stdout, "triad")
	assert.NotContains(t, stdout, "refused")
}

func TestChartFiles(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"gbps.svg", "gbps.png"} {
		path := filepath.Join(dir, name)
		code, _, stderr := runArgs(t, "-run", "W[12]$", "-chart", path)
		require.Equal(t, bench.ExitOK, code, stderr)
		info, err := os.Stat(path)
		require.NoError(t, err)
		assert.Positive(t, info.Size())
		assert.Contains(t, stderr, "chart written to "+path)
	}
}

func TestProfileFiles(t *testing.T) {
	tests := []struct{ mode, file, command string }{
		{"cpu", "cpu.pprof", "go tool pprof -http=: -tagignore 'side=handloop|probe|setup' "},
		{"mem", "mem.pprof", "go tool pprof -http=: "},
		{"allocs", "mem.pprof", "go tool pprof -http=: -sample_index=alloc_space "},
		{"block", "block.pprof", "go tool pprof -http=: "},
		{"mutex", "mutex.pprof", "go tool pprof -http=: "},
		{"trace", "trace.out", "go tool trace "},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "prof")
			code, _, stderr := runArgs(t, "-run", "W3$", "-profile", tt.mode, "-profiledir", dir)
			require.Equal(t, bench.ExitOK, code, stderr)
			path := filepath.Join(dir, tt.file)
			info, err := os.Stat(path)
			require.NoError(t, err)
			assert.Positive(t, info.Size(), "the profile has data")
			assert.Contains(t, stderr, tt.command+path)
		})
	}
}

func TestCompareWithSavedRun(t *testing.T) {
	base := filepath.Join(t.TempDir(), "base.json")
	code, _, stderr := runArgs(t, "-run", "W[18]$", "-format", "json", "-o", base)
	require.Equal(t, bench.ExitOK, code, stderr)
	f, err := os.Open(base)
	require.NoError(t, err)
	old, err := bench.ReadReport(f)
	f.Close()
	require.NoError(t, err)
	require.Len(t, old.Rows, 2)

	code, stdout, stderr := runArgs(t, "-run", "W[18]$|W2$", "-compare", base, "-slack", "100")
	require.Equal(t, bench.ExitOK, code, stderr)
	assert.Contains(t, stdout, "vs base")
	// A slack of 100x makes any change noise; W2 was not in the baseline.
	assert.Regexp(t, `(?m)^W1 .*x +noise$`, stdout)
	assert.Regexp(t, `(?m)^W8 .*x +noise$`, stdout)
	assert.Regexp(t, `(?m)^W2 .* no-base$`, stdout)

	code, stdout, _ = runArgs(t, "-run", "W1$", "-compare", base, "-format", "csv", "-slack", "100")
	require.Equal(t, bench.ExitOK, code)
	assert.Contains(t, strings.Split(stdout, "\n")[1], ",noise,", stdout)
}

func TestUsageExitCode(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, run([]string{"-format", "xml"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "usage: tpbench")
	assert.Equal(t, 2, run([]string{"-nosuchflag"}, &stdout, &stderr))
	assert.Equal(t, 0, run([]string{"-help"}, &stdout, &stderr))
}
