package expr_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./expr -run %s -update to create it", t.Name())
	assert.Equal(t, string(want), got)
}

// TestPrintGolden prints graphs as flat, typed, single-assignment lines.
func TestPrintGolden(t *testing.T) {
	var b strings.Builder
	section := func(title string, s string) {
		b.WriteString("# " + title + "\n" + s + "\n\n")
	}

	a, bb, c := zerosOf[float64](8, 4), zerosOf[float64](8, 4), zerosOf[float64](1, 4)
	section("W3: (a*b+c)*(a-b)/(c+1.5)", a.Mul(bb).Add(c).Mul(a.Sub(bb)).Div(c.AddScalar(1.5)).String())

	x := expr.Placeholder[float32]("x", 3, 5)
	y := expr.Placeholder[float32]("y", 5, 3)
	m := expr.Where(x.Gt(y.T()), x, y.Permute(1, 0).Slice(1, 0, 5, 2).Expand(3, 3).Sum(1).Unsqueeze(1).Expand(3, 5))
	section("placeholders, views, where, a reduction", m.String())

	i := zerosOf[int32](6)
	section("casts and integer ops", expr.Cast[float64](i.DivFloor(expr.Scalar[int32](4)).Pow(i)).Reshape(2, 3).Exp().String())

	z := zerosOf[complex128](2, 2)
	section("complex parts", expr.CAbs[float64](z.Conj().Mul(z)).Add(expr.Real[float64](z)).String())

	shared := a.Mul(bb)
	section("several roots share nodes", expr.Format(shared.Add(c), shared.Exp(), shared))

	bad := a.Add(zerosOf[float64](3))
	section("an error", bad.Exp().String())

	golden(t, "print.golden", b.String())
}

// TestPrintScalarsAndShapes pins the small parts of a line.
func TestPrintScalarsAndShapes(t *testing.T) {
	s := expr.Scalar(2.0).MulScalar(3)
	lines := strings.Split(s.String(), "\n")
	require.Len(t, lines, 4)
	assert.Equal(t, "%0:f64[] = scalar 2.0", lines[0])
	assert.Equal(t, "%2:f64[] = mul %0 %1", lines[2])
	assert.Equal(t, "return %2", lines[3])

	e := expr.Of(tensor.Must(tensor.New[uint8](0, 3))).AddScalar(1)
	assert.Contains(t, e.String(), "%0:u8[0,3] = tensor")
	assert.Contains(t, expr.Cast[bool](e).String(), ":bool[0,3] = cast %")
}
