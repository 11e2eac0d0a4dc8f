package exec_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// TestPanels covers transposing regions run in panels (tiles of whole rows
// whose transposed inputs are copied first, see exec/panel.go), against
// reference loops: a + b.T; a fused chain with a scalar and two transposed
// inputs; two transposed inputs alone, one of them a view of part of a
// wider tensor; a batch of
// transposes (a third axis outside the tile). Shapes leave partial panels
// (not a multiple of the panel's rows, nor of the transpose loop's rows),
// rows that are not a multiple of the copy's 32-row chunks, and rows
// shorter than one chunk. Each runs with the default, serial and tiled
// executors (the tiled one computes pieces of 16 elements across rows),
// and with the prefetches and streaming stores of large regions.
func TestPanels(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no transpose loops: no panels")
	}
	t.Run("float64", func(t *testing.T) { testPanels[float64](t) })
	t.Run("float32", func(t *testing.T) { testPanels[float32](t) })
	t.Run("int8", func(t *testing.T) { testPanels[int8](t) })
	t.Run("int16", func(t *testing.T) { testPanels[int16](t) })
	t.Run("int32", func(t *testing.T) { testPanels[int32](t) })
	t.Run("complex128", func(t *testing.T) { testPanels[complex128](t) })
}

func testPanels[T dtype.Numeric](t *testing.T) {
	size := dtype.Of[T]().Size()
	run := 512 // bytes of the transposed operand a panel is high
	if size < 4 {
		run = 128
	}
	rows := run/size*2 + 11 // two panels and part of a third
	for _, cols := range []int{1100, 20} {
		t.Run(fmt.Sprintf("%dx%d", rows, cols), func(t *testing.T) { testPanelsOf[T](t, rows, cols) })
	}
}

func testPanelsOf[T dtype.Numeric](t *testing.T, R, C int) {
	r := newRand(91)
	a := randomTensor[T](t, r, R, C)
	bt := tensor.Must(randomTensor[T](t, r, C, R).T())
	// The first R columns of a wider tensor, transposed: strides (1, R+5).
	st := tensor.Must(tensor.Must(randomTensor[T](t, r, C, R+5).Slice(1, 0, R, 1)).T())
	at := tensor.Must(randomTensor[T](t, r, C, R).T())
	// A batch of 3: x[k] + y[k].T.
	x := randomTensor[T](t, r, 3, R, C)
	yt := tensor.Must(randomTensor[T](t, r, 3, C, R).Permute(0, 2, 1))

	av, bv, sv, atv := a.Values(), bt.Values(), st.Values(), at.Values()
	xv, yv := x.Values(), yt.Values()
	want := map[string][]T{}
	for _, name := range []string{"a + b.T", "(a*b.T + a.T) - 3", "a.T + s"} {
		want[name] = make([]T, R*C)
	}
	for k := range R * C {
		want["a + b.T"][k] = av[k] + bv[k]
		want["(a*b.T + a.T) - 3"][k] = av[k]*bv[k] + atv[k] - 3
		want["a.T + s"][k] = atv[k] + sv[k]
	}
	wantBatch := make([]T, 3*R*C)
	for k := range wantBatch {
		wantBatch[k] = xv[k] + yv[k]
	}
	exprs := map[string]expr.Expr[T]{
		"a + b.T":           expr.Of(a).Add(expr.Of(bt)),
		"(a*b.T + a.T) - 3": expr.Of(a).Mul(expr.Of(bt)).Add(expr.Of(at)).SubScalar(3),
		"a.T + s":           expr.Of(at).Add(expr.Of(st)),
	}
	batch := expr.Of(x).Add(expr.Of(yt))

	check := func(x *exec.Executor, name string) {
		for name, e := range exprs {
			got, err := exec.EvalWith(x, e)
			require.NoError(t, err)
			assertValues(t, want[name], got.Values(), "%s", name)
		}
		got, err := exec.EvalWith(x, batch)
		require.NoError(t, err)
		assertValues(t, wantBatch, got.Values(), "x + y.T, a batch of 3")
	}
	for _, tx := range testExecutors {
		check(tx.x, tx.name)
	}
	// Every region streams and prefetches, as large ones do; new
	// executors plan anew.
	defer exec.SetStreamBytes(0)()
	for _, x := range []*exec.Executor{exec.New(exec.Workers(1)), exec.New(exec.Workers(2), exec.Grain(1), exec.BlockSize(16))} {
		check(x, "streaming")
		x.Close()
	}

	// The regions ran in panels.
	exprs["x + y.T"] = batch
	for name, e := range exprs {
		var plan bytes.Buffer
		x := exec.New(exec.Debug(&plan), exec.Workers(2))
		_, err := exec.EvalWith(x, e)
		x.Close()
		require.NoError(t, err)
		assert.Contains(t, plan.String(), " panels, ", "%s runs in panels:\n%s", name, plan.String())
	}
}
