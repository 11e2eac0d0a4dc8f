package bench

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestMissingArguments calls the entry points that return errors with nil
// and typed-nil arguments: each is a *tensor.ArgError naming the function
// and the argument, never a panic.
func TestMissingArguments(t *testing.T) {
	r := syntheticReport()
	var nilR *Report
	dir := t.TempDir()
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"Write nil writer", func() error { return Write(nil, r, Table) }, "bench.Write: w is nil"},
		{"Write typed nil writer", func() error { return Write((*bytes.Buffer)(nil), r, CSV) }, "bench.Write: w is nil"},
		{"Write nil report", func() error { return Write(io.Discard, nil, Markdown) }, "bench.Write: r is nil"},
		{"WriteJSON nil report", func() error { return nilR.WriteJSON(io.Discard) }, "bench.Report.WriteJSON: r is nil"},
		{"WriteJSON nil writer", func() error { return r.WriteJSON(nil) }, "bench.Report.WriteJSON: w is nil"},
		{"ReadReport nil", func() error { _, err := ReadReport(nil); return err }, "bench.ReadReport: rd is nil"},
		{"ReadReport typed nil", func() error { _, err := ReadReport((*strings.Reader)(nil)); return err }, "bench.ReadReport: rd is nil"},
		{"WriteChart nil writer", func() error { return WriteChart(nil, r, "svg") }, "bench.WriteChart: w is nil"},
		{"WriteChart nil report", func() error { return WriteChart(io.Discard, nil, "svg") }, "bench.WriteChart: r is nil"},
		{"SaveChart nil report", func() error { return SaveChart(filepath.Join(dir, "c.svg"), nil) }, "bench.SaveChart: r is nil"},
		{"Pipeline nil build", func() error {
			_, err := Pipeline[float64]("p", "nil build", nil).Setup(Params{Size: 4})
			return err
		}, "bench.Pipeline: build is nil"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = c.call() })
			var ae *tensor.ArgError
			require.ErrorAs(t, err, &ae)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestNilWithoutErrors checks the entry points that return no error: nil
// arguments are skipped or discarded, never a panic.
func TestNilWithoutErrors(t *testing.T) {
	x := expr.Of(tensor.Must(tensor.FromSlice([]float64{1, 2}, 2)))
	t.Run("GraphCost skips nil roots", func(t *testing.T) {
		var bytes, flops int64
		require.NotPanics(t, func() { bytes, flops = GraphCost(nil, x.AddScalar(1), expr.Expr[float64]{}) })
		wantBytes, wantFlops := GraphCost(x.AddScalar(1))
		assert.Equal(t, wantBytes, bytes)
		assert.Equal(t, wantFlops, flops)
	})
	t.Run("Main with nil writers", func(t *testing.T) {
		var code int
		require.NotPanics(t, func() { code = Main([]string{"-list"}, nil, nil, Standard()...) })
		assert.Equal(t, ExitOK, code)
		require.NotPanics(t, func() { code = Main([]string{"-no-such-flag"}, nil, nil) })
		assert.Equal(t, ExitUsage, code)
	})
	t.Run("Run refuses a zero workload", func(t *testing.T) {
		rep, err := Run(Options{Sizes: []int{4}, Reps: 1, Warmup: 0, NoProbe: true}, Workload{Name: "zero"})
		require.NoError(t, err)
		require.Len(t, rep.Rows, 1)
		assert.Contains(t, rep.Rows[0].Err, "no Setup function")
	})
}
