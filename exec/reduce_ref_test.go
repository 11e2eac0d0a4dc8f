package exec_test

import (
	"fmt"
	"math"
	"math/rand/v2"
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
