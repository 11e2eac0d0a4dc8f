package exec

import (
	"errors"
	"fmt"

	"github.com/tensorplay/tensorplay/tensor"
)

var errNilRoot = errors.New("exec: nil expression")

// InplaceError reports a destination that cannot receive a value: it would
// have to change shape (PyTorch's text: "output with shape [3] doesn't match
// the broadcast shape [1, 3]"), or it is malformed.
type InplaceError struct {
	Dst, Value tensor.Shape
	Reason     string
}

// Error returns the message.
func (e *InplaceError) Error() string {
	if e.Reason != "" {
		return "exec: " + e.Reason
	}
	return fmt.Sprintf("output with shape %v doesn't match the broadcast shape %v", e.Dst, e.Value)
}

// OverlapError reports a destination in which several elements may share
// one memory location (a broadcast, stride-0 view, or a self-overlapping
// layout), so the result would depend on the order of writes. It is
// tensor.InternalOverlapError, the error of writing into such a tensor with
// Set, under the name the executor's docs use: errors.As finds it as
// either, and its text is PyTorch's.
type OverlapError = tensor.InternalOverlapError

// BindError reports a placeholder without a tensor, or bound to a tensor of
// another shape or dtype.
type BindError struct {
	Name   string
	Reason string
}

// Error returns the message.
func (e *BindError) Error() string { return fmt.Sprintf("exec: placeholder %q: %s", e.Name, e.Reason) }
