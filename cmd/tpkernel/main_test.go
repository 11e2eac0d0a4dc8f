package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	tpexec "github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestCheckedInKernels regenerates bench/kernels_tp.go with its go:generate
// arguments and compares: a stale generated file fails here.
func TestCheckedInKernels(t *testing.T) {
	want, err := os.ReadFile("../../bench/kernels_tp.go")
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, run([]string{"-pkg", "bench", "W3=(a*b+c)*(a-b)/(c+1.5)"}, &out, &bytes.Buffer{}))
	assert.Equal(t, string(want), out.String())
}

// TestEndToEnd regenerates testdata/e2e/kernels_tp.go (a stale file fails)
// and runs that program, which evaluates each kernel's graph with and
// without the kernel and requires the kernel to be used and the bits to be
// the same: the generated loops round exactly as the interpreter does.
func TestEndToEnd(t *testing.T) {
	want, err := os.ReadFile("testdata/e2e/kernels_tp.go")
	require.NoError(t, err)
	var out bytes.Buffer
	args := []string{"-pkg", "main", "-types", "float64,float32",
		"w3=(a*b+c)*(a-b)/(c+1.5)", "fn=sqrt(abs(c))*tan(b)+round(a/2)-log1p(abs(a))", "neg=-(a-b)*-2.5"}
	require.NoError(t, run(args, &out, &bytes.Buffer{}))
	require.Equal(t, string(want), out.String(), "testdata/e2e/kernels_tp.go is stale: go generate ./cmd/tpkernel/testdata/e2e")

	if testing.Short() {
		t.Skip("-short: not building and running testdata/e2e")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH to build testdata/e2e")
	}
	res, err := exec.Command(goTool, "run", "./testdata/e2e").CombinedOutput()
	require.NoError(t, err, "%s", res)
	assert.Equal(t, "ok\n", string(res))
}

// TestDebugHint parses the expression a debug plan suggests for W3 (see
// exec's TestDebugSuggestsKernel) and checks that it builds W3's graph.
func TestDebugHint(t *testing.T) {
	k, err := parse("NAME", "((((a*b)+c)*(a-b))/(c+(-1.5)))")
	require.NoError(t, err)
	assert.Equal(t, "in[0].Mul(in[1]).Add(in[2]).Mul(in[0].Sub(in[1])).Div(in[2].Add(s[0]))", k.graph(k.root))
	assert.Equal(t, []string{"-1.5"}, k.literals)
}

// TestHintsParse keeps exec's debug hints and tpkernel in step: for every
// function tpkernel compiles, the hint a debug plan prints for f(a*b+c)*a
// must parse here into the same graph. The AVX2 loops are off, as a region
// of those only gets no hint.
func TestHintsParse(t *testing.T) {
	saved := simd.Enabled
	t.Cleanup(func() { simd.Enabled = saved })
	simd.Enabled = false
	a, b, c := tensor.Must(tensor.Rand[float64](1, 8)), tensor.Must(tensor.Rand[float64](2, 8)), tensor.Must(tensor.Rand[float64](3, 8))
	for name, f := range funcs {
		inner := expr.Of(a).Mul(expr.Of(b)).Add(expr.Of(c))
		m := reflect.ValueOf(inner).MethodByName(f.method)
		require.True(t, m.IsValid(), "expr has no method %s", f.method)
		e := m.Call(nil)[0].Interface().(expr.Expr[float64]).Mul(expr.Of(a))
		var plan bytes.Buffer
		_, err := tpexec.EvalWith(tpexec.New(tpexec.Debug(&plan)), e)
		require.NoError(t, err, name)
		_, hint, ok := strings.Cut(plan.String(), "cmd/tpkernel 'NAME=")
		require.True(t, ok, "%s: no hint in\n%s", name, plan.String())
		hint, _, _ = strings.Cut(hint, "'")
		k, err := parse("NAME", hint)
		require.NoError(t, err, "%s: %s", name, hint)
		assert.Equal(t, "in[0].Mul(in[1]).Add(in[2])."+f.method+"().Mul(in[0])", k.graph(k.root), name)
	}
}

func TestParseOrder(t *testing.T) {
	k, err := parse("k", "(b*2 - a) / -3 + b")
	require.NoError(t, err)
	assert.Equal(t, []string{"b", "a"}, k.inputs, "inputs by first appearance")
	assert.Equal(t, []string{"2", "-3"}, k.literals, "a negated number is one scalar")
	assert.Equal(t, "in[0].Mul(s[0]).Sub(in[1]).Div(s[1]).Add(in[0])", k.graph(k.root))
	assert.Equal(t, "float32(float32(float32(float32(v0[i]*s0)-v1[i])/s1)+v0[i])", strings.ReplaceAll(k.loop(k.root, "float32"), " ", ""))

	k, err = parse("n", "-(a+b)")
	require.NoError(t, err)
	assert.Equal(t, "in[0].Add(in[1]).Neg()", k.graph(k.root))
	assert.Equal(t, "-(float64(v0[i] + v1[i]))", k.loop(k.root, "float64"))

	// A double negation is two negations, not a decrement.
	var out bytes.Buffer
	require.NoError(t, run([]string{"-pkg", "p", "w=-(-a)+b"}, &out, &bytes.Buffer{}))
	assert.Contains(t, out.String(), "float64(-(-(v0[i])) + v1[i])")

	// A newline inside the expression (legal between parentheses) does not
	// break the comment that repeats it.
	out.Reset()
	require.NoError(t, run([]string{"-pkg", "p", "w=(a*b+\nc)"}, &out, &bytes.Buffer{}))
	assert.Contains(t, out.String(), "// w: (a*b+ c)\n")
}

func TestErrors(t *testing.T) {
	cases := map[string]struct {
		args []string
		want string
	}{
		"modulo":        {[]string{"-pkg", "p", "k=a%b"}, "% is not supported"},
		"exp":           {[]string{"-pkg", "p", "k=exp(a)"}, "exp is not a supported function"},
		"two operands":  {[]string{"-pkg", "p", "k=sqrt(a, b)"}, "sqrt takes one operand"},
		"method call":   {[]string{"-pkg", "p", "k=math.Sqrt(a)"}, "only plain function names"},
		"index":         {[]string{"-pkg", "p", "k=a[0]"}, "indexing is not supported"},
		"selector":      {[]string{"-pkg", "p", "k=a.b+c"}, "a selector (x.y) is not supported"},
		"one op":        {[]string{"-pkg", "p", "k=a+b"}, "has 1 op; a kernel needs two or more"},
		"no op":         {[]string{"-pkg", "p", "k=(a)"}, "has 0 op"},
		"bad package":   {[]string{"-pkg", "a b", "k=a+b*c"}, `-pkg "a b": not a valid package name`},
		"newline name":  {[]string{"-pkg", "p", "k\nx=a+b*c"}, "only printable characters"},
		"string":        {[]string{"-pkg", "p", `k=a+"x"`}, `"x" is not a number`},
		"no input":      {[]string{"-pkg", "p", "k=2*3"}, "has no input"},
		"syntax":        {[]string{"-pkg", "p", "k=a+"}, "k:"},
		"no name":       {[]string{"-pkg", "p", "a+b"}, "want name=expression"},
		"type":          {[]string{"-pkg", "p", "-types", "int32", "k=a+b"}, "kernels are for float64 and float32"},
		"no package":    {[]string{"-pkg", "", "k=a+b"}, "no package"},
		"no expression": {[]string{"-pkg", "p"}, "no name=expression"},
	}
	for name, c := range cases {
		err := run(c.args, &bytes.Buffer{}, &bytes.Buffer{})
		if assert.Error(t, err, name) {
			assert.Contains(t, err.Error(), c.want, name)
		}
	}
}

func TestWritesFile(t *testing.T) {
	path := t.TempDir() + "/k.go"
	require.NoError(t, run([]string{"-pkg", "p", "-types", "float32,float64", "-o", path, "axpy=a*2+b"}, &bytes.Buffer{}, &bytes.Buffer{}))
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(src), "exec.CompiledKernel[float32]{")
	assert.Contains(t, string(src), "exec.CompiledKernel[float64]{")
	assert.Contains(t, string(src), "d[i] = float64(float64(v0[i]*s0) + v1[i])")
}

// FuzzGenerate feeds arbitrary expressions to tpkernel: it must either
// refuse them with an error or write Go source that formats, never panic.
func FuzzGenerate(f *testing.F) {
	for _, s := range []string{"(a*b+c)*(a-b)/(c+1.5)", "-(-a)+b", "sqrt(abs(c))*sin(b)", "a%b", "f(a)", "a+", "2*3", "-2.5e-3*x", "((a))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var out bytes.Buffer
		err := run([]string{"-pkg", "p", "-types", "float32,float64", "k=" + src}, &out, &bytes.Buffer{})
		if err == nil {
			_, perr := parser.ParseFile(token.NewFileSet(), "k.go", out.Bytes(), 0)
			assert.NoError(t, perr, "%q", src)
		}
	})
}
