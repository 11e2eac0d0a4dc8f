package exec_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestStreamingStores lowers the output size from which kernels store
// around the caches, so that small graphs stream, and requires the same
// bits as without streaming stores, for every kind of kernel that writes an
// output directly, into destinations at every alignment. An output updated
// in place never streams.
func TestStreamingStores(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no AVX2 loops on this machine")
	}
	t.Run("float64", testStreamingStores[float64])
	t.Run("float32", testStreamingStores[float32])
	t.Run("int64", testStreamingIntStores[int64])
	t.Run("uint64", testStreamingIntStores[uint64])
	t.Run("int32", testStreamingIntStores[int32])
	t.Run("uint32", testStreamingIntStores[uint32])
	t.Run("int16", testStreamingIntStores[int16])
	t.Run("uint16", testStreamingIntStores[uint16])
	t.Run("int8", testStreamingIntStores[int8])
	t.Run("uint8", testStreamingIntStores[uint8])
}

const streamR, streamC = 23, 67

func testStreamingStores[T dtype.Float](t *testing.T) {
	r := newRand(61)
	a, b, c := randomTensor[T](t, r, streamR, streamC), randomTensor[T](t, r, streamR, streamC), randomTensor[T](t, r, streamR, streamC)
	x, y, z := expr.Of(a), expr.Of(b), expr.Of(c)
	row := expr.Of(randomTensor[T](t, r, 1, streamC))
	cases := map[string]expr.Expr[T]{
		"add":             x.Add(y),
		"scalar left":     expr.Scalar(T(3)).Sub(y),
		"add scalar left": expr.Scalar(T(3)).Add(y),
		"mul scalar left": expr.Scalar(T(3)).Mul(y),
		"sqrt":            x.Abs().Sqrt(),
		"fused":           x.Mul(y).Add(z),
		"fused right":     z.Add(x.Mul(y)),
		"fused right mul": z.Mul(x.Sub(y)),
		"fused scalar":    z.Add(x.MulScalar(1.5)),
		"W3":              x.Mul(y).Add(z).Mul(x.Sub(y)).Div(z.AddScalar(1.5)),
		"row":             x.Mul(row),
		"exp":             x.Exp().Add(y), // a Go kernel before the streamed one
	}
	streamingMatches(t, cases)

	// In place: a = a*b + c reads a's lines anyway.
	defer exec.SetStreamBytes(0)()
	var plan bytes.Buffer
	own := a.Clone()
	ex := exec.New(exec.Debug(&plan))
	defer ex.Close()
	require.NoError(t, exec.EvalToWith(ex, own, expr.Of(own).Mul(y).Add(z)))
	assert.NotContains(t, plan.String(), "streaming stores", "in place")
	assert.True(t, strings.Contains(plan.String(), "(direct)"), plan.String())
	for i, v := range own.Values() {
		want := T(T(a.Values()[i]*b.Values()[i]) + c.Values()[i])
		require.True(t, sameValue(want, v), fmt.Sprint("in place, element ", i))
	}
}

// testStreamingIntStores is testStreamingStores for the integer loops: add
// and sub, and mul for the 16- and 32-bit types, with either operand a
// scalar.
func testStreamingIntStores[T dtype.Integer](t *testing.T) {
	r := newRand(64)
	x, y := expr.Of(randomTensor[T](t, r, streamR, streamC)), expr.Of(randomTensor[T](t, r, streamR, streamC))
	s := expr.Scalar(^T(0) - 2)
	cases := map[string]expr.Expr[T]{
		"add": x.Add(y), "add scalar right": x.Add(s), "add scalar left": s.Add(y),
		"sub": x.Sub(y), "sub scalar right": x.Sub(s), "sub scalar left": s.Sub(y),
	}
	if size := dtype.Of[T]().Size(); size == 2 || size == 4 {
		cases["mul"], cases["mul scalar right"], cases["mul scalar left"] = x.Mul(y), x.Mul(s), s.Mul(y)
	}
	streamingMatches(t, cases)
}

// streamingMatches evaluates each case into destinations at every
// alignment, with streaming stores and without, and requires the same
// bits, and the streaming plan to say it streams.
func streamingMatches[T dtype.Elem](t *testing.T, cases map[string]expr.Expr[T]) {
	const R, C = streamR, streamC
	eval := func(stream bool, name string, e expr.Expr[T], off int) ([]T, string) {
		if stream {
			defer exec.SetStreamBytes(0)()
		}
		var plan bytes.Buffer
		x := exec.New(exec.Debug(&plan), exec.BlockSize(64), exec.Workers(2), exec.Grain(1))
		defer x.Close()
		buf := tensor.Must(tensor.New[T](R*C + 8))
		dst := tensor.Must(tensor.Must(buf.Slice(0, off, off+R*C, 1)).Reshape(R, C))
		require.NoError(t, exec.EvalToWith(x, dst, e), name)
		return dst.Values(), plan.String()
	}
	for name, e := range cases {
		for off := range 8 {
			want, _ := eval(false, name, e, off)
			got, plan := eval(true, name, e, off)
			assert.Contains(t, plan, "streaming stores", name)
			for i := range want {
				if !sameValue(want[i], got[i]) {
					t.Fatalf("%s at offset %d: element %d: %v streamed, %v not", name, off, i, got[i], want[i])
				}
			}
		}
	}
}

// TestStreamingCopies: regions without kernels (copies: a.T made
// contiguous, a copied into dst) store around the caches too when they are
// large and float, into destinations at every alignment, with the same
// values. A transposed copy, written a piece of a tile's row at a time,
// streams only where those pieces are whole cache lines (see
// TestStreamingStoresWhere). (Planning one of 32 MiB or more panicked once.)
func TestStreamingCopies(t *testing.T) {
	defer exec.SetStreamBytes(0)()
	t.Run("float64", testStreamingCopies[float64])
	t.Run("float32", testStreamingCopies[float32])
	t.Run("int64", testStreamingCopies[int64])
}

func testStreamingCopies[T dtype.Elem](t *testing.T) {
	const R, C = 80, 96 // rows of whole cache lines either way round
	a := randomTensor[T](t, newRand(63), R, C)
	at := tensor.Must(a.T())
	float := simd.Enabled && (dtype.Of[T]() == dtype.Float32 || dtype.Of[T]() == dtype.Float64)
	for _, c := range []struct {
		name       string
		src        *tensor.Tensor[T]
		transposed bool
	}{{"a.T made contiguous", at, true}, {"a copied", a, false}} {
		rows, cols := c.src.Shape()[0], c.src.Shape()[1]
		for off := range 8 {
			var plan bytes.Buffer
			x := exec.New(exec.Debug(&plan), exec.Workers(2), exec.Grain(1))
			buf := tensor.Must(tensor.New[T](rows*cols + 8))
			dst := tensor.Must(tensor.Must(buf.Slice(0, off, off+rows*cols, 1)).Reshape(rows, cols))
			require.NoError(t, exec.EvalToWith(x, dst, expr.Of(c.src)), c.name)
			x.Close()
			assertValues(t, c.src.Values(), dst.Values(), "%s at offset %d", c.name, off)
			want := float && (!c.transposed || off == 0)
			assert.Equal(t, want, strings.Contains(plan.String(), "(copied, streaming stores)"), "%s at offset %d:\n%s", c.name, off, plan.String())
		}
	}

	// Into a strided destination: stored element by element, never
	// streamed.
	var plan bytes.Buffer
	x := exec.New(exec.Debug(&plan))
	defer x.Close()
	dst := tensor.Must(tensor.Must(tensor.New[T](R, 2*C)).Slice(1, 0, 2*C, 2))
	require.NoError(t, exec.EvalToWith(x, dst, expr.Of(a)))
	assertValues(t, a.Values(), dst.Values(), "into a strided view")
	assert.Contains(t, plan.String(), "(scattered: strided)\n", "into a strided view")
}

// TestStreamingStoresWhere: outputs stream only where their kernel writes
// them in whole blocks, in cache lines, and nothing reads them back.
func TestStreamingStoresWhere(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no AVX2 loops on this machine")
	}
	defer exec.SetStreamBytes(0)()
	r := newRand(62)
	planOf := func(roots []*expr.Node, dsts []tensor.Any) string {
		var plan bytes.Buffer
		x := exec.New(exec.Debug(&plan))
		defer x.Close()
		_, err := x.Run(roots, dsts)
		require.NoError(t, err)
		return plan.String()
	}
	streamed := func(plan, out string) bool {
		for _, line := range strings.Split(plan, "\n") {
			if strings.Contains(line, "out "+out+":") {
				return strings.Contains(line, "streaming stores")
			}
		}
		t.Fatalf("no output %s in\n%s", out, plan)
		return false
	}
	a, b, c := randomTensor[float64](t, r, 64, 64), randomTensor[float64](t, r, 64, 64), randomTensor[float64](t, r, 64, 64)
	x, y, z := expr.Of(a), expr.Of(b), expr.Of(c)

	plan := planOf([]*expr.Node{x.Add(y).Node()}, []tensor.Any{tensor.Must(tensor.Must(tensor.New[float64](64, 128)).Slice(1, 0, 128, 2))})
	assert.False(t, streamed(plan, "v2"), "a strided destination is written from scratch:\n%s", plan)

	s := x.Add(y)
	plan = planOf([]*expr.Node{s.Node(), s.Mul(z).Node()}, nil)
	assert.False(t, streamed(plan, "v2"), "s is read again by s*c:\n%s", plan)
	assert.True(t, streamed(plan, "v4"), "s*c is not:\n%s", plan)

	// In panels (whole rows, see exec/panel.go) the output is written as
	// one run, in whole lines whatever its rows' length.
	plan = planOf([]*expr.Node{x.Add(expr.Of(tensor.Must(b.T()))).Node()}, nil)
	assert.True(t, streamed(plan, "v2"), "a + b.T, rows of 512 bytes:\n%s", plan)
	odd := randomTensor[float64](t, r, 63, 63)
	plan = planOf([]*expr.Node{expr.Of(odd).Add(expr.Of(tensor.Must(odd.T()))).Node()}, nil)
	require.Contains(t, plan, " panels, ", "a + a.T runs in panels")
	assert.True(t, streamed(plan, "v2"), "a + a.T in panels, rows of 504 bytes:\n%s", plan)
	// So in pieces shorter than streamRow (the blocks of a region of
	// several kernels: 192 elements here, 1536 bytes), which a panel
	// computes one after another along its one run.
	c, d := randomTensor[float64](t, r, 63, 63), randomTensor[float64](t, r, 63, 63)
	long := expr.Of(odd).Mul(expr.Of(tensor.Must(odd.T()))).Add(expr.Of(c).Mul(expr.Of(d))).Sub(expr.Of(c))
	plan = planOf([]*expr.Node{long.Node()}, nil)
	require.Contains(t, plan, " panels, ", "a*a.T + c*d - c runs in panels")
	assert.True(t, streamed(plan, "v4"), "a*a.T + c*d - c in panels, pieces of 1536 bytes:\n%s", plan)

	// A destination whose rows are not contiguous with one another (the
	// first n columns of a wider tensor) keeps tiles 4 KiB wide, written a
	// piece of a row at a time: pieces that do not start and end on cache
	// lines, unless long, do not stream.
	intoPadded := func(m *tensor.Tensor[float64]) string {
		n := m.Shape()[0]
		dst := tensor.Must(tensor.Must(tensor.New[float64](n, n+8)).Slice(1, 0, n, 1))
		plan := planOf([]*expr.Node{expr.Of(m).Add(expr.Of(tensor.Must(m.T()))).Node()}, []tensor.Any{dst})
		require.Contains(t, plan, " bands, copying", "a + a.T into padded rows runs in bands")
		return plan
	}
	plan = intoPadded(odd)
	assert.False(t, streamed(plan, "v2"), "a + a.T, rows of 504 bytes:\n%s", plan)
	plan = intoPadded(randomTensor[float64](t, r, 300, 300))
	assert.False(t, streamed(plan, "v2"), "a + a.T, rows of 2400 bytes:\n%s", plan)
	plan = intoPadded(randomTensor[float64](t, r, 513, 513))
	assert.True(t, streamed(plan, "v2"), "a + a.T, pieces of 4096 bytes:\n%s", plan)

	plan = planOf([]*expr.Node{x.Exp().Node()}, nil)
	assert.False(t, streamed(plan, "v1"), "exp has no streaming loop:\n%s", plan)

	i, j := expr.Of(randomTensor[int64](t, r, 64, 64)), expr.Of(randomTensor[int64](t, r, 64, 64))
	plan = planOf([]*expr.Node{i.Add(j).Node()}, nil)
	assert.True(t, streamed(plan, "v2"), "int64 add is an AVX2 loop:\n%s", plan)
	plan = planOf([]*expr.Node{i.Mul(j).Node()}, nil)
	assert.False(t, streamed(plan, "v2"), "int64 mul is not:\n%s", plan)
	k, l := expr.Of(randomTensor[int32](t, r, 64, 64)), expr.Of(randomTensor[int32](t, r, 64, 64))
	plan = planOf([]*expr.Node{k.Mul(l).Node()}, nil)
	assert.True(t, streamed(plan, "v2"), "int32 mul is:\n%s", plan)
}
