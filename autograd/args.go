package autograd

import (
	"fmt"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/nilarg"
	"github.com/tensorplay/tensorplay/tensor"
)

// argNode returns the node of the argument called name of function fn, or a
// *tensor.ArgError when there is none: a nil (or typed-nil) expr.Any, an Any
// whose Node is nil, or a zero expr.Expr (whose node is OpInvalid). Other
// errors the node carries are returned by the caller, as they are.
func argNode(fn, name string, a expr.Any) (*expr.Node, error) {
	if nilarg.Is(a) {
		return nil, &tensor.ArgError{Op: fn, Reason: name + " is nil"}
	}
	n := a.Node()
	switch {
	case n == nil:
		return nil, &tensor.ArgError{Op: fn, Reason: name + "'s Node is nil"}
	case n.Op() == expr.OpInvalid:
		return nil, &tensor.ArgError{Op: fn, Reason: fmt.Sprintf("%s is a zero expr.Expr (%v)", name, n.Err())}
	}
	return n, nil
}

// nodeOrNil returns a's node, or nil for a nil a.
func nodeOrNil(a expr.Any) *expr.Node {
	if nilarg.Is(a) {
		return nil
	}
	return a.Node()
}

// wrtNodes returns the nodes of wrt, which must not be empty.
func wrtNodes(fn string, wrt []expr.Any) ([]*expr.Node, error) {
	if len(wrt) == 0 {
		return nil, &tensor.ArgError{Op: fn, Reason: "no wrt expressions to differentiate with respect to"}
	}
	ns := make([]*expr.Node, len(wrt))
	for i, w := range wrt {
		if n := nodeOrNil(w); n != nil && n.Op() != expr.OpInvalid {
			ns[i] = n
			continue
		}
		_, err := argNode(fn, fmt.Sprintf("wrt[%d]", i), w) // named only when refused
		return nil, err
	}
	return ns, nil
}
