package expr

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tensorplay/tensorplay/tensor"
)

// String prints x's graph as flat, typed, single-assignment lines, operands
// first, ending with the line that returns x:
//
//	%0:f64[8,4] = tensor
//	%1:f64[] = scalar 2
//	%2:f64[8,4] = mul %0 %1
//	return %2
func (x Expr[T]) String() string { return Format(x) }

// Format prints the graphs of several expressions as one listing, shared
// nodes once, with a return line naming every root.
func Format(roots ...Any) string {
	nodes := make([]*Node, len(roots))
	for i, r := range roots {
		nodes[i] = nodeOf(r)
	}
	order := PostOrder(nodes...)
	num := make(map[*Node]int, len(order))
	var b strings.Builder
	for i, n := range order {
		num[n] = i
		fmt.Fprintf(&b, "%%%d", i)
		if n.err != nil {
			fmt.Fprintf(&b, " = error %q\n", n.err.Error())
			continue
		}
		shape := compactShape(n.shape)
		if n.Symbolic() {
			shape = strings.ReplaceAll(n.Dims().String(), " ", "")
		}
		fmt.Fprintf(&b, ":%s%s = %s", n.dt.Short(), shape, n.opName())
		for _, a := range n.args {
			fmt.Fprintf(&b, " %%%d", num[a])
		}
		b.WriteString(attrs(n))
		b.WriteByte('\n')
	}
	b.WriteString("return")
	for _, r := range nodes {
		fmt.Fprintf(&b, " %%%d", num[r])
	}
	return b.String()
}

// attrs prints the node's attributes after its operands.
func attrs(n *Node) string {
	switch {
	case n.op == OpScalar:
		return fmt.Sprintf(" %v", n.leaf)
	case n.op == OpPlaceholder:
		return " " + strconv.Quote(n.name)
	case n.op == OpPermute:
		return " " + compactShape(n.axes)
	case n.op == OpAssemble:
		return printPieces(n)
	case n.op == OpView || n.op == OpViewEmbed:
		m := n.ViewMap()
		return fmt.Sprintf(" coef=%v base=%v", m.Coef, m.Base)
	case n.op == OpSlice || n.op == OpEmbed:
		s := n.slice
		return fmt.Sprintf(" axis=%d %d:%d:%d", s.axis, s.start, s.stop, s.step)
	case n.op.Class() == ClassScan:
		ax, rev := n.ScanArgs()
		s := fmt.Sprintf(" axis=%d", ax)
		if rev {
			s += " reverse"
		}
		return s
	case n.op.Class() == ClassReduce:
		s := " axes=" + compactShape(n.axes)
		if n.keepDim {
			s += " keepdim"
		}
		return s
	case n.Window() != nil:
		return n.Window().String()
	}
	return ""
}

// compactShape prints [8,4]: the jaxpr-like listing keeps types short.
func compactShape(s []int) string {
	return strings.ReplaceAll(tensor.Shape(s).String(), " ", "")
}
