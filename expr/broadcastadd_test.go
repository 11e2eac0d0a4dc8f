package expr_test

import (
	"errors"
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
