package exec_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/autograd"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// targetsOf turns a stateUpdate's roots and destinations into Targets.
func targetsOf(roots []*expr.Node, dsts []tensor.Any) []exec.Target {
	ts := make([]exec.Target, len(roots))
	for i, r := range roots {
		ts[i] = exec.To(dsts[i].(*tensor.Tensor[float64]), expr.Wrap[float64](r))
	}
	return ts
}

// Assign writes into every destination the value its expression has over
// the old values: the value of evaluating each root alone, over copies of
// the state, into a new tensor. Any worker count gives the same bits.
func TestAssignValues(t *testing.T) {
	for _, u := range stateUpdates {
		for _, workers := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("%s/workers=%d", u.name, workers), func(t *testing.T) {
				x := exec.New(exec.Workers(workers), exec.Grain(16), exec.BlockSize(16))
				defer x.Close()
				s := newState(t, 11)
				copies := make([]*tensor.Tensor[float64], len(s))
				for i := range s {
					copies[i] = s[i].Clone()
				}
				refRoots, _ := u.build(copies)
				want := make([][]float64, len(refRoots))
				for i, r := range refRoots {
					out, err := exec.EvalWith(x, expr.Wrap[float64](r))
					require.NoError(t, err)
					want[i] = out.Values()
				}
				roots, dsts := u.build(s)
				require.NoError(t, exec.AssignWith(x, targetsOf(roots, dsts)))
				for i, d := range dsts {
					assertBits(t, want[i], d.(*tensor.Tensor[float64]).Values(), "target %d", i)
				}
			})
		}
	}
}

// a, b = b, a: each new value is computed from the old ones, where two
// EvalTo calls in a row read the value the first has just written.
func TestAssignSwaps(t *testing.T) {
	a := fromValues(t, []float64{1, 2, 3}, 3)
	b := fromValues(t, []float64{10, 20, 30}, 3)
	require.NoError(t, exec.Assign(exec.To(a, expr.Of(b)), exec.To(b, expr.Of(a))))
	assert.Equal(t, []float64{10, 20, 30}, a.Values())
	assert.Equal(t, []float64{1, 2, 3}, b.Values())

	// The trap Assign replaces.
	require.NoError(t, exec.EvalTo(a, expr.Of(b)))
	require.NoError(t, exec.EvalTo(b, expr.Of(a)))
	assert.Equal(t, []float64{1, 2, 3}, b.Values(), "the second EvalTo read the new a")
}

// Targets of one Assign may have different element types: a float32
// parameter, its float64 accumulator and an int64 step counter.
func TestAssignMixedTypes(t *testing.T) {
	w := fromValues(t, []float32{1, 2, 3, 4}, 2, 2)
	acc := fromValues(t, []float64{0.5}, 1)
	step := fromValues(t, []int64{7}, 1)
	wNew := expr.Of(w).Sub(expr.Of(w).MulScalar(0.5))
	accNew := expr.Of(acc).Add(expr.Cast[float64](expr.Of(w)).Sum().Reshape(1))
	stepNew := expr.Of(step).AddScalar(1)
	require.NoError(t, exec.Assign(exec.To(w, wNew), exec.To(acc, accNew), exec.To(step, stepNew)))
	assert.Equal(t, []float32{0.5, 1, 1.5, 2}, w.Values())
	assert.Equal(t, []float64{10.5}, acc.Values(), "the sum of the old w")
	assert.Equal(t, []int64{8}, step.Values())
}

// A value broadcasts to its destination's shape, as in EvalTo.
func TestAssignBroadcasts(t *testing.T) {
	m := fromValues(t, []float64{1, 2, 3, 4, 5, 6}, 2, 3)
	row := fromValues(t, []float64{1, 1, 1}, 3)
	require.NoError(t, exec.Assign(exec.To(m, expr.Scalar(9.0)), exec.To(row, expr.Of(m).Sum(0))))
	assert.Equal(t, []float64{9, 9, 9, 9, 9, 9}, m.Values())
	assert.Equal(t, []float64{5, 7, 9}, row.Values(), "the column sums of the old m")
}

// Every refused Assign says why, by type and text, and writes nothing.
func TestAssignErrors(t *testing.T) {
	type state struct{ a, b, long, wide *tensor.Tensor[float64] }
	newS := func() state {
		return state{
			a:    fromValues(t, []float64{1, 2, 3, 4}, 4),
			b:    fromValues(t, []float64{5, 6, 7, 8}, 4),
			long: fromValues(t, []float64{1, 2, 3, 4, 5}, 5),
			wide: fromValues(t, []float64{1, 2, 3, 4, 5, 6, 7, 8}, 2, 4),
		}
	}
	p := expr.Placeholder[float64]("p", 4)
	cases := []struct {
		name    string
		targets func(s state) []exec.Target
		binds   func(s state) []exec.Binding
		errType any
		text    string
	}{
		{"zero target", func(s state) []exec.Target { return []exec.Target{exec.To(s.a, expr.Of(s.b)), {}} }, nil,
			&exec.InplaceError{}, "exec: target 1 is a zero Target (make targets with To)"},
		{"nil destination", func(s state) []exec.Target {
			return []exec.Target{exec.To(s.a, expr.Of(s.b)), exec.To[float64](nil, expr.Of(s.a))}
		}, nil, &exec.InplaceError{}, "exec: target 1 has a nil destination"},
		{"zero expression", func(s state) []exec.Target {
			return []exec.Target{exec.To(s.a, expr.Of(s.b)), exec.To(s.b, expr.Expr[float64]{})}
		}, nil, nil, ""},
		{"shapes that do not broadcast", func(s state) []exec.Target {
			return []exec.Target{exec.To(s.a, expr.Of(s.b)), exec.To(s.b, expr.Of(s.long))}
		}, nil, &tensor.BroadcastError{}, ""},
		{"a value larger than its destination", func(s state) []exec.Target {
			return []exec.Target{exec.To(s.b, expr.Of(s.a)), exec.To(s.a, expr.Of(s.wide))}
		}, nil, &exec.InplaceError{}, "output with shape [4] doesn't match the broadcast shape [2, 4]"},
		{"one tensor twice", func(s state) []exec.Target {
			return []exec.Target{exec.To(s.a, expr.Of(s.b)), exec.To(s.b, expr.Of(s.a)), exec.To(s.a, expr.Of(s.a).AddScalar(1))}
		}, nil, &exec.InplaceError{}, "exec: destinations 0 and 2 are one tensor (shape [4]): each tensor can be written once; combine the two values into one"},
		{"overlapping destinations", func(s state) []exec.Target {
			head, tail := tensor.Must(s.long.Slice(0, 0, 4, 1)), tensor.Must(s.long.Slice(0, 1, 5, 1))
			return []exec.Target{exec.To(head, expr.Of(s.a)), exec.To(tail, expr.Of(s.b))}
		}, nil, &exec.InplaceError{}, "exec: destinations 0 (shape [4]) and 1 (shape [4]) overlap in memory: the values written would depend on the order of the writes; give each root memory of its own"},
		{"an unbound placeholder", func(s state) []exec.Target {
			return []exec.Target{exec.To(s.a, expr.Of(s.b)), exec.To(s.b, p.Add(expr.Of(s.a)))}
		}, nil, &exec.BindError{}, ""},
		{"a binding of another shape", func(s state) []exec.Target {
			return []exec.Target{exec.To(s.a, expr.Of(s.b)), exec.To(s.b, p.Add(expr.Of(s.a)))}
		}, func(s state) []exec.Binding { return []exec.Binding{exec.Bind(p, s.long)} }, &exec.BindError{}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newS()
			before := [][]float64{s.a.Values(), s.b.Values(), s.long.Values(), s.wide.Values()}
			var binds []exec.Binding
			if c.binds != nil {
				binds = c.binds(s)
			}
			err := exec.AssignWith(exec.Default, c.targets(s), binds...)
			require.Error(t, err)
			if c.errType != nil {
				assert.IsType(t, c.errType, err)
			}
			if c.text != "" {
				assert.EqualError(t, err, c.text)
			}
			assert.Equal(t, before, [][]float64{s.a.Values(), s.b.Values(), s.long.Values(), s.wide.Values()}, "nothing written")
		})
	}
}

// Assign on a nil or closed executor, and with no targets.
func TestAssignExecutorAndEmpty(t *testing.T) {
	a := fromValues(t, []float64{1, 2}, 2)
	ts := []exec.Target{exec.To(a, expr.Of(a).AddScalar(1))}
	assert.ErrorIs(t, exec.AssignWith(nil, ts), exec.ErrNilExecutor)
	x := exec.New()
	x.Close()
	assert.ErrorIs(t, exec.AssignWith(x, ts), exec.ErrClosed)
	assert.NoError(t, exec.Assign())
	assert.Equal(t, []float64{1, 2}, a.Values())
}

// An Assign whose graph fails while it runs (an integer pow with a
// negative exponent tensor) writes none of its destinations.
func TestAssignFailureWritesNothing(t *testing.T) {
	w := fromValues(t, []float64{1, 2, 3}, 3)
	n := fromValues(t, []int64{2, 3, 4}, 3)
	e := fromValues(t, []int64{1, -1, 2}, 3)
	err := exec.Assign(exec.To(w, expr.Of(w).MulScalar(2)), exec.To(n, expr.Of(n).Pow(expr.Of(e))))
	var pe *expr.IntegerPowerError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, []float64{1, 2, 3}, w.Values())
	assert.Equal(t, []int64{2, 3, 4}, n.Values())
}

// Every Eval variant honours its bindings: the same graph over a
// placeholder gives the bound tensor's values, and without the binding
// every variant refuses it with a *BindError.
func TestBindingsOnEveryVariant(t *testing.T) {
	p := expr.Placeholder[float64]("p", 3)
	e := p.MulScalar(2)
	x := exec.New(exec.Workers(2))
	defer x.Close()
	t64 := func(ts ...*tensor.Tensor[float64]) [][]float64 {
		var out [][]float64
		for _, t := range ts {
			out = append(out, t.Values())
		}
		return out
	}
	newT := func() *tensor.Tensor[float64] { return tensor.Must(tensor.New[float64](3)) }
	variants := []struct {
		name string
		run  func(bs []exec.Binding) ([][]float64, error)
	}{
		{"Eval", func(bs []exec.Binding) ([][]float64, error) {
			out, err := exec.Eval(e, bs...)
			if err != nil {
				return nil, err
			}
			return t64(out), nil
		}},
		{"EvalWith", func(bs []exec.Binding) ([][]float64, error) {
			out, err := exec.EvalWith(x, e, bs...)
			if err != nil {
				return nil, err
			}
			return t64(out), nil
		}},
		{"EvalNWith", func(bs []exec.Binding) ([][]float64, error) {
			outs, err := exec.EvalNWith(x, []expr.Expr[float64]{e, e.AddScalar(1)}, bs...)
			if err != nil {
				return nil, err
			}
			return t64(outs...), nil
		}},
		{"EvalTo", func(bs []exec.Binding) ([][]float64, error) {
			dst := newT()
			err := exec.EvalTo(dst, e, bs...)
			return t64(dst), err
		}},
		{"EvalToWith", func(bs []exec.Binding) ([][]float64, error) {
			dst := newT()
			err := exec.EvalToWith(x, dst, e, bs...)
			return t64(dst), err
		}},
		{"Run", func(bs []exec.Binding) ([][]float64, error) {
			outs, err := x.Run([]*expr.Node{e.Node(), e.AddScalar(1).Node()}, nil, bs...)
			if err != nil {
				return nil, err
			}
			return t64(outs[0].(*tensor.Tensor[float64]), outs[1].(*tensor.Tensor[float64])), nil
		}},
		{"AssignWith", func(bs []exec.Binding) ([][]float64, error) {
			d1, d2 := newT(), newT()
			err := exec.AssignWith(x, []exec.Target{exec.To(d1, e), exec.To(d2, e.AddScalar(1))}, bs...)
			return t64(d1, d2), err
		}},
	}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			pv := fromValues(t, []float64{1, 2, 3}, 3)
			got, err := v.run([]exec.Binding{exec.Bind(p, pv)})
			require.NoError(t, err)
			assert.Equal(t, []float64{2, 4, 6}, got[0])
			if len(got) > 1 {
				assert.Equal(t, []float64{3, 5, 7}, got[1])
			}
			_, err = v.run(nil)
			var be *exec.BindError
			assert.ErrorAs(t, err, &be)
		})
	}
}

// A repeated Assign of a graph built once allocates nothing: the plan is
// cached, and its scratch (here the staged old values of a shifted view of
// a destination) and the views of it are kept for the next run.
func TestAssignAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	defer steadyState()()
	x := exec.New(exec.Workers(2))
	defer x.Close()
	s := newState(t, 5)
	for _, u := range []stateUpdate{stateUpdates[1], stateUpdates[2], stateUpdates[6], stateUpdates[7]} {
		t.Run(u.name, func(t *testing.T) {
			ts := targetsOf(u.build(s))
			require.NoError(t, exec.AssignWith(x, ts))
			assert.Zero(t, testing.AllocsPerRun(20, func() { _ = exec.AssignWith(x, ts) }))
		})
	}
}

// TestBuiltOnceStepAllocatesNothing runs a gradient step built once, as
// docs/executor.md teaches ("A step built once"): a linear regression over
// a placeholder, bound every run, whose backward pass reads Xᵀ (a view
// step) and whose products split over both workers. Nothing is allocated
// per step: the view is remembered with its source, the products' tasks
// and the regions' states are kept by the plan.
func TestBuiltOnceStepAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	defer steadyState()()
	x := exec.New(exec.Workers(2), exec.Grain(1))
	defer x.Close()
	xt := tensor.Must(tensor.RandN[float64](1, 4000, 8))
	yt := tensor.Must(tensor.RandN[float64](2, 4000, 1))
	wt, bt := tensor.Must(tensor.Zeros[float64](8, 1)), tensor.Must(tensor.Zeros[float64](1))
	X := expr.Placeholder[float64]("X", 4000, 8)
	w, b := expr.Of(wt), expr.Of(bt)
	loss := X.MatMul(w).Add(b).Sub(expr.Of(yt)).Square().Mean()
	gs, err := autograd.GradOf(loss, w, b)
	require.NoError(t, err)
	step := []exec.Target{exec.To(wt, w.Sub(gs[0].MulScalar(0.1))), exec.To(bt, b.Sub(gs[1].MulScalar(0.1)))}
	binds := []exec.Binding{exec.Bind(X, xt)}
	require.NoError(t, exec.AssignWith(x, step, binds...))
	assert.NotZero(t, wt.Values()[0], "the step ran")
	assert.Zero(t, testing.AllocsPerRun(20, func() {
		binds[0] = exec.Bind(X, xt)
		_ = exec.AssignWith(x, step, binds...)
	}))
}

// TestViewMemoSeesNewStorage: a plan remembers the views it takes of its
// leaves, but a tensor's header can be overwritten in place
// (UnmarshalBinary loads a checkpoint into an existing parameter), and the
// next run must then read the new storage, not the view of the old.
func TestViewMemoSeesNewStorage(t *testing.T) {
	x := tensor.Must(tensor.FromSlice([]float64{1, 2, 3, 4, 5, 6}, 2, 3))
	y := tensor.Must(tensor.FromSlice([]float64{1, 1}, 2, 1))
	e := expr.Of(x).T().MatMul(expr.Of(y)) // xᵀ: a view step of the leaf
	ex := exec.New(exec.Workers(1))
	defer ex.Close()
	got, err := exec.EvalWith(ex, e)
	require.NoError(t, err)
	assert.Equal(t, []float64{5, 7, 9}, got.Values())
	enc, err := tensor.Must(tensor.FromSlice([]float64{10, 20, 30, 40, 50, 60}, 2, 3)).MarshalBinary()
	require.NoError(t, err)
	require.NoError(t, x.UnmarshalBinary(enc))
	got, err = exec.EvalWith(ex, e)
	require.NoError(t, err)
	assert.Equal(t, []float64{50, 70, 90}, got.Values())
}
