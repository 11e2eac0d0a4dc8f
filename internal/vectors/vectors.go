// Package vectors loads the PyTorch/NumPy reference cases in
// testdata/vectors (a copy of ../shared/vectors, see its README) for the tests
// of every package.
package vectors

import (
	"encoding/json"
	"fmt"
	"math"
	"math/cmplx"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Dir returns the absolute path of testdata/vectors, found by walking up from
// the working directory to the module root.
func Dir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return filepath.Join(d, "testdata", "vectors"), nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("vectors: no go.mod above %s", wd)
		}
	}
}

// File is one vectors file: its meta object and its cases, each decoded into C.
type File[C any] struct {
	Meta  map[string]any `json:"meta"`
	Cases []C            `json:"cases"`
}

// Load decodes testdata/vectors/name into a File[C], failing the test on error.
func Load[C any](t testing.TB, name string) File[C] {
	t.Helper()
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	var f File[C]
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("vectors: %s: %v", name, err)
	}
	if len(f.Cases) == 0 {
		t.Fatalf("vectors: %s has no cases", name)
	}
	return f
}

// Tensor is a reference tensor: shape, dtype name and row-major data.
type Tensor struct {
	Shape []int           `json:"shape"`
	DType string          `json:"dtype"`
	Data  json.RawMessage `json:"data"`
}

// ViewStep is one step of a view recipe (permute, slice or expand).
type ViewStep struct {
	Op    string `json:"op"`
	Dims  []int  `json:"dims"`
	Dim   int    `json:"dim"`
	Start *int   `json:"start"`
	Stop  *int   `json:"stop"`
	Step  *int   `json:"step"`
	Shape []int  `json:"shape"`
}

// View is an input built from a contiguous base by a recipe of steps.
type View struct {
	Base       json.RawMessage `json:"base"` // a Tensor, or the string "self.base"
	Steps      []ViewStep      `json:"view"`
	Shape      []int           `json:"shape"`
	Strides    []int           `json:"strides"`
	Offset     int             `json:"offset"`
	Contiguous bool            `json:"contiguous"`
	Values     json.RawMessage `json:"values"`
}

// BaseTensor decodes the view's base; ok is false when the base is a
// reference to another tensor's storage ("self.base").
func (v View) BaseTensor() (Tensor, bool, error) {
	var s string
	if json.Unmarshal(v.Base, &s) == nil {
		return Tensor{}, false, nil
	}
	var t Tensor
	err := json.Unmarshal(v.Base, &t)
	return t, err == nil, err
}

// Tolerance is "exact" or an absolute/relative bound.
type Tolerance struct {
	Exact      bool
	ATol, RTol float64
	// SignedZero asks a zero to carry the expected sign ("signed_zero").
	SignedZero bool
}

// UnmarshalJSON accepts "exact" or {"atol":…, "rtol":…}.
func (t *Tolerance) UnmarshalJSON(b []byte) error {
	if strings.TrimSpace(string(b)) == `"exact"` || string(b) == "null" {
		t.Exact = true
		return nil
	}
	var v struct {
		Atol, Rtol float64
		SignedZero bool `json:"signed_zero"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	t.ATol, t.RTol, t.SignedZero = v.Atol, v.Rtol, v.SignedZero
	return nil
}

// Values decodes reference data (data or values) into a []T. Complex values
// are [re, im] pairs; non-finite floats are "nan", "inf" and "-inf".
func Values[T dtype.Elem](raw json.RawMessage) ([]T, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	out := make([]T, len(items))
	for i, it := range items {
		if v, ok := exactInt[T](it); ok {
			out[i] = v
			continue
		}
		c, err := scalar(it)
		if err != nil {
			return nil, fmt.Errorf("element %d: %w", i, err)
		}
		out[i] = convert[T](c)
	}
	return out, nil
}

// exactInt decodes an integer element of an integer T exactly (through a
// float64, 2**63-1 would not survive).
func exactInt[T dtype.Elem](b json.RawMessage) (T, bool) {
	var z T
	switch dtype.Of[T]().Kind() {
	case dtype.KindSigned:
		var v int64
		if json.Unmarshal(b, &v) != nil {
			return z, false
		}
		return convertInt[T](v, 0, true), true
	case dtype.KindUnsigned:
		var v uint64
		if json.Unmarshal(b, &v) != nil {
			return z, false
		}
		return convertInt[T](0, v, false), true
	}
	return z, false
}

// convertInt converts s (signed) or u to the integer type T, wrapping.
func convertInt[T dtype.Elem](s int64, u uint64, signed bool) T {
	if !signed {
		s = int64(u)
	}
	var z T
	switch p := any(&z).(type) {
	case *int8:
		*p = int8(s)
	case *int16:
		*p = int16(s)
	case *int32:
		*p = int32(s)
	case *int64:
		*p = s
	case *int:
		*p = int(s)
	case *uint8:
		*p = uint8(s)
	case *uint16:
		*p = uint16(s)
	case *uint32:
		*p = uint32(s)
	case *uint64:
		*p = uint64(s)
	case *uint:
		*p = uint(s)
	}
	return z
}

// scalar decodes one element as a complex128 (bools as 0/1).
func scalar(b json.RawMessage) (complex128, error) {
	var pair []json.RawMessage
	if json.Unmarshal(b, &pair) == nil && len(pair) == 2 {
		re, err := scalar(pair[0])
		if err != nil {
			return 0, err
		}
		im, err := scalar(pair[1])
		return complex(real(re), real(im)), err
	}
	var bl bool
	if json.Unmarshal(b, &bl) == nil {
		if bl {
			return 1, nil
		}
		return 0, nil
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		switch s {
		case "nan":
			return complex(math.NaN(), 0), nil
		case "inf":
			return complex(math.Inf(1), 0), nil
		case "-inf":
			return complex(math.Inf(-1), 0), nil
		}
		return 0, fmt.Errorf("bad value %q", s)
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return 0, err
	}
	return complex(f, 0), nil
}

func convert[T dtype.Elem](c complex128) T {
	var z T
	switch p := any(&z).(type) {
	case *bool:
		*p = c != 0
	case *int8:
		*p = int8(real(c))
	case *int16:
		*p = int16(real(c))
	case *int32:
		*p = int32(real(c))
	case *int64:
		*p = int64(real(c))
	case *int:
		*p = int(real(c))
	case *uint8:
		*p = uint8(real(c))
	case *uint16:
		*p = uint16(real(c))
	case *uint32:
		*p = uint32(real(c))
	case *uint64:
		*p = uint64(real(c))
	case *uint:
		*p = uint(real(c))
	case *float32:
		*p = float32(real(c))
	case *float64:
		*p = real(c)
	case *complex64:
		*p = complex64(c)
	case *complex128:
		*p = c
	}
	return z
}

// ToComplex widens any element to complex128, for comparisons.
func ToComplex[T dtype.Elem](v T) complex128 {
	switch x := any(v).(type) {
	case bool:
		if x {
			return 1
		}
		return 0
	case int8:
		return complex(float64(x), 0)
	case int16:
		return complex(float64(x), 0)
	case int32:
		return complex(float64(x), 0)
	case int64:
		return complex(float64(x), 0)
	case int:
		return complex(float64(x), 0)
	case uint8:
		return complex(float64(x), 0)
	case uint16:
		return complex(float64(x), 0)
	case uint32:
		return complex(float64(x), 0)
	case uint64:
		return complex(float64(x), 0)
	case uint:
		return complex(float64(x), 0)
	case float32:
		return complex(float64(x), 0)
	case float64:
		return complex(x, 0)
	case complex64:
		return complex128(x)
	case complex128:
		return x
	}
	return 0
}

// Build returns the reference tensor as a *tensor.Tensor[T]; T must be the
// Go type of its dtype.
func Build[T dtype.Elem](r Tensor) (*tensor.Tensor[T], error) {
	if got := dtype.Of[T]().String(); got != r.DType {
		return nil, fmt.Errorf("vectors: tensor is %s, asked for %s", r.DType, got)
	}
	vals, err := Values[T](r.Data)
	if err != nil {
		return nil, err
	}
	return tensor.FromSlice(vals, r.Shape...)
}

// BuildView rebuilds a view input with tensor.AsStrided on a fresh copy of
// its base, returning the view and its base.
func BuildView[T dtype.Elem](v View) (view, base *tensor.Tensor[T], err error) {
	bt, ok, err := v.BaseTensor()
	if err != nil || !ok {
		return nil, nil, fmt.Errorf("vectors: view has no base of its own: %v", err)
	}
	base, err = Build[T](bt)
	if err != nil {
		return nil, nil, err
	}
	view, err = tensor.AsStrided(base.Data(), v.Shape, v.Strides, v.Offset)
	return view, base, err
}

// Close reports whether got is within tol of want, NaN matching NaN; the
// modulus is used for complex values, as the README prescribes.
func Close(got, want complex128, tol Tolerance) bool {
	if cmplx.IsNaN(want) || cmplx.IsNaN(got) {
		return cmplx.IsNaN(want) && cmplx.IsNaN(got)
	}
	if got == want {
		return !tol.SignedZero || signs(got) == signs(want)
	}
	if tol.Exact {
		return false
	}
	if cmplx.IsInf(want) || cmplx.IsInf(got) {
		return false
	}
	return cmplx.Abs(got-want) <= tol.ATol+tol.RTol*cmplx.Abs(want)
}

// signs returns the sign bits of a complex value's parts.
func signs(z complex128) [2]bool {
	return [2]bool{math.Signbit(real(z)), math.Signbit(imag(z))}
}

// AssertClose fails t (without stopping it) for every element of got that is
// not within tol of want, and when the lengths differ.
func AssertClose[T dtype.Elem](t testing.TB, got, want []T, tol Tolerance, context string) bool {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d values, want %d", context, len(got), len(want))
		return false
	}
	ok := true
	k := dtype.Of[T]().Kind()
	exactKind := k == dtype.KindSigned || k == dtype.KindUnsigned || k == dtype.KindBool
	for i := range got {
		if exactKind && got[i] != want[i] || !Close(ToComplex(got[i]), ToComplex(want[i]), tol) {
			t.Errorf("%s: element %d = %v, want %v", context, i, got[i], want[i])
			ok = false
		}
	}
	return ok
}
