package exec_test

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// FuzzGraph decodes its input into a random expression graph (elementwise
// unary, binary, scalar and comparison ops, Where, casts, reductions over
// random axes with and without keepdims, SumTo, reshapes, permutes,
// expands, slices, embeds, squeezes, matmul) over random leaf views
// (permutes, steps, negative starts, expands, indexes, unsqueezes, offsets
// into storages that several leaves share, 0-d and zero-size tensors) of
// float64, float32, int64, int32, uint8 and bool data, and checks exec
// against the naive evaluator of the reference_eval*_test.go files:
//
//   - shape errors: a graph the reference calls illegal must carry a typed
//     error (a type of package expr, tensor or exec) and write nothing; a
//     legal one must build and evaluate;
//   - values: integers and bools exactly; floats bit for bit wherever the
//     docs promise it (one IEEE op or one Go math function per element),
//     and within a bound where they do not (sums, means, products, matmul:
//     the order is the library's; exp, log, sin, cos, tanh and sigmoid:
//     internal/vmath's kernels, within their documented ulp bounds). Such
//     inexact nodes are evaluated as extra roots and checked on their own;
//     the reference then continues from the library's values, so that
//     everything downstream is still compared bit for bit;
//   - determinism: 1 and 3 workers give the same bits as the default;
//   - destinations: EvalTo into a fresh strided view of a larger storage
//     (the rest of the storage must not change) and into one of the
//     graph's own leaves (x = f(x, ...), computed as if from a copy, per
//     docs/inplace.md), or the typed error that refuses it, writing nothing.
//
// Known issue-19 bugs that are being fixed elsewhere are recognised and
// skipped (knownIssue), so that fuzzing finds new ones. To fuzz longer:
//
//	go test ./exec -run '^$' -fuzz '^FuzzGraph$' -fuzztime 5m -parallel 1
func FuzzGraph(f *testing.F) {
	for _, s := range fuzzGraphSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		runGraphCase(t, data)
	})
}

// fuzzGraphSeeds cover every op class, dtype and view kind: a greedy pick
// from 20000 random inputs, each adding the most op, dtype and view tags
// not yet covered (the comment lists its tags).
var fuzzGraphSeeds = []string{
	"\r\xa9\xdc^\x97Y\xae|\xa2\x01\xef\x15\xef\x1b\xca\xcb\xfd&+\x1a\x1b\xe6Z\x86\xfb~\b\xf12=\x97:\xcc\x05\x84\x81",                                   // 0-d dt:bool dt:float64 dt:uint8 op:add op:and op:cast op:ge op:le op:leaf op:neg op:scalar op:where view:negstart view:permute view:slice view:unsqueeze
	"\x1a\x98\\\xb0\xad\x7f\b\x15*D$Y\xce\x1d\xbbP]U=\xf5\xca\x1c;\xa3\x8e|\x0e\xfe\x9f\xfd\xd0e\xb0x\x01\x8d\xe0\vþ\xbd\xa0\x8d\xa8\xe0\x16\x89u\xec", // dt:bool dt:int64 op:leaf op:ne op:not op:permute op:slice view:expand view:index zero-size
	"]\xfa\xec\xe0\xe6\x1f~&\xe4m9q?\ue27a\x9e\xf5\xb90\xfa\x95\x9e\xceљ\x15g\xc2\xf8\xed\xf4U\xfa\xe38\xda\xdb\xc50\xdaKA%\xa0ZLm\xe8;",               // 0-d dt:float32 op:div_trunc op:expand op:floor op:leaf op:minimum op:reshape op:unsqueeze view:unsqueeze
	"\xcb\xf0\x90\x8d\xfa\xd0tE\xbc\x8dgT\xe9^\x055u\xb2\xe4j\xbaG\xaf\xa0[\xc0\xb47M6\\h\x1d\xa1\x11\xf5\x99?˃\x83t\x1a\xb0\x85o\xd1\\\xb7\xaf\xf0",   // 0-d dt:uint8 illegal keepdims op:abs op:leaf op:matmul op:min op:relu op:sum_to_size
	"\xfd㷇y{M&\x9cc\xc8\x1f6QG\x05l:\xc2\x02\xf7I=\xe8\xe8\x1a.\xcfD\xf2B\xf2\xc0=~\xa3\xb8\xe2\xcb,\xb6\x11\xe2'L\xa2\xad",                            // 0-d dt:bool dt:int32 op:eq op:leaf op:max op:mul op:neg op:round op:scalar op:where
	"L\xd4xd\x82;pGqE\xb7\xf4S\xb2o\x98\xecD\xba$9\xb8\xf0\xf7E\xf9#N\xf5\x8e\x18j\xcc0FW\xdd\xe8\xe8{\xe1\xb4\xef",                                    // 0-d dt:bool dt:float64 op:all op:any op:cast op:leaf op:not op:prod op:sum
	"\x0e\xae\xd1\x14'QL_52\xe0f\"s{Q\x01\xf7\xc3\u0590\xfb\x1d\x0e\xacև'Nq\x1d\xe5`:阈S\xbf\xf7\xe9\xaa\xf1F\xb8\x03",                                  // 0-d dt:uint8 keepdims op:ceil op:div_floor op:min op:scalar op:square
	"\x81\x01\x83\x0f`\xbf#\xf2\xb1M\x8f㋬\xcc\xe3&'\xb2\x02d\f\xd1:\xc2\xe5\xd6 \xb1|~\x05¸\xb0",                                                       // 0-d dt:bool dt:float32 op:expm1 op:lt op:not op:pow op:scalar
	"nL\x82\x7f\xad\xd9i@\xe2\xb3`\xbc'\xaff\x0e\x80\xb6\t\x0eO#\x98P\xd7Q\x98Ȫ\fp\xbc\xe9\x8cv\x7f\x87\xfbv\xacT\x94\xf4\xf0\xa4\x8d\xc2B\b:\x84",     // dt:float64 op:T op:leaf op:neg op:sigmoid op:squeeze op:unsqueeze zero-size
	"\xbb1[\xd7\x16\x90k\xc4W\x1d+\xba\x01e\xc2~\xf3ˉ\xff\x94\x98\x86\xdfR\x051\x1bU\xb7n\x92\xf3\x93\xee\x82\xd1$\xa2\\",                              // 0-d dt:float32 op:div op:leaf op:mean op:scalar op:tanh
	"\x85K\xa6\xb9\xa0Yǻ<-\xf2\xfd\xa0\x9b\x99\x95+[ӡ*\xce'\tg\x82\xfe\xa0\xf7\u074c\xfc\xe0{s\x04\xa1<$\x12\xc0%\xfc",                                 // 0-d dt:float32 op:cos op:expand op:leaf op:neg op:sqrt
	"됋\xe9\xd8\x0e\xd1\xf3<\xe8\xdb\xfe\xf1r<\xbb\xe8\x9e$X\x8f\x8a\xbd\xf2\x92BS\xf6%\xd9s\xf1S#\xfa\xb8\xe9BFJ\xf6\x92ӕ\x14\xdd\xfb\x13\xc1",         // 0-d dt:int64 dt:uint8 op:add op:argmax op:leaf op:maximum op:relu op:scalar
	"\xd5m9\xf53qֽ\x99`\x02\xe7\xb9\xe5Q\xc4\xf6\xee1X\xe4bc}\x98\a\x96\xf1&1\x10\xdep}\xf5\xf0\xbd\xbbx\xd4\xcc\x11u\xab",                             // 0-d dt:bool dt:float64 dt:int64 op:cast op:le op:leaf op:log1p op:sign
	"ʔL$\x9c\x9c\xf4\x19\xdaC@I-\xfd]\x95\xce2tMTxǟO\xa3\x18\xb1E\xae\x19\xb8L\xf2\vu\xddu\n",                                                          // 0-d dt:bool dt:float32 op:and op:embed op:ge op:gt op:le op:leaf op:not op:scalar op:where
	"\xa8\x86\x83 \x1a\"̄Џ\xf6\xdd\xce%\x86\xf0\xc2\x01\"~\xe5\xea\xd3\xd8\xfa\x9a\x9cF\x86\x83\x95j\xe0\r\xbd\x87\xa3\xa3\\\xdb\xe8\v\n_s",            // dt:float32 op:leaf op:sub op:transpose view:index view:slice
	"\xe2\xa7\xceG\"\xfd\xf2\xc4ԑ\xe8)\xac\x96\xd2㫡Z\xf9uۖ\x8e'a\xd4r\t\xa1j6~ \\\\\x1c\xb5^\x11\xa2\xc2k",                                             // 0-d dt:bool dt:float32 op:eq op:exp op:leaf op:not op:sin view:expand
	"p'v\x1d\xb3e\xbd\x0f\xf7Ϸ)\x1cqڡS7^c\xc1K\xa6\xad\x10\x1e\x19Y!\x1bL\xf9hԫ",                                                                       // dt:int32 dt:int64 op:argmin op:leaf op:neg view:unsqueeze
	"\x90\xd5\xf6\xd4A\x00\xbf\xd8\xc7\xdfj\xc3دb\x9e\x93kP1\xf8y\x0f\xb7l\xa1\xd6\xcd\x057<\xa5\x00fF\x87\xe0a|\xa18\fVh\xa1,\xe0\x05\xc7",            // dt:float32 op:leaf op:log op:neg view:index
	"\x97?\xb4\t$\x018\xfc\xae\x17B\x9a]\x84sh=U.\xdfq\x19U.>A\x81+\x0e(\xf4\xf93J\xb4A]\"\xa3\xd7\xca&\xb0K\xd5\xe3+\x19e\xbd",                        // 0-d dt:bool dt:float64 op:leaf op:lt op:not op:or view:expand view:index
}

// reachable returns the nodes root depends on, operands first.
func reachable(root *gnode) []*gnode {
	seen := map[*gnode]bool{}
	var order []*gnode
	var walk func(n *gnode)
	walk = func(n *gnode) {
		if seen[n] {
			return
		}
		seen[n] = true
		for _, a := range n.args {
			walk(a)
		}
		order = append(order, n)
	}
	walk(root)
	return order
}

// fromPkgs reports whether err or an error it wraps has a type of package
// expr, tensor or exec.
func fromPkgs(err error) bool {
	if err == nil {
		return false
	}
	t := reflect.TypeOf(err)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.PkgPath() {
	case "github.com/tensorplay/tensorplay/expr", "github.com/tensorplay/tensorplay/tensor", "github.com/tensorplay/tensorplay/exec":
		return true
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return fromPkgs(u.Unwrap())
	case interface{ Unwrap() []error }:
		return slices.ContainsFunc(u.Unwrap(), fromPkgs)
	}
	return false
}

// firstDiff returns the first index where want and got ([]T of one type)
// differ (sameValue: bits, or both NaN), or -1.
func firstDiff(want, got any) int {
	switch w := want.(type) {
	case []float64:
		return firstDiffT(w, got.([]float64))
	case []float32:
		return firstDiffT(w, got.([]float32))
	case []int64:
		return firstDiffT(w, got.([]int64))
	case []int32:
		return firstDiffT(w, got.([]int32))
	case []uint8:
		return firstDiffT(w, got.([]uint8))
	case []bool:
		return firstDiffT(w, got.([]bool))
	}
	panic(fmt.Sprintf("firstDiff %T", want))
}

func firstDiffT[T dtype.Elem](w, g []T) int {
	if len(w) != len(g) {
		return min(len(w), len(g))
	}
	for i := range w {
		if !sameValue(w[i], g[i]) {
			return i
		}
	}
	return -1
}

func elemAt(data any, i int) any {
	v := reflect.ValueOf(data)
	if i < 0 || i >= v.Len() {
		return "(none)"
	}
	return v.Index(i).Interface()
}

// knownIssue skips a case whose failure is one of issue 19's known bugs,
// fixed elsewhere; remove the call when the item is fixed.
func knownIssue(t *testing.T, item, what string) {
	t.Helper()
	t.Skipf("issue 19 item %s (known, being fixed): %s", item, what)
}

func runGraphCase(t *testing.T, data []byte) {
	g := &graphGen{in: &fuzzBytes{b: data}}
	root := g.build()
	if g.in.chance(4) {
		defer exec.SetStreamBytes(0)() // the paths of outputs that stream
	}
	order := reachable(root)
	ctx := func() string {
		var b strings.Builder
		fmt.Fprintf(&b, "main %v, target %v\n", g.main, g.target)
		for _, n := range order {
			var args []string
			for _, a := range n.args {
				args = append(args, fmt.Sprintf("n%d", a.id))
			}
			fmt.Fprintf(&b, "  n%d:%v%v = %s %s (bad %v)\n", n.id, n.dt, n.shape, n.desc, strings.Join(args, " "), n.bad)
		}
		b.WriteString(expr.Format(anyNode{root.n}))
		return b.String()
	}
	protect := func(what string, f func()) {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("%s panicked: %v\n%s", what, p, ctx())
			}
		}()
		f()
	}
	ops := opsOf(root.dt)

	// Construction: every node is as legal as the reference says.
	for _, n := range order {
		err := n.n.Err()
		switch {
		case n.bad && !anyBad(n.args...) && err == nil:
			t.Fatalf("n%d builds although it is illegal (shape %v)\n%s", n.id, n.n.Shape(), ctx())
		case !n.bad && err != nil:
			t.Fatalf("n%d: legal node refused: %v\n%s", n.id, err, ctx())
		case err != nil && !fromPkgs(err):
			t.Fatalf("n%d: untyped error %T: %v\n%s", n.id, err, err, ctx())
		case !n.bad && !slices.Equal(n.n.Shape(), n.shape):
			t.Fatalf("n%d: shape %v, want %v\n%s", n.id, n.n.Shape(), n.shape, ctx())
		}
	}
	if root.bad {
		var err error
		protect("Eval of an illegal graph", func() { _, err = ops.evalWith(exec.Default, root.n) })
		if err == nil || !fromPkgs(err) {
			t.Fatalf("Eval of an illegal graph: %v (%T)\n%s", err, err, ctx())
		}
		dst := g.view(ops.newBase(fuzzBaseLen, g.r, false), g.target, 2, true, new([]string))
		before := ops.clone(dst.base.data)
		protect("EvalTo of an illegal graph", func() { err = ops.evalTo(exec.Default, dst.t, root.n) })
		if err == nil || !fromPkgs(err) {
			t.Fatalf("EvalTo of an illegal graph: %v (%T)\n%s", err, err, ctx())
		}
		if i := firstDiff(before, dst.base.data); i >= 0 {
			t.Fatalf("failed EvalTo wrote storage[%d]\n%s", i, ctx())
		}
		return
	}
	var redux bool
	var anchors []*gnode
	for _, n := range order {
		redux = redux || n.redux
		if n.inexact && n != root {
			anchors = append(anchors, n) // checked on its own, as an extra root
		}
	}

	// The library: the root with the inexact nodes as extra roots.
	roots := make([]*expr.Node, 0, len(anchors)+1)
	for _, a := range anchors {
		roots = append(roots, a.n)
	}
	roots = append(roots, root.n)
	var outs []tensor.Any
	var err error
	protect("Run", func() { outs, err = exec.Default.Run(roots, nil) })
	if err != nil {
		t.Fatalf("Run: %v\n%s", err, ctx())
	}
	lib := map[*gnode]any{root: opsOf(root.dt).read(outs[len(outs)-1])}
	for i, a := range anchors {
		lib[a] = opsOf(a.dt).read(outs[i])
		if !slices.Equal(outs[i].Shape(), a.shape) {
			t.Fatalf("n%d: result shape %v, want %v\n%s", a.id, outs[i].Shape(), a.shape, ctx())
		}
	}
	if !slices.Equal(outs[len(outs)-1].Shape(), root.shape) {
		t.Fatalf("root: result shape %v, want %v\n%s", outs[len(outs)-1].Shape(), root.shape, ctx())
	}

	// The reference, continuing from the library's inexact values.
	for _, n := range order {
		switch {
		case n.leaf != nil:
			n.val = rval{n.shape, opsOf(n.dt).gather(n.leaf.base.data, n.leaf.off, n.shape, n.leaf.strides)}
			continue
		case n.scalar != nil:
			n.val = rval{n.shape, n.scalar}
			continue
		}
		vals := make([]rval, len(n.args))
		for i, a := range n.args {
			vals[i] = a.val
		}
		v, ap := n.eval(vals)
		n.val = rval{n.shape, v}
		if !n.inexact {
			continue
		}
		got := lib[n]
		if ap != nil {
			if i, ok := ap.within(got); !ok {
				t.Fatalf("n%d (%s): element %d is %v, want %v within %g\n%s", n.id, n.desc, i, elemAt(got, i), ap.want[i], ap.bound[i], ctx())
			}
		} else if i := firstDiff(v, got); i >= 0 {
			t.Fatalf("n%d (%s): element %d is %v, want %v\n%s", n.id, n.desc, i, elemAt(got, i), elemAt(v, i), ctx())
		}
		n.val.data = got
	}
	want := root.val.data
	if i := firstDiff(want, lib[root]); i >= 0 {
		t.Fatalf("root: element %d is %v, want %v\n%s", i, elemAt(lib[root], i), elemAt(want, i), ctx())
	}

	// Determinism: 1 and 3 workers, the root alone.
	var t1, t3 tensor.Any
	protect("Eval, 1 worker", func() { t1, err = ops.evalWith(serial, root.n) })
	if err != nil {
		t.Fatalf("Eval, 1 worker: %v\n%s", err, ctx())
	}
	protect("Eval, 3 workers", func() { t3, err = ops.evalWith(odd, root.n) })
	if err != nil {
		t.Fatalf("Eval, 3 workers: %v\n%s", err, ctx())
	}
	v1, v3 := ops.read(t1), ops.read(t3)
	if i := firstDiff(v1, v3); i >= 0 {
		t.Fatalf("1 and 3 workers differ at %d: %v and %v\n%s", i, elemAt(v1, i), elemAt(v3, i), ctx())
	}
	if i := firstDiff(lib[root], v1); i >= 0 {
		if redux {
			knownIssue(t, "12", "a reduction's bits depend on what is evaluated with it")
		}
		t.Fatalf("the root alone differs from the root with extra roots at %d: %v and %v\n%s", i, elemAt(v1, i), elemAt(lib[root], i), ctx())
	}

	// EvalTo a fresh strided view of a larger storage.
	var log []string
	dst := g.view(ops.newBase(fuzzBaseLen, g.r, false), root.shape, g.in.intn(4), true, &log)
	before := ops.clone(dst.base.data)
	protect("EvalTo a strided view", func() { err = ops.evalTo(odd, dst.t, root.n) })
	if err != nil {
		t.Fatalf("EvalTo %s: %v\n%s", strings.Join(log, ", "), err, ctx())
	}
	if i := firstDiff(v1, ops.gather(dst.base.data, dst.off, dst.shape, dst.strides)); i >= 0 {
		if redux {
			knownIssue(t, "12", "reduction bits into a strided destination")
		}
		t.Fatalf("EvalTo %s: element %d differs from Eval\n%s", strings.Join(log, ", "), i, ctx())
	}
	if i := untouched(before, dst.base.data, viewAddrs(dst.off, dst.shape, dst.strides)); i >= 0 {
		t.Fatalf("EvalTo %s wrote storage[%d] outside the view\n%s", strings.Join(log, ", "), i, ctx())
	}

	// EvalTo one of the graph's own leaves: x = f(x, ...).
	var leaves []*gnode
	for _, n := range order {
		if n.leaf != nil && n.dt == root.dt {
			leaves = append(leaves, n)
		}
	}
	if len(leaves) == 0 {
		return
	}
	x := leaves[g.in.intn(len(leaves))]
	lv := x.leaf
	addrs := viewAddrs(lv.off, lv.shape, lv.strides)
	shared := len(addrs) != len(slices.Compact(slices.Sorted(slices.Values(addrs))))
	if numelOf(lv.shape) == 0 && slices.Contains(lv.strides, 0) {
		return // whether an empty expanded view is a valid destination is open
	}
	fits := len(root.shape) <= len(lv.shape)
	for i := 0; fits && i < len(root.shape); i++ {
		d := root.shape[len(root.shape)-1-i]
		fits = d == 1 || d == lv.shape[len(lv.shape)-1-i]
	}
	before = ops.clone(lv.base.data)
	defer ops.restore(lv.base.data, before)
	xs := []*exec.Executor{exec.Default, odd, tiled}
	protect("EvalTo a leaf", func() { err = ops.evalTo(xs[g.in.intn(len(xs))], lv.t, root.n) })
	switch {
	case shared || !fits:
		var oe *exec.OverlapError
		if err == nil || !fromPkgs(err) || shared && !errors.As(err, &oe) {
			t.Fatalf("EvalTo leaf n%d (shared %v, fits %v): %v (%T)\n%s", x.id, shared, fits, err, err, ctx())
		}
		if i := firstDiff(before, lv.base.data); i >= 0 {
			t.Fatalf("failed EvalTo leaf n%d wrote storage[%d]\n%s", x.id, i, ctx())
		}
	case err != nil:
		t.Fatalf("EvalTo leaf n%d: %v\n%s", x.id, err, ctx())
	default:
		wantX := remap(v1, bcastMap(lv.shape, root.shape))
		if i := firstDiff(wantX, ops.gather(lv.base.data, lv.off, lv.shape, lv.strides)); i >= 0 {
			if redux {
				knownIssue(t, "12", "reduction bits with a staged operand")
			}
			t.Fatalf("EvalTo leaf n%d: element %d is %v, want %v\n%s", x.id, i, elemAt(ops.gather(lv.base.data, lv.off, lv.shape, lv.strides), i), elemAt(wantX, i), ctx())
		}
		if i := untouched(before, lv.base.data, addrs); i >= 0 {
			t.Fatalf("EvalTo leaf n%d wrote storage[%d] outside the view\n%s", x.id, i, ctx())
		}
	}
}

// untouched returns the first storage index outside addrs where before and
// after differ, or -1.
func untouched(before, after any, addrs []int) int {
	in := make(map[int]bool, len(addrs))
	for _, a := range addrs {
		in[a] = true
	}
	b, a := reflect.ValueOf(before), reflect.ValueOf(after)
	for i := range b.Len() {
		if in[i] {
			continue
		}
		x, y := b.Index(i).Interface(), a.Index(i).Interface()
		if x != y && !(x != x && y != y) && !bitsEqual(x, y) {
			return i
		}
	}
	return -1
}

func bitsEqual(x, y any) bool {
	switch x := x.(type) {
	case float64:
		return math.Float64bits(x) == math.Float64bits(y.(float64))
	case float32:
		return math.Float32bits(x) == math.Float32bits(y.(float32))
	}
	return false
}

// Regression tests for the bugs FuzzGraph found. Each skips, naming the
// bug, while the library still has it, and passes once it is fixed.

// TestFuzzGraphMatMulZeroTimesNaN: a float matmul gives 0, not NaN, where
// a zero of the first operand meets a NaN or ±Inf of the second (0·NaN and
// 0·Inf are NaN; NumPy gives nan). gonum's Dgemm and Sgemm skip the zero
// elements of A (if alpha*a[i,l] != 0 { axpy }), and internal/matmul
// passes them A as given; swapping the operands gives NaN, as it should.
func TestFuzzGraphMatMulZeroTimesNaN(t *testing.T) {
	var bad []string
	for _, v := range []float64{math.NaN(), math.Inf(1)} {
		check := func(name string, e expr.Expr[float64]) {
			out, err := exec.Eval(e)
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range out.Values() {
				if !math.IsNaN(x) {
					bad = append(bad, fmt.Sprintf("%s with %v gives %v", name, v, x))
				}
			}
		}
		z := expr.Of(tensor.Must(tensor.FromSlice([]float64{0, 0}, 1, 2)))
		w := expr.Of(tensor.Must(tensor.FromSlice([]float64{v, 1}, 2, 1)))
		check("[[0 0]] @ [[v] [1]]", z.MatMul(w))
		check("[[v 1]] @ [[0] [0]]", w.T().MatMul(z.T()))
		z32 := expr.Cast[float32](z)
		w32 := expr.Cast[float32](w)
		out, err := exec.Eval(z32.MatMul(w32))
		if err != nil {
			t.Fatal(err)
		}
		if x := out.Values()[0]; !math.IsNaN(float64(x)) {
			bad = append(bad, fmt.Sprintf("float32 [[0 0]] @ [[v] [1]] with %v gives %v", v, x))
		}
	}
	assert.Empty(t, bad, "float matmul must keep 0·NaN and 0·Inf terms (gonum's gemm, the old default, skipped zeros of A): %s", strings.Join(bad, "; "))
}
