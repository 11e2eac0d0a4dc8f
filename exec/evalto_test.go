package exec_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// EvalTo writes a value into an existing tensor of any non-overlapping
// layout; the destination may be an operand.

// wantOf computes f elementwise over the broadcast values of ins.
func wantOf(t *testing.T, shape tensor.Shape, f func(v ...float64) float64, ins ...*tensor.Tensor[float64]) []float64 {
	vals := make([][]float64, len(ins))
	for i, in := range ins {
		vals[i] = broadcastValues(t, in, shape)
	}
	n, _ := shape.Numel()
	out := make([]float64, n)
	args := make([]float64, len(ins))
	for k := range out {
		for i := range ins {
			args[i] = vals[i][k]
		}
		out[k] = f(args...)
	}
	return out
}

func w2(v ...float64) float64 { return float64(v[0]*v[1]) + v[2] }

func TestEvalToLayouts(t *testing.T) {
	const R, C = 23, 37
	r := newRand(20)
	a, b, c := randomTensor[float64](t, r, R, C), randomTensor[float64](t, r, R, C), randomTensor[float64](t, r, 1, C)
	e := expr.Of(a).Mul(expr.Of(b)).Add(expr.Of(c))
	want := wantOf(t, tensor.Shape{R, C}, w2, a, b, c)

	dsts := map[string]func() *tensor.Tensor[float64]{
		"contiguous": func() *tensor.Tensor[float64] { return zeros(t, R, C) },
		"transposed": func() *tensor.Tensor[float64] { return tensor.Must(zeros(t, C, R).T()) },
		"column slice": func() *tensor.Tensor[float64] {
			return tensor.Must(zeros(t, R, 2*C+3).Slice(1, 3, math.MaxInt, 2))
		},
		"row slice of a transposed buffer": func() *tensor.Tensor[float64] {
			return tensor.Must(tensor.Must(zeros(t, C, 3*R).Slice(1, 1, math.MaxInt, 3)).T())
		},
	}
	for name, mk := range dsts {
		for _, x := range []struct {
			name string
			x    *exec.Executor
		}{{"default", exec.Default}, {"tiled", tiled}, {"wide", wide}, {"odd", odd}} {
			t.Run(name+"/"+x.name, func(t *testing.T) {
				dst := mk()
				// Mark the storage so writes outside the view show.
				data := dst.Data()
				for i := range data {
					data[i] = -12345
				}
				inView := map[int]bool{}
				for i := 0; i < R; i++ {
					for j := 0; j < C; j++ {
						inView[dst.Offset()+i*dst.Strides()[0]+j*dst.Strides()[1]] = true
					}
				}
				require.NoError(t, exec.EvalToWith(x.x, dst, e))
				assertValues(t, want, dst.Values(), "values")
				for i, v := range data {
					if !inView[i] && v != -12345 {
						t.Fatalf("storage element %d outside the destination view was written (%v)", i, v)
					}
				}
			})
		}
	}
	t.Run("permuted 3-D", func(t *testing.T) {
		x := randomTensor[float64](t, r, 4, 5, 6)
		dst := tensor.Must(zeros(t, 6, 4, 5).Permute(1, 2, 0))
		require.NoError(t, exec.EvalToWith(tiled, dst, expr.Of(x).Exp().MulScalar(2)))
		assertWith(t, withinULPs[float64](2), wantOf(t, tensor.Shape{4, 5, 6}, func(v ...float64) float64 { return math.Exp(v[0]) * 2 }, x), dst.Values(), "permuted 3-D")
	})
	t.Run("broadcast value", func(t *testing.T) {
		dst := tensor.Must(zeros(t, C, R).T())
		require.NoError(t, exec.EvalToWith(tiled, dst, expr.Of(c).MulScalar(3)))
		assertValues(t, wantOf(t, tensor.Shape{R, C}, func(v ...float64) float64 { return v[0] * 3 }, c), dst.Values(), "row broadcast into [R,C]")
	})
	t.Run("leaf and view values", func(t *testing.T) {
		dst := zeros(t, C, R)
		require.NoError(t, exec.EvalToWith(tiled, dst, expr.Of(a).Permute(1, 0)))
		assertValues(t, tensor.Must(a.T()).Values(), dst.Values(), "a.T")
		dst2 := zeros(t, R, C)
		require.NoError(t, exec.EvalTo(dst2, expr.Of(a)))
		assertValues(t, a.Values(), dst2.Values(), "a")
	})
}

// TestEvalToAliasing writes into a destination the graph reads.
func TestEvalToAliasing(t *testing.T) {
	const R, C = 19, 19
	r := newRand(21)
	for _, x := range []*exec.Executor{exec.Default, tiled, wide, odd} {
		t.Run("dst is an operand", func(t *testing.T) {
			a, b := randomTensor[float64](t, r, R, C), randomTensor[float64](t, r, R, C)
			want := wantOf(t, tensor.Shape{R, C}, func(v ...float64) float64 { return float64(v[0]*2) + v[1] }, a.Clone(), b)
			require.NoError(t, exec.EvalToWith(x, a, expr.Of(a).MulScalar(2).Add(expr.Of(b))))
			assertValues(t, want, a.Values(), "a = a*2 + b")
		})
		t.Run("dst is the transposed operand", func(t *testing.T) {
			a := randomTensor[float64](t, r, R, C)
			snap := a.Clone()
			want := wantOf(t, tensor.Shape{R, C}, func(v ...float64) float64 { return v[0] - v[1] }, snap, tensor.Must(snap.T()))
			require.NoError(t, exec.EvalToWith(x, a, expr.Of(a).Sub(expr.Of(tensor.Must(a.T())))))
			assertValues(t, want, a.Values(), "a = a - a.T")
		})
		t.Run("shifted overlap", func(t *testing.T) {
			base := randomTensor[float64](t, r, 4*R*C)
			snap := base.Clone()
			dst := tensor.Must(base.Slice(0, 1, math.MaxInt, 1))
			src := tensor.Must(base.Slice(0, 0, 4*R*C-1, 1))
			require.NoError(t, exec.EvalToWith(x, dst, expr.Of(src).AddScalar(1)))
			want := append([]float64{snap.Data()[0]}, wantOf(t, tensor.Shape{4*R*C - 1}, func(v ...float64) float64 { return v[0] + 1 }, tensor.Must(snap.Slice(0, 0, 4*R*C-1, 1)))...)
			assertValues(t, want, base.Values(), "base[1:] = base[:-1] + 1")
		})
	}
}

// TestEvalToErrors checks the destination before anything is written.
func TestEvalToErrors(t *testing.T) {
	r := newRand(22)
	a := randomTensor[float64](t, r, 1, 3)
	t.Run("value of a larger rank", func(t *testing.T) {
		dst := fromValues(t, []float64{7, 8, 9}, 3)
		err := exec.EvalTo(dst, expr.Of(a).AddScalar(1))
		var ie *exec.InplaceError
		require.ErrorAs(t, err, &ie)
		assert.EqualError(t, err, "output with shape [3] doesn't match the broadcast shape [1, 3]")
		assert.Equal(t, []float64{7, 8, 9}, dst.Values(), "a failed EvalTo leaves dst untouched")
	})
	t.Run("value that does not broadcast to dst", func(t *testing.T) {
		dst := fromValues(t, []float64{7, 8}, 2)
		require.Error(t, exec.EvalTo(dst, expr.Of(a).AddScalar(1)))
		assert.Equal(t, []float64{7, 8}, dst.Values())
	})
	t.Run("expanded destination", func(t *testing.T) {
		dst := tensor.Must(fromValues(t, []float64{5, 6, 7}, 1, 3).Expand(4, 3))
		err := exec.EvalTo(dst, expr.Of(a).AddScalar(1))
		var oe *exec.OverlapError
		require.ErrorAs(t, err, &oe)
		assert.EqualError(t, err, "unsupported operation: more than one element of the written-to tensor refers to a single memory location. Please clone() the tensor before performing the operation.")
		assert.Equal(t, []float64{5, 6, 7}, dst.Data())
	})
	t.Run("broken graph", func(t *testing.T) {
		dst := fromValues(t, []float64{7, 8, 9}, 3)
		bad := expr.Of(a).Add(expr.Of(randomTensor[float64](t, r, 2)))
		err := exec.EvalTo(dst, bad)
		var be *tensor.BroadcastError
		require.ErrorAs(t, err, &be)
		assert.Equal(t, []float64{7, 8, 9}, dst.Values())
	})
	t.Run("nil destination", func(t *testing.T) {
		require.Error(t, exec.EvalTo[float64](nil, expr.Of(a)))
	})
}

// TestLeavesAreReadAtEvaluation checks that a graph reads its tensors when
// evaluated (the plan cache keeps layouts, not values).
func TestLeavesAreReadAtEvaluation(t *testing.T) {
	a := fromValues(t, []float64{1, 2, 3}, 3)
	e := expr.Of(a).MulScalar(10)
	got := evalWith(t, exec.Default, e)
	assert.Equal(t, []float64{10, 20, 30}, got.Values())
	a.Data()[1] = 5
	got2 := evalWith(t, exec.Default, e)
	assert.Equal(t, []float64{10, 50, 30}, got2.Values())
	assert.Equal(t, []float64{10, 20, 30}, got.Values(), "an earlier result is not overwritten")

	dst := zeros(t, 3)
	require.NoError(t, exec.EvalTo(dst, e))
	a.Data()[2] = -1
	require.NoError(t, exec.EvalTo(dst, e))
	assert.Equal(t, []float64{10, 50, -10}, dst.Values())
}

// TestRunDestinationsOverlap: two destinations whose elements' memory spans
// intersect are refused before anything is written (a root read from one
// while the other is written would depend on the order of the writes);
// two halves of one array are separate destinations.
func TestRunDestinationsOverlap(t *testing.T) {
	const N = 64
	a := expr.Of(tensor.Must(tensor.Arange[float32](1, N+1, 1)))
	r1 := a.AddScalar(1)
	r2 := r1.MulScalar(2)
	roots := []*expr.Node{r1.Node(), r2.Node()}

	base := tensor.Must(tensor.Zeros[float32](N + 1))
	snap := base.Values()
	d1, d2 := tensor.Must(base.Slice(0, 0, N, 1)), tensor.Must(base.Slice(0, 1, N+1, 1))
	_, err := exec.New().Run(roots, []tensor.Any{d1, d2})
	var ie *exec.InplaceError
	require.ErrorAs(t, err, &ie)
	assert.EqualError(t, err, "exec: destinations 0 (shape [64]) and 1 (shape [64]) overlap in memory: the values written would depend on the order of the writes; give each root memory of its own")
	assert.Equal(t, snap, base.Values(), "nothing written")

	halves := tensor.Must(tensor.Zeros[float32](2 * N))
	h1, h2 := tensor.Must(halves.Slice(0, 0, N, 1)), tensor.Must(halves.Slice(0, N, 2*N, 1))
	_, err = exec.New().Run(roots, []tensor.Any{h1, h2})
	require.NoError(t, err)
	for i := range N {
		assert.Equal(t, float32(i+2), h1.Values()[i])
		assert.Equal(t, float32(2*(i+2)), h2.Values()[i])
	}
}

// TestRunRootReadsAnotherDestination: with several roots, a root that reads
// another root's destination gets its values from before the update,
// whatever the roots' order, whether the region copies or computes, and
// whether its copies stream. (Roots a → b, b → c once gave c the new b.)
func TestRunRootReadsAnotherDestination(t *testing.T) {
	const n = 48
	r := newRand(71)
	a0, b0 := randomTensor[float64](t, r, n, n), randomTensor[float64](t, r, n, n)
	aT := tensor.Must(a0.T()).Values()
	double := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = 2 * x
		}
		return out
	}
	plus1 := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = x + 1
		}
		return out
	}
	tests := []struct {
		name string
		// roots builds the roots on a and b; the destinations are b and c
		// (or c and b, swapped).
		roots   func(a, b expr.Expr[float64]) []expr.Expr[float64]
		swapped bool
		wantB   []float64 // b afterwards
		wantC   func() []float64
	}{
		{"a → b, b → c", func(a, b expr.Expr[float64]) []expr.Expr[float64] { return []expr.Expr[float64]{a, b} },
			false, a0.Values(), b0.Values},
		{"b → c, a → b", func(a, b expr.Expr[float64]) []expr.Expr[float64] { return []expr.Expr[float64]{b, a} },
			true, a0.Values(), b0.Values},
		{"a.T → b, b → c", func(a, b expr.Expr[float64]) []expr.Expr[float64] {
			return []expr.Expr[float64]{expr.Of(tensor.Must(a0.T())), b}
		}, false, aT, b0.Values},
		{"2a → b, b → c", func(a, b expr.Expr[float64]) []expr.Expr[float64] { return []expr.Expr[float64]{a.MulScalar(2), b} },
			false, double(a0.Values()), b0.Values},
		{"2a → b, b+1 → c", func(a, b expr.Expr[float64]) []expr.Expr[float64] {
			return []expr.Expr[float64]{a.MulScalar(2), b.AddScalar(1)}
		}, false, double(a0.Values()), func() []float64 { return plus1(b0.Values()) }},
		{"b → c, 2a → b", func(a, b expr.Expr[float64]) []expr.Expr[float64] { return []expr.Expr[float64]{b, a.MulScalar(2)} },
			true, double(a0.Values()), b0.Values},
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			for _, workers := range []int{1, 2} {
				t.Run(fmt.Sprintf("%s/stream=%v/workers=%d", tt.name, stream, workers), func(t *testing.T) {
					if stream {
						defer exec.SetStreamBytes(0)()
					}
					a, b := a0.Clone(), b0.Clone()
					c := tensor.Must(tensor.Zeros[float64](n, n))
					es := tt.roots(expr.Of(a), expr.Of(b))
					roots := []*expr.Node{es[0].Node(), es[1].Node()}
					dsts := []tensor.Any{b, c}
					if tt.swapped {
						dsts = []tensor.Any{c, b}
					}
					x := exec.New(exec.Workers(workers), exec.Grain(1), exec.BlockSize(64))
					defer x.Close()
					_, err := x.Run(roots, dsts)
					require.NoError(t, err)
					assertValues(t, tt.wantB, b.Values(), "b")
					assertValues(t, tt.wantC(), c.Values(), "c: the old b")
				})
			}
		}
	}
}

// TestRunDestinationsOfTwoShapes: with several roots, a destination that
// shares storage with a leaf is written last, by one region per destination
// shape. A region that runs later must still read what the tensors held
// before the call, not what an earlier one wrote (found by a differential
// fuzz of Run; it predates the fix). Every root order gives the same result.
func TestRunDestinationsOfTwoShapes(t *testing.T) {
	sl := func(a *tensor.Tensor[float64], i, j int) *tensor.Tensor[float64] {
		return tensor.Must(a.Slice(0, i, j, 1))
	}
	m23 := func(a *tensor.Tensor[float64], i int) *tensor.Tensor[float64] {
		return tensor.Must(sl(a, i, i+6).Reshape(2, 3))
	}
	type built struct {
		roots []*expr.Node
		dsts  []tensor.Any
		out   *tensor.Tensor[float64] // a new destination, or nil
	}
	tests := []struct {
		name    string
		build   func(a *tensor.Tensor[float64]) built
		wantA   []float64
		wantOut []float64
	}{
		{"a[0:4] = a[1:5]; new 2x3 = a[0:6]", func(a *tensor.Tensor[float64]) built {
			out := tensor.Must(tensor.Zeros[float64](2, 3))
			return built{[]*expr.Node{expr.Of(sl(a, 1, 5)).Node(), expr.Of(m23(a, 0)).Node()}, []tensor.Any{sl(a, 0, 4), out}, out}
		}, []float64{1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 10, 11}, []float64{0, 1, 2, 3, 4, 5}},
		{"a[0:4] = a[1:5]; a[6:12] as 2x3 = 2*a[0:6]", func(a *tensor.Tensor[float64]) built {
			return built{[]*expr.Node{expr.Of(sl(a, 1, 5)).Node(), expr.Of(m23(a, 0)).MulScalar(2).Node()}, []tensor.Any{sl(a, 0, 4), m23(a, 6)}, nil}
		}, []float64{1, 2, 3, 4, 4, 5, 0, 2, 4, 6, 8, 10}, nil},
		{"a[0:3] = sum(a[3:9] as 2x3, 0); new 2x3 = a[0:6]", func(a *tensor.Tensor[float64]) built {
			out := tensor.Must(tensor.Zeros[float64](2, 3))
			return built{[]*expr.Node{expr.Of(m23(a, 3)).Sum(0).Node(), expr.Of(m23(a, 0)).Node()}, []tensor.Any{sl(a, 0, 3), out}, out}
		}, []float64{9, 11, 13, 3, 4, 5, 6, 7, 8, 9, 10, 11}, []float64{0, 1, 2, 3, 4, 5}},
	}
	for _, tt := range tests {
		for _, reversed := range []bool{false, true} {
			for _, workers := range []int{1, 2} {
				t.Run(fmt.Sprintf("%s/reversed=%v/workers=%d", tt.name, reversed, workers), func(t *testing.T) {
					a := tensor.Must(tensor.Arange(0.0, 12, 1))
					b := tt.build(a)
					if reversed {
						slices.Reverse(b.roots)
						slices.Reverse(b.dsts)
					}
					x := exec.New(exec.Workers(workers), exec.Grain(1))
					defer x.Close()
					_, err := x.Run(b.roots, b.dsts)
					require.NoError(t, err)
					assert.Equal(t, tt.wantA, a.Values(), "a")
					if b.out != nil {
						assert.Equal(t, tt.wantOut, b.out.Values(), "the new destination")
					}
				})
			}
		}
	}
}

// TestGoIntTensors: tensors of Go's int and uint work everywhere the sized
// types do, read and written in place through int64 and uint64 views of
// their storage (no copy), with the overlap rules of any tensor.
func TestGoIntTensors(t *testing.T) {
	t.Run("eval", func(t *testing.T) {
		ints := tensor.Must(tensor.FromSlice([]int{1, 2, 3, 4}, 2, 2))
		got, err := exec.Eval(expr.Of(ints).MulScalar(3).AddScalar(1))
		require.NoError(t, err)
		assert.Equal(t, []int{4, 7, 10, 13}, got.Values())
		sum, err := exec.Eval(expr.Of(ints).Sum(1))
		require.NoError(t, err)
		assert.Equal(t, []int{3, 7}, sum.Values())
		f, err := exec.Eval(expr.Cast[float64](expr.Of(ints)).DivScalar(2))
		require.NoError(t, err)
		assert.Equal(t, []float64{0.5, 1, 1.5, 2}, f.Values())
		back, err := exec.Eval(expr.Cast[int](expr.Of(tensor.Must(tensor.FromSlice([]float64{1.9, -2.5}, 2)))))
		require.NoError(t, err)
		assert.Equal(t, []int{1, -2}, back.Values())
	})
	t.Run("in place with overlap", func(t *testing.T) {
		ints := tensor.Must(tensor.FromSlice([]int{1, 2, 3, 4}, 4))
		dst := tensor.Must(ints.Slice(0, 1, 4, 1))
		require.NoError(t, exec.EvalTo(dst, expr.Of(ints).Slice(0, 0, 3, 1).AddScalar(10)))
		assert.Equal(t, []int{1, 11, 12, 13}, ints.Values(), "every input read before its memory is written")
		require.NoError(t, exec.AddTo(ints, tensor.Must(tensor.FromSlice([]int{1}, 1))))
		assert.Equal(t, []int{2, 12, 13, 14}, ints.Values())
	})
	t.Run("run, bind and assign", func(t *testing.T) {
		uints := tensor.Must(tensor.FromSlice([]uint{7, 8, 9}, 3))
		x := expr.Placeholder[uint]("x", 3)
		_, err := exec.New().Run([]*expr.Node{x.AddScalar(1).Node()}, []tensor.Any{uints}, exec.Bind(x, uints))
		require.NoError(t, err)
		assert.Equal(t, []uint{8, 9, 10}, uints.Values())

		a := tensor.Must(tensor.FromSlice([]int{1, 2}, 2))
		b := tensor.Must(tensor.FromSlice([]int{10, 20}, 2))
		require.NoError(t, exec.Assign(exec.To(a, expr.Of(b)), exec.To(b, expr.Of(a))))
		assert.Equal(t, []int{10, 20}, a.Values())
		assert.Equal(t, []int{1, 2}, b.Values(), "every value from the old ones")
		err = exec.Assign(exec.To(a, expr.Of(b)), exec.To(a, expr.Of(b)))
		var ie *exec.InplaceError
		require.ErrorAs(t, err, &ie, "one tensor given twice")
	})
	t.Run("sort", func(t *testing.T) {
		ints := tensor.Must(tensor.FromSlice([]int{3, -1, 2}, 3))
		got, err := exec.Sort(expr.Of(ints), 0)
		require.NoError(t, err)
		assert.Equal(t, []int{-1, 2, 3}, got.Values())
	})
	t.Run("errors name the sized dtype", func(t *testing.T) {
		ints := tensor.Must(tensor.FromSlice([]int{1, 2, 3}, 3))
		err := exec.EvalTo(ints, expr.Of(tensor.Must(tensor.FromSlice([]int{1, 2}, 2))))
		require.Error(t, err)
		assert.Equal(t, []int{1, 2, 3}, ints.Values(), "nothing written")
	})
}
