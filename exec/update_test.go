package exec_test

import (
	"bytes"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// An stateUpdate is several roots written into tensors the graph reads: the
// state of an optimizer step, x = f(x, y) for several x at once.
type stateUpdate struct {
	name string
	// build returns the roots and their destinations over the state.
	build func(s []*tensor.Tensor[float64]) ([]*expr.Node, []tensor.Any)
}

func sliceOf(t *tensor.Tensor[float64], axis, start, stop int) *tensor.Tensor[float64] {
	return tensor.Must(t.Slice(axis, start, stop, 1))
}

// updates reads a state of four [6, 8] tensors.
var stateUpdates = []stateUpdate{
	{"one root reads its destination", func(s []*tensor.Tensor[float64]) ([]*expr.Node, []tensor.Any) {
		return []*expr.Node{expr.Of(s[0]).MulScalar(0.5).Add(expr.Of(s[1])).Node()}, []tensor.Any{s[0]}
	}},
	{"sgd momentum", func(s []*tensor.Tensor[float64]) ([]*expr.Node, []tensor.Any) {
		v := expr.Of(s[1]).MulScalar(0.9).Add(expr.Of(s[2]))
		w := expr.Of(s[0]).Sub(v.MulScalar(0.1))
		return []*expr.Node{v.Node(), w.Node()}, []tensor.Any{s[1], s[0]}
	}},
	{"adam", func(s []*tensor.Tensor[float64]) ([]*expr.Node, []tensor.Any) {
		g := expr.Of(s[3])
		m := expr.Of(s[1]).MulScalar(0.9).Add(g.MulScalar(0.1))
		v := expr.Of(s[2]).MulScalar(0.999).Add(g.Mul(g).MulScalar(0.001))
		w := expr.Of(s[0]).Sub(m.MulScalar(1e-3).Div(v.Sqrt().AddScalar(1e-8)))
		return []*expr.Node{m.Node(), v.Node(), w.Node()}, []tensor.Any{s[1], s[2], s[0]}
	}},
	{"roots swap their destinations", func(s []*tensor.Tensor[float64]) ([]*expr.Node, []tensor.Any) {
		a, b := expr.Of(s[0]), expr.Of(s[1])
		return []*expr.Node{b.AddScalar(1).Node(), a.MulScalar(2).Node()}, []tensor.Any{s[0], s[1]}
	}},
	{"four roots each read the next destination", func(s []*tensor.Tensor[float64]) ([]*expr.Node, []tensor.Any) {
		var roots []*expr.Node
		var dsts []tensor.Any
		for i := range s {
			roots = append(roots, expr.Of(s[i]).Add(expr.Of(s[(i+1)%len(s)])).Node())
			dsts = append(dsts, s[i])
		}
		return roots, dsts
	}},
	{"a transposed destination read", func(s []*tensor.Tensor[float64]) ([]*expr.Node, []tensor.Any) {
		sq := sliceOf(s[0], 1, 0, 6) // [6, 6]
		other := sliceOf(s[1], 1, 0, 6)
		return []*expr.Node{expr.Of(sq).Add(expr.Of(sq).T()).Node(), expr.Of(other).Sub(expr.Of(sq)).Node()},
			[]tensor.Any{sq, other}
	}},
	{"a shifted slice of a destination", func(s []*tensor.Tensor[float64]) ([]*expr.Node, []tensor.Any) {
		head, tail := sliceOf(s[0], 0, 0, 5), sliceOf(s[0], 0, 1, 6)
		return []*expr.Node{expr.Of(tail).MulScalar(3).Node(), expr.Of(s[1]).Add(expr.Of(s[0])).Node()},
			[]tensor.Any{head, s[1]}
	}},
	{"a broadcast row of a destination", func(s []*tensor.Tensor[float64]) ([]*expr.Node, []tensor.Any) {
		row := sliceOf(s[0], 0, 0, 1) // [1, 8], broadcast over [6, 8]
		return []*expr.Node{expr.Of(s[0]).Add(expr.Of(row)).Node(), expr.Of(s[2]).Mul(expr.Of(row)).Node()},
			[]tensor.Any{s[0], s[2]}
	}},
	{"a reduction of a destination beside its update", func(s []*tensor.Tensor[float64]) ([]*expr.Node, []tensor.Any) {
		total := tensor.Must(tensor.New[float64](8))
		return []*expr.Node{expr.Of(s[0]).MulScalar(2).Node(), expr.Of(s[0]).Sum(0).Node()},
			[]tensor.Any{s[0], total}
	}},
}

func newState(t *testing.T, seed uint64) []*tensor.Tensor[float64] {
	r := newRand(seed)
	s := make([]*tensor.Tensor[float64], 4)
	for i := range s {
		s[i] = randomTensor[float64](t, r, 6, 8)
	}
	return s
}

// The values of an stateUpdate are those of evaluating every root from the old
// values into new tensors, for any worker count.
func TestUpdateValues(t *testing.T) {
	for _, u := range stateUpdates {
		for _, workers := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("%s/workers=%d", u.name, workers), func(t *testing.T) {
				x := exec.New(exec.Workers(workers), exec.Grain(16), exec.BlockSize(16))
				defer x.Close()
				s := newState(t, 7)
				// The reference: the same graph over copies, into new tensors.
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
				_, err := x.Run(roots, dsts)
				require.NoError(t, err)
				for i, d := range dsts {
					assertBits(t, want[i], d.(*tensor.Tensor[float64]).Values(), "root %d", i)
				}
			})
		}
	}
}

var stepsLine = regexp.MustCompile(`exec plan: \d+ values, (\d+) steps`)

// planSteps runs roots into dsts on an executor that prints its plan and
// returns the number of steps of that plan.
func planSteps(t *testing.T, roots []*expr.Node, dsts []tensor.Any) (int, string) {
	var buf bytes.Buffer
	x := exec.New(exec.Workers(2), exec.Debug(&buf))
	defer x.Close()
	_, err := x.Run(roots, dsts)
	require.NoError(t, err)
	m := stepsLine.FindStringSubmatch(buf.String())
	require.NotNil(t, m, buf.String())
	n, _ := strconv.Atoi(m[1])
	return n, buf.String()
}

// An stateUpdate of n parameters with their optimizer state is one pass over
// memory, not a pass into temporaries and another into the destinations.
func TestUpdateIsOnePass(t *testing.T) {
	for _, params := range []int{1, 2, 3} {
		t.Run(fmt.Sprintf("params=%d", params), func(t *testing.T) {
			var roots []*expr.Node
			var dsts []tensor.Any
			for range params {
				s := newState(t, uint64(params))
				g := expr.Of(s[3])
				m := expr.Of(s[1]).MulScalar(0.9).Add(g.MulScalar(0.1))
				v := expr.Of(s[2]).MulScalar(0.999).Add(g.Mul(g).MulScalar(0.001))
				w := expr.Of(s[0]).Sub(m.MulScalar(1e-3).Div(v.Sqrt().AddScalar(1e-8)))
				roots = append(roots, m.Node(), v.Node(), w.Node())
				dsts = append(dsts, s[1], s[2], s[0])
			}
			steps, plan := planSteps(t, roots, dsts)
			assert.Equal(t, 1, steps, plan)
			assert.Contains(t, plan, fmt.Sprintf("final pass: writes %d destinations after every step that reads them, %d of them read in place", 3*params, 3*params))
			assert.NotContains(t, plan, "(temp)", "no temporaries")
		})
	}
}

// The debug plan says which old values are staged and why.
func TestUpdatePlanSaysWhatIsStaged(t *testing.T) {
	s := newState(t, 3)
	roots, dsts := stateUpdates[6].build(s) // a shifted slice of a destination
	_, plan := planSteps(t, roots, dsts)
	assert.Regexp(t, `note: stages the old values of v\d+: (it overlaps destination v\d+ other than element for element|another final pass writes its storage)`, plan)
}

// A repeated stateUpdate allocates only what its staging needs, once: after
// the first step, nothing.
func TestUpdateAllocatesNothingAfterTheFirstStep(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates on its own")
	}
	for _, u := range []stateUpdate{stateUpdates[2], stateUpdates[6]} { // adam, and one with a staged copy
		t.Run(u.name, func(t *testing.T) {
			defer steadyState()()
			x := exec.New(exec.Workers(2))
			defer x.Close()
			big := make([]*tensor.Tensor[float64], 4)
			for i := range big {
				big[i] = tensor.Must(tensor.Full(0.5, 600, 80)) // 384 KB each
			}
			roots, dsts := u.build(big)
			_, err := x.Run(roots, dsts)
			require.NoError(t, err)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for range 10 {
				_, err := x.Run(roots, dsts)
				require.NoError(t, err)
			}
			runtime.ReadMemStats(&after)
			// Ten steps allocated a temporary of 384 KB per root each before.
			// What may remain is a worker's block buffers (about 40 KB for
			// Adam's blocks of a page), set up again when a collection has
			// emptied the pool that keeps them.
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(256<<10))
		})
	}
}
