package autograd

import (
	"errors"
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// NotDifferentiableError reports a gradient requested through an op or a
// value that has none: a comparison, argmax/argmin, any/all, div_trunc or
// div_floor, logical ops, integer and bool values, complex values.
type NotDifferentiableError struct {
	Op     expr.Op     // the node the gradient cannot enter
	DType  dtype.DType // its dtype
	Reason string
}

// Error names the op, its dtype and the reason.
func (e *NotDifferentiableError) Error() string {
	return fmt.Sprintf("autograd: no gradient through %s (%s): %s", e.Op, e.DType, e.Reason)
}

// ErrNotScalar is returned by Grad for an output with more than one
// element: its gradient needs an upstream gradient (VJP).
var ErrNotScalar = errors.New("autograd: Grad needs an output with one element; use VJP with an upstream gradient")

// ErrSymbolic is returned for graphs whose shapes are symbolic: they are
// differentiated after expr.Specializer has made them concrete.
var ErrSymbolic = errors.New("autograd: the graph has symbolic shapes; specialise it first (expr.Specializer)")

// Grad returns the gradients of y, which must have one element, with
// respect to each of wrt: expressions of wrt[i]'s shape and dtype, built
// from y's graph by the VJP rules (see the package documentation). A wrt
// node that y does not depend on gets zeros; one that y depends on only
// through non-differentiable ops is a *NotDifferentiableError. A nil or
// zero-value y or wrt node, or no wrt at all, is a *tensor.ArgError.
func Grad(y expr.Any, wrt ...expr.Any) ([]*expr.Node, error) {
	yn, err := argNode("autograd.Grad", "y", y)
	if err != nil {
		return nil, err
	}
	targets, err := wrtNodes("autograd.Grad", wrt)
	if err != nil {
		return nil, err
	}
	if err := yn.Err(); err != nil {
		return nil, err
	}
	if k, _ := yn.Shape().Numel(); k != 1 || yn.Symbolic() {
		if yn.Symbolic() {
			return nil, ErrSymbolic
		}
		return nil, fmt.Errorf("%w (shape %v)", ErrNotScalar, yn.Shape())
	}
	if err := enterable(yn); err != nil {
		return nil, err
	}
	return cachedBackward(yn, nil, targets)
}

// VJP returns the vector-Jacobian products upstream·∂y/∂wrt[i]: the
// gradients of sum(y * upstream). upstream must have y's shape and dtype.
// Missing arguments are a *tensor.ArgError, as for Grad.
func VJP(y, upstream expr.Any, wrt ...expr.Any) ([]*expr.Node, error) {
	yn, err := argNode("autograd.VJP", "y", y)
	if err != nil {
		return nil, err
	}
	un, err := argNode("autograd.VJP", "upstream", upstream)
	if err != nil {
		return nil, err
	}
	targets, err := wrtNodes("autograd.VJP", wrt)
	if err != nil {
		return nil, err
	}
	if err := errors.Join(yn.Err(), un.Err()); err != nil {
		return nil, err
	}
	if yn.Symbolic() || un.Symbolic() {
		return nil, ErrSymbolic
	}
	if !un.Shape().Equal(yn.Shape()) || un.DType() != yn.DType() {
		return nil, fmt.Errorf("autograd: upstream gradient is %s%v, output is %s%v", un.DType(), un.Shape(), yn.DType(), yn.Shape())
	}
	if err := enterable(yn); err != nil {
		return nil, err
	}
	return cachedBackward(yn, un, targets)
}

// GradOf is Grad for expressions of one float type.
func GradOf[T dtype.Float](y expr.Expr[T], wrt ...expr.Expr[T]) ([]expr.Expr[T], error) {
	g, err := Grad(y, anys(wrt)...)
	return typed[T](g), err
}

// VJPOf is VJP for expressions of one float type.
func VJPOf[T dtype.Float](y, upstream expr.Expr[T], wrt ...expr.Expr[T]) ([]expr.Expr[T], error) {
	g, err := VJP(y, upstream, anys(wrt)...)
	return typed[T](g), err
}

func anys[T dtype.Elem](xs []expr.Expr[T]) []expr.Any {
	out := make([]expr.Any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

func typed[T dtype.Elem](ns []*expr.Node) []expr.Expr[T] {
	if ns == nil {
		return nil
	}
	out := make([]expr.Expr[T], len(ns))
	for i, n := range ns {
		out[i] = expr.Wrap[T](n)
	}
	return out
}

// enterable reports whether a gradient can flow into n: its values are
// real floats and its op has a VJP rule (leaves have no operands to pass
// it on to, and need none).
func enterable(n *expr.Node) error {
	d := n.DType()
	switch {
	case d.IsComplex():
		return &NotDifferentiableError{Op: n.Op(), DType: d, Reason: "complex gradients are not supported"}
	case n.Op() == expr.OpExternal && n.External().VJP == nil:
		return &NotDifferentiableError{Op: n.Op(), DType: d, Reason: "external op " + n.External().Name + " has no gradient rule"}
	case n.Op().Class() != expr.ClassLeaf && !hasRule(n):
		return &NotDifferentiableError{Op: n.Op(), DType: d, Reason: whyNot(n.Op())}
	case !d.IsFloat():
		return &NotDifferentiableError{Op: n.Op(), DType: d, Reason: "integer and bool values have no gradient"}
	}
	return nil
}

// backward runs reverse mode from y, whose gradient is seed: every node
// gets the sum of its users' contributions, in a fixed order (the reverse
// topological order of y's graph), so the graph built, and the values it
// computes, are the same on every run.
func backward(y, seed *expr.Node, targets []*expr.Node) ([]*expr.Node, error) {
	isTarget := map[*expr.Node]bool{}
	for _, w := range targets {
		if err := w.Err(); err != nil {
			return nil, err
		}
		isTarget[w] = true
	}
	order := expr.PostOrder(y)
	// live: a gradient reaches a target from here through enterable nodes.
	live := map[*expr.Node]bool{}
	for _, n := range order {
		if n.Symbolic() {
			return nil, ErrSymbolic
		}
		if enterable(n) != nil {
			continue
		}
		live[n] = isTarget[n]
		for _, a := range n.Args() {
			live[n] = live[n] || live[a]
		}
	}
	contrib := map[*expr.Node][]*expr.Node{y: {seed}}
	total := map[*expr.Node]*expr.Node{}
	for i := len(order) - 1; i >= 0; i-- {
		n := order[i]
		cs := contrib[n]
		if !live[n] || len(cs) == 0 {
			continue
		}
		g := cs[0]
		for _, c := range cs[1:] {
			g = add(g, c)
		}
		total[n] = g
		args := n.Args()
		if len(args) == 0 {
			continue
		}
		gs := apply(n, g)
		for j, a := range args {
			if !live[a] || gs[j] == nil {
				continue
			}
			ga := gs[j].Node()
			if err := ga.Err(); err != nil {
				return nil, fmt.Errorf("autograd: gradient of %s: %w", n.Op(), err)
			}
			contrib[a] = append(contrib[a], ga)
		}
	}
	out := make([]*expr.Node, len(targets))
	for i, w := range targets {
		if err := enterable(w); err != nil {
			return nil, err
		}
		switch g, ok := total[w]; {
		case ok:
			out[i] = g
		case reaches(y, w):
			return nil, blocker(y, w)
		default:
			out[i] = fill(w, 0)
		}
	}
	return out, nil
}

// reaches reports whether w is in from's graph.
func reaches(from, w *expr.Node) bool {
	for _, n := range expr.PostOrder(from) {
		if n == w {
			return true
		}
	}
	return false
}

// blocker finds the first node, walking down from y towards w, that a
// gradient cannot enter, and returns its error.
func blocker(y, w *expr.Node) error {
	toW := map[*expr.Node]bool{}
	order := expr.PostOrder(y)
	for _, n := range order {
		toW[n] = n == w
		for _, a := range n.Args() {
			toW[n] = toW[n] || toW[a]
		}
	}
	for i := len(order) - 1; i >= 0; i-- {
		if n := order[i]; toW[n] {
			if err := enterable(n); err != nil {
				return err
			}
		}
	}
	return &NotDifferentiableError{Op: w.Op(), DType: w.DType(), Reason: "no differentiable path from the output"}
}

// add sums two gradients of one node.
func add(a, b *expr.Node) *expr.Node {
	switch a.DType() {
	case dtype.Float32:
		return expr.Wrap[float32](a).Add(expr.Wrap[float32](b)).Node()
	}
	return expr.Wrap[float64](a).Add(expr.Wrap[float64](b)).Node()
}

// fill returns v broadcast to n's shape and dtype (a view of one scalar).
func fill(n *expr.Node, v float64) *expr.Node {
	switch n.DType() {
	case dtype.Float32:
		return expr.Scalar(float32(v)).Expand(n.Shape()...).Node()
	}
	return expr.Scalar(v).Expand(n.Shape()...).Node()
}

// apply runs n's VJP rule for its dtype.
func apply(n, g *expr.Node) []expr.Any {
	switch n.DType() {
	case dtype.Float32:
		return rules32()[n.Op()](n, expr.Wrap[float32](g))
	}
	return rules64()[n.Op()](n, expr.Wrap[float64](g))
}

func hasRule(n *expr.Node) bool { return rules64()[n.Op()] != nil }
