package bench

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/tensor"
)

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, c *config)
	}{
		{"defaults", nil, func(t *testing.T, c *config) {
			assert.Equal(t, []int{DefaultSize}, c.sizes)
			assert.Equal(t, Table, c.format)
			assert.Equal(t, DefaultReps, c.reps)
			assert.Equal(t, DefaultMatMulN, c.matmul)
			assert.True(t, c.run.MatchString("W11/f32"))
			assert.Equal(t, tensor.HugePages(), c.hugePages, "the library's setting")
		}},
		{"sizes in every spelling", []string{"-size", "1e6, 1e7,40000,1_000,2.5e3"}, func(t *testing.T, c *config) {
			assert.Equal(t, []int{1_000_000, 10_000_000, 40_000, 1000, 2500}, c.sizes)
		}},
		{"everything", []string{"-run", "W1$", "-workers", "3", "-reps", "4", "-warmup", "0", "-format", "csv",
			"-o", "x.csv", "-chart", "c.PNG", "-profile", "trace", "-profiledir", "p", "-compare", "old.json",
			"-slack", "0.1", "-noprobe", "-matmul", "64", "-seed", "9", "-hugepages=false"}, func(t *testing.T, c *config) {
			assert.Equal(t, 3, c.workers)
			assert.Equal(t, 4, c.reps)
			assert.Equal(t, 0, c.warmup)
			assert.Equal(t, CSV, c.format)
			assert.Equal(t, "x.csv", c.out)
			assert.Equal(t, "c.PNG", c.chart)
			assert.Equal(t, "trace", c.profile)
			assert.Equal(t, "p", c.profileDir)
			assert.Equal(t, "old.json", c.compare)
			assert.InDelta(t, 0.1, c.slack, 0)
			assert.True(t, c.noProbe)
			assert.Equal(t, 64, c.matmul)
			assert.Equal(t, uint64(9), c.seed)
			assert.False(t, c.hugePages)
			assert.True(t, c.run.MatchString("W1"))
			assert.False(t, c.run.MatchString("W10/0"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			c, err := parseFlags("tpbench", tt.args, &stderr)
			require.NoError(t, err)
			assert.Empty(t, stderr.String())
			tt.check(t, c)
		})
	}
}

func TestMainUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown flag", []string{"-bogus"}, "flag provided but not defined: -bogus"},
		{"missing value", []string{"-size"}, "flag needs an argument: -size"},
		{"bad int", []string{"-reps", "many"}, `invalid value "many" for flag -reps`},
		{"zero size", []string{"-size", "0"}, `-size: "0": want 1 to`},
		{"fractional size", []string{"-size", "1.5"}, `-size: "1.5" is not a whole number`},
		{"empty size", []string{"-size", "1e6,"}, `-size: "" is not a whole number`},
		{"bad format", []string{"-format", "yaml"}, `-format "yaml": want table, csv, json or markdown`},
		{"bad regexp", []string{"-run", "W(1"}, "-run: error parsing regexp"},
		{"bad profile", []string{"-profile", "gpu"}, `-profile "gpu": want cpu, mem, allocs, block, mutex or trace`},
		{"bad chart", []string{"-chart", "out.gif"}, `-chart "out.gif": the file must end in .svg or .png`},
		{"zero workers", []string{"-workers", "0"}, "-workers 0: must be at least 1"},
		{"zero reps", []string{"-reps", "0"}, "-reps 0: must be at least 1"},
		{"negative warmup", []string{"-warmup", "-1"}, "-warmup -1: must not be negative"},
		{"negative slack", []string{"-slack", "-0.5"}, "-slack -0.5: must not be negative"},
		{"zero matmul", []string{"-matmul", "0"}, "-matmul 0: must be at least 1"},
		{"positional argument", []string{"W1"}, `unexpected argument "W1"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(tt.args, &stdout, &stderr, (&fakeWorkload{}).workload("fake"))
			assert.Equal(t, ExitUsage, code)
			assert.Contains(t, stderr.String(), tt.want)
			assert.Contains(t, stderr.String(), "usage: tpbench [flags]", "the usage follows the error")
			assert.Empty(t, stdout.String())
		})
	}
}

func TestMainHelpAndList(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, ExitOK, Main([]string{"-h"}, &stdout, &stderr))
	assert.Contains(t, stderr.String(), "-profiledir dir")

	stdout.Reset()
	assert.Equal(t, ExitOK, Main([]string{"-list"}, &stdout, &stderr, Standard()...))
	assert.Contains(t, stdout.String(), "W10/0        memory  sum(x, 0)")
	assert.Contains(t, stdout.String(), "W11/f32      compute matmul f32")
}

// tiny are the flags that make a run take milliseconds.
var tiny = []string{"-size", "64", "-reps", "2", "-warmup", "1", "-noprobe"}

func TestMainRunFailures(t *testing.T) {
	dir := t.TempDir()
	notJSON := filepath.Join(dir, "not.json")
	require.NoError(t, os.WriteFile(notJSON, []byte("hello"), 0o666))
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no workload matches", []string{"-run", "nothing"}, `no workload of -suite standard matches -run "nothing"`},
		{"compare file missing", []string{"-compare", filepath.Join(dir, "none.json")}, "-compare: open"},
		{"compare file not JSON", []string{"-compare", notJSON}, "reading report"},
		{"output in a missing directory", []string{"-o", filepath.Join(dir, "no", "such", "x.json")}, "-o: open"},
		{"refused row", []string{"-run", "bad"}, "1 row(s) refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			ws := []Workload{(&fakeWorkload{}).workload("fake"), (&fakeWorkload{wrong: true}).workload("bad")}
			code := Main(append(tt.args, tiny...), &stdout, &stderr, ws...)
			assert.Equal(t, ExitFailure, code)
			assert.Contains(t, stderr.String(), tt.want)
		})
	}
}

func TestMainFormatsAndOutputFile(t *testing.T) {
	dir := t.TempDir()
	for _, f := range Formats {
		t.Run(string(f), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			ws := []Workload{(&fakeWorkload{}).workload("fake")}
			require.Equal(t, ExitOK, Main(append([]string{"-format", string(f)}, tiny...), &stdout, &stderr, ws...), stderr.String())
			assert.Contains(t, stdout.String(), "fake")

			out := filepath.Join(dir, "report."+string(f))
			stdout.Reset()
			require.Equal(t, ExitOK, Main(append([]string{"-format", string(f), "-o", out}, tiny...), &stdout, &stderr, ws...))
			b, err := os.ReadFile(out)
			require.NoError(t, err)
			assert.Contains(t, string(b), "fake")
			assert.Contains(t, stdout.String(), "workload  shape", "the table still goes to stdout")
		})
	}
}

// TestMainHugePagesFlag: -hugepages sets the huge-page advice for the run,
// the report records it, and the previous setting is back after.
func TestMainHugePagesFlag(t *testing.T) {
	was := tensor.SetHugePages(true)
	supported := tensor.HugePages() // false where the system has none
	tensor.SetHugePages(was)
	for _, on := range []bool{false, true} {
		t.Run(fmt.Sprint(on), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.json")
			var stdout, stderr bytes.Buffer
			ws := []Workload{(&fakeWorkload{}).workload("fake")}
			args := append([]string{"-hugepages=" + fmt.Sprint(on), "-format", "json", "-o", out}, tiny...)
			require.Equal(t, ExitOK, Main(args, &stdout, &stderr, ws...), stderr.String())
			f, err := os.Open(out)
			require.NoError(t, err)
			defer f.Close()
			rep, err := ReadReport(f)
			require.NoError(t, err)
			assert.Equal(t, on && supported, rep.HugePages, "on only where the system has them")
			assert.Equal(t, tensor.TransparentHugePages(), rep.THP)
			assert.Equal(t, was, tensor.HugePages(), "restored")
		})
	}
}

func TestSelect(t *testing.T) {
	names := func(ws []Workload) (out []string) {
		for _, w := range ws {
			out = append(out, w.Name)
		}
		return out
	}
	tests := []struct {
		pattern string
		want    []string
	}{
		{"W1$", []string{"W1"}},
		{"W10", []string{"W10/-1", "W10/0", "W10/all"}},
		{"f32", []string{"W11/f32"}},
		{"^W12/", []string{"W12/W2", "W12/W4"}},
		{"nothing", nil},
	}
	for _, tt := range tests {
		ws, err := Select(Standard(), tt.pattern)
		require.NoError(t, err)
		assert.Equal(t, tt.want, names(ws), tt.pattern)
	}
	_, err := Select(Standard(), "(")
	assert.Error(t, err)
}
