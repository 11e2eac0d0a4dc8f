package exec

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/goint"
	"github.com/tensorplay/tensorplay/tensor"
)

// Multi-target assignment: an optimizer step.
//
// A training step updates several tensors from one graph, each new value
// computed from the old values of all of them, as Python's
// `w, b = w - lr*gw, b - lr*gb` does. Two EvalTo calls in a row would not:
// the second would read the tensor the first has just written. Assign
// evaluates every target's expression in one plan, from the values the
// tensors hold before the call, and writes each destination after every
// step that reads it (see Executor.Run).
//
// A Target pairs one destination with its expression, so the destination
// and the value have one element type, checked by the compiler, while the
// targets of one call may have different types (a float32 weight and an
// int64 step counter). Two parallel slices (EvalNTo(dsts, es)) would have
// had one type for all, and a length to get wrong at run time.

// Target is one destination of Assign and the expression whose value it
// receives. Make targets with To; the zero Target is refused.
type Target struct {
	dst  tensor.Any // nil for a nil tensor
	node *expr.Node
}

// To is the target that writes e's value into dst. dst keeps its shape:
// e's value must broadcast to it, as in EvalTo.
func To[T dtype.Elem](dst *tensor.Tensor[T], e expr.Expr[T]) Target {
	t := Target{node: e.Node()}
	if dst != nil {
		t.dst = goint.Sized(dst)
	}
	return t
}

// Assign evaluates the expressions of ts with the default executor, every
// one from the values the tensors hold before the call, and writes each
// into its destination (see AssignWith).
func Assign(ts ...Target) error { return AssignWith(Default, ts) }

// AssignWith is Assign with executor x and placeholder bindings. It is one
// Executor.Run: shared subexpressions (the gradient both parameters need)
// are computed once, and the destinations of one shape are written by one
// pass over memory, which reads the old values of a block before it writes
// it. Expressions may read any destination, whole or through views.
//
// Every check runs before anything is written, and on error no destination
// has changed: a zero Target, a nil destination or expression
// (*InplaceError, ErrNilExpr), an expression's construction error, a value
// that does not broadcast to its destination's shape (*tensor.BroadcastError,
// *tensor.ExpandError, *InplaceError), one tensor given twice, or two
// destinations that overlap in memory (*InplaceError), and bindings that do
// not fit (*BindError). No targets at all is nothing to do.
func AssignWith(x *Executor, ts []Target, binds ...Binding) error {
	if err := x.usable(); err != nil {
		return err
	}
	if len(ts) == 0 {
		return nil
	}
	var rbuf [8]*expr.Node
	var dbuf [8]tensor.Any
	roots, dsts := rbuf[:0], dbuf[:0]
	if len(ts) > len(rbuf) {
		roots, dsts = make([]*expr.Node, 0, len(ts)), make([]tensor.Any, 0, len(ts))
	}
	for i, t := range ts {
		switch {
		case t.dst == nil && t.node == nil:
			return &InplaceError{Reason: fmt.Sprintf("target %d is a zero Target (make targets with To)", i)}
		case t.dst == nil || nilTensor(t.dst):
			return &InplaceError{Reason: fmt.Sprintf("target %d has a nil destination", i)}
		}
		roots, dsts = append(roots, t.node), append(dsts, t.dst)
	}
	return x.run(roots, dsts, binds, nil)
}
