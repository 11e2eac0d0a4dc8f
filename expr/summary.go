package expr

import (
	"fmt"
	"strings"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Param makes a named parameter leaf: a tensor the graph reads, as Of does,
// that Summary counts among the network's parameters (weights, biases).
func Param[T dtype.Elem](name string, t *tensor.Tensor[T]) Expr[T] {
	x := Of(t)
	n := x.Node()
	if n.err == nil {
		n.name = name
		n.extra().param = true
	}
	return x
}

// Scope builds a composite op named name: build makes its nodes, and
// Summary prints them as one row called name (a linear layer is a matmul
// and an add; global average pooling is a mean over H and W). The inputs of
// the composite are the nodes build uses that existed before Scope was
// called. The result computes exactly what build's result does; scopes may
// nest, and Summary shows the outermost.
//
// Nodes are told apart by creation order, so build must not use nodes that
// other goroutines create while it runs.
func Scope[T dtype.Elem](name string, build func() Expr[T]) Expr[T] {
	if build == nil {
		return Expr[T]{errNode(OpInvalid, &tensor.ArgError{Op: "expr.Scope", Reason: "build func is nil"})}
	}
	start := nextID.Load()
	y := build()
	n := y.Node()
	if n.err != nil || n.id <= start || len(n.args) == 0 {
		return y // nothing new to name
	}
	// The inputs, in depth-first order of first use: an explicit stack of
	// operand lists, so that a composite of any depth is walked.
	var in []*Node
	seen := map[*Node]bool{n: true}
	stack := [][]*Node{n.args}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if len(*top) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		m := (*top)[0]
		*top = (*top)[1:]
		if seen[m] {
			continue
		}
		seen[m] = true
		if m.id <= start {
			in = append(in, m)
			continue
		}
		stack = append(stack, m.args)
	}
	// The root is a copy that carries the name: nodes never change once
	// returned, and the copy computes what n does from the same operands.
	c := *n
	m := &c
	m.id = nextID.Add(1)
	ext := nodeExt{}
	if n.ext != nil {
		ext = *n.ext
	}
	ext.scope, ext.scopeIn = name, in
	m.ext = &ext
	return Expr[T]{m}
}

// ScopeName returns the name of the composite op n is the root of (see
// Scope), or "".
func (n *Node) ScopeName() string {
	if n.ext == nil {
		return ""
	}
	return n.ext.scope
}

// Summary prints the network computing root, in the layout of spec 004:
//
//	Network: [B, 3, 8, 8] -> [B, 3, 8, 8]  dtype=float32
//	index  name  operation      input shapes              output shapes
//	0      n0    linear         x=[B, 6, 4]               out=[B, 6, 8]
//	...
//
//	Parameters: 40
//
// The inputs are the placeholders, the output is root. Each row is an op,
// or a composite op made by Scope, with the shapes of the values that flow
// into it (parameters and constants are not listed) and of its result.
// Parameters counts the elements of every Param leaf.
func Summary(root Any) string {
	r := nodeOf(root)
	if r.err != nil {
		return "Network: error: " + r.err.Error()
	}
	order := PostOrder(r)
	var inputs []string
	params := 0
	for _, n := range order {
		switch {
		case n.op == OpPlaceholder:
			inputs = append(inputs, n.Dims().String())
		case n.IsParam():
			k, _ := n.shape.Numel()
			params += k
		}
	}
	in := strings.Join(inputs, ", ")
	if in == "" {
		in = "()"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Network: %s -> %s  dtype=%s\n", in, r.Dims(), r.dt)

	rows := [][]string{{"index", "name", "operation", "input shapes", "output shapes"}}
	for _, n := range summaryRows(order) {
		i := len(rows) - 1
		op := n.opName()
		if s := n.ScopeName(); s != "" {
			op = s
		}
		rows = append(rows, []string{fmt.Sprint(i), fmt.Sprintf("n%d", i), op, inputShapes(rowInputs(n)), "out=" + n.Dims().String()})
	}
	writeTable(&b, rows)
	fmt.Fprintf(&b, "\nParameters: %d", params)
	return b.String()
}

// summaryRows returns the nodes that print as rows, in order: every op that
// is not inside a composite, and the composites' roots.
func summaryRows(order []*Node) []*Node {
	owned := map[*Node]bool{}
	for i := len(order) - 1; i >= 0; i-- { // consumers before producers
		n := order[i]
		if owned[n] || n.op.Class() == ClassLeaf || n.ScopeName() == "" {
			continue
		}
		stop := map[*Node]bool{}
		for _, in := range n.ext.scopeIn {
			stop[in] = true
		}
		for stack := [][]*Node{n.args}; len(stack) > 0; {
			top := &stack[len(stack)-1]
			if len(*top) == 0 {
				stack = stack[:len(stack)-1]
				continue
			}
			a := (*top)[0]
			*top = (*top)[1:]
			if stop[a] || owned[a] || a.op.Class() == ClassLeaf {
				continue
			}
			owned[a] = true
			stack = append(stack, a.args)
		}
	}
	var rows []*Node
	for _, n := range order {
		if !owned[n] && n.op.Class() != ClassLeaf {
			rows = append(rows, n)
		}
	}
	return rows
}

// rowInputs returns the values flowing into a row: a composite's inputs or
// an op's operands, without parameters and constants.
func rowInputs(n *Node) []*Node {
	src := n.args
	if n.ScopeName() != "" {
		src = n.ext.scopeIn
	}
	var in []*Node
	for _, a := range src {
		if a.op != OpTensor && a.op != OpScalar {
			in = append(in, a)
		}
	}
	return in
}

// inputShapes labels the inputs as the spec's examples do: x for one, a and
// b for two, x0, x1, … for more.
func inputShapes(in []*Node) string {
	parts := make([]string, len(in))
	for i, a := range in {
		label := fmt.Sprintf("x%d", i)
		switch {
		case len(in) == 1:
			label = "x"
		case len(in) == 2:
			label = string(rune('a' + i))
		}
		parts[i] = label + "=" + a.Dims().String()
	}
	return strings.Join(parts, ", ")
}

// writeTable writes left-aligned columns two spaces apart, the last one
// unpadded.
func writeTable(b *strings.Builder, rows [][]string) {
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for j, c := range r {
			width[j] = max(width[j], len(c))
		}
	}
	for _, r := range rows {
		for j, c := range r {
			if j == len(r)-1 {
				b.WriteString(c)
				break
			}
			fmt.Fprintf(b, "%-*s  ", width[j], c)
		}
		b.WriteByte('\n')
	}
}
