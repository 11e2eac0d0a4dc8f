package expr

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// External describes a computation defined outside expr's op table: a
// function from evaluated operand tensors to a result tensor, with an
// optional gradient rule written in expressions. Packages built on expr
// (linalg's factorizations, for instance) use it to put their functions in
// graphs, so that they are planned, cached and differentiated like built-in
// ops. The executor evaluates an external node's operands, calls Eval once
// per evaluation, and treats the result as a value of the graph; nothing
// fuses across it.
//
// Name and Key identify the computation: two external nodes with equal
// names, keys, operands, dtypes and shapes compute the same thing, and a
// plan made for one is reused for the other. Key holds whatever parameters
// change what Eval computes ("lower", "ddof=1"); Eval must not depend on
// anything else.
type External struct {
	// Name is the op's name in printed graphs ("solve").
	Name string
	// Key holds the parameters that change the computation; "" for none.
	Key string
	// Eval computes the result from the operands' values, which have the
	// operand nodes' dtypes and shapes (and are not to be modified). It
	// returns a new dense row-major tensor of the node's dtype and shape
	// (not an operand or a view of one), or an error, which the evaluation
	// returns. It may be called from several goroutines at once.
	Eval func(args []tensor.Any) (tensor.Any, error)
	// VJP returns the gradient of each operand (nil for an operand that
	// takes none) given the node n and the gradient g of its value; it is
	// nil when the op is not differentiable.
	VJP func(n *Node, g *Node) []*Node
}

// Identity returns the name and key as one string, the external node's
// attribute for plan caches and common subexpressions.
func (e *External) Identity() string { return e.Name + "\x00" + e.Key }

// Apply returns the node of an external computation over args whose result
// has dtype dt and the given shape. The caller checks the operands' shapes
// and dtypes (the result carries the error it returns when check is not
// nil); Apply checks only that e is complete and the shape fits an int.
func Apply(e *External, dt dtype.DType, shape tensor.Shape, args ...Any) *Node {
	nodes := make([]*Node, len(args))
	for i, a := range args {
		nodes[i] = nodeOf(a)
	}
	n, ok := newNode(OpExternal, nodes...)
	if !ok {
		return n
	}
	switch {
	case e == nil || e.Eval == nil:
		n.err = &tensor.ArgError{Op: "expr.Apply", Reason: "external op has no Eval function"}
		return n
	case strings.TrimSpace(e.Name) == "":
		n.err = &tensor.ArgError{Op: "expr.Apply", Reason: "external op has no name"}
		return n
	case !dt.Valid():
		n.err = &tensor.ArgError{Op: "expr.Apply", Reason: fmt.Sprintf("external op %s: invalid dtype", e.Name)}
		return n
	}
	for _, a := range nodes {
		if a.sym() != nil {
			n.err = &ShapeOpError{Op: e.Name, Reason: "operands with symbolic shapes are not supported by external ops"}
			return n
		}
	}
	n.dt = dt
	n.extra().external = e
	setShape(n, shape.Clone())
	return n
}

// Fail returns a node of op e that carries err: the result of an external
// op's constructor when its operands do not fit.
func Fail(e *External, err error, args ...Any) *Node {
	nodes := make([]*Node, len(args))
	for i, a := range args {
		nodes[i] = nodeOf(a)
	}
	if bad := firstErr(OpExternal, nodes...); bad != nil {
		return bad
	}
	return errNode(OpExternal, err)
}

// External returns the computation of an external node, nil for any other.
func (n *Node) External() *External {
	if n.ext == nil {
		return nil
	}
	return n.ext.external
}

// opName is the node's op as printed: an external op's own name.
func (n *Node) opName() string {
	if e := n.External(); e != nil {
		return e.Name
	}
	return n.op.String()
}

// externalIDs interns identities: equal identities get equal numbers, the
// first one 1, so that plan and gradient caches key on a number.
var externalIDs struct {
	sync.Mutex
	ids map[string]uint64
}

// ExternalKey returns a number that identifies an external node's
// computation (its name and key), equal for equal identities and never 0;
// it is 0 for any other node. Caches of plans and gradients key on it.
func (n *Node) ExternalKey() uint64 {
	e := n.External()
	if e == nil {
		return 0
	}
	id := e.Identity()
	externalIDs.Lock()
	defer externalIDs.Unlock()
	if externalIDs.ids == nil {
		externalIDs.ids = map[string]uint64{}
	}
	k, ok := externalIDs.ids[id]
	if !ok {
		k = uint64(len(externalIDs.ids) + 1)
		externalIDs.ids[id] = k
	}
	return k
}
