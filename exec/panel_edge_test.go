package exec_test

// Edge cases of the tile table's panels row (exec/tiles.go; the panel.go
// of the earlier mode flags is gone, the behaviour stays) against
// reference loops: shapes
// around the panel's height, the band and the copy's 32-run chunk; batch
// axes, views at storage offsets as inputs and destinations; operands
// panels must refuse ([1,C], [C], [R,1]) and those they take (scalars,
// [1,1], per-batch constants, a broadcast transposed input); casts between
// transposed inputs of several types, complex types, where and comparisons,
// integer division; several outputs, in-place updates and destinations that
// overlap inputs; empty shapes; the transpose loops turned off after the
// plan was made; and random combinations of these.

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/simd"
	"github.com/tensorplay/tensorplay/tensor"
)

// panelEdgeExecutors: the shared executors, the wide and odd ones included.
func panelEdgeExecutors() []struct {
	name string
	x    *exec.Executor
} {
	return []struct {
		name string
		x    *exec.Executor
	}{
		{"default", exec.Default}, {"serial", serial}, {"tiled", tiled}, {"wide", wide}, {"odd", odd},
	}
}

// panelPlan returns the debug plan of e on a fresh two-worker executor.
func panelPlan[T dtype.Elem](t *testing.T, e expr.Expr[T], opts ...exec.Option) string {
	t.Helper()
	var plan bytes.Buffer
	x := exec.New(append([]exec.Option{exec.Debug(&plan), exec.Workers(2)}, opts...)...)
	defer x.Close()
	_, err := exec.EvalWith(x, e)
	require.NoError(t, err)
	return plan.String()
}

// checkPanelExpr evaluates e on each of panelEdgeExecutors (and with streaming
// forced) and compares with want exactly.
func checkPanelExpr[T dtype.Elem](t *testing.T, name string, e expr.Expr[T], want []T) {
	t.Helper()
	for _, tx := range panelEdgeExecutors() {
		got, err := exec.EvalWith(tx.x, e)
		require.NoError(t, err, "%s on %s", name, tx.name)
		assertValues(t, want, got.Values(), "%s on %s", name, tx.name)
	}
	restore := exec.SetStreamBytes(0)
	defer restore()
	for _, opts := range [][]exec.Option{{exec.Workers(1)}, {exec.Workers(8), exec.Grain(1), exec.BlockSize(37)}} {
		x := exec.New(opts...)
		got, err := exec.EvalWith(x, e)
		x.Close()
		require.NoError(t, err, "%s streaming", name)
		assertValues(t, want, got.Values(), "%s streaming", name)
	}
}

func inPanels(plan string) bool { return strings.Contains(plan, " panels, ") }

// TestPanelEdgeShapes: a + b.T - c*2 over a grid of shapes around the
// panel's height, the band, the 32-run chunk and maxPanelCols.
func TestPanelEdgeShapes(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no panels")
	}
	r := newRand(7)
	rowsList := []int{1, 3, 7, 8, 9, 31, 33, 64, 65, 129, 200}
	colsList := []int{1, 2, 5, 31, 32, 33, 65, 300, 4096}
	for _, R := range rowsList {
		for _, C := range colsList {
			if R*C > 300_000 {
				continue
			}
			a := randomTensor[float64](t, r, R, C)
			bt := tensor.Must(randomTensor[float64](t, r, C, R).T())
			c := randomTensor[float64](t, r, R, C)
			av, bv, cv := a.Values(), bt.Values(), c.Values()
			want := make([]float64, R*C)
			for k := range want {
				want[k] = av[k] + bv[k] - cv[k]*2
			}
			e := expr.Of(a).Add(expr.Of(bt)).Sub(expr.Of(c).MulScalar(2))
			checkPanelExpr(t, fmt.Sprintf("%dx%d", R, C), e, want)
		}
	}
	// int8 and int16, whose panels are 128 bytes high.
	for _, R := range []int{5, 127, 129, 300} {
		for _, C := range []int{3, 33, 1000} {
			a := randomTensor[int8](t, r, R, C)
			bt := tensor.Must(randomTensor[int8](t, r, C, R).T())
			av, bv := a.Values(), bt.Values()
			want := make([]int8, R*C)
			for k := range want {
				want[k] = av[k]*3 + bv[k]
			}
			checkPanelExpr(t, fmt.Sprintf("int8 %dx%d", R, C), expr.Of(a).MulScalar(3).Add(expr.Of(bt)), want)

			a16 := randomTensor[int16](t, r, R, C)
			bt16 := tensor.Must(randomTensor[int16](t, r, C, R).T())
			av16, bv16 := a16.Values(), bt16.Values()
			want16 := make([]int16, R*C)
			for k := range want16 {
				want16[k] = av16[k] - bv16[k]
			}
			checkPanelExpr(t, fmt.Sprintf("int16 %dx%d", R, C), expr.Of(a16).Sub(expr.Of(bt16)), want16)
		}
	}
}

// TestPanelEdgeOffsets: batches whose inputs and destinations are views
// with storage offsets.
func TestPanelEdgeOffsets(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no panels")
	}
	r := newRand(8)
	const B, R, C = 3, 77, 45
	// x: batches 1..3 of a [5,R,C] tensor (offset R*C), contiguous rows.
	x := tensor.Must(randomTensor[float32](t, r, 5, R, C).Slice(0, 1, 4, 1))
	// y: [B,C,R+6] columns 2..R+2, permuted: strides (C*(R+6), 1, R+6), offset 2.
	y := tensor.Must(tensor.Must(randomTensor[float32](t, r, B, C, R+6).Slice(2, 2, R+2, 1)).Permute(0, 2, 1))
	// z: batch 2 of a [4,C,R] tensor, transposed, broadcast over the batch.
	z := tensor.Must(tensor.Must(randomTensor[float32](t, r, 4, C, R).Index(0, 2)).T())
	xv, yv := x.Values(), y.Values()
	zb := broadcastValues(t, z, tensor.Shape{B, R, C})
	want := make([]float32, B*R*C)
	for k := range want {
		want[k] = xv[k]*yv[k] + zb[k]
	}
	e := expr.Of(x).Mul(expr.Of(y)).Add(expr.Of(z))
	require.True(t, inPanels(panelPlan(t, e)), panelPlan(t, e))
	checkPanelExpr(t, "views", e, want)

	// An input strided along its rows but not transposed (every other
	// column of a wider tensor): no panels.
	xs := tensor.Must(randomTensor[float32](t, r, B, R, 2*C).Slice(2, 0, 2*C, 2))
	xsv := xs.Values()
	wantS := make([]float32, B*R*C)
	for k := range wantS {
		wantS[k] = xsv[k] + yv[k]
	}
	es := expr.Of(xs).Add(expr.Of(y))
	require.False(t, inPanels(panelPlan(t, es)), panelPlan(t, es))
	checkPanelExpr(t, "strided rows", es, wantS)

	// Destinations: a batch slice of a larger tensor (offset, contiguous),
	// and rows 2..R+2 of every batch (offset 2C, rows contiguous).
	for _, tx := range panelEdgeExecutors() {
		big := tensor.Must(tensor.Zeros[float32](B+2, R, C))
		dst := tensor.Must(big.Slice(0, 1, B+1, 1))
		require.NoError(t, exec.EvalToWith(tx.x, dst, e))
		assertValues(t, want, dst.Values(), "dst batch slice on %s", tx.name)
		// Untouched elements stay zero.
		for _, b := range []int{0, B + 1} {
			for _, v := range tensor.Must(big.Index(0, b)).Values() {
				require.Zero(t, v)
			}
		}

		big2 := tensor.Must(tensor.Zeros[float32](B, R+4, C))
		dst2 := tensor.Must(big2.Slice(1, 2, R+2, 1))
		require.NoError(t, exec.EvalToWith(tx.x, dst2, e))
		assertValues(t, want, dst2.Values(), "dst row slice on %s", tx.name)

		// A transposed destination.
		dst4 := tensor.Must(tensor.Must(tensor.Zeros[float32](B, C, R)).Permute(0, 2, 1))
		require.NoError(t, exec.EvalToWith(tx.x, dst4, e))
		assertValues(t, want, dst4.Values(), "transposed dst on %s", tx.name)

		// A destination whose rows are not contiguous with one another.
		big3 := tensor.Must(tensor.Zeros[float32](B, R, C+3))
		dst3 := tensor.Must(big3.Slice(2, 1, C+1, 1))
		require.NoError(t, exec.EvalToWith(tx.x, dst3, e))
		assertValues(t, want, dst3.Values(), "dst column slice on %s", tx.name)
	}
}

// TestPanelEdgeBroadcasts: scalars, 0-d tensors, [1,1], [1,C], [C], [R,1]
// and batch-broadcast operands beside a transposed one. A broadcast row
// ([1,C], [C]) is a repeated row, copied into the panel once per row of
// it; a broadcast column is strided and keeps the panels out.
func TestPanelEdgeBroadcasts(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no panels")
	}
	r := newRand(9)
	const R, C = 150, 70
	a := randomTensor[float64](t, r, R, C)
	bt := tensor.Must(randomTensor[float64](t, r, C, R).T())
	zero := tensor.Must(tensor.FromSlice([]float64{2.5}))
	zero0 := tensor.Must(zero.Reshape())
	one := randomTensor[float64](t, r, 1, 1)
	row := randomTensor[float64](t, r, 1, C)
	vec := randomTensor[float64](t, r, C)
	col := randomTensor[float64](t, r, R, 1)
	batch := randomTensor[float64](t, r, 3, 1, 1)
	shape := tensor.Shape{R, C}
	av, bv := a.Values(), bt.Values()
	cases := []struct {
		name   string
		other  *tensor.Tensor[float64]
		shape  tensor.Shape
		panels bool
	}{
		{"0-d", zero0, shape, true},
		{"[1,1]", one, shape, true},
		{"[1,C]", row, shape, true},
		{"[C]", vec, shape, true},
		{"[R,1]", col, shape, false},
		{"[3,1,1]", batch, tensor.Shape{3, R, C}, true},
	}
	for _, tc := range cases {
		ov := broadcastValues(t, tc.other, tc.shape)
		want := make([]float64, len(ov))
		for k := range want {
			want[k] = (av[k%(R*C)] + bv[k%(R*C)]) * ov[k]
		}
		e := expr.Of(a).Add(expr.Of(bt)).Mul(expr.Of(tc.other))
		plan := panelPlan(t, e)
		require.Equal(t, tc.panels, inPanels(plan), "%s:\n%s", tc.name, plan)
		checkPanelExpr(t, tc.name, e, want)
	}
	// A scalar expression and a stride-0 broadcast of a transposed input.
	want := make([]float64, R*C)
	for k := range want {
		want[k] = bv[k]*0.5 - av[k]
	}
	checkPanelExpr(t, "scalar", expr.Of(bt).Mul(expr.Scalar(0.5)).Sub(expr.Of(a)), want)
	bt3 := tensor.Must(bt.BroadcastTo(2, R, C))
	want3 := make([]float64, 2*R*C)
	for k := range want3 {
		want3[k] = bv[k%(R*C)] + 1
	}
	e3 := expr.Of(bt3).AddScalar(1)
	require.True(t, inPanels(panelPlan(t, e3)))
	checkPanelExpr(t, "broadcast transposed", e3, want3)
}

// TestPanelEdgeTypes: casts between transposed inputs of several types,
// complex, where with a transposed condition, integer division.
func TestPanelEdgeTypes(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no panels")
	}
	r := newRand(10)
	const R, C = 140, 90
	i8t := tensor.Must(randomTensor[int8](t, r, C, R).T())
	i16t := tensor.Must(randomTensor[int16](t, r, C, R).T())
	f32t := tensor.Must(randomTensor[float32](t, r, C, R).T())
	a := randomTensor[float64](t, r, R, C)
	i8v, i16v, f32v, av := i8t.Values(), i16t.Values(), f32t.Values(), a.Values()
	want := make([]float64, R*C)
	for k := range want {
		want[k] = float64(i8v[k]) + float64(i16v[k])*float64(f32v[k]) - av[k]
	}
	e := expr.Cast[float64](expr.Of(i8t)).Add(expr.Cast[float64](expr.Of(i16t)).Mul(expr.Cast[float64](expr.Of(f32t)))).Sub(expr.Of(a))
	require.True(t, inPanels(panelPlan(t, e)), panelPlan(t, e))
	checkPanelExpr(t, "casts", e, want)

	// Narrowing: float64 transposed to int8 beside int8 rows.
	ft := tensor.Must(tensor.Must(tensor.FromSlice(func() []float64 {
		v := make([]float64, R*C)
		for i := range v {
			v[i] = float64(r.IntN(200) - 100)
		}
		return v
	}(), C, R)).T())
	b8 := randomTensor[int8](t, r, R, C)
	fv, b8v := ft.Values(), b8.Values()
	want8 := make([]int8, R*C)
	for k := range want8 {
		want8[k] = int8(fv[k]) + b8v[k]
	}
	checkPanelExpr(t, "narrowing", expr.Cast[int8](expr.Of(ft)).Add(expr.Of(b8)), want8)

	// complex128 and complex64.
	ct := tensor.Must(randomTensor[complex128](t, r, C, R).T())
	ca := randomTensor[complex128](t, r, R, C)
	ctv, cav := ct.Values(), ca.Values()
	wantc := make([]complex128, R*C)
	for k := range wantc {
		wantc[k] = ctv[k]*cav[k] + ctv[k]
	}
	checkPanelExpr(t, "complex128", expr.Of(ct).Mul(expr.Of(ca)).Add(expr.Of(ct)), wantc)
	c64t := tensor.Must(randomTensor[complex64](t, r, C, R).T())
	c64a := randomTensor[complex64](t, r, R, C)
	c64tv, c64av := c64t.Values(), c64a.Values()
	wantc64 := make([]complex64, R*C)
	for k := range wantc64 {
		wantc64[k] = c64tv[k] - c64av[k]
	}
	checkPanelExpr(t, "complex64", expr.Of(c64t).Sub(expr.Of(c64a)), wantc64)

	// where(cond.T, a, b.T).
	cond := tensor.Must(randomTensor[bool](t, r, C, R).T())
	bt := tensor.Must(randomTensor[float64](t, r, C, R).T())
	condv, bv := cond.Values(), bt.Values()
	wantw := make([]float64, R*C)
	for k := range wantw {
		if condv[k] {
			wantw[k] = av[k]
		} else {
			wantw[k] = bv[k]
		}
	}
	ew := expr.Where(expr.Of(cond), expr.Of(a), expr.Of(bt))
	require.True(t, inPanels(panelPlan(t, ew)), panelPlan(t, ew))
	checkPanelExpr(t, "where", ew, wantw)
	// A transposed condition alone.
	wantn := make([]bool, R*C)
	for k := range wantn {
		wantn[k] = !condv[k]
	}
	checkPanelExpr(t, "not cond.T", expr.Of(cond).Not(), wantn)
	// Comparison of transposed operands into bool.
	wantlt := make([]bool, R*C)
	for k := range wantlt {
		wantlt[k] = bv[k] < av[k]
	}
	checkPanelExpr(t, "b.T < a", expr.Of(bt).Lt(expr.Of(a)), wantlt)

	// Integer division by a transposed divisor without zeros.
	num := randomTensor[int32](t, r, R, C)
	den := tensor.Must(randomTensor[int32](t, r, C, R).T())
	for i, v := range den.Data() {
		if v == 0 || v == -1 {
			den.Data()[i] = 7
		}
	}
	nv, dv := num.Values(), den.Values()
	wantd := make([]int32, R*C)
	wantf := make([]int32, R*C)
	for k := range wantd {
		wantd[k] = nv[k] / dv[k]
		q := nv[k] / dv[k]
		if (nv[k]%dv[k] != 0) && ((nv[k] < 0) != (dv[k] < 0)) {
			q--
		}
		wantf[k] = q
	}
	checkPanelExpr(t, "divtrunc", expr.Of(num).DivTrunc(expr.Of(den)), wantd)
	checkPanelExpr(t, "divfloor", expr.Of(num).DivFloor(expr.Of(den)), wantf)
	// Division by zero in a panel: an error, as elsewhere, not a crash.
	den0 := tensor.Must(tensor.Zeros[int32](C, R))
	_, err := exec.EvalWith(tiled, expr.Of(num).DivTrunc(expr.From(den0.T())))
	_, err2 := exec.EvalWith(tiled, expr.Of(num).DivTrunc(expr.Of(tensor.Must(tensor.Zeros[int32](R, C)))))
	require.Equal(t, err2 == nil, err == nil, "panel %v, rows %v", err, err2)
}

// TestPanelEdgeOutputs: several outputs, in-place updates and
// destinations that overlap inputs.
func TestPanelEdgeOutputs(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no panels")
	}
	r := newRand(11)
	const R, C = 130, 130
	a := randomTensor[float64](t, r, R, C)
	bt := tensor.Must(randomTensor[float64](t, r, C, R).T())
	av, bv := a.Values(), bt.Values()
	w1, w2, w3 := make([]float64, R*C), make([]float64, R*C), make([]float64, R*C)
	for k := range w1 {
		w1[k], w2[k], w3[k] = av[k]+bv[k], av[k]*bv[k], bv[k]-1
	}
	es := []expr.Expr[float64]{expr.Of(a).Add(expr.Of(bt)), expr.Of(a).Mul(expr.Of(bt)), expr.Of(bt).SubScalar(1), expr.Of(bt)}
	for _, tx := range panelEdgeExecutors() {
		got, err := exec.EvalNWith(tx.x, es)
		require.NoError(t, err)
		assertValues(t, w1, got[0].Values(), "out 0 on %s", tx.name)
		assertValues(t, w2, got[1].Values(), "out 1 on %s", tx.name)
		assertValues(t, w3, got[2].Values(), "out 2 on %s", tx.name)
		assertValues(t, bv, got[3].Values(), "out 3 on %s", tx.name)
	}

	// Two outputs in one region, the second into a transposed destination:
	// its layout strides are those of a transposed operand, so no panels.
	for _, tx := range panelEdgeExecutors() {
		d0 := tensor.Must(tensor.Zeros[float64](R, C))
		d1 := tensor.Must(tensor.Must(tensor.Zeros[float64](C, R)).T())
		_, err := tx.x.Run([]*expr.Node{es[0].Node(), es[1].Node()}, []tensor.Any{d0, d1})
		require.NoError(t, err)
		assertValues(t, w1, d0.Values(), "contiguous dst on %s", tx.name)
		assertValues(t, w2, d1.Values(), "transposed dst on %s", tx.name)
	}

	for _, tx := range panelEdgeExecutors() {
		// a += b.T, two ways.
		d := a.Clone()
		require.NoError(t, exec.EvalToWith(tx.x, d, expr.Of(d).Add(expr.Of(bt))))
		assertValues(t, w1, d.Values(), "EvalTo(d, d + b.T) on %s", tx.name)
		d = a.Clone()
		require.NoError(t, exec.AddTo(d, bt))
		assertValues(t, w1, d.Values(), "AddTo(d, b.T)")

		// d += d.T (overlap: d.T is staged).
		d = a.Clone()
		dt := tensor.Must(d.T())
		want := make([]float64, R*C)
		at := tensor.Must(a.T()).Values()
		for k := range want {
			want[k] = av[k] + at[k]
		}
		require.NoError(t, exec.EvalToWith(tx.x, d, expr.Of(d).Add(expr.Of(dt))))
		assertValues(t, want, d.Values(), "EvalTo(d, d + d.T) on %s", tx.name)
		d = a.Clone()
		require.NoError(t, exec.AddTo(d, tensor.Must(d.T())))
		assertValues(t, want, d.Values(), "AddTo(d, d.T)")

		// d = d.T*2 + b.T (the destination only read transposed).
		d = a.Clone()
		for k := range want {
			want[k] = at[k]*2 + bv[k]
		}
		require.NoError(t, exec.EvalToWith(tx.x, d, expr.Of(tensor.Must(d.T())).MulScalar(2).Add(expr.Of(bt))))
		assertValues(t, want, d.Values(), "EvalTo(d, d.T*2 + b.T) on %s", tx.name)

		// Destination rows 1..R of a [R+1, C] buffer, input rows 0..R-1 of
		// the same buffer (partial overlap, shifted by a row).
		buf := tensor.Must(tensor.Zeros[float64](R+1, C))
		copy(buf.Data(), a.Data())
		src := tensor.Must(buf.Slice(0, 0, R, 1))
		dst := tensor.Must(buf.Slice(0, 1, R+1, 1))
		for k := range want {
			want[k] = av[k] + bv[k]
		}
		require.NoError(t, exec.EvalToWith(tx.x, dst, expr.Of(src).Add(expr.Of(bt))))
		assertValues(t, want, dst.Values(), "shifted overlap on %s", tx.name)
	}
}

// TestPanelEdgeZeroSize: empty shapes with a transposed operand.
func TestPanelEdgeZeroSize(t *testing.T) {
	r := newRand(12)
	for _, sh := range [][2]int{{0, 5}, {5, 0}, {0, 0}} {
		R, C := sh[0], sh[1]
		a := randomTensor[float64](t, r, R, C)
		bt := tensor.Must(randomTensor[float64](t, r, C, R).T())
		checkPanelExpr(t, fmt.Sprint(sh), expr.Of(a).Add(expr.Of(bt)), []float64{})
	}
	x := randomTensor[float64](t, r, 0, 4, 5)
	y := tensor.Must(randomTensor[float64](t, r, 0, 5, 4).Permute(0, 2, 1))
	checkPanelExpr(t, "batch 0", expr.Of(x).Add(expr.Of(y)), []float64{})
}

// TestPanelEdgeSIMDTurnedOff: TestBandsAfterSIMDTurnedOff with
// partial panels, several workers, several chunks, prefetches and streams.
func TestPanelEdgeSIMDTurnedOff(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no panels")
	}
	saved := simd.Enabled
	t.Cleanup(func() { simd.Enabled = saved })
	defer exec.SetStreamBytes(0)()
	r := newRand(13)
	const R, C = 150, 75
	a := randomTensor[int16](t, r, R, C)
	bt := tensor.Must(randomTensor[int16](t, r, C, R).T())
	av, bv := a.Values(), bt.Values()
	want := make([]int16, R*C)
	for k := range want {
		want[k] = av[k] + bv[k]
	}
	e := expr.Of(a).Add(expr.Of(bt))
	x := exec.New(exec.Workers(3), exec.Grain(1), exec.BlockSize(37))
	defer x.Close()
	got, err := exec.EvalWith(x, e)
	require.NoError(t, err)
	assertValues(t, want, got.Values(), "with loops")
	simd.Enabled = false
	got, err = exec.EvalWith(x, e)
	require.NoError(t, err)
	assertValues(t, want, got.Values(), "loops off")
}

// TestPanelEdgeRandom: random shapes, views with offsets and padding,
// batch axes, destinations and executors, against a reference loop.
func TestPanelEdgeRandom(t *testing.T) {
	if !simd.Enabled {
		t.Skip("no panels")
	}
	t.Run("float64", func(t *testing.T) { panelEdgeRandom[float64](t, 21) })
	t.Run("float32", func(t *testing.T) { panelEdgeRandom[float32](t, 22) })
	t.Run("int16", func(t *testing.T) { panelEdgeRandom[int16](t, 23) })
	t.Run("int8", func(t *testing.T) { panelEdgeRandom[int8](t, 24) })
	t.Run("complex128", func(t *testing.T) { panelEdgeRandom[complex128](t, 25) })
}

func panelEdgeRandom[T dtype.Numeric](t *testing.T, seed uint64) {
	r := newRand(seed)
	xs := []*exec.Executor{serial, tiled, wide, odd}
	for _, bs := range []int{16, 37, 100} {
		x := exec.New(exec.Workers(1+r.IntN(8)), exec.Grain(1), exec.BlockSize(bs))
		defer x.Close()
		xs = append(xs, x)
	}
	panels := 0
	for iter := 0; iter < 60; iter++ {
		B := r.IntN(4) // 0: no batch axis
		R := 1 + r.IntN(150)
		C := 1 + r.IntN(120)
		if r.IntN(8) == 0 {
			C = 4090 + r.IntN(10)
			R = 1 + r.IntN(20)
		}
		lead := []int{}
		if B > 0 {
			lead = []int{B}
		}
		shape := append(append([]int{}, lead...), R, C)
		n := R * C
		if B > 0 {
			n *= B
		}
		// a: contiguous rows, possibly at an offset (a later batch or rows
		// of a taller tensor).
		var a *tensor.Tensor[T]
		switch r.IntN(3) {
		case 0:
			a = randomTensor[T](t, r, shape...)
		case 1:
			big := randomTensor[T](t, r, append(append([]int{}, lead...), R+3, C)...)
			a = tensor.Must(big.Slice(len(lead), 2, R+2, 1))
		default:
			big := randomTensor[T](t, r, append([]int{B + 2}, R, C)...)
			a = tensor.Must(big.Slice(0, 1, B+1, 1))
			if B == 0 {
				a = tensor.Must(tensor.Must(big.Index(0, 1)).Reshape(R, C))
			}
		}
		// bt, ct: transposed, possibly padded and at an offset.
		transposed := func() *tensor.Tensor[T] {
			pad, off := r.IntN(3), r.IntN(3)
			src := randomTensor[T](t, r, append(append([]int{}, lead...), C, R+pad+off)...)
			v := tensor.Must(src.Slice(len(lead)+1, off, off+R, 1))
			if B > 0 {
				return tensor.Must(v.Permute(0, 2, 1))
			}
			return tensor.Must(v.T())
		}
		bt, ct := transposed(), transposed()
		s := T(3)
		e := expr.Of(a).Mul(expr.Of(bt)).Add(expr.Of(ct)).Sub(expr.Scalar(s))
		av, bv, cv := a.Values(), bt.Values(), ct.Values()
		want := make([]T, n)
		for k := range want {
			want[k] = av[k]*bv[k] + cv[k] - s
		}
		if p := panelPlan(t, e); inPanels(p) || strings.Contains(p, " interleave, ") {
			panels++ // interleave tiles copy their transposed inputs whole, as panels do
		}
		x := xs[r.IntN(len(xs))]
		name := fmt.Sprintf("iter %d shape %v", iter, shape)
		got, err := exec.EvalWith(x, e)
		require.NoError(t, err, name)
		assertValues(t, want, got.Values(), "%s", name)
		// Into a destination at an offset.
		big := tensor.Must(tensor.Zeros[T](append([]int{B + 2}, R, C)...))
		var dst *tensor.Tensor[T]
		if B > 0 {
			dst = tensor.Must(big.Slice(0, 1, B+1, 1))
		} else {
			dst = tensor.Must(big.Index(0, 1))
		}
		require.NoError(t, exec.EvalToWith(x, dst, e), name)
		assertValues(t, want, dst.Values(), "%s into a view", name)
	}
	require.Greater(t, panels, 30)
}
