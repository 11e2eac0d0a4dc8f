package expr_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/compat"
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

type cannCase struct {
	ID          string `json:"id"`
	Note        string `json:"note"`
	DType       string `json:"dtype"`
	A           []int  `json:"a"`
	B           []int  `json:"b"`
	Expect      string `json:"expect"`
	ErrorKind   string `json:"error_kind"`
	MergedRank  int    `json:"merged_rank"`
	MergedShape []int  `json:"merged_shape"`
}

// TestRestrictedRankVectors checks every case of cann_restriction.json: the
// node is built with an error exactly when the dtype is restricted and the
// merged rank is 6 or more (or the shapes do not broadcast).
func TestRestrictedRankVectors(t *testing.T) {
	f := vectors.Load[cannCase](t, "cann_restriction.json")
	for _, c := range f.Cases {
		t.Run(c.ID, func(t *testing.T) {
			err := buildAdd(t, c.DType, c.A, c.B)
			switch c.ErrorKind {
			case "":
				assert.NoError(t, err, c.Note)
			case "merged_rank_ge_6":
				var re *expr.RestrictedRankError
				require.True(t, errors.As(err, &re), "want a RestrictedRankError, got %v", err)
				assert.Equal(t, c.MergedRank, len(re.Merged))
				assert.Equal(t, tensor.Shape(c.MergedShape), re.Merged)
				assert.Equal(t, c.DType, re.DType.String())
				assert.Contains(t, err.Error(), tensor.Shape(c.A).String())
				assert.Contains(t, err.Error(), tensor.Shape(c.B).String())
			case "not_broadcastable":
				var be *tensor.BroadcastError
				assert.True(t, errors.As(err, &be), "want a BroadcastError, got %v", err)
			default:
				t.Fatalf("unknown error kind %q", c.ErrorKind)
			}
			// Lifting the rule leaves only broadcasting errors.
			defer compat.Apply(compat.Settings{Unrestricted: true})()
			err = buildAdd(t, c.DType, c.A, c.B)
			assert.Equal(t, c.ErrorKind == "not_broadcastable", err != nil, "with the rule lifted: %v", err)
		})
	}
}

func buildAdd(t *testing.T, name string, a, b []int) error {
	d, err := dtype.Parse(name)
	require.NoError(t, err)
	switch d {
	case dtype.Float32:
		return addPlaceholders[float32](a, b)
	case dtype.Float64:
		return addPlaceholders[float64](a, b)
	case dtype.Int16:
		return addPlaceholders[int16](a, b)
	case dtype.Int32:
		return addPlaceholders[int32](a, b)
	case dtype.Uint16:
		return addPlaceholders[uint16](a, b)
	case dtype.Uint64:
		return addPlaceholders[uint64](a, b)
	case dtype.Complex64:
		return addPlaceholders[complex64](a, b)
	case dtype.Complex128:
		return addPlaceholders[complex128](a, b)
	}
	t.Fatalf("no test type for %s", name)
	return nil
}

func addPlaceholders[T dtype.Elem](a, b []int) error {
	x := expr.Placeholder[T]("a", a...)
	y := expr.Placeholder[T]("b", b...)
	// Comparisons broadcast too and are held to the same rule.
	if err := x.Eq(y).Err(); err != nil {
		return err
	}
	return x.Mul(y).Err()
}

// TestRestrictedRankLifted computes 6- to 8-dim float64 broadcasts with the
// rule off and compares them with a reference.
func TestRestrictedRankLifted(t *testing.T) {
	defer compat.Apply(compat.Settings{Unrestricted: true})()
	for _, shapes := range [][2][]int{
		{{5, 1, 5, 1, 5, 1}, {5, 5, 5, 5, 5, 5}},
		{{2, 1, 2, 1, 2, 1, 2}, {1, 2, 1, 2, 1, 2, 1}},
		{{2, 1, 2, 1, 2, 1, 2, 1}, {2, 2, 2, 2, 2, 2, 2, 2}},
	} {
		a := iota64(t, shapes[0])
		b := iota64(t, shapes[1])
		out, err := exec.Eval(expr.Of(a).Add(expr.Of(b)))
		require.NoError(t, err)
		want, _ := tensor.BroadcastShapes(a.Shape(), b.Shape())
		require.Equal(t, want, out.Shape())
		ea, err := a.BroadcastTo(want...)
		require.NoError(t, err)
		eb, err := b.BroadcastTo(want...)
		require.NoError(t, err)
		va, vb := ea.Values(), eb.Values()
		for i, v := range out.Values() {
			if v != va[i]+vb[i] {
				t.Fatalf("%v + %v: element %d = %v, want %v", shapes[0], shapes[1], i, v, va[i]+vb[i])
			}
		}
	}
	// With the rule on the first pair is refused at construction.
	defer compat.Apply(compat.Settings{})()
	err := expr.Placeholder[float64]("a", 5, 1, 5, 1, 5, 1).Add(expr.Placeholder[float64]("b", 5, 5, 5, 5, 5, 5)).Err()
	var re *expr.RestrictedRankError
	assert.True(t, errors.As(err, &re))
}

func iota64(t *testing.T, shape []int) *tensor.Tensor[float64] {
	n, err := tensor.Shape(shape).Numel()
	require.NoError(t, err)
	d := make([]float64, n)
	for i := range d {
		d[i] = float64(i * (i + 3))
	}
	x, err := tensor.FromSlice(d, shape...)
	require.NoError(t, err)
	return x
}

type legacyCase struct {
	ID    string         `json:"id"`
	Note  string         `json:"note"`
	Rule  string         `json:"rule"`
	A     vectors.Tensor `json:"a"`
	B     vectors.Tensor `json:"b"`
	Modes []struct {
		WarnEnabled     bool            `json:"warn_enabled"`
		LegacyPointwise bool            `json:"legacy_pointwise"`
		Status          string          `json:"status"`
		Result          *vectors.Tensor `json:"result"`
		Error           *string         `json:"error"`
		Warnings        []string        `json:"warnings"`
	} `json:"modes"`
}

// TestLegacyWarningVectors runs every case of legacy_warning.json in its
// four modes: result, error text and the warnings emitted (exactly once).
func TestLegacyWarningVectors(t *testing.T) {
	f := vectors.Load[legacyCase](t, "legacy_warning.json")
	texts := map[string]string{
		"backcompat_broadcast": f.Meta["warning_texts"].(map[string]any)["backcompat_broadcast"].(string),
		"deprecated_pointwise": f.Meta["warning_texts"].(map[string]any)["deprecated_pointwise"].(string),
	}
	for _, c := range f.Cases {
		for _, m := range c.Modes {
			name := c.ID
			if m.WarnEnabled {
				name += "_warn"
			}
			if m.LegacyPointwise {
				name += "_legacy"
			}
			t.Run(name, func(t *testing.T) {
				defer compat.Apply(compat.Settings{BroadcastWarning: m.WarnEnabled, LegacyPointwise: m.LegacyPointwise})()
				rec, restore := compat.Capture()
				defer restore()
				a, err := vectors.Build[float32](c.A)
				require.NoError(t, err)
				b, err := vectors.Build[float32](c.B)
				require.NoError(t, err)
				e := expr.Of(a).Add(expr.Of(b))
				var got []string
				for _, w := range rec.Warnings() {
					got = append(got, string(w.Kind))
					assert.Equal(t, texts[string(w.Kind)], w.Message)
				}
				assert.ElementsMatch(t, m.Warnings, got, "warnings (%s)", c.Note)
				if m.Status == "error" {
					require.Error(t, e.Err())
					assert.Equal(t, *m.Error, e.Err().Error())
					_, err := exec.Eval(e)
					assert.Equal(t, e.Err(), err, "evaluation returns the construction error")
					return
				}
				require.NoError(t, e.Err())
				out, err := exec.Eval(e)
				require.NoError(t, err)
				assert.Equal(t, tensor.Shape(m.Result.Shape), out.Shape())
				want, err := vectors.Values[float32](m.Result.Data)
				require.NoError(t, err)
				assert.Equal(t, want, out.Values())
				assert.Len(t, rec.Warnings(), len(m.Warnings), "evaluation emits no further warnings")
			})
		}
	}
}

// TestWarningsOffByDefault checks that nothing warns with the default
// settings, and that the default sink is replaced and restored by Capture.
func TestWarningsOffByDefault(t *testing.T) {
	require.Equal(t, compat.Settings{}, compat.Current())
	rec, restore := compat.Capture()
	defer restore()
	x := expr.Placeholder[float32]("x", 4, 1)
	y := expr.Placeholder[float32]("y", 4)
	require.NoError(t, x.Add(y).Err())
	assert.Empty(t, rec.Warnings())
}

// TestWhereRestrictedRank checks that Where holds its data operands to the
// merged-rank rule, as binary ops are.
func TestWhereRestrictedRank(t *testing.T) {
	c := expr.Placeholder[bool]("c", 5, 5, 5, 5, 5, 5)
	a := expr.Placeholder[complex128]("a", 5, 1, 5, 1, 5, 1)
	b := expr.Placeholder[complex128]("b", 5, 5, 5, 5, 5, 5)
	var re *expr.RestrictedRankError
	assert.True(t, errors.As(expr.Where(c, a, b).Err(), &re), "%v", expr.Where(c, a, b).Err())
	defer compat.Apply(compat.Settings{Unrestricted: true})()
	assert.NoError(t, expr.Where(c, a, b).Err())
}

// TestWarnOnlyForBuiltOps checks that the backcompat warning is given only
// by an op that is built: one that then fails a check warns of nothing.
func TestWarnOnlyForBuiltOps(t *testing.T) {
	cases := []struct {
		name  string
		build func() expr.Any
		warns bool
	}{
		{"float64 merged rank 6", func() expr.Any {
			return expr.Placeholder[float64]("a", 5, 1, 5, 1, 5, 1).Add(expr.Placeholder[float64]("b", 1, 5, 1, 5, 1, 5))
		}, false},
		{"float32 merged rank 6 is not restricted", func() expr.Any {
			return expr.Placeholder[float32]("a", 5, 1, 5, 1, 5, 1).Add(expr.Placeholder[float32]("b", 1, 5, 1, 5, 1, 5))
		}, true},
		{"float64 merged rank 2", func() expr.Any {
			return expr.Placeholder[float64]("a", 4, 1).Add(expr.Placeholder[float64]("b", 1, 4))
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec, restore := compat.Capture()
			defer restore()
			defer compat.Apply(compat.Settings{BroadcastWarning: true})()
			err := c.build().Node().Err()
			if c.warns {
				require.NoError(t, err)
				assert.Equal(t, []compat.Kind{compat.BackcompatBroadcast}, rec.Kinds())
				return
			}
			var re *expr.RestrictedRankError
			require.True(t, errors.As(err, &re), "want a *RestrictedRankError, got %v", err)
			assert.Empty(t, rec.Warnings())
		})
	}
}
