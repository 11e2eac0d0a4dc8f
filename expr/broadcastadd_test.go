package expr_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

// broadcastAddCase is one case of broadcast_add.json, forward or infer.
type broadcastAddCase struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Note   string `json:"note"`
	A, B   []int
	Out    []int `json:"out"`
	Status string
	Code   string
	Reason string
	Axis   *int
	Axes   []int
	Given  struct {
		A   []int `json:"a"`
		B   []int `json:"b"`
		Out []int `json:"out"`
	} `json:"given"`
	Inferred struct {
		A   []int `json:"a"`
		B   []int `json:"b"`
		Out []int `json:"out"`
	} `json:"inferred"`
	Derivations []struct {
		Tensor   string `json:"tensor"`
		Axis     int    `json:"axis"`
		Value    int    `json:"value"`
		Rule     string `json:"rule"`
		Explicit bool   `json:"explicit_in_seed"`
	} `json:"derivations"`
	NotInferred []struct {
		Tensor string `json:"tensor"`
		Axis   int    `json:"axis"`
		Why    string `json:"why"`
	} `json:"not_inferred"`
}

// dimsOrNil is a vectors shape as Dims: null is a shape of unknown rank,
// -1 an unknown extent.
func dimsOrNil(s []int) expr.Dims {
	if s == nil {
		return nil
	}
	return expr.DimsOf(s...)
}

// checkConstraint asserts that err is the *expr.ConstraintError the case
// expects.
func checkConstraint(t *testing.T, err error, c broadcastAddCase) {
	t.Helper()
	var ce *expr.ConstraintError
	require.True(t, errors.As(err, &ce), "error %v", err)
	assert.Equal(t, "E_CONSTRAINT", ce.Code)
	assert.Equal(t, c.Reason, ce.Reason)
	if c.Axis == nil {
		assert.Equal(t, -1, ce.Axis)
		return
	}
	assert.Contains(t, c.Axes, ce.Axis)
	assert.Equal(t, *c.Axis, ce.Axis)
	assert.Equal(t, c.Axes, ce.Axes)
}

// TestBroadcastAddVectors checks every case of broadcast_add.json: forward
// cases build the op on placeholders (and evaluate the accepted ones),
// infer cases run InferBroadcastAdd.
func TestBroadcastAddVectors(t *testing.T) {
	f := vectors.Load[broadcastAddCase](t, "broadcast_add.json")
	require.Equal(t, f.Meta["count"], float64(len(f.Cases)))
	for _, c := range f.Cases {
		t.Run(c.ID, func(t *testing.T) {
			switch c.Kind {
			case "forward":
				checkForward(t, c)
			case "infer":
				checkInfer(t, c)
			default:
				t.Fatalf("unknown kind %q", c.Kind)
			}
		})
	}
}

func checkForward(t *testing.T, c broadcastAddCase) {
	a := expr.Placeholder[float32]("a", c.A...)
	b := expr.Placeholder[float32]("b", c.B...)
	y := a.BroadcastAdd(b)
	if c.Status == "error" {
		checkConstraint(t, y.Err(), c)
		return
	}
	require.NoError(t, y.Err())
	assert.Equal(t, tensor.Shape(c.Out), y.Shape())
	// The values are an add's: check one evaluation against a broadcast add.
	ta := tensor.Must(tensor.RandN[float32](1, c.A...))
	tb := tensor.Must(tensor.RandN[float32](2, c.B...))
	got, err := exec.Eval(y, exec.Bind(a, ta), exec.Bind(b, tb))
	require.NoError(t, err)
	want, err := exec.Eval(expr.Of(ta).Add(expr.Of(tb)))
	require.NoError(t, err)
	assert.Equal(t, want.Values(), got.Values())
}

func checkInfer(t *testing.T, c broadcastAddCase) {
	inf, err := expr.InferBroadcastAdd(dimsOrNil(c.Given.A), dimsOrNil(c.Given.B), dimsOrNil(c.Given.Out))
	if c.Status == "error" {
		checkConstraint(t, err, c)
		return
	}
	require.NoError(t, err)
	assert.Equal(t, expr.DimsOf(c.Inferred.A...).String(), inf.A.String(), "a")
	assert.Equal(t, expr.DimsOf(c.Inferred.B...).String(), inf.B.String(), "b")
	assert.Equal(t, expr.DimsOf(c.Inferred.Out...).String(), inf.Out.String(), "out")
	require.Len(t, inf.Derived, len(c.Derivations), "%+v", inf.Derived)
	for i, d := range c.Derivations {
		got := inf.Derived[i]
		v, ok := got.Value.Value()
		assert.True(t, ok)
		assert.Equal(t, d.Tensor, got.Tensor, "derivation %d", i)
		assert.Equal(t, d.Axis, got.Axis, "derivation %d", i)
		assert.Equal(t, d.Value, v, "derivation %d", i)
		assert.Equal(t, d.Rule, string(got.Rule), "derivation %d", i)
		assert.Equal(t, d.Explicit, got.Rule.InSpec(), "derivation %d", i)
	}
	require.Len(t, inf.NotInferred, len(c.NotInferred), "%+v", inf.NotInferred)
	for i, u := range c.NotInferred {
		got := inf.NotInferred[i]
		assert.Equal(t, u.Tensor, got.Tensor, "not inferred %d", i)
		assert.Equal(t, u.Axis, got.Axis, "not inferred %d", i)
		assert.Equal(t, u.Why, got.Why, "not inferred %d", i)
	}
}

// bruteInfer enumerates every completion of (a, b, out) with extents 1..4
// that satisfies broadcast_add's contract. It returns, per tensor and axis,
// the extent every completion agrees on (-1 when they differ), and whether
// any completion exists.
func bruteInfer(rank int, given [3][]int) (res [3][]int, ok bool) {
	for t := range res {
		res[t] = make([]int, rank)
		for i := range res[t] {
			res[t][i] = -2 // nothing seen yet
		}
	}
	fits := func(t, i, v int) bool { return given[t] == nil || given[t][i] < 0 || given[t][i] == v }
	for i := range rank {
		for a := 1; a <= 4; a++ {
			for b := 1; b <= 4; b++ {
				if (i == 0 && a != b) || (a != b && a != 1 && b != 1) {
					continue
				}
				o := max(a, b)
				if !fits(0, i, a) || !fits(1, i, b) || !fits(2, i, o) {
					continue
				}
				for t, v := range [3]int{a, b, o} {
					switch res[t][i] {
					case -2:
						res[t][i] = v
					case v:
					default:
						res[t][i] = -1
					}
				}
			}
		}
		if res[0][i] == -2 {
			return res, false
		}
	}
	return res, true
}

// checkInferBrute compares InferBroadcastAdd with bruteInfer.
func checkInferBrute(t *testing.T, rank int, given [3][]int) {
	t.Helper()
	want, ok := bruteInfer(rank, given)
	inf, err := expr.InferBroadcastAdd(dimsOrNil(given[0]), dimsOrNil(given[1]), dimsOrNil(given[2]))
	if !ok {
		var ce *expr.ConstraintError
		require.ErrorAs(t, err, &ce, "given %v", given)
		return
	}
	require.NoError(t, err, "given %v", given)
	for k, got := range []expr.Dims{inf.A, inf.B, inf.Out} {
		assert.Equal(t, expr.DimsOf(want[k]...).String(), got.String(), "given %v, tensor %d", given, k)
	}
	// Every extent that stays unknown is explained.
	unknown := 0
	for _, s := range want {
		for _, v := range s {
			if v < 0 {
				unknown++
			}
		}
	}
	assert.Len(t, inf.NotInferred, unknown, "given %v", given)
}

// randomGiven draws a partially known triple: each shape is null (one in
// five) or has extents in 1..4, each unknown with probability 1/2.
func randomGiven(r *rand.Rand, rank int) [3][]int {
	var g [3][]int
	for t := range g {
		if r.IntN(5) == 0 {
			continue
		}
		g[t] = make([]int, rank)
		for i := range g[t] {
			g[t][i] = -1
			if r.IntN(2) == 0 {
				g[t][i] = 1 + r.IntN(4)
			}
		}
	}
	return g
}

// TestInferBroadcastAddBrute checks the inference rules against brute-force
// enumeration on random partially known shapes: what is inferred is exactly
// what every completion agrees on, and an error is exactly "no completion".
func TestInferBroadcastAddBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for range 3000 {
		rank := 1 + r.IntN(3)
		g := randomGiven(r, rank)
		if g[0] == nil && g[1] == nil && g[2] == nil {
			continue
		}
		checkInferBrute(t, rank, g)
	}
}

func FuzzInferBroadcastAdd(f *testing.F) {
	f.Add(uint64(1), uint8(3))
	f.Fuzz(func(t *testing.T, seed uint64, rank uint8) {
		r := rand.New(rand.NewPCG(seed, 0))
		g := randomGiven(r, 1+int(rank%4))
		if g[0] == nil && g[1] == nil && g[2] == nil {
			return
		}
		checkInferBrute(t, 1+int(rank%4), g)
	})
}
