package exec_test

import (
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
type opCase = vectors.OpCase

// opInput builds input i of c, a plain tensor or a view spec.
func opInput[T dtype.Elem](t *testing.T, c opCase, i int) *tensor.Tensor[T] {
	t.Helper()
	x, err := vectors.OpInput[T](c, i)
	require.NoError(t, err)
	return x
}

// inputDType is the dtype name of input i.
func inputDType(t *testing.T, c opCase, i int) string {
	dt, err := c.InputDType(i)
	require.NoError(t, err)
	return dt
}

// expectedOf returns c's expected outputs (one or several) and tolerances.
func expectedOf(t *testing.T, c opCase) ([]vectors.Tensor, []vectors.Tolerance) {
	t.Helper()
	outs, tols, err := c.Outputs()
	require.NoError(t, err)
	return outs, tols
}

// assertTensor compares got with the reference tensor want.
func assertTensor[T dtype.Elem](t *testing.T, got *tensor.Tensor[T], want vectors.Tensor, tol vectors.Tolerance, what string) {
	t.Helper()
	vectors.AssertTensor(t, got, want, tol, what)
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
			forInputDType(t, c, 0, runSortCase[float64], runSortCase[float32], runSortCase[int64], runSortCase[int32], runSortCase[bool])
		})
	}
}

func runSortCase[T exec.Sortable](t *testing.T, c opCase, in *tensor.Tensor[T]) {
	x := expr.Of(in)
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
	want, tols := expectedOf(t, c)
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
