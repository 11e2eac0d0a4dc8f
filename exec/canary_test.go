package exec_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// The canary harness: every op class is evaluated into views of a larger
// buffer filled with a canary value (a head slice at offset 0, a view at an
// offset, a stepped view, a transposed view; 0-d results get 0-d views), and
// must write exactly the view's elements. Adding an op is adding a row to
// canaryCases.

// canaryView places a destination of a shape inside a larger buffer.
type canaryView struct {
	name string
	// place returns the view's strides and offset and the buffer's length,
	// or false when the view kind does not apply to the shape.
	place func(s tensor.Shape) (strides []int, offset, storage int, ok bool)
}

var canaryViews = []canaryView{
	{"prefix", func(s tensor.Shape) ([]int, int, int, bool) {
		n := numel(s)
		return tensor.RowMajorStrides(s), 0, 3*n + 5, true // the first row of [3, s...] and more
	}},
	{"offset", func(s tensor.Shape) ([]int, int, int, bool) {
		n := numel(s)
		return tensor.RowMajorStrides(s), n + 3, 3*n + 5, true
	}},
	{"strided", func(s tensor.Shape) ([]int, int, int, bool) {
		st := tensor.RowMajorStrides(s)
		for i := range st {
			st[i] *= 2
		}
		return st, 1, 2*numel(s) + 4, true
	}},
	{"transposed", func(s tensor.Shape) ([]int, int, int, bool) {
		if len(s) < 2 {
			return nil, 0, 0, false
		}
		st := make([]int, len(s))
		for i, p := 0, 1; i < len(s); i++ {
			st[i] = p
			p *= max(s[i], 1)
		}
		return st, 2, numel(s) + 5, true
	}},
}

func numel(s tensor.Shape) int {
	n, _ := s.Numel()
	return n
}

// canaryDst is one destination of a case: its element type and shape, and
// for an in-place update the values it holds before.
type canaryDst interface {
	shape() tensor.Shape
	canaries() int
	// place makes the destination as a view of a buffer holding canary k.
	place(t *testing.T, v canaryView, k int) (tensor.Any, bool)
	// reference is a fresh tensor holding the values before (nil if none).
	reference() tensor.Any
	// check asserts that dst holds want (broadcast to dst's shape) and that
	// every other element of its buffer still holds canary k.
	// (ulps > 0: within that many units in the last place).
	check(t *testing.T, dst, want tensor.Any, k int, ulps uint64)
	evalTo(x *exec.Executor, dst tensor.Any, root *expr.Node) error
}

type dstOf[T dtype.Elem] struct {
	s    tensor.Shape
	init *tensor.Tensor[T]
}

// out is a destination of shape s; inout one that starts with init's values.
func out[T dtype.Elem](s ...int) canaryDst { return dstOf[T]{s: s} }
func inout[T dtype.Elem](init *tensor.Tensor[T]) canaryDst {
	return dstOf[T]{s: init.Shape(), init: init}
}

func (d dstOf[T]) shape() tensor.Shape { return d.s }

func (d dstOf[T]) canaries() int {
	if dtype.Of[T]().Kind() == dtype.KindBool {
		return 2 // true and false: a written value must differ from one of them
	}
	return 1
}

// canary is 99 in T (true for bool), or 0 (false) as the second one.
func (d dstOf[T]) canary(t *testing.T, k int) T {
	v := int64(99)
	if k > 0 {
		v = 0
	}
	c, err := exec.Eval(expr.Cast[T](expr.Scalar(v)))
	require.NoError(t, err)
	return tensor.Must(c, nil).Values()[0]
}

func (d dstOf[T]) place(t *testing.T, v canaryView, k int) (tensor.Any, bool) {
	st, off, size, ok := v.place(d.s)
	if !ok {
		return nil, false
	}
	buf := make([]T, size)
	c := d.canary(t, k)
	for i := range buf {
		buf[i] = c
	}
	dst, err := tensor.AsStrided(buf, d.s, st, off)
	require.NoError(t, err)
	if d.init != nil {
		for i, o := range elemOffsets(dst) {
			buf[o] = d.init.Values()[i]
		}
	}
	return dst, true
}

func (d dstOf[T]) reference() tensor.Any {
	if d.init == nil {
		return nil
	}
	return d.init.Clone()
}

func (d dstOf[T]) check(t *testing.T, dstAny, wantAny tensor.Any, k int, ulps uint64) {
	t.Helper()
	dst := dstAny.(*tensor.Tensor[T])
	want := tensor.Must(wantAny.(*tensor.Tensor[T]).BroadcastTo(d.s...))
	assertWith(t, withinULPs[T](ulps), want.Values(), dst.Values(), "destination")
	inView := map[int]bool{}
	for _, o := range elemOffsets(dst) {
		inView[o] = true
	}
	c := d.canary(t, k)
	for i, v := range dst.Data() {
		if !inView[i] && !sameValue(v, c) {
			assert.Failf(t, "write outside the destination", "storage element %d of %d (view offset %d, strides %v) holds %v, want the canary %v",
				i, dst.StorageLen(), dst.Offset(), dst.Strides(), v, c)
			return
		}
	}
}

func (d dstOf[T]) evalTo(x *exec.Executor, dst tensor.Any, root *expr.Node) error {
	return exec.EvalToWith(x, dst.(*tensor.Tensor[T]), expr.Wrap[T](root))
}

// elemOffsets returns the storage index of each of t's elements, row-major.
func elemOffsets[T dtype.Elem](t *tensor.Tensor[T]) []int {
	s, st := t.Shape(), t.Strides()
	n := numel(s)
	offs := make([]int, 0, n)
	idx := make([]int, len(s))
	for range n {
		o := t.Offset()
		for i, ix := range idx {
			o += ix * st[i]
		}
		offs = append(offs, o)
		for i := len(idx) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < s[i] {
				break
			}
			idx[i] = 0
		}
	}
	return offs
}

// canaryCase is one row: destinations, the roots written into them (which
// may read the destinations, for in-place updates), and optionally the API
// call that writes them (nil: EvalTo for one root, and Run). ulps > 0 allows
// that many units in the last place: a matmul reading its destination reads
// an operand of the destination's layout, and BLAS sums each layout in its
// own order.
type canaryCase struct {
	name  string
	ulps  uint64
	dsts  []canaryDst
	roots func(d []tensor.Any) []*expr.Node
	apply func(x *exec.Executor, d []tensor.Any) error
}

// one is a case of one root that does not read its destination.
func one[T dtype.Elem](name string, e expr.Expr[T]) canaryCase {
	return canaryCase{name: name, dsts: []canaryDst{out[T](e.Shape()...)},
		roots: func([]tensor.Any) []*expr.Node { return []*expr.Node{e.Node()} }}
}

// update is an in-place case: e is built from the destination's tensor.
func update[T dtype.Elem](name string, init *tensor.Tensor[T], e func(d *tensor.Tensor[T]) expr.Expr[T], apply func(d *tensor.Tensor[T]) error) canaryCase {
	c := canaryCase{name: name, dsts: []canaryDst{inout(init)},
		roots: func(d []tensor.Any) []*expr.Node { return []*expr.Node{e(d[0].(*tensor.Tensor[T])).Node()} }}
	if apply != nil {
		c.apply = func(_ *exec.Executor, d []tensor.Any) error { return apply(d[0].(*tensor.Tensor[T])) }
	}
	return c
}

func withULPs(n uint64, c canaryCase) canaryCase {
	c.ulps = n
	return c
}

func canaryCases(t *testing.T) []canaryCase {
	r := newRand(99)
	f64 := func(s ...int) *tensor.Tensor[float64] { return tensor.Must(tensor.RandN[float64](r.Uint64(), s...)) }
	i32 := func(s ...int) *tensor.Tensor[int32] {
		v := make([]int32, numel(s))
		for i := range v {
			v[i] = int32(r.IntN(7) - 3)
		}
		return fromValues(t, v, s...)
	}
	x, y, b, w := expr.Of(f64(4, 6)), expr.Of(f64(4, 6)), expr.Of(f64(6)), expr.Of(f64(6, 3))
	xt := expr.Of(tensor.Must(f64(6, 4).T()))               // a transposed input
	xp := expr.Of(tensor.Must(f64(4, 8).Slice(1, 1, 7, 1))) // padded rows
	x3 := expr.Of(f64(3, 4, 5))                             // three axes
	big := expr.Of(f64(3, 70000))                           // rows split into chunks
	xi, yi := expr.Of(i32(4, 6)), expr.Of(i32(4, 6))
	xb := x.Gt(y)

	cases := []canaryCase{
		one("neg", x.Neg()),
		one("exp", x.Exp()),
		one("sqrt of abs", x.Abs().Sqrt()),
		one("add broadcast row", x.Add(b)),
		one("mul transposed operand", x.Mul(xt)),
		one("fused chain", x.Mul(y).Add(b).Sigmoid()),
		one("add scalar", x.AddScalar(2)),
		one("pow scalar", x.PowScalar(2)),
		one("int mul scalar", xi.MulScalar(3)),
		one("int add", xi.Add(yi)),
		one("cast f64 to f32", expr.Cast[float32](x)),
		one("cast f64 to int32", expr.Cast[int32](x.MulScalar(10))),
		one("cast int32 to f64", expr.Cast[float64](xi)),
		one("cast f64 to complex128", expr.Cast[complex128](x)),
		one("cast to bool", expr.Cast[bool](xi)),
		one("where", expr.Where(xb, x, y)),
		one("where scalar branch", expr.Where(xb, x, expr.Scalar(0.0))),
		one("lt", x.Lt(y)),
		one("int eq", xi.Eq(yi)),
		one("not", xb.Not()),
		one("broadcast a row", b),
		one("copy of a transposed input", xt),

		one("argmax axis 0", x.ArgMax(0)),
		one("argmax axis 1", x.ArgMax(1)),
		one("argmin axis 0", x.ArgMin(0)),
		one("argmin axis 1 transposed", xt.ArgMin(1)),
		one("argmax of 3 axes", x3.ArgMax(1)),
		one("any axis 1", xb.Any(1)),
		one("all", xb.All()),
		one("sum of a product (dot)", x.Mul(y).Sum(1)),
		one("mean of squares", x.Square().Mean()),
		one("sum of exp axis 0", x.Exp().Sum(0)),
		one("sum transposed", xt.Sum(1)),
		one("sum padded", xp.Sum()),
		one("sum chunked", big.Sum(1)),
		one("mean chunked", big.Mean(1)),
		one("mean chunked all", big.Mean()),
		one("sum to size", x.SumTo(1, 6)),
		one("int sum", xi.Sum(0)),
		one("int prod", xi.Prod(1)),
		one("mean as f64", expr.MeanAs[float64](xi, 1)),
		one("sum as int64", expr.SumAs[int64](xi)),
		one("broadcast keepdims into a matrix", x.SumKeepDims(1)), // dst is [4,1]
		{name: "broadcast mean into a matrix", dsts: []canaryDst{out[float64](4, 6)},
			roots: func([]tensor.Any) []*expr.Node { return []*expr.Node{x.MeanKeepDims(1).Node()} }},
		{name: "broadcast scalar into a matrix", dsts: []canaryDst{out[float64](4, 6)},
			roots: func([]tensor.Any) []*expr.Node { return []*expr.Node{x.Sum().Node()} }},

		one("matmul", x.MatMul(w)),
		one("matmul transposed operand", xt.MatMul(w)),
		one("matmul batched", x3.MatMul(expr.Of(f64(5, 2)))),
		one("matmul broadcast batch", expr.Of(f64(2, 1, 4, 6)).MatMul(expr.Of(f64(3, 6, 2)))),
		one("matvec", x.MatMul(b)),
		one("vecmat", b.MatMul(w)),
		one("dot", b.MatMul(b)),
		one("matmul plus bias", x.MatMul(w).Add(expr.Of(f64(3))).Relu()),
		one("int matmul", xi.MatMul(expr.Of(i32(6, 2)))),
		one("complex matmul", expr.Cast[complex128](x).MatMul(expr.Cast[complex128](w))),

		update("add to", f64(4, 6), func(d *tensor.Tensor[float64]) expr.Expr[float64] { return expr.Of(d).Add(b) },
			func(d *tensor.Tensor[float64]) error {
				return exec.AddTo(d, b.Node().Tensor().(*tensor.Tensor[float64]))
			}),
		update("mul to", f64(4, 6), func(d *tensor.Tensor[float64]) expr.Expr[float64] { return expr.Of(d).Mul(y) },
			func(d *tensor.Tensor[float64]) error {
				return exec.MulTo(d, y.Node().Tensor().(*tensor.Tensor[float64]))
			}),
		update("copy to", f64(4, 6), func(d *tensor.Tensor[float64]) expr.Expr[float64] { return expr.Of(d).Mul(expr.Scalar(0.0)).Add(b) },
			func(d *tensor.Tensor[float64]) error {
				return exec.CopyTo(d, b.Node().Tensor().(*tensor.Tensor[float64]))
			}),
		update("int sub to", i32(4, 6), func(d *tensor.Tensor[int32]) expr.Expr[int32] { return expr.Of(d).Sub(yi) },
			func(d *tensor.Tensor[int32]) error { return exec.SubTo(d, yi.Node().Tensor().(*tensor.Tensor[int32])) }),
		update("add own transpose", f64(5, 5), func(d *tensor.Tensor[float64]) expr.Expr[float64] {
			return expr.Of(d).Add(expr.Of(d).T())
		}, nil),
		withULPs(8, update("matmul by itself", f64(4, 4), func(d *tensor.Tensor[float64]) expr.Expr[float64] {
			return expr.Of(d).MatMul(expr.Of(d))
		}, nil)),
		update("sum of itself added", f64(6), func(d *tensor.Tensor[float64]) expr.Expr[float64] {
			return expr.Of(d).Add(expr.Of(d).Sum())
		}, nil),

		{name: "run several roots", dsts: []canaryDst{out[float64](4), out[float64](4, 6), out[int64](4), out[bool](4, 6), out[float64](4, 3), out[float64]()},
			roots: func([]tensor.Any) []*expr.Node {
				return []*expr.Node{x.Sum(1).Node(), x.Add(y).Node(), x.ArgMax(1).Node(), x.Lt(y).Node(), x.MatMul(w).Node(), x.Max().Node()}
			}},
		{name: "run roots reading a destination", dsts: []canaryDst{inout(f64(4, 6)), out[float64](4, 6), out[float64](6)},
			roots: func(d []tensor.Any) []*expr.Node {
				d0 := expr.Of(d[0].(*tensor.Tensor[float64]))
				return []*expr.Node{d0.Add(x).Node(), d0.Mul(x).Node(), d0.Sum(0).Node()}
			}},
	}
	// Every reduction over every axis set, with and without keepdims.
	type reduction struct {
		name        string
		plain, kept func(e expr.Expr[float64], axes ...int) expr.Expr[float64]
	}
	reductions := []reduction{
		{"sum", expr.Expr[float64].Sum, expr.Expr[float64].SumKeepDims},
		{"mean", expr.Expr[float64].Mean, expr.Expr[float64].MeanKeepDims},
		{"max", expr.Expr[float64].Max, expr.Expr[float64].MaxKeepDims},
		{"min", expr.Expr[float64].Min, expr.Expr[float64].MinKeepDims},
		{"prod", expr.Expr[float64].Prod, expr.Expr[float64].ProdKeepDims},
	}
	for _, rd := range reductions {
		for _, in := range []struct {
			name string
			e    expr.Expr[float64]
			axes [][]int
		}{
			{"2d", x, [][]int{nil, {0}, {1}}},
			{"3d", x3, [][]int{{0, 2}, {1}, {2}}},
		} {
			for _, axes := range in.axes {
				cases = append(cases,
					one(fmt.Sprintf("%s %s axes %v", rd.name, in.name, axes), rd.plain(in.e, axes...)),
					one(fmt.Sprintf("%s keepdims %s axes %v", rd.name, in.name, axes), rd.kept(in.e, axes...)))
			}
		}
	}
	return cases
}

func TestCanaryDestinations(t *testing.T) {
	for _, c := range canaryCases(t) {
		for _, v := range canaryViews {
			for _, x := range []struct {
				name string
				x    *exec.Executor
			}{{"serial", serial}, {"odd", odd}} {
				t.Run(c.name+"/"+v.name+"/"+x.name, func(t *testing.T) {
					runCanary(t, c, v, x.x)
				})
			}
		}
	}
}

func runCanary(t *testing.T, c canaryCase, v canaryView, x *exec.Executor) {
	refs := make([]tensor.Any, len(c.dsts))
	for i, d := range c.dsts {
		refs[i] = d.reference()
	}
	roots := c.roots(refs)
	for _, r := range roots {
		require.NoError(t, r.Err())
	}
	want, err := serial.Run(roots, nil)
	require.NoError(t, err, "reference")

	type entry struct {
		name string
		run  func(d []tensor.Any) error
	}
	entries := []entry{{"run", func(d []tensor.Any) error { _, err := x.Run(c.roots(d), d); return err }}}
	switch {
	case c.apply != nil:
		entries = append(entries, entry{"apply", func(d []tensor.Any) error { return c.apply(x, d) }})
	case len(c.dsts) == 1:
		entries = append(entries, entry{"evalto", func(d []tensor.Any) error { return c.dsts[0].evalTo(x, d[0], c.roots(d)[0]) }})
	}
	canaries := 1
	for _, d := range c.dsts {
		canaries = max(canaries, d.canaries())
	}
	for _, e := range entries {
		for k := range canaries {
			dsts := make([]tensor.Any, len(c.dsts))
			for i, d := range c.dsts {
				dst, ok := d.place(t, v, min(k, d.canaries()-1))
				if !ok {
					t.Skipf("no %s view of shape %v", v.name, d.shape())
				}
				dsts[i] = dst
			}
			require.NoError(t, e.run(dsts), e.name)
			for i, d := range c.dsts {
				d.check(t, dsts[i], want[i], min(k, d.canaries()-1), c.ulps)
			}
		}
	}
}

// The report's case: a mean into the first row of a matrix left the other
// rows scaled too (NumPy's out=m[0] leaves them alone).
func TestReduceIntoFirstRow(t *testing.T) {
	m := tensor.Must(tensor.Full(8.0, 3, 4))
	row := tensor.Must(m.Index(0, 0))
	require.NoError(t, exec.EvalTo(row, expr.From(tensor.Ones[float64](2, 4)).Mean(0)))
	assert.Equal(t, []float64{1, 1, 1, 1, 8, 8, 8, 8, 8, 8, 8, 8}, m.Values())
}
