package vectors

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// OpCase is a case of the ops_*.json files (see testdata/vectors/README.md).
type OpCase struct {
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

// OpInput builds input i of c, a plain tensor or a view spec (one with a
// base).
func OpInput[T dtype.Elem](c OpCase, i int) (*tensor.Tensor[T], error) {
	var probe struct {
		Base json.RawMessage `json:"base"`
	}
	if err := json.Unmarshal(c.Inputs[i], &probe); err != nil {
		return nil, err
	}
	if probe.Base != nil {
		var v View
		if err := json.Unmarshal(c.Inputs[i], &v); err != nil {
			return nil, err
		}
		x, _, err := BuildView[T](v)
		return x, err
	}
	var r Tensor
	if err := json.Unmarshal(c.Inputs[i], &r); err != nil {
		return nil, err
	}
	return Build[T](r)
}

// InputDType is the dtype name of input i (of its base, for a view).
func (c OpCase) InputDType(i int) (string, error) {
	var r struct {
		DType string `json:"dtype"`
		Base  struct {
			DType string `json:"dtype"`
		} `json:"base"`
	}
	if err := json.Unmarshal(c.Inputs[i], &r); err != nil {
		return "", err
	}
	if r.DType == "" {
		return r.Base.DType, nil
	}
	return r.DType, nil
}

// Outputs returns c's expected outputs (one or several) and their
// tolerances, one per output.
func (c OpCase) Outputs() ([]Tensor, []Tolerance, error) {
	var outs []Tensor
	var tols []Tolerance
	if len(c.Expected) > 0 && c.Expected[0] == '[' {
		if err := json.Unmarshal(c.Expected, &outs); err != nil {
			return nil, nil, err
		}
		if err := json.Unmarshal(c.Tolerance, &tols); err != nil {
			return nil, nil, err
		}
	} else {
		var one Tensor
		var tol Tolerance
		if err := json.Unmarshal(c.Expected, &one); err != nil {
			return nil, nil, err
		}
		if err := json.Unmarshal(c.Tolerance, &tol); err != nil {
			return nil, nil, err
		}
		outs, tols = []Tensor{one}, []Tolerance{tol}
	}
	if len(outs) != len(tols) {
		return nil, nil, fmt.Errorf("vectors: %s: %d outputs, %d tolerances", c.ID, len(outs), len(tols))
	}
	return outs, tols, nil
}

// AssertTensor compares got with the reference tensor want: dtype, shape
// and values within tol, failing t (without stopping it) on a difference.
func AssertTensor[T dtype.Elem](t testing.TB, got *tensor.Tensor[T], want Tensor, tol Tolerance, what string) {
	t.Helper()
	if got == nil {
		t.Errorf("%s: no tensor", what)
		return
	}
	if got.DType().String() != want.DType {
		t.Errorf("%s: dtype %s, want %s", what, got.DType(), want.DType)
	}
	if !got.Shape().Equal(tensor.Shape(want.Shape)) {
		t.Errorf("%s: shape %v, want %v", what, got.Shape(), want.Shape)
		return
	}
	vals, err := Values[T](want.Data)
	if err != nil {
		t.Errorf("%s: %v", what, err)
		return
	}
	AssertClose(t, got.Values(), vals, tol, what)
}

// Param decodes params[name] into v (anything encoding/json fills),
// reporting whether the param is set: present and not null.
func (c OpCase) Param(name string, v any) (bool, error) {
	p, ok := c.Params[name]
	if !ok || p == nil {
		return false, nil
	}
	b, err := json.Marshal(p)
	if err == nil {
		err = json.Unmarshal(b, v)
	}
	if err != nil {
		return false, fmt.Errorf("vectors: %s: param %s: %w", c.ID, name, err)
	}
	return true, nil
}

// FloatParam returns a number param ("inf", "-inf" and "nan" included)
// and whether it is set.
func (c OpCase) FloatParam(name string) (float64, bool, error) {
	var raw json.RawMessage
	if ok, err := c.Param(name, &raw); !ok || err != nil {
		return 0, false, err
	}
	v, err := Values[float64](json.RawMessage("[" + string(raw) + "]"))
	if err != nil {
		return 0, false, fmt.Errorf("vectors: %s: param %s: %w", c.ID, name, err)
	}
	return v[0], true, nil
}

// AssertAnyTensor is AssertTensor for a result of any element type.
func AssertAnyTensor(t testing.TB, got tensor.Any, want Tensor, tol Tolerance, what string) {
	t.Helper()
	switch g := got.(type) {
	case *tensor.Tensor[bool]:
		AssertTensor(t, g, want, tol, what)
	case *tensor.Tensor[int8]:
		AssertTensor(t, g, want, tol, what)
	case *tensor.Tensor[int16]:
		AssertTensor(t, g, want, tol, what)
	case *tensor.Tensor[int32]:
		AssertTensor(t, g, want, tol, what)
	case *tensor.Tensor[int64]:
		AssertTensor(t, g, want, tol, what)
	case *tensor.Tensor[uint8]:
		AssertTensor(t, g, want, tol, what)
	case *tensor.Tensor[uint16]:
		AssertTensor(t, g, want, tol, what)
	case *tensor.Tensor[uint32]:
		AssertTensor(t, g, want, tol, what)
	case *tensor.Tensor[uint64]:
		AssertTensor(t, g, want, tol, what)
	case *tensor.Tensor[float32]:
		AssertTensor(t, g, want, tol, what)
	case *tensor.Tensor[float64]:
		AssertTensor(t, g, want, tol, what)
	case *tensor.Tensor[complex64]:
		AssertTensor(t, g, want, tol, what)
	case *tensor.Tensor[complex128]:
		AssertTensor(t, g, want, tol, what)
	default:
		t.Errorf("%s: no comparison for %T", what, got)
	}
}
