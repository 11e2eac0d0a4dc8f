package npy

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/internal/nilarg"
	"github.com/tensorplay/tensorplay/tensor"
)

// nilArgError returns a *tensor.ArgError when the argument called name of
// function fn is nil or a typed nil (a nil *bytes.Reader in an io.Reader),
// which would otherwise panic in its first method call.
func nilArgError(fn, name string, v any) error { return nilarg.Check(fn, name, v) }

// tensorArgError returns a *tensor.ArgError for a nil t or one with no
// storage for its elements.
func tensorArgError[T dtype.Elem](fn string, t *tensor.Tensor[T]) error {
	switch {
	case t == nil:
		return &tensor.ArgError{Op: fn, Reason: "t is nil"}
	case t.Numel() > 0 && len(t.Data()) == 0:
		return &tensor.ArgError{Op: fn, Reason: "t has no storage (a zero tensor.Tensor?)"}
	}
	return nil
}
