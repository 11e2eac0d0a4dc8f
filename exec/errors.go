package exec

import (
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/tensorplay/tensorplay/tensor"
)

// Errors of the arguments of an evaluation, matched with errors.Is.
var (
	// ErrClosed is returned by an executor used after Close.
	ErrClosed = errors.New("exec: executor is closed")
	// ErrNilExecutor is returned by the methods of a nil *Executor and by
	// the functions given one.
	ErrNilExecutor = errors.New("exec: nil executor")
	// ErrNilExpr is returned for a nil root node (Executor.Run).
	ErrNilExpr = errors.New("exec: nil expression")
)

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
// another shape or dtype, or to a nil one; or a binding of a node that is
// not a placeholder.
type BindError struct {
	Name   string // the placeholder's name
	Node   string // a node that is not a placeholder, by op, dtype and shape (tensor:i64[2])
	Reason string
}

// Error returns the message.
func (e *BindError) Error() string {
	if e.Node != "" {
		return fmt.Sprintf("exec: cannot bind a tensor to %s: %s", e.Node, e.Reason)
	}
	return fmt.Sprintf("exec: placeholder %q: %s", e.Name, e.Reason)
}

// InternalError reports a panic inside an evaluation: a bug in the executor
// or in a registered kernel, recovered on the goroutine where it happened
// (the calling one or a worker) and returned by the Eval that ran it. The
// executor stays usable. A destination of the failed evaluation may have
// been partly written.
type InternalError struct {
	Value any    // what the panic was called with
	Stack []byte // the stack of the goroutine that panicked
}

// Error returns the message.
func (e *InternalError) Error() string { return fmt.Sprintf("exec: internal error: %v", e.Value) }

// Unwrap returns the panic's value when it is an error (a runtime.Error).
func (e *InternalError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// failure carries an error from inside a run of a plan — an allocation
// that does not fit, a kernel that refuses its operands — to the entry
// point that started it, which returns it: the panic-and-recover idiom of
// Effective Go, kept inside the package. Steps, kernels and the pool have
// no error results of their own, and the run stops where the failure
// happened.
type failure struct{ err error }

// fail stops the current run with err (see failure).
func fail(err error) { panic(failure{err}) }

// recoveredError is the error to return for a recovered panic value r: a
// failure's error, or an *InternalError.
func recoveredError(r any) error {
	if f, ok := r.(failure); ok {
		return f.err
	}
	return &InternalError{Value: r, Stack: debug.Stack()}
}
