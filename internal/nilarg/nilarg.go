// Package nilarg reports arguments that are nil, including interface values
// that hold a nil pointer (a typed nil), for the argument checks of exported
// entry points: a typed nil *mat.Dense or *bytes.Reader passes a plain
// v == nil check and then panics inside the first method called on it.
//
// It uses reflect, once per call of an entry point and never per element.
package nilarg

import (
	"reflect"

	"github.com/tensorplay/tensorplay/tensor"
)

// Is reports whether v is nil or holds a nil pointer or func. Nil slices and
// maps are not reported: a type built on one may be usable when empty.
func Is(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Pointer, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return rv.IsNil()
	}
	return false
}

// Check returns a *tensor.ArgError, "fn: name is nil", when Is(v), else nil.
func Check(fn, name string, v any) error {
	if Is(v) {
		return &tensor.ArgError{Op: fn, Reason: name + " is nil"}
	}
	return nil
}
