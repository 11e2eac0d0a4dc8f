package exec_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// The reduction tests compare every reduction, on every dtype it accepts,
// over every subset of axes of random 1-D..4-D views, with a reference loop
// (rdRef). The values are drawn so that sums and products are exact in any
// order (small halves, powers of two, Gaussian integers), so the executor's
// pairwise order and the reference's sequential order agree bit for bit;
// only means are compared within a few ulps.

// rdExec is an executor a test runs on, with the name it reports.
type rdExec struct {
	name string
	x    *exec.Executor
}

// rdExecs are the executors the reductions run on: blocks16 cuts every row
// into 16-element blocks and runs them on three workers.
var rdExecs = []rdExec{
	{"default", exec.Default},
	{"serial", exec.New(exec.Workers(1))},
	{"blocks16", exec.New(exec.Workers(3), exec.Grain(1), exec.BlockSize(16))},
}

func rdRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// rdMode says which values a test draws.
type rdMode int

const (
	rdSumVals   rdMode = iota // halves (exact sums); rare ±Inf, NaN for floats
	rdProdVals                // ±1, ±2, ±0.5 (exact products); rare 0, ±Inf, NaN
	rdOrderVals               // many ties, ±Inf, full-range integers; no NaN, no -0
	rdNaNVals                 // rdOrderVals with about 1% NaN
)

// rdValues returns n values of T drawn for mode.
func rdValues[T dtype.Elem](r *rand.Rand, n int, mode rdMode) []T {
	out := make([]T, n)
	pTrue := []float64{0.05, 0.5, 0.97}[r.IntN(3)]
	for i := range out {
		switch dtype.Of[T]().Kind() {
		case dtype.KindBool:
			out[i] = rdConv[T](rdB2F(r.Float64() < pTrue), 0)
		case dtype.KindSigned, dtype.KindUnsigned:
			full := r.IntN(2) == 0
			if mode == rdProdVals {
				full = r.IntN(6) == 0
			}
			if full {
				out[i] = rdBits[T](r.Uint64())
			} else {
				out[i] = rdConv[T](float64(r.IntN(7)-3), 0)
			}
		case dtype.KindFloat:
			out[i] = rdConv[T](rdFloat(r, mode), 0)
		case dtype.KindComplex:
			if mode == rdProdVals {
				units := [][2]float64{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}}
				u := units[r.IntN(4)]
				if r.IntN(10) == 0 {
					u = units[4+r.IntN(2)]
				}
				out[i] = rdConv[T](u[0], u[1])
			} else {
				out[i] = rdConv[T](float64(r.IntN(33)-16)/2, float64(r.IntN(33)-16)/2)
			}
		}
	}
	return out
}

func rdB2F(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func rdFloat(r *rand.Rand, mode rdMode) float64 {
	p := r.IntN(1000)
	sign := float64(1 - 2*r.IntN(2))
	switch mode {
	case rdSumVals:
		switch {
		case p < 10:
			return sign * math.Inf(1)
		case p < 15:
			return math.NaN()
		}
		return float64(r.IntN(33)-16) / 2
	case rdProdVals:
		switch {
		case p < 5:
			return 0
		case p < 10:
			return sign * math.Inf(1)
		case p < 15:
			return math.NaN()
		case p < 650:
			return sign
		case p < 825:
			return 2 * sign
		}
		return 0.5 * sign
	}
	if mode == rdNaNVals && p < 10 {
		return math.NaN()
	}
	switch {
	case p < 40:
		return sign * math.Inf(1)
	case p < 100:
		return math.Ldexp(float64(r.IntN(1000)+1), r.IntN(40)-20) * sign
	}
	return float64(r.IntN(13)-6) / 2
}

// rdConv converts a (finite, for integers) value to T.
func rdConv[T dtype.Elem](re, im float64) T {
	var z T
	switch p := any(&z).(type) {
	case *bool:
		*p = re != 0
	case *int8:
		*p = int8(int64(re))
	case *int16:
		*p = int16(int64(re))
	case *int32:
		*p = int32(int64(re))
	case *int64:
		*p = int64(re)
	case *uint8:
		*p = uint8(int64(re))
	case *uint16:
		*p = uint16(int64(re))
	case *uint32:
		*p = uint32(int64(re))
	case *uint64:
		*p = uint64(int64(re))
	case *float32:
		*p = float32(re)
	case *float64:
		*p = re
	case *complex64:
		*p = complex(float32(re), float32(im))
	case *complex128:
		*p = complex(re, im)
	default:
		panic(fmt.Sprintf("rdConv: %T", z))
	}
	return z
}

// rdBits returns the integer T whose bits are u's low bits.
func rdBits[T dtype.Elem](u uint64) T {
	var z T
	switch p := any(&z).(type) {
	case *int8:
		*p = int8(u)
	case *int16:
		*p = int16(u)
	case *int32:
		*p = int32(u)
	case *int64:
		*p = int64(u)
	case *uint8:
		*p = uint8(u)
	case *uint16:
		*p = uint16(u)
	case *uint32:
		*p = uint32(u)
	case *uint64:
		*p = u
	default:
		panic(fmt.Sprintf("rdBits: %T", z))
	}
	return z
}

// rdParts returns the real and imaginary parts of a floating or complex v.
func rdParts[T dtype.Elem](v T) (re, im float64, ok bool) {
	switch x := any(v).(type) {
	case float32:
		return float64(x), 0, true
	case float64:
		return x, 0, true
	case complex64:
		return float64(real(x)), float64(imag(x)), true
	case complex128:
		return real(x), imag(x), true
	}
	return 0, 0, false
}

// rdSame reports whether a and b are equal, NaN matching NaN (per part),
// +0 matching -0.
func rdSame[T dtype.Elem](a, b T) bool {
	if a == b {
		return true
	}
	ar, ai, ok := rdParts(a)
	if !ok {
		return false
	}
	br, bi, _ := rdParts(b)
	return rdSameF(ar, br) && rdSameF(ai, bi)
}

func rdSameF(a, b float64) bool { return a == b || (a != a && b != b) }

// rdNear returns an equality within ulps units in the last place of T.
func rdNear[T dtype.Elem](ulps float64) func(a, b T) bool {
	eps := 0x1p-52
	if s := dtype.Of[T]().Size(); dtype.Of[T]() == dtype.Float32 || (dtype.Of[T]().IsComplex() && s == 8) {
		eps = 0x1p-23
	}
	near := func(a, b float64) bool {
		return rdSameF(a, b) || math.Abs(a-b) <= ulps*eps*math.Max(math.Abs(a), math.Abs(b))
	}
	return func(a, b T) bool {
		ar, ai, _ := rdParts(a)
		br, bi, _ := rdParts(b)
		return near(ar, br) && near(ai, bi)
	}
}

// rdBitsEqual reports whether a and b have the same bits or are both NaN
// (a NaN's payload and sign are not part of any contract).
func rdBitsEqual[T dtype.Elem](a, b T) bool {
	switch x := any(a).(type) {
	case float32:
		y := any(b).(float32)
		return math.Float32bits(x) == math.Float32bits(y) || (x != x && y != y)
	case float64:
		y := any(b).(float64)
		return math.Float64bits(x) == math.Float64bits(y) || (x != x && y != y)
	}
	return a == b
}

// rdCompare fails t at the first few elements where got differs from want.
func rdCompare[T any](t testing.TB, eq func(a, b T) bool, want, got []T, format string, args ...any) bool {
	t.Helper()
	ctx := fmt.Sprintf(format, args...)
	if !assert.Len(t, got, len(want), ctx) {
		return false
	}
	var diffs []string
	bad := 0
	for i := range want {
		if !eq(want[i], got[i]) {
			if bad++; len(diffs) < 4 {
				diffs = append(diffs, fmt.Sprintf("[%d] got %v want %v", i, got[i], want[i]))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d of %d values differ: %s", ctx, bad, len(want), strings.Join(diffs, "; "))
	}
	return bad == 0
}

func rdNumel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// rdViewKind says how a test input is laid out in memory.
type rdViewKind struct {
	name                   string
	permute, slice, expand bool
}

var rdViewKinds = []rdViewKind{
	{name: "contiguous"},
	{name: "permuted", permute: true},
	{name: "sliced", slice: true},
	{name: "expanded", expand: true},
	{name: "mixed", permute: true, slice: true, expand: true},
}

// rdView returns a tensor of the given shape laid out as kind says: a
// contiguous tensor, or a strided slice (steps 1..3, random start), permuted
// into place, with some axes expanded from extent 1 (a leading one from a
// missing axis).
func rdView[T dtype.Elem](t testing.TB, r *rand.Rand, kind rdViewKind, shape []int, gen func(n int) []T) *tensor.Tensor[T] {
	t.Helper()
	rank := len(shape)
	pre := append([]int{}, shape...) // the shape before Expand
	if kind.expand {
		for i, d := range shape {
			if d > 1 && r.IntN(2) == 0 {
				pre[i] = 1
			}
		}
	}
	perm := make([]int, rank)
	for i := range perm {
		perm[i] = i
	}
	if kind.permute {
		perm = r.Perm(rank)
	}
	base := make([]int, rank) // the shape before Permute
	for i, p := range perm {
		base[p] = pre[i]
	}
	var x *tensor.Tensor[T]
	if kind.slice {
		full, start, step := make([]int, rank), make([]int, rank), make([]int, rank)
		for i, d := range base {
			step[i], start[i] = 1+r.IntN(3), r.IntN(3)
			full[i] = start[i] + max(0, (d-1)*step[i]+1) + r.IntN(3)
		}
		x = tensor.Must(tensor.FromSlice(gen(rdNumel(full)), full...))
		for i, d := range base {
			x = tensor.Must(x.Slice(i, start[i], start[i]+(d-1)*step[i]+1, step[i]))
		}
	} else {
		x = tensor.Must(tensor.FromSlice(gen(rdNumel(base)), base...))
	}
	x = tensor.Must(x.Permute(perm...))
	if kind.expand {
		if rank > 1 && pre[0] == 1 {
			x = tensor.Must(x.Index(0, 0)) // Expand adds the leading axis back
		}
		x = tensor.Must(x.Expand(shape...))
	}
	require.Equal(t, tensor.Shape(shape).String(), x.Shape().String(), "rdView %s", kind.name)
	return x
}

// rdShape returns a random shape of the given rank whose extents are 1..5,
// with an occasional long axis.
func rdShape(r *rand.Rand, rank int) []int {
	s := make([]int, rank)
	for i := range s {
		s[i] = 1 + r.IntN(5)
	}
	if rank <= 2 && r.IntN(2) == 0 {
		s[r.IntN(rank)] = 20 + r.IntN(60)
	}
	return s
}

// rdAxes returns the axes of mask (every axis when mask is 0 and none are
// passed) in random order, some of them negative, and the reduced-axis mask.
func rdAxes(r *rand.Rand, rank, mask int) (axes []int, red []bool) {
	red = make([]bool, rank)
	for i := range red {
		if mask == 0 || mask&(1<<i) != 0 {
			red[i] = true
			if mask != 0 {
				ax := i
				if r.IntN(2) == 0 {
					ax -= rank
				}
				axes = append(axes, ax)
			}
		}
	}
	r.Shuffle(len(axes), func(i, j int) { axes[i], axes[j] = axes[j], axes[i] })
	return axes, red
}

// rdOutShape is the shape of a reduction of shape over red.
func rdOutShape(shape []int, red []bool, keep bool) tensor.Shape {
	out := tensor.Shape{}
	for i, d := range shape {
		switch {
		case !red[i]:
			out = append(out, d)
		case keep:
			out = append(out, 1)
		}
	}
	return out
}

// rdRef is the reference loop of every reduction: it folds the elements of
// vals (row-major over shape) into one accumulator per position of the kept
// axes, in row-major order; pos is the element's flat index over the reduced
// axes, so pos == 0 is each output's first element.
func rdRef[T, A any](vals []T, shape []int, red []bool, init A, fold func(acc A, x T, pos int) A) []A {
	nOut := 1
	for i, d := range shape {
		if !red[i] {
			nOut *= d
		}
	}
	out := make([]A, nOut)
	for i := range out {
		out[i] = init
	}
	idx := make([]int, len(shape))
	for _, x := range vals {
		o, pos := 0, 0
		for i, d := range shape {
			if red[i] {
				pos = pos*d + idx[i]
			} else {
				o = o*d + idx[i]
			}
		}
		out[o] = fold(out[o], x, pos)
		for i := len(idx) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < shape[i] {
				break
			}
			idx[i] = 0
		}
	}
	return out
}

// rdCount is the number of elements each output of a reduction folds.
func rdCount(shape []int, red []bool) int {
	n := 1
	for i, d := range shape {
		if red[i] {
			n *= d
		}
	}
	return n
}

// rdMaxRef and rdMinRef are NumPy's maximum and minimum: NaN wins.
func rdMaxRef[T dtype.Real](a, x T) T {
	if a != a {
		return a
	}
	if x != x || x > a {
		return x
	}
	return a
}

func rdMinRef[T dtype.Real](a, x T) T {
	if a != a {
		return a
	}
	if x != x || x < a {
		return x
	}
	return a
}

// rdOp is one reduction under test with its reference.
type rdOp[T dtype.Elem] struct {
	name  string
	mode  rdMode
	keep  bool // has a KeepDims form
	build func(x expr.Expr[T], keep bool, axes ...int) expr.Expr[T]
	ref   func(vals []T, shape []int, red []bool) []T
	eq    func(a, b T) bool
}

func rdNumericOps[T dtype.Numeric]() []rdOp[T] {
	return []rdOp[T]{
		{
			name: "sum", mode: rdSumVals, keep: true, eq: rdSame[T],
			build: func(x expr.Expr[T], keep bool, axes ...int) expr.Expr[T] {
				if keep {
					return x.SumKeepDims(axes...)
				}
				return x.Sum(axes...)
			},
			ref: func(v []T, s []int, red []bool) []T {
				return rdRef(v, s, red, T(0), func(a, x T, _ int) T { return a + x })
			},
		},
		{
			name: "prod", mode: rdProdVals, keep: true, eq: rdSame[T],
			build: func(x expr.Expr[T], keep bool, axes ...int) expr.Expr[T] {
				if keep {
					return x.ProdKeepDims(axes...)
				}
				return x.Prod(axes...)
			},
			ref: func(v []T, s []int, red []bool) []T {
				return rdRef(v, s, red, T(1), func(a, x T, _ int) T { return a * x })
			},
		},
	}
}

func rdRealOps[T dtype.Real](modes ...rdMode) []rdOp[T] {
	var ops []rdOp[T]
	for _, m := range modes {
		suffix := ""
		if m == rdNaNVals {
			suffix = "_nan"
		}
		ops = append(ops,
			rdOp[T]{
				name: "max" + suffix, mode: m, keep: true, eq: rdSame[T],
				build: func(x expr.Expr[T], keep bool, axes ...int) expr.Expr[T] {
					if keep {
						return x.MaxKeepDims(axes...)
					}
					return x.Max(axes...)
				},
				ref: func(v []T, s []int, red []bool) []T {
					return rdRef(v, s, red, T(0), func(a, x T, pos int) T {
						if pos == 0 {
							return x
						}
						return rdMaxRef(a, x)
					})
				},
			},
			rdOp[T]{
				name: "min" + suffix, mode: m, keep: true, eq: rdSame[T],
				build: func(x expr.Expr[T], keep bool, axes ...int) expr.Expr[T] {
					if keep {
						return x.MinKeepDims(axes...)
					}
					return x.Min(axes...)
				},
				ref: func(v []T, s []int, red []bool) []T {
					return rdRef(v, s, red, T(0), func(a, x T, pos int) T {
						if pos == 0 {
							return x
						}
						return rdMinRef(a, x)
					})
				},
			})
	}
	return ops
}

// rdMeanOp is mean with a reference that divides the exact sum by the
// count, as NumPy does, compared within 4 ulps (see TestMeanDividesByCount).
func rdMeanOp[T dtype.Numeric](div func(s T, n int) T) rdOp[T] {
	return rdOp[T]{
		name: "mean", mode: rdSumVals, keep: true, eq: rdNear[T](4),
		build: func(x expr.Expr[T], keep bool, axes ...int) expr.Expr[T] {
			if keep {
				return x.MeanKeepDims(axes...)
			}
			return x.Mean(axes...)
		},
		ref: func(v []T, s []int, red []bool) []T {
			sums := rdRef(v, s, red, T(0), func(a, x T, _ int) T { return a + x })
			for i := range sums {
				sums[i] = div(sums[i], rdCount(s, red))
			}
			return sums
		},
	}
}

func rdFloatDiv[T dtype.Float](s T, n int) T { return s / T(n) }

// rdComplexDiv divides each part by n (what dividing by n+0i gives).
func rdComplexDiv[T dtype.Complex](s T, n int) T {
	re, im, _ := rdParts(s)
	return rdConv[T](re/float64(n), im/float64(n))
}

func rdBoolOps() []rdOp[bool] {
	mk := func(name string, all bool) rdOp[bool] {
		return rdOp[bool]{
			name: name, mode: rdSumVals, eq: rdSame[bool],
			build: func(x expr.Expr[bool], _ bool, axes ...int) expr.Expr[bool] {
				if all {
					return x.All(axes...)
				}
				return x.Any(axes...)
			},
			ref: func(v []bool, s []int, red []bool) []bool {
				return rdRef(v, s, red, all, func(a, x bool, _ int) bool {
					if all {
						return a && x
					}
					return a || x
				})
			},
		}
	}
	return []rdOp[bool]{mk("any", false), mk("all", true)}
}

// rdRun checks ops over every subset of axes (with and without keepdim) of
// random tensors of rank 1..4 in every view kind, against their references.
func rdRun[T dtype.Elem](t *testing.T, ops []rdOp[T]) {
	for oi, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			for vi, kind := range rdViewKinds {
				t.Run(kind.name, func(t *testing.T) {
					r := rdRand(uint64(1000*oi + vi))
					gen := func(n int) []T { return rdValues[T](r, n, op.mode) }
					for rank := 1; rank <= 4; rank++ {
						shape := rdShape(r, rank)
						x := rdView(t, r, kind, shape, gen)
						vals := x.Values()
						keeps := []bool{false}
						if op.keep {
							keeps = append(keeps, true)
						}
						for mask := 0; mask < 1<<rank; mask++ {
							for _, keep := range keeps {
								axes, red := rdAxes(r, rank, mask)
								ex := rdExecs[(mask+rank)%len(rdExecs)]
								e := op.build(expr.Of(x), keep, axes...)
								require.NoError(t, e.Err())
								got, err := exec.EvalWith(ex.x, e)
								require.NoError(t, err)
								ctx := fmt.Sprintf("%s of %v (strides %v) axes %v keep %v on %s", op.name, shape, x.Strides(), axes, keep, ex.name)
								assert.Equal(t, rdOutShape(shape, red, keep).String(), got.Shape().String(), ctx)
								rdCompare(t, op.eq, op.ref(vals, shape, red), got.Values(), "%s", ctx)
							}
						}
					}
				})
			}
		})
	}
}

func TestReduceEveryDTypeEveryAxisSubset(t *testing.T) {
	t.Run("int8", func(t *testing.T) { rdRun(t, append(rdNumericOps[int8](), rdRealOps[int8](rdOrderVals)...)) })
	t.Run("int16", func(t *testing.T) { rdRun(t, append(rdNumericOps[int16](), rdRealOps[int16](rdOrderVals)...)) })
	t.Run("int32", func(t *testing.T) { rdRun(t, append(rdNumericOps[int32](), rdRealOps[int32](rdOrderVals)...)) })
	t.Run("int64", func(t *testing.T) { rdRun(t, append(rdNumericOps[int64](), rdRealOps[int64](rdOrderVals)...)) })
	t.Run("uint8", func(t *testing.T) { rdRun(t, append(rdNumericOps[uint8](), rdRealOps[uint8](rdOrderVals)...)) })
	t.Run("uint16", func(t *testing.T) { rdRun(t, append(rdNumericOps[uint16](), rdRealOps[uint16](rdOrderVals)...)) })
	t.Run("uint32", func(t *testing.T) { rdRun(t, append(rdNumericOps[uint32](), rdRealOps[uint32](rdOrderVals)...)) })
	t.Run("uint64", func(t *testing.T) { rdRun(t, append(rdNumericOps[uint64](), rdRealOps[uint64](rdOrderVals)...)) })
	t.Run("float32", func(t *testing.T) {
		ops := append(rdNumericOps[float32](), rdMeanOp(rdFloatDiv[float32]))
		rdRun(t, append(ops, rdRealOps[float32](rdOrderVals, rdNaNVals)...))
	})
	t.Run("float64", func(t *testing.T) {
		ops := append(rdNumericOps[float64](), rdMeanOp(rdFloatDiv[float64]))
		rdRun(t, append(ops, rdRealOps[float64](rdOrderVals, rdNaNVals)...))
	})
	t.Run("complex64", func(t *testing.T) {
		rdRun(t, append(rdNumericOps[complex64](), rdMeanOp(rdComplexDiv[complex64])))
	})
	t.Run("complex128", func(t *testing.T) {
		rdRun(t, append(rdNumericOps[complex128](), rdMeanOp(rdComplexDiv[complex128])))
	})
	t.Run("bool", func(t *testing.T) { rdRun(t, rdBoolOps()) })
}

// rdArgRef is the reference argmax (max true) or argmin along one axis: the
// first extreme wins ties, the first NaN wins outright.
func rdArgRef[T dtype.Real](vals []T, shape []int, red []bool, isMax bool) []int64 {
	type best struct {
		v T
		i int64
	}
	res := rdRef(vals, shape, red, best{}, func(b best, x T, pos int) best {
		beats := x != x || (isMax && x > b.v) || (!isMax && x < b.v)
		if pos == 0 || (b.v == b.v && beats) {
			return best{x, int64(pos)}
		}
		return b
	})
	out := make([]int64, len(res))
	for i, b := range res {
		out[i] = b.i
	}
	return out
}

// rdArgRun checks ArgMax and ArgMin along every axis (given positive and
// negative) of random tensors of rank 1..4 in every view kind.
func rdArgRun[T dtype.Real](t *testing.T, modes ...rdMode) {
	for mi, mode := range modes {
		for vi, kind := range rdViewKinds {
			t.Run(fmt.Sprintf("mode%d/%s", mode, kind.name), func(t *testing.T) {
				r := rdRand(uint64(100*mi + vi + 7))
				gen := func(n int) []T { return rdValues[T](r, n, mode) }
				for rank := 1; rank <= 4; rank++ {
					shape := rdShape(r, rank)
					x := rdView(t, r, kind, shape, gen)
					vals := x.Values()
					for ax := -rank; ax < rank; ax++ {
						red := make([]bool, rank)
						red[(ax+rank)%rank] = true
						ex := rdExecs[(ax+rank)%len(rdExecs)]
						for _, isMax := range []bool{true, false} {
							e := expr.Of(x).ArgMin(ax)
							if isMax {
								e = expr.Of(x).ArgMax(ax)
							}
							require.NoError(t, e.Err())
							assert.Equal(t, dtype.Int64, e.DType())
							got, err := exec.EvalWith(ex.x, e)
							require.NoError(t, err)
							ctx := fmt.Sprintf("argmax=%v of %v (strides %v) axis %d on %s", isMax, shape, x.Strides(), ax, ex.name)
							assert.Equal(t, rdOutShape(shape, red, false).String(), got.Shape().String(), ctx)
							rdCompare(t, rdSame[int64], rdArgRef(vals, shape, red, isMax), got.Values(), "%s", ctx)
						}
					}
				}
			})
		}
	}
}

func TestArgMaxArgMinEveryDTypeEveryAxis(t *testing.T) {
	t.Run("int8", func(t *testing.T) { rdArgRun[int8](t, rdOrderVals) })
	t.Run("int16", func(t *testing.T) { rdArgRun[int16](t, rdOrderVals) })
	t.Run("int32", func(t *testing.T) { rdArgRun[int32](t, rdOrderVals) })
	t.Run("int64", func(t *testing.T) { rdArgRun[int64](t, rdOrderVals) })
	t.Run("uint8", func(t *testing.T) { rdArgRun[uint8](t, rdOrderVals) })
	t.Run("uint16", func(t *testing.T) { rdArgRun[uint16](t, rdOrderVals) })
	t.Run("uint32", func(t *testing.T) { rdArgRun[uint32](t, rdOrderVals) })
	t.Run("uint64", func(t *testing.T) { rdArgRun[uint64](t, rdOrderVals) })
	t.Run("float32", func(t *testing.T) { rdArgRun[float32](t, rdOrderVals, rdNaNVals) })
	t.Run("float64", func(t *testing.T) { rdArgRun[float64](t, rdOrderVals, rdNaNVals) })
}

// rdMeanAsRun checks MeanAs[float64] (NumPy's mean of integers) over every
// subset of axes, within a rounding bound of the float64 sum.
func rdMeanAsRun[T dtype.Integer](t *testing.T) {
	for vi, kind := range rdViewKinds {
		t.Run(kind.name, func(t *testing.T) {
			r := rdRand(uint64(vi + 77))
			for rank := 1; rank <= 4; rank++ {
				shape := rdShape(r, rank)
				x := rdView(t, r, kind, shape, func(n int) []T { return rdValues[T](r, n, rdSumVals) })
				vals := make([]float64, 0, x.Numel())
				for _, v := range x.Values() {
					vals = append(vals, float64(v))
				}
				for mask := 0; mask < 1<<rank; mask++ {
					axes, red := rdAxes(r, rank, mask)
					e := expr.MeanAs[float64](expr.Of(x), axes...)
					require.NoError(t, e.Err())
					assert.Equal(t, dtype.Float64, e.DType())
					got, err := exec.EvalWith(rdExecs[mask%len(rdExecs)].x, e)
					require.NoError(t, err)
					n := float64(rdCount(shape, red))
					want := rdRef(vals, shape, red, 0.0, func(a, x float64, _ int) float64 { return a + x })
					mag := rdRef(vals, shape, red, 0.0, func(a, x float64, _ int) float64 { return a + math.Abs(x) })
					ctx := fmt.Sprintf("MeanAs[float64] of %s %v axes %v", dtype.Of[T](), shape, axes)
					assert.Equal(t, rdOutShape(shape, red, false).String(), got.Shape().String(), ctx)
					for i, g := range got.Values() {
						assert.InDelta(t, want[i]/n, g, 1e-13*mag[i]/n, "%s [%d]", ctx, i)
					}
				}
			}
		})
	}
}

func TestMeanAsIntegers(t *testing.T) {
	t.Run("int8", rdMeanAsRun[int8])
	t.Run("int16", rdMeanAsRun[int16])
	t.Run("int32", rdMeanAsRun[int32])
	t.Run("int64", rdMeanAsRun[int64])
	t.Run("uint8", rdMeanAsRun[uint8])
	t.Run("uint16", rdMeanAsRun[uint16])
	t.Run("uint32", rdMeanAsRun[uint32])
	t.Run("uint64", rdMeanAsRun[uint64])

	x := tensor.Must(tensor.FromSlice([]int32{1, 2, 3, 4}, 2, 2))
	got, err := exec.Eval(expr.MeanAs[float64](expr.Of(x), 0))
	require.NoError(t, err)
	assert.Equal(t, []float64{2, 3}, got.Values(), "NumPy: np.mean([[1,2],[3,4]], axis=0) is [2., 3.]")
	got, err = exec.Eval(expr.MeanAs[float64](expr.Of(x)))
	require.NoError(t, err)
	assert.Equal(t, []float64{2.5}, got.Values())
}

// TestMeanDividesByCount checks mean = sum / count with one rounding, as
// NumPy computes it: the mean of n copies of v is v.
func TestMeanDividesByCount(t *testing.T) {
	check := func(name string, got, want any) { assert.Equal(t, want, got, name) }
	for n := 1; n <= 60; n++ {
		for _, v := range []float64{1, 3, 7, 0.1} {
			x64 := tensor.Must(tensor.Full(v, n))
			g64, err := exec.Eval(expr.Of(x64).Mean())
			require.NoError(t, err)
			s64, err := exec.Eval(expr.Of(x64).Sum())
			require.NoError(t, err)
			check(fmt.Sprintf("float64 mean of %d x %v", n, v), g64.Values()[0], s64.Values()[0]/float64(n))
			x32 := tensor.Must(tensor.Full(float32(v), n))
			g32, err := exec.Eval(expr.Of(x32).Mean())
			require.NoError(t, err)
			s32, err := exec.Eval(expr.Of(x32).Sum())
			require.NoError(t, err)
			check(fmt.Sprintf("float32 mean of %d x %v", n, v), g32.Values()[0], s32.Values()[0]/float32(n))
		}
	}
}

// TestReduceEmpty checks reductions with zero elements: sum 0, prod 1,
// mean NaN, any false, all true, and results with no elements; and that
// max/min/argmax/argmin over an empty axis fail when built, naming the axis.
func TestReduceEmpty(t *testing.T) {
	nan := math.NaN()
	e30 := tensor.Must(tensor.New[float64](3, 0))
	e03 := tensor.Must(tensor.New[float64](0, 3))
	e0 := tensor.Must(tensor.New[float64](0))
	tests := []struct {
		name  string
		e     expr.Expr[float64]
		shape string
		want  []float64
	}{
		{"sum (3,0) axis 1", expr.Of(e30).Sum(1), "[3]", []float64{0, 0, 0}},
		{"sum (3,0) axis -1 keepdim", expr.Of(e30).SumKeepDims(-1), "[3, 1]", []float64{0, 0, 0}},
		{"sum (3,0) axis 0", expr.Of(e30).Sum(0), "[0]", []float64{}},
		{"sum (3,0) all", expr.Of(e30).Sum(), "[]", []float64{0}},
		{"sum (0,3) axis 0", expr.Of(e03).Sum(0), "[3]", []float64{0, 0, 0}},
		{"sum (0,)", expr.Of(e0).Sum(), "[]", []float64{0}},
		{"prod (3,0) axis 1", expr.Of(e30).Prod(1), "[3]", []float64{1, 1, 1}},
		{"prod (0,3) axis 0", expr.Of(e03).Prod(0), "[3]", []float64{1, 1, 1}},
		{"prod (0,)", expr.Of(e0).Prod(), "[]", []float64{1}},
		{"mean (3,0) axis 1", expr.Of(e30).Mean(1), "[3]", []float64{nan, nan, nan}},
		{"mean (0,3) axis 0", expr.Of(e03).Mean(0), "[3]", []float64{nan, nan, nan}},
		{"mean (0,)", expr.Of(e0).Mean(), "[]", []float64{nan}},
		{"max (0,3) axis 1 (non-empty axis)", expr.Of(e03).Max(1), "[0]", []float64{}},
		{"min (3,0) axis 0 (non-empty axis)", expr.Of(e30).Min(0), "[0]", []float64{}},
		{"fused sum (3,0)*(3,0) axis 1", expr.Of(e30).Mul(expr.Of(e30)).Sum(1), "[3]", []float64{0, 0, 0}},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				require.NoError(t, tc.e.Err())
				got, err := exec.EvalWith(ex.x, tc.e)
				require.NoError(t, err)
				assert.Equal(t, tc.shape, got.Shape().String())
				rdCompare(t, rdSame[float64], tc.want, got.Values(), "%s", tc.name)
			})
		}
	}

	t.Run("complex mean", func(t *testing.T) {
		x := tensor.Must(tensor.New[complex128](2, 0))
		got, err := exec.Eval(expr.Of(x).Mean(1))
		require.NoError(t, err)
		for _, v := range got.Values() {
			assert.True(t, math.IsNaN(real(v)), "real part of %v", v)
		}
	})
	t.Run("integer sum, prod and MeanAs", func(t *testing.T) {
		x := tensor.Must(tensor.New[int32](2, 0))
		s, err := exec.Eval(expr.Of(x).Sum(1))
		require.NoError(t, err)
		assert.Equal(t, []int32{0, 0}, s.Values())
		p, err := exec.Eval(expr.Of(x).Prod(-1))
		require.NoError(t, err)
		assert.Equal(t, []int32{1, 1}, p.Values())
		m, err := exec.Eval(expr.MeanAs[float64](expr.Of(x), 1))
		require.NoError(t, err)
		assert.True(t, math.IsNaN(m.Values()[0]) && math.IsNaN(m.Values()[1]), "MeanAs of empty rows: %v", m.Values())
	})
	t.Run("any and all", func(t *testing.T) {
		x := tensor.Must(tensor.New[bool](2, 0))
		a, err := exec.Eval(expr.Of(x).Any(1))
		require.NoError(t, err)
		assert.Equal(t, []bool{false, false}, a.Values())
		l, err := exec.Eval(expr.Of(x).All(1))
		require.NoError(t, err)
		assert.Equal(t, []bool{true, true}, l.Values())
	})

	errTests := []struct {
		name string
		err  error
		dim  int
	}{
		{"max", expr.Of(e30).Max(1).Err(), 1},
		{"max negative axis", expr.Of(e30).Max(-1).Err(), 1},
		{"max all axes", expr.Of(e30).Max().Err(), 1},
		{"max keepdim", expr.Of(e03).MaxKeepDims(0).Err(), 0},
		{"min", expr.Of(e03).Min(0).Err(), 0},
		{"min all axes", expr.Of(e0).Min().Err(), 0},
		{"argmax", expr.Of(e30).ArgMax(1).Err(), 1},
		{"argmax negative axis", expr.Of(e03).ArgMax(-2).Err(), 0},
		{"argmin", expr.Of(e0).ArgMin(0).Err(), 0},
	}
	for _, tc := range errTests {
		t.Run("error/"+tc.name, func(t *testing.T) {
			require.Error(t, tc.err)
			var se *expr.ShapeOpError
			require.ErrorAs(t, tc.err, &se)
			assert.Contains(t, tc.err.Error(), fmt.Sprintf("Expected reduction dim %d to have non-zero size", tc.dim))
		})
	}
	t.Run("error is returned by Eval", func(t *testing.T) {
		_, err := exec.Eval(expr.Of(e30).Max(1))
		var se *expr.ShapeOpError
		assert.ErrorAs(t, err, &se)
	})
}

// TestReduceNaNAndTies pins NumPy's rules on hand-made rows: max/min give
// NaN when any element is NaN, argmax/argmin pick the first of equal
// extremes and the first NaN; rows are long enough to span several blocks.
func TestReduceNaNAndTies(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	long := func(n int, fill float64, at map[int]float64) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = fill
		}
		for i, x := range at {
			v[i] = x
		}
		return v
	}
	tests := []struct {
		name           string
		row            []float64
		max, min       float64
		argmax, argmin int64
	}{
		{"nan in the middle", []float64{1, nan, 3}, nan, nan, 1, 1},
		{"nan first", []float64{nan, 5, -5}, nan, nan, 0, 0},
		{"nan last", []float64{1, 2, nan}, nan, nan, 2, 2},
		{"two nans", []float64{1, nan, 3, nan}, nan, nan, 1, 1},
		{"infinities", []float64{-inf, inf, 0, inf, -inf}, inf, -inf, 1, 0},
		{"nan beats inf", []float64{inf, nan, -inf}, nan, nan, 1, 1},
		{"ties", []float64{3, 1, 3, 1}, 3, 1, 0, 1},
		{"all equal", []float64{2, 2, 2}, 2, 2, 0, 0},
		{"all -inf", []float64{-inf, -inf}, -inf, -inf, 0, 0},
		{"single", []float64{4}, 4, 4, 0, 0},
		{"long, nan near the end", long(5000, 1, map[int]float64{4999: nan, 100: 7}), nan, nan, 4999, 4999},
		{"long, nan in a later block", long(5000, 1, map[int]float64{2100: nan, 3000: nan, 9: 0}), nan, nan, 2100, 2100},
		{"long, ties across blocks", long(5000, 0, map[int]float64{2047: 9, 2048: 9, 4000: 9, 10: -1, 4500: -1}), 9, -1, 2047, 10},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				n := len(tc.row)
				row := tensor.Must(tensor.FromSlice(tc.row, n))
				// The same values as a column of an (n, 2) matrix, so the
				// outer (rows into columns) path is taken too.
				colData := make([]float64, 2*n)
				for i, v := range tc.row {
					colData[2*i], colData[2*i+1] = v, -v
				}
				col := tensor.Must(tensor.FromSlice(colData, n, 2))
				for _, c := range []struct {
					name string
					x    expr.Expr[float64]
					axis int
				}{{"row", expr.Of(row), 0}, {"column", expr.Of(col), 0}} {
					first := func(v []float64) float64 { return v[0] }
					mx := rdEval(t, ex.x, c.x.Max(c.axis))
					mn := rdEval(t, ex.x, c.x.Min(c.axis))
					am := rdEval(t, ex.x, c.x.ArgMax(c.axis))
					an := rdEval(t, ex.x, c.x.ArgMin(c.axis))
					assert.True(t, rdSame(tc.max, first(mx)), "%s max: got %v want %v", c.name, first(mx), tc.max)
					assert.True(t, rdSame(tc.min, first(mn)), "%s min: got %v want %v", c.name, first(mn), tc.min)
					assert.Equal(t, tc.argmax, am[0], "%s argmax", c.name)
					assert.Equal(t, tc.argmin, an[0], "%s argmin", c.name)
				}
			})
		}
	}
}

// rdEval evaluates e with x and returns its values.
func rdEval[T dtype.Elem](t testing.TB, x *exec.Executor, e expr.Expr[T]) []T {
	t.Helper()
	require.NoError(t, e.Err())
	out, err := exec.EvalWith(x, e)
	require.NoError(t, err)
	return out.Values()
}

// TestReduceFusedEqualsUnfused evaluates reductions of elementwise
// producers (products, broadcasts, where/compare, permuted operands) in one
// step and in two (the producer materialized first); the results must be
// identical, and the one-step plan must make no temporary for the producer.
func TestReduceFusedEqualsUnfused(t *testing.T) {
	r := rdRand(42)
	a := tensor.Must(tensor.FromSlice(rdValues[float64](r, 37*300, rdOrderVals), 37, 300))
	b := tensor.Must(tensor.FromSlice(rdValues[float64](r, 37*300, rdSumVals), 37, 300))
	c := tensor.Must(tensor.FromSlice(rdValues[float64](r, 300, rdSumVals), 300))
	at, bt := tensor.Must(a.T()), tensor.Must(b.T())
	A, B, C := expr.Of(a), expr.Of(b), expr.Of(c)
	prodAB, prodTT := A.Mul(B), expr.Of(at).Mul(expr.Of(bt))
	where := expr.Where(A.Gt(B), A, B.MulScalar(2))
	whereC := expr.Where(A.Le(C), A.Sub(C), C)
	tests := []struct {
		name     string
		producer expr.Expr[float64]
		reduce   func(expr.Expr[float64]) expr.Expr[float64]
	}{
		{"sum(a*b, 1)", prodAB, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum(1) }},
		{"sum(a*b, 0)", prodAB, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum(0) }},
		{"sum(a*b)", prodAB, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum() }},
		{"sum(a*c) broadcast, -1", A.Mul(C), func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum(-1) }},
		{"sum(a.T*b.T, 0)", prodTT, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum(0) }},
		{"mean(a*b+a, -1)", prodAB.Add(A), func(x expr.Expr[float64]) expr.Expr[float64] { return x.Mean(-1) }},
		{"sum(where(a>b, a, 2b), 1)", where, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Sum(1) }},
		{"max(where(a>b, a, 2b), 0)", where, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Max(0) }},
		{"min(where(a<=c, a-c, c), 1)", whereC, func(x expr.Expr[float64]) expr.Expr[float64] { return x.Min(1) }},
		{"prod(where(a>b, a, 2b)) keepdim", where, func(x expr.Expr[float64]) expr.Expr[float64] { return x.ProdKeepDims(0, 1) }},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				fused := rdEval(t, ex.x, tc.reduce(tc.producer))
				tmp, err := exec.EvalWith(ex.x, tc.producer)
				require.NoError(t, err)
				unfused := rdEval(t, ex.x, tc.reduce(expr.Of(tmp)))
				rdCompare(t, rdBitsEqual[float64], unfused, fused, "%s fused vs unfused", tc.name)
			})
		}
	}

	t.Run("argmax(a*b-c, 1)", func(t *testing.T) {
		e := prodAB.Sub(C)
		tmp := tensor.Must(exec.Eval(e))
		rdCompare(t, rdSame[int64], rdEval(t, exec.Default, expr.Of(tmp).ArgMax(1)), rdEval(t, exec.Default, e.ArgMax(1)), "argmax")
	})
	t.Run("any(a>b, 1), all(a>=c, 0)", func(t *testing.T) {
		gt, ge := A.Gt(B), A.Ge(C)
		gtT, geT := tensor.Must(exec.Eval(gt)), tensor.Must(exec.Eval(ge))
		rdCompare(t, rdSame[bool], rdEval(t, exec.Default, expr.Of(gtT).Any(1)), rdEval(t, exec.Default, gt.Any(1)), "any")
		rdCompare(t, rdSame[bool], rdEval(t, exec.Default, expr.Of(geT).All(0)), rdEval(t, exec.Default, ge.All(0)), "all")
	})
	t.Run("int32 sum(where(a>0, a, -a) * b, 0)", func(t *testing.T) {
		ai := tensor.Must(tensor.FromSlice(rdValues[int32](r, 50*70, rdOrderVals), 50, 70))
		bi := tensor.Must(tensor.FromSlice(rdValues[int32](r, 70, rdOrderVals), 70))
		Ai, Bi := expr.Of(ai), expr.Of(bi)
		e := expr.Where(Ai.Gt(expr.Scalar[int32](0)), Ai, Ai.Neg()).Mul(Bi)
		tmp := tensor.Must(exec.Eval(e))
		rdCompare(t, rdSame[int32], rdEval(t, exec.Default, expr.Of(tmp).Sum(0)), rdEval(t, exec.Default, e.Sum(0)), "sum")
	})
	t.Run("plan has no producer temporary", func(t *testing.T) {
		var buf strings.Builder
		x := exec.New(exec.Debug(&buf))
		for _, e := range []expr.Expr[float64]{prodAB.Sum(1), where.Sum(0)} {
			_ = rdEval(t, x, e)
		}
		plan := buf.String()
		assert.NotRegexp(t, regexp.MustCompile(`(?m)^\s*fused `), plan, "a fused region outside the reduction is a temporary")
		assert.Regexp(t, `reduce sum .* [1-9]\d* fused kernels`, plan)
	})
}

// TestSumTo checks PyTorch's sum_to_size: the leading axes the target lacks
// and every axis where it has 1 (and x does not) are summed, the result has
// the target's shape exactly.
func TestSumTo(t *testing.T) {
	tests := []struct {
		x      []int
		target []int
	}{
		{[]int{2, 3, 4}, []int{3, 4}},
		{[]int{2, 3, 4}, []int{4}},
		{[]int{2, 3, 4}, []int{3, 1}},
		{[]int{2, 3, 4}, []int{1, 3, 1}},
		{[]int{2, 3, 4}, []int{2, 1, 4}},
		{[]int{2, 3, 4}, []int{1, 1, 1}},
		{[]int{2, 3, 4}, []int{1}},
		{[]int{2, 3, 4}, []int{}},
		{[]int{2, 3, 4}, []int{2, 3, 4}},
		{[]int{2, 1, 4}, []int{1, 4}},
		{[]int{2, 1, 4}, []int{1, 1, 4}},
		{[]int{5}, []int{1}},
		{[]int{5, 1}, []int{5, 1}},
		{[]int{3, 0}, []int{1, 0}},
		{[]int{0, 3}, []int{3}},
		{[]int{4, 5, 6, 7}, []int{5, 1, 7}},
	}
	r := rdRand(9)
	for i, tc := range tests {
		kind := rdViewKinds[i%len(rdViewKinds)]
		for _, ex := range rdExecs {
			t.Run(fmt.Sprintf("%v_to_%v/%s/%s", tc.x, tc.target, kind.name, ex.name), func(t *testing.T) {
				x := rdView(t, r, kind, tc.x, func(n int) []float64 { return rdValues[float64](r, n, rdSumVals) })
				pad := len(tc.x) - len(tc.target)
				red := make([]bool, len(tc.x))
				for j, d := range tc.x {
					red[j] = j < pad || (tc.target[j-pad] == 1 && d != 1)
				}
				want := rdRef(x.Values(), tc.x, red, 0.0, func(a, v float64, _ int) float64 { return a + v })
				e := expr.Of(x).SumTo(tc.target...)
				require.NoError(t, e.Err())
				got, err := exec.EvalWith(ex.x, e)
				require.NoError(t, err)
				assert.Equal(t, tensor.Shape(tc.target).String(), got.Shape().String())
				rdCompare(t, rdSame[float64], want, got.Values(), "SumTo %v of %v", tc.target, tc.x)
			})
		}
	}
	t.Run("int64 with a fused producer", func(t *testing.T) {
		x := tensor.Must(tensor.FromSlice([]int64{1, 2, 3, 4, 5, 6}, 2, 3))
		got := rdEval(t, exec.Default, expr.Of(x).MulScalar(10).SumTo(1, 3))
		assert.Equal(t, []int64{50, 70, 90}, got)
	})
}

// rdWorkerExecs returns executors with 1, 2, 4, 8 and 16 workers, each with
// grain 1 (every reduction split over the pool) and the default grain.
func rdWorkerExecs() []rdExec {
	var xs []rdExec
	for _, n := range []int{1, 2, 4, 8, 16} {
		xs = append(xs,
			rdExec{fmt.Sprintf("workers=%d,grain=1", n), exec.New(exec.Workers(n), exec.Grain(1))},
			rdExec{fmt.Sprintf("workers=%d", n), exec.New(exec.Workers(n))})
	}
	return xs
}

var rdChunksRE = regexp.MustCompile(`(\d+) chunks x (\d+) groups`)

// TestReduceDeterministicAcrossWorkers checks that inner-axis, outer-axis
// and full reductions of data big enough to be split into several chunks
// give the same bits for 1, 2, 4, 8 and 16 workers and from run to run.
func TestReduceDeterministicAcrossWorkers(t *testing.T) {
	rows, cols, flat := 300, 5000, 1_000_000
	if testing.Short() {
		rows, cols, flat = 300, 1000, 300_000
	}
	execs := rdWorkerExecs()
	t.Run("float64", func(t *testing.T) { rdDeterminism[float64](t, execs, rows, cols, flat) })
	t.Run("float32", func(t *testing.T) { rdDeterminism[float32](t, execs, rows, cols, flat) })
}

func rdDeterminism[T dtype.Float](t *testing.T, execs []rdExec, rows, cols, flat int) {
	m := tensor.Must(tensor.RandN[T](1, rows, cols))
	w := tensor.Must(tensor.RandN[T](2, rows, cols))
	v := tensor.Must(tensor.RandN[T](3, flat))
	// Offsets make the partial sums large and the rounding order matter.
	M, W := expr.Of(m).AddScalar(3), expr.Of(w)
	tests := []struct {
		name   string
		e      expr.Expr[T]
		split  bool // the plan must cut each output's sequence into chunks
		groups bool // or spread the outputs over several tasks
	}{
		{name: "inner sum(x, -1)", e: M.Sum(-1), groups: true},
		{name: "outer sum(x, 0)", e: M.Sum(0), split: true},
		{name: "full sum(x)", e: M.Sum(), split: true},
		{name: "flat sum(v)", e: expr.Of(v).AddScalar(1).Sum(), split: true},
		{name: "few long rows sum(v as 4 rows, 1)", e: expr.Of(v).AddScalar(1).Reshape(4, -1).Sum(1), split: true},
		{name: "outer mean(x, 0)", e: M.Mean(0), split: true},
		{name: "fused sum(x*w, 1)", e: M.Mul(W).Sum(1), groups: true},
		{name: "fused sum(x*w)", e: M.Mul(W).Sum(), split: true},
		{name: "transposed sum(x.T, 1)", e: M.T().Sum(1), split: true},
		{name: "outer max(x, 0)", e: M.Max(0), split: true},
		{name: "outer prod(x/64+1, 0)", e: expr.Of(m).DivScalar(64).AddScalar(1).Prod(0), split: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var plan strings.Builder
			want := rdEval(t, exec.New(exec.Workers(2), exec.Grain(1), exec.Debug(&plan)), tc.e)
			mm := rdChunksRE.FindStringSubmatch(plan.String())
			require.NotNil(t, mm, "plan: %s", plan.String())
			chunks, _ := strconv.Atoi(mm[1])
			groups, _ := strconv.Atoi(mm[2])
			if tc.split {
				require.Greater(t, chunks, 1, "the reduction must be split into chunks: %s", plan.String())
			}
			if tc.groups {
				require.Greater(t, groups, 1, "the outputs must be split into groups: %s", plan.String())
			}
			for _, ex := range execs {
				for run := range 2 {
					got := rdEval(t, ex.x, tc.e)
					if !rdCompare(t, rdBitsEqual[T], want, got, "%s on %s, run %d", tc.name, ex.name, run) {
						return
					}
				}
			}
		})
	}
}

// TestSumFloat32Accuracy checks that float32 sums of 1e7 elements are
// within 1e-5 relative of a float64 reference (a naive float32 loop is off
// by about 1e-3).
func TestSumFloat32Accuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("1e7 elements")
	}
	const n = 10_000_000
	x := tensor.Must(tensor.Rand[float32](11, n))
	data := x.Values()
	var ref float64
	for _, v := range data {
		ref += float64(v)
	}
	cols := make([]float64, 4) // sums of the columns of x as (n/4, 4)
	rowSums := make([]float64, 4)
	for i, v := range data {
		cols[i%4] += float64(v)
		rowSums[i/(n/4)] += float64(v)
	}
	X := expr.Of(x)
	tests := []struct {
		name string
		e    expr.Expr[float32]
		want []float64
	}{
		{"sum of 1e7", X.Sum(), []float64{ref}},
		{"outer: sum((n/4, 4), 0)", X.Reshape(n/4, 4).Sum(0), cols},
		{"inner: sum((4, n/4), 1)", X.Reshape(4, n/4).Sum(1), rowSums},
		{"mean of 1e7", X.Mean(), []float64{ref / n}},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs[:2] {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				got := rdEval(t, ex.x, tc.e)
				require.Len(t, got, len(tc.want))
				for i, w := range tc.want {
					assert.LessOrEqual(t, math.Abs(float64(got[i])-w)/w, 1e-5, "[%d] got %v want %v", i, got[i], w)
				}
			})
		}
	}
}

// TestReduceChunkEdges covers reductions whose partition into chunks of
// equal length needs fewer chunks than the count first chosen: 289 rows in
// 18 chunks of 17 (the last would be empty), and a 16M-element vector in 256
// chunks of 17 blocks of 4096 (the last 15 would be). Over values of one
// sign an empty chunk shows: a max of negatives came out 0.
func TestReduceChunkEdges(t *testing.T) {
	shapes := []struct {
		shape []int
		axes  []int
	}{
		{[]int{289, 3856}, []int{0}},
		{[]int{289, 3856}, nil},
		{[]int{1<<24 + 1}, nil},
	}
	for _, s := range shapes {
		if testing.Short() && s.shape[0] > 1<<20 {
			continue // 16 MiB of int8: fine, but slow under the race detector
		}
		t.Run(fmt.Sprint(s.shape, s.axes), func(t *testing.T) {
			neg := tensor.Must(tensor.Full(int8(-3), s.shape...))
			pos := tensor.Must(tensor.Full(int8(3), s.shape...))
			data := neg.Data()
			data[len(data)/3] = -2 // one larger value, in a middle chunk
			for _, x := range []*exec.Executor{exec.Default, serial} {
				mx, err := exec.EvalWith(x, expr.Of(neg).Max(s.axes...))
				require.NoError(t, err)
				mn, err := exec.EvalWith(x, expr.Of(pos).Min(s.axes...))
				require.NoError(t, err)
				for i, v := range mn.Values() {
					require.Equal(t, int8(3), v, "min of threes, output %d", i)
				}
				wantMax := func(i int) int8 {
					if len(s.axes) == 1 && i == (len(data)/3)%s.shape[1] || len(s.axes) != 1 {
						return -2
					}
					return -3
				}
				for i, v := range mx.Values() {
					require.Equal(t, wantMax(i), v, "max of negatives, output %d", i)
				}
			}
		})
	}
}

// TestReduceLargeViews checks, exactly, the paths that split work (outputs
// cut into chunks, or spread over groups of tasks) on strided inputs:
// transposed, sliced with a step, and expanded both ways.
func TestReduceLargeViews(t *testing.T) {
	const rows, cols = 64, 3000
	r := rdRand(21)
	halves := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(r.IntN(33)-16) / 2
		}
		return v
	}
	signs := func(n int) []float64 { // products of ±1 stay exact
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(1 - 2*r.IntN(2))
		}
		return v
	}
	views := []struct {
		name string
		make func(gen func(int) []float64) *tensor.Tensor[float64]
	}{
		{"contiguous", func(g func(int) []float64) *tensor.Tensor[float64] {
			return tensor.Must(tensor.FromSlice(g(rows*cols), rows, cols))
		}},
		{"transposed", func(g func(int) []float64) *tensor.Tensor[float64] {
			return tensor.Must(tensor.Must(tensor.FromSlice(g(rows*cols), cols, rows)).T())
		}},
		{"sliced", func(g func(int) []float64) *tensor.Tensor[float64] {
			return tensor.Must(tensor.Must(tensor.FromSlice(g(rows*(2*cols+1)), rows, 2*cols+1)).Slice(1, 1, math.MaxInt, 2))
		}},
		{"expanded rows", func(g func(int) []float64) *tensor.Tensor[float64] {
			return tensor.Must(tensor.Must(tensor.FromSlice(g(cols), 1, cols)).Expand(rows, cols))
		}},
		{"expanded columns", func(g func(int) []float64) *tensor.Tensor[float64] {
			return tensor.Must(tensor.Must(tensor.FromSlice(g(rows), rows, 1)).Expand(rows, cols))
		}},
	}
	ops := append(rdNumericOps[float64](), rdMeanOp(rdFloatDiv[float64]))
	ops = append(ops, rdRealOps[float64](rdOrderVals)...)
	execs := append([]rdExec{{"workers=4,grain=1", exec.New(exec.Workers(4), exec.Grain(1))}}, rdExecs...)
	for _, v := range views {
		t.Run(v.name, func(t *testing.T) {
			x, sx := v.make(halves), v.make(signs)
			xv, sxv := x.Values(), sx.Values()
			for _, op := range ops {
				in, vals := x, xv
				if op.name == "prod" {
					in, vals = sx, sxv
				}
				for i, axes := range [][]int{{0}, {1}, {-1, 0}, nil} {
					_, red := rdAxes(r, 2, rdMaskOf(axes, 2))
					ex := execs[i%len(execs)]
					got := rdEval(t, ex.x, op.build(expr.Of(in), false, axes...))
					rdCompare(t, op.eq, op.ref(vals, []int{rows, cols}, red), got, "%s axes %v on %s", op.name, axes, ex.name)
				}
			}
			for ax := range 2 {
				red := []bool{ax == 0, ax == 1}
				ex := execs[ax]
				am := rdEval(t, ex.x, expr.Of(x).ArgMax(ax))
				rdCompare(t, rdSame[int64], rdArgRef(xv, []int{rows, cols}, red, true), am, "argmax %d on %s", ax, ex.name)
				an := rdEval(t, ex.x, expr.Of(x).ArgMin(ax-2))
				rdCompare(t, rdSame[int64], rdArgRef(xv, []int{rows, cols}, red, false), an, "argmin %d on %s", ax-2, ex.name)
			}
		})
	}
}

// rdMaskOf is the axis mask of axes (0 for none: every axis).
func rdMaskOf(axes []int, rank int) int {
	m := 0
	for _, a := range axes {
		m |= 1 << ((a + rank) % rank)
	}
	return m
}

// TestReduceInGraphs checks reductions between other ops: a reduction
// broadcast back into an elementwise op (softmax, centering), reductions of
// reductions and of matmuls, several reductions in one plan, and graphs
// rebuilt over other scalars, tensors and bindings (plan reuse).
func TestReduceInGraphs(t *testing.T) {
	const rows, cols = 5, 70
	r := rdRand(31)
	vals := make([]float64, rows*cols)
	for i := range vals {
		vals[i] = float64(r.IntN(33)-16) / 4
	}
	x := tensor.Must(tensor.FromSlice(vals, rows, cols))
	X := expr.Of(x)
	near := rdNear[float64](64)
	rowOf := func(i int) []float64 { return vals[i*cols : (i+1)*cols] }

	var softmax, centered []float64
	for i := range rows {
		row := rowOf(i)
		m := math.Inf(-1)
		for _, v := range row {
			m = math.Max(m, v)
		}
		var s float64
		for _, v := range row {
			s += math.Exp(v - m)
		}
		for _, v := range row {
			softmax = append(softmax, math.Exp(v-m)/s)
		}
	}
	colMean := make([]float64, cols)
	for i, v := range vals {
		colMean[i%cols] += v / rows
	}
	for i, v := range vals {
		centered = append(centered, v-colMean[i%cols])
	}
	rowSum := rdRef(vals, []int{rows, cols}, []bool{false, true}, 0.0, func(a, v float64, _ int) float64 { return a + v })
	maxRowSum := rowSum[0]
	for _, v := range rowSum {
		maxRowSum = math.Max(maxRowSum, v)
	}
	gram, _ := mmRef(vals, []int{rows, cols}, tensor.Must(x.T()).Values(), []int{cols, rows})
	gramColSums := rdRef(gram, []int{rows, rows}, []bool{true, false}, 0.0, func(a, v float64, _ int) float64 { return a + v })

	sh := X.Sub(X.MaxKeepDims(1)).Exp()
	tests := []struct {
		name string
		e    expr.Expr[float64]
		want []float64
	}{
		{"softmax(x, 1)", sh.Div(sh.SumKeepDims(1)), softmax},
		{"x - mean(x, 0, keepdim)", X.Sub(X.MeanKeepDims(0)), centered},
		{"max(sum(x, 1))", X.Sum(1).Max(), []float64{maxRowSum}},
		{"sum(x @ x.T, 0)", X.MatMul(X.T()).Sum(0), gramColSums},
		{"sum(x, 0, keepdim) @ x.T", X.SumKeepDims(0).MatMul(X.T()),
			func() []float64 {
				cs := rdRef(vals, []int{rows, cols}, []bool{true, false}, 0.0, func(a, v float64, _ int) float64 { return a + v })
				v, _ := mmRef(cs, []int{1, cols}, tensor.Must(x.T()).Values(), []int{cols, rows})
				return v
			}()},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				rdCompare(t, near, tc.want, rdEval(t, ex.x, tc.e), "%s", tc.name)
			})
		}
	}

	t.Run("EvalN", func(t *testing.T) {
		es := []expr.Expr[float64]{X.Sum(0), X.Sum(1), X.Max(), X.Mul(X).Sum(1), X.Sum(0).Mul(X.Sum(0)).Sum()}
		outs, err := exec.EvalN(es...)
		require.NoError(t, err)
		require.Len(t, outs, len(es))
		for i, e := range es {
			rdCompare(t, rdBitsEqual[float64], rdEval(t, exec.New(), e), outs[i].Values(), "EvalN output %d", i)
		}
	})

	t.Run("rebuilt graphs", func(t *testing.T) {
		ex := exec.New()
		for s := 1.0; s <= 4; s++ {
			fresh := rdEval(t, exec.New(), expr.Of(x).MulScalar(s).Sum(1))
			rdCompare(t, rdBitsEqual[float64], fresh, rdEval(t, ex, expr.Of(x).MulScalar(s).Sum(1)), "scalar %v", s)
		}
		for seed := range uint64(3) {
			y := tensor.Must(tensor.RandN[float64](100+seed, rows, cols))
			fresh := rdEval(t, exec.New(), expr.Of(y).Sum(0))
			rdCompare(t, rdBitsEqual[float64], fresh, rdEval(t, ex, expr.Of(y).Sum(0)), "tensor %d", seed)
			a := tensor.Must(tensor.RandN[float64](200+seed, rows, 8))
			fresh = rdEval(t, exec.New(), expr.Of(a).T().MatMul(expr.Of(y)))
			rdCompare(t, rdBitsEqual[float64], fresh, rdEval(t, ex, expr.Of(a).T().MatMul(expr.Of(y))), "matmul %d", seed)
		}
	})

	t.Run("placeholder bound to other layouts", func(t *testing.T) {
		p := expr.Placeholder[float64]("p", rows, cols)
		e := p.Sum(0)
		mm := p.MatMul(expr.Of(tensor.Must(x.T())))
		for _, kind := range rdViewKinds {
			v := rdView(t, r, kind, []int{rows, cols}, func(n int) []float64 { return rdValues[float64](r, n, rdSumVals) })
			got, err := exec.Eval(e, exec.Bind(p, v))
			require.NoError(t, err)
			want := rdRef(v.Values(), []int{rows, cols}, []bool{true, false}, 0.0, func(a, x float64, _ int) float64 { return a + x })
			rdCompare(t, rdSame[float64], want, got.Values(), "sum of %s", kind.name)
			pv := rdView(t, r, kind, []int{rows, cols}, func(n int) []float64 { return mmValues[float64](r, n) })
			gotM, err := exec.Eval(mm, exec.Bind(p, pv))
			require.NoError(t, err)
			wantM, _ := mmRef(pv.Values(), []int{rows, cols}, tensor.Must(x.T()).Values(), []int{cols, rows})
			rdCompare(t, rdSame[float64], wantM, gotM.Values(), "matmul of %s", kind.name)
		}
	})
}

// TestReduceEvalTo checks reductions and matmuls written into existing
// tensors: strided destinations, destinations that are (part of) an
// operand (computed from the operand's old values), and shape errors that
// leave the destination untouched.
func TestReduceEvalTo(t *testing.T) {
	const rows, cols = 6, 40
	r := rdRand(41)
	fresh := func() *tensor.Tensor[float64] {
		return tensor.Must(tensor.FromSlice(mmValues[float64](rdRand(42), rows*cols), rows, cols))
	}
	x := fresh()
	colSums := rdRef(x.Values(), []int{rows, cols}, []bool{true, false}, 0.0, func(a, v float64, _ int) float64 { return a + v })
	rowMax := rdRef(x.Values(), []int{rows, cols}, []bool{false, true}, 0.0, func(a, v float64, pos int) float64 {
		if pos == 0 {
			return v
		}
		return math.Max(a, v)
	})
	for _, ex := range rdExecs {
		t.Run(ex.name, func(t *testing.T) {
			dst := tensor.Must(tensor.New[float64](cols))
			require.NoError(t, exec.EvalToWith(ex.x, dst, expr.Of(x).Sum(0)))
			assert.Equal(t, colSums, dst.Values(), "contiguous destination")

			grid := tensor.Must(tensor.Full(-7.0, rows, 3))
			col := tensor.Must(grid.Index(1, 1))
			require.NoError(t, exec.EvalToWith(ex.x, col, expr.Of(x).Max(1)))
			assert.Equal(t, rowMax, col.Values(), "strided destination")
			for i, v := range grid.Values() {
				if i%3 != 1 {
					assert.Equal(t, -7.0, v, "grid element %d outside the destination column", i)
				}
			}

			y := fresh()
			row0 := tensor.Must(y.Index(0, 0))
			require.NoError(t, exec.EvalToWith(ex.x, row0, expr.Of(y).Sum(0)))
			assert.Equal(t, colSums, row0.Values(), "destination is row 0 of the operand")
			assert.Equal(t, x.Values()[cols:], y.Values()[cols:], "other rows untouched")

			sq := tensor.Must(tensor.FromSlice(mmValues[float64](r, 9), 3, 3))
			b := tensor.Must(tensor.FromSlice(mmValues[float64](r, 9), 3, 3))
			want, _ := mmRef(sq.Values(), []int{3, 3}, b.Values(), []int{3, 3})
			require.NoError(t, exec.EvalToWith(ex.x, sq, expr.Of(sq).MatMul(expr.Of(b))))
			assert.Equal(t, want, sq.Values(), "a = a @ b")
			sqT := tensor.Must(sq.T())
			want, _ = mmRef(b.Values(), []int{3, 3}, sqT.Values(), []int{3, 3})
			require.NoError(t, exec.EvalToWith(ex.x, sqT, expr.Of(b).MatMul(expr.Of(sqT))))
			assert.Equal(t, want, sqT.Values(), "a.T = b @ a.T")

			bad := tensor.Must(tensor.Full(5.0, cols+1))
			assert.Error(t, exec.EvalToWith(ex.x, bad, expr.Of(x).Sum(0)), "wrong destination shape")
			assert.Equal(t, tensor.Must(tensor.Full(5.0, cols+1)).Values(), bad.Values(), "failed EvalTo leaves dst untouched")
		})
	}
}

// TestReduceOddProducers checks reductions whose producer is a broadcast
// scalar, a where over scalars, a cast of a comparison, or a 0-d tensor.
func TestReduceOddProducers(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float64{1, -2, 3, -4, 5, 0, 7, -8, 9, 10, -11, 12}, 3, 4))
	X := expr.Of(x)
	zero := expr.Scalar(0.0)
	tests := []struct {
		name  string
		e     expr.Expr[float64]
		shape string
		want  []float64
	}{
		{"sum of an expanded scalar", expr.Scalar(2.0).Expand(3, 4).Sum(0), "[4]", []float64{6, 6, 6, 6}},
		{"sum of an expanded scalar, all", expr.Scalar(2.5).Expand(3, 4).Sum(), "[]", []float64{30}},
		{"max of an expanded scalar", expr.Scalar(-1.5).Expand(2, 5).Max(1), "[2]", []float64{-1.5, -1.5}},
		{"sum(where(x > 0, 1, 0), 1)", expr.Where(X.Gt(zero), expr.Scalar(1.0), zero).Sum(1), "[3]", []float64{2, 2, 3}},
		{"sum(cast(x > 0), 1)", expr.Cast[float64](X.Gt(zero)).Sum(1), "[3]", []float64{2, 2, 3}},
		{"prod(where(x > 0, x, 1), 0)", expr.Where(X.Gt(zero), X, expr.Scalar(1.0)).Prod(0), "[4]", []float64{45, 10, 21, 12}},
		{"sum of a 0-d", expr.Scalar(4.0).Sum(), "[]", []float64{4}},
		{"sum keepdim of a 0-d", expr.Scalar(4.0).SumKeepDims(), "[]", []float64{4}},
		{"max of a 0-d", expr.Scalar(-4.0).Max(), "[]", []float64{-4}},
		{"mean of a 0-d", expr.Scalar(4.0).Mean(), "[]", []float64{4}},
		{"sum of a (1, 1)", expr.Of(tensor.Must(tensor.FromSlice([]float64{3}, 1, 1))).Sum(0), "[1]", []float64{3}},
	}
	for _, tc := range tests {
		for _, ex := range rdExecs {
			t.Run(tc.name+"/"+ex.name, func(t *testing.T) {
				require.NoError(t, tc.e.Err())
				got, err := exec.EvalWith(ex.x, tc.e)
				require.NoError(t, err)
				assert.Equal(t, tc.shape, got.Shape().String())
				assert.Equal(t, tc.want, got.Values())
			})
		}
	}
	t.Run("argmax of an expanded scalar", func(t *testing.T) {
		assert.Equal(t, []int64{0, 0}, rdEval(t, exec.Default, expr.Scalar(1.0).Expand(2, 5).ArgMax(1)))
	})
	t.Run("int64 count of true", func(t *testing.T) {
		assert.Equal(t, []int64{2, 2, 3}, rdEval(t, exec.Default, expr.Cast[int64](X.Gt(zero)).Sum(-1)))
	})
}

// TestReduceConcurrent evaluates reductions and matmuls on one executor
// from several goroutines at once (run with -race).
func TestReduceConcurrent(t *testing.T) {
	x := tensor.Must(tensor.RandN[float64](51, 300, 700))
	X := expr.Of(x)
	es := []expr.Expr[float64]{X.Sum(0), X.Sum(1), X.Sum(), X.Mul(X).Max(0), X.MatMul(X.T()).Sum(1)}
	want := make([][]float64, len(es))
	for i, e := range es {
		want[i] = rdEval(t, exec.New(exec.Workers(1)), e)
	}
	ex := exec.New(exec.Workers(4), exec.Grain(1))
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for k := range 10 {
				i := (g + k) % len(es)
				got, err := exec.EvalWith(ex, es[i])
				if err == nil {
					for j, v := range got.Values() {
						if !rdBitsEqual(v, want[i][j]) {
							err = fmt.Errorf("goroutine %d, expression %d: element %d is %v, want %v", g, i, j, v, want[i][j])
							break
						}
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		assert.NoError(t, <-errs)
	}
}
