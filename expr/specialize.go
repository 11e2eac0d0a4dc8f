package expr

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// SpecializeError reports a symbolic placeholder that cannot be given a
// concrete shape: a symbol without a size, an unknown extent that no Match
// supplied, or a Match that contradicts the placeholder.
type SpecializeError struct {
	Name   string // the placeholder's name
	Reason string
}

// Error names the placeholder and the reason.
func (e *SpecializeError) Error() string {
	return fmt.Sprintf("expr: specialising placeholder %q: %s", e.Name, e.Reason)
}

// Specializer gives symbolic graphs concrete extents, so that they can be
// evaluated: every symbolic placeholder becomes a concrete placeholder of
// the same name, and every node above it is rebuilt by replaying its
// constructor on the concrete operands, so all the checks of a concrete
// graph run (a contract a symbol hid now fails, sticky as always). Nodes
// with no symbolic placeholder below them are kept as they are.
//
// A Specializer remembers what it built: specialising the placeholder and
// the output of one graph gives the very nodes exec.Bind and exec.Eval
// need. It is not safe for concurrent use.
type Specializer struct {
	sizes  map[string]int
	shapes map[*Node]tensor.Shape
	done   map[*Node]*Node
}

// NewSpecializer returns a Specializer with the given symbol sizes
// ({"B": 32}); Match can add more.
func NewSpecializer(sizes map[string]int) *Specializer {
	s := &Specializer{sizes: map[string]int{}, shapes: map[*Node]tensor.Shape{}, done: map[*Node]*Node{}}
	for k, v := range sizes {
		s.sizes[k] = v
	}
	return s
}

// errNilSpecializer is the error of a nil *Specializer.
var errNilSpecializer = &tensor.ArgError{Op: "expr.Specializer", Reason: "Specializer is nil (use NewSpecializer)"}

// init makes the maps of a zero Specializer, which is one with no sizes.
func (s *Specializer) init() {
	if s.sizes == nil {
		s.sizes = map[string]int{}
	}
	if s.shapes == nil {
		s.shapes = map[*Node]tensor.Shape{}
	}
	if s.done == nil {
		s.done = map[*Node]*Node{}
	}
}

// Size returns the size of a symbol, if it has one.
func (s *Specializer) Size(sym string) (int, bool) {
	if s == nil {
		return 0, false
	}
	v, ok := s.sizes[sym]
	return v, ok
}

// Match fixes placeholder p to the concrete shape it will be bound to: its
// symbols take their sizes from shape (and must agree with sizes already
// known) and its unknown extents are taken from shape. Call it before
// specialising the nodes that use p; nodes that failed to specialise before
// are tried again.
func (s *Specializer) Match(p Any, shape tensor.Shape) error {
	if s == nil {
		return errNilSpecializer
	}
	s.init()
	n := nodeOf(p)
	if n.err != nil {
		return n.err
	}
	if n.op != OpPlaceholder {
		return &SpecializeError{Name: n.name, Reason: "Match needs a placeholder, got " + n.op.String()}
	}
	d := n.Dims()
	if len(d) != len(shape) {
		return &SpecializeError{Name: n.name, Reason: fmt.Sprintf("shape %v does not match %v", shape, d)}
	}
	sizes := map[string]int{}
	for i, e := range d {
		v := shape[i]
		switch {
		case e.known && e.n != v:
			return &SpecializeError{Name: n.name, Reason: fmt.Sprintf("shape %v does not match %v at dimension %d", shape, d, i)}
		case e.IsSym():
			old, ok := s.sizes[e.sym]
			if !ok {
				old, ok = sizes[e.sym]
			}
			if ok && old != v {
				return &SpecializeError{Name: n.name, Reason: fmt.Sprintf("shape %v gives %s = %d, but %s = %d", shape, e.sym, v, e.sym, old)}
			}
			sizes[e.sym] = v
		}
	}
	for k, v := range sizes {
		s.sizes[k] = v
	}
	s.shapes[n] = shape.Clone()
	for m, c := range s.done {
		if c.err != nil {
			delete(s.done, m) // failed for want of what Match now gives: try again
		}
	}
	return nil
}

// Specialize returns the concrete counterpart of x (see Specializer). A nil
// s gives an expression carrying a *tensor.ArgError.
func Specialize[T dtype.Elem](s *Specializer, x Expr[T]) Expr[T] {
	return Expr[T]{s.Node(x.Node())}
}

// Node returns the concrete counterpart of n. A placeholder that cannot be
// made concrete carries a *SpecializeError, and so does every node above it;
// a nil s or n gives a node carrying a *tensor.ArgError.
func (s *Specializer) Node(n *Node) *Node {
	switch {
	case s == nil:
		return errNode(OpInvalid, errNilSpecializer)
	case n == nil:
		return errNode(OpInvalid, errZeroExpr)
	}
	s.init()
	for _, m := range PostOrder(n) {
		if _, ok := s.done[m]; ok {
			continue
		}
		s.done[m] = s.rebuild(m)
	}
	return s.done[n]
}

func (s *Specializer) rebuild(n *Node) *Node {
	if n.err != nil {
		return n
	}
	if n.op == OpPlaceholder {
		if n.sym() == nil {
			return n
		}
		shape, err := s.placeholderShape(n)
		if err != nil {
			return errNode(OpPlaceholder, err)
		}
		c := mk(OpPlaceholder, n.dt)
		c.name = n.name
		setShape(c, shape)
		return c
	}
	args := make([]*Node, len(n.args))
	same := true
	for i, a := range n.args {
		args[i] = s.done[a]
		same = same && args[i] == a
	}
	if same {
		return n
	}
	r := s.replay(n, args)
	if n.ext != nil && n.ext.scope != "" && r.err == nil && !isArg(r, args) {
		r.extra().scope = n.ext.scope
		for _, in := range n.ext.scopeIn {
			if c, ok := s.done[in]; ok {
				r.ext.scopeIn = append(r.ext.scopeIn, c)
			}
		}
	}
	return r
}

func isArg(r *Node, args []*Node) bool {
	for _, a := range args {
		if a == r {
			return true
		}
	}
	return false
}

func (s *Specializer) placeholderShape(n *Node) (tensor.Shape, error) {
	if shape, ok := s.shapes[n]; ok {
		return shape, nil
	}
	d := n.sym()
	shape := make(tensor.Shape, len(d))
	for i, e := range d {
		switch {
		case e.known:
			shape[i] = e.n
		case e.IsSym():
			v, ok := s.sizes[e.sym]
			if !ok {
				return nil, &SpecializeError{Name: n.name, Reason: "no size for symbol " + e.sym}
			}
			shape[i] = v
		default:
			return nil, &SpecializeError{Name: n.name, Reason: fmt.Sprintf("extent %d of %v is unknown (Match the placeholder with its tensor's shape)", i, d)}
		}
	}
	return shape, nil
}

// resolve turns a requested symbolic shape into ints: symbols take their
// sizes, unknown extents stay -1 (inferred or kept by the constructor).
func (s *Specializer) resolve(d Dims) []int {
	out := make([]int, len(d))
	for i, e := range d {
		out[i] = e.extent()
		if v, ok := s.sizes[e.sym]; e.IsSym() && ok {
			out[i] = v
		}
	}
	return out
}

// replay builds n's op again on args: the one place that knows every
// constructor's arguments.
func (s *Specializer) replay(n *Node, args []*Node) *Node {
	a := args[0]
	switch op := n.op; {
	case op == OpCast:
		return cast(a, n.dt)
	case op == OpBroadcastAdd:
		return broadcastAdd(a, args[1])
	case op.Class() == ClassUnary:
		return unary(op, a)
	case op.Class() == ClassBinary:
		return binary(op, a, args[1])
	case op == OpWhere:
		return where(a, args[1], args[2])
	case op == OpReshape:
		if n.ext != nil && n.ext.target != nil {
			return reshape(a, s.resolve(n.ext.target))
		}
		return reshape(a, n.shape)
	case op == OpPermute:
		return permute(a, n.axes)
	case op == OpExpand:
		if n.ext != nil && n.ext.target != nil {
			return expand(a, s.resolve(n.ext.target))
		}
		return expand(a, n.shape)
	case op == OpSlice:
		sl := n.slice
		return slice(a, sl.axis, sl.start, sl.stop, sl.step)
	case op == OpEmbed:
		sl := n.slice
		return embed(a, sl.axis, sl.start, sl.step, n.shape[sl.axis])
	case op == OpAssemble:
		return assemble("assemble", n.dt, n.shape, n.Pieces(), args)
	case op == OpView:
		return viewNode(a, decodeViewMap(n.axes, n.shape), nil)
	case op == OpViewEmbed:
		return embedView(a, decodeViewMap(n.axes, a.shape), n.shape)
	case op.Class() == ClassReduce:
		return reduce(op, a, n.axes, n.keepDim)
	case op == OpMatMul:
		return matmul(a, args[1])
	case op.Class() == ClassWindow:
		return replayWindow(n, args)
	case op.Class() == ClassScan:
		ax, rev := n.ScanArgs()
		return scan(op, a, ax, rev, n.dt)
	}
	return errNode(n.op, fmt.Errorf("expr: cannot specialise %s", n.op))
}
