package exec_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/vectors"
	"github.com/tensorplay/tensorplay/tensor"
)

// opCase is a case of the ops_*.json files (see testdata/vectors/README.md).
type opCase struct {
	ID        string            `json:"id"`
	Op        string            `json:"op"`
	Params    map[string]any    `json:"params"`
	Inputs    []json.RawMessage `json:"inputs"`
	Expected  json.RawMessage   `json:"expected"`
	Expect    string            `json:"expect"`
	ErrorKind string            `json:"error_kind"`
	Tolerance json.RawMessage   `json:"tolerance"`
	Note      string            `json:"note"`
}

// input builds input i of c, a plain tensor or a view spec.
func opInput[T dtype.Elem](t *testing.T, c opCase, i int) *tensor.Tensor[T] {
	t.Helper()
	var probe struct {
		Base json.RawMessage `json:"base"`
	}
	require.NoError(t, json.Unmarshal(c.Inputs[i], &probe))
	if probe.Base != nil {
		var v vectors.View
		require.NoError(t, json.Unmarshal(c.Inputs[i], &v))
		x, _, err := vectors.BuildView[T](v)
		require.NoError(t, err)
		return x
	}
	var r vectors.Tensor
	require.NoError(t, json.Unmarshal(c.Inputs[i], &r))
	x, err := vectors.Build[T](r)
	require.NoError(t, err)
	return x
}

// inputDType is the dtype name of input i.
func inputDType(t *testing.T, c opCase, i int) string {
	var r struct {
		DType string `json:"dtype"`
		Base  struct {
			DType string `json:"dtype"`
		} `json:"base"`
	}
	require.NoError(t, json.Unmarshal(c.Inputs[i], &r))
	if r.DType == "" {
		return r.Base.DType
	}
	return r.DType
}

// expected returns c's expected outputs (one or several) and tolerances.
func (c opCase) expected(t *testing.T) ([]vectors.Tensor, []vectors.Tolerance) {
	t.Helper()
	var outs []vectors.Tensor
	var tols []vectors.Tolerance
	if len(c.Expected) > 0 && c.Expected[0] == '[' {
		require.NoError(t, json.Unmarshal(c.Expected, &outs))
		require.NoError(t, json.Unmarshal(c.Tolerance, &tols))
	} else {
		var one vectors.Tensor
		var tol vectors.Tolerance
		require.NoError(t, json.Unmarshal(c.Expected, &one))
		require.NoError(t, json.Unmarshal(c.Tolerance, &tol))
		outs, tols = []vectors.Tensor{one}, []vectors.Tolerance{tol}
	}
	require.Equal(t, len(outs), len(tols), "one tolerance per output")
	return outs, tols
}

// assertTensor compares got with the reference tensor want: dtype, shape
// and values within tol.
func assertTensor[T dtype.Elem](t *testing.T, got *tensor.Tensor[T], want vectors.Tensor, tol vectors.Tolerance, what string) {
	t.Helper()
	require.NotNil(t, got, what)
	assert.Equal(t, want.DType, got.DType().String(), what+": dtype")
	if !assert.Equal(t, tensor.Shape(want.Shape), got.Shape(), what+": shape") {
		return
	}
	vals, err := vectors.Values[T](want.Data)
	require.NoError(t, err)
	vectors.AssertClose(t, got.Values(), vals, tol, what)
}

// intParam returns params[name] as an int, and whether it is set (not null).
func intParam(c opCase, name string) (int, bool) {
	v, ok := c.Params[name].(float64)
	return int(v), ok
}

// TestSortVectors runs every case of ops_sort.json: sort, argsort, topk,
// searchsorted (1-D and batched) and unique, against NumPy 1.24 (and torch
// where NumPy lacks the op).
func TestSortVectors(t *testing.T) {
	f := vectors.Load[opCase](t, "ops_sort.json")
	for _, c := range f.Cases {
		t.Run(c.ID+"_"+c.Op, func(t *testing.T) {
			switch dt := inputDType(t, c, 0); dt {
			case "float64":
				runSortCase[float64](t, c)
			case "float32":
				runSortCase[float32](t, c)
			case "int64":
				runSortCase[int64](t, c)
			case "int32":
				runSortCase[int32](t, c)
			case "bool":
				runSortCase[bool](t, c)
			default:
				t.Fatalf("no runner for dtype %s", dt)
			}
		})
	}
}

func runSortCase[T exec.Sortable](t *testing.T, c opCase) {
	x := expr.Of(opInput[T](t, c, 0))
	axis, hasAxis := intParam(c, "axis")
	if !hasAxis && c.Op != "searchsorted" && c.Op != "unique" {
		x, axis = x.Reshape(-1), 0 // axis null: the flattened input
	}
	var opts []exec.SortOption
	if d, _ := c.Params["descending"].(bool); d {
		opts = append(opts, exec.Descending())
	}
	if l, ok := c.Params["largest"].(bool); ok && !l {
		opts = append(opts, exec.Smallest())
	}
	if s, _ := c.Params["side"].(string); s == "right" {
		opts = append(opts, exec.Right())
	}
	var got []any
	var err error
	switch c.Op {
	case "sort":
		var v *tensor.Tensor[T]
		v, err = exec.Sort(x, axis, opts...)
		got = []any{v}
	case "argsort":
		var i *tensor.Tensor[int64]
		i, err = exec.ArgSort(x, axis, opts...)
		got = []any{i}
	case "topk":
		k, _ := intParam(c, "k")
		var v *tensor.Tensor[T]
		var i *tensor.Tensor[int64]
		v, i, err = exec.TopK(x, k, axis, opts...)
		got = []any{v, i}
	case "kthvalue":
		k, _ := intParam(c, "k")
		if kd, _ := c.Params["keepdims"].(bool); kd {
			opts = append(opts, exec.KeepDims())
		}
		var v *tensor.Tensor[T]
		var i *tensor.Tensor[int64]
		v, i, err = exec.KthValue(x, k, axis, opts...)
		got = []any{v, i}
	case "searchsorted":
		var i *tensor.Tensor[int64]
		i, err = exec.SearchSorted(x, expr.Of(opInput[T](t, c, 1)), opts...)
		got = []any{i}
	case "unique":
		if hasAxis {
			opts = append(opts, exec.UniqueAxis(axis))
		}
		var u *exec.Uniques[T]
		u, err = exec.Unique(x, opts...)
		if err == nil {
			got = []any{u.Values}
			if inv, _ := c.Params["return_inverse"].(bool); inv {
				got = append(got, u.Inverse)
			}
			if cnt, _ := c.Params["return_counts"].(bool); cnt {
				got = append(got, u.Counts)
			}
		}
	default:
		t.Fatalf("no runner for op %s", c.Op)
	}
	if c.Expect == "error" {
		assertErrorKind(t, err, c.ErrorKind)
		return
	}
	require.NoError(t, err)
	want, tols := c.expected(t)
	require.Len(t, got, len(want))
	for k, g := range got {
		switch g := g.(type) {
		case *tensor.Tensor[T]:
			assertTensor(t, g, want[k], tols[k], "output "+string(rune('0'+k)))
		case *tensor.Tensor[int64]:
			assertTensor(t, g, want[k], tols[k], "output "+string(rune('0'+k)))
		}
	}
}

// assertErrorKind checks err against a vectors error_kind by its type.
func assertErrorKind(t *testing.T, err error, kind string) {
	t.Helper()
	require.Error(t, err)
	switch kind {
	case "out_of_range":
		var e *tensor.ArgError
		assert.ErrorAs(t, err, &e)
	case "axis":
		var e *tensor.AxisError
		assert.ErrorAs(t, err, &e)
	case "shape":
		var e *tensor.ShapeError
		assert.ErrorAs(t, err, &e)
	default:
		t.Fatalf("no check for error kind %q (error %v)", kind, err)
	}
}
