package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSaveChart(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		file  string
		magic []byte
	}{
		{"gbps.svg", []byte("<?xml")},
		{"gbps.png", []byte("\x89PNG\r\n\x1a\n")},
		{"GBPS.PNG", []byte("\x89PNG")},
		{"gbps.pdf", []byte("%PDF")},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			require.NoError(t, SaveChart(path, syntheticReport()))
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.True(t, bytes.HasPrefix(b, tt.magic), "%s starts with %q", tt.file, b[:min(len(b), 8)])
		})
	}
}

func TestWriteChartContents(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, WriteChart(&buf, syntheticReport(), "svg"))
	svg := buf.String()
	for _, want := range []string{"W1", "W3", "mine", "tensorplay", "hand-written Go loop", "bandwidth probe (plain Go, 2 goroutines)"} {
		assert.Contains(t, svg, want)
	}
	assert.NotContains(t, svg, ">bad<", "refused rows are not drawn")
}

func TestChartErrors(t *testing.T) {
	gif := filepath.Join(t.TempDir(), "x.gif")
	assert.ErrorContains(t, SaveChart(gif, syntheticReport()), `chart format "gif"`)
	assert.NoFileExists(t, gif, "nothing is created for a format we cannot draw")
	empty := syntheticReport()
	empty.Rows = empty.Rows[3:] // only the refused row
	assert.ErrorContains(t, WriteChart(&bytes.Buffer{}, empty, "svg"), "no timed rows")
}
