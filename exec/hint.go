package exec

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// hintLoops is the number of interpreted loops per block from which a
// debug plan suggests compiling a region with cmd/tpkernel: below it the
// interpreter keeps up with memory (W2's one fused pair streams at the hand
// loop's speed; W3's four Go loops, without AVX2, reach 0.6x of it).
const hintLoops = 3

// tpkernelOps are the ops cmd/tpkernel compiles, by their expr names.
var tpkernelOps = map[expr.Op]string{
	expr.OpAdd: "+", expr.OpSub: "-", expr.OpMul: "*", expr.OpDiv: "/",
	expr.OpAbs: "abs", expr.OpSqrt: "sqrt", expr.OpTan: "tan", expr.OpLog1p: "log1p",
	expr.OpExpm1: "expm1", expr.OpFloor: "floor", expr.OpCeil: "ceil", expr.OpRound: "round",
}

// tpkernelHint returns the cmd/tpkernel expression of a one-output region
// rooted at root, or "" when the region has another dtype or an op that
// tpkernel does not compile. Inputs are named a, b, … as the planner meets
// them, the order tpkernel numbers them in; constants and 0-d tensors print
// their value (the kernel takes any).
func (pl *planner) tpkernelHint(pr *program, root *expr.Node) string {
	if dt := root.DType(); dt != dtype.Float64 && dt != dtype.Float32 {
		return ""
	}
	names := map[int]string{} // input slot -> name
	// The expression is printed left to right with a stack of its own (a
	// region may be a chain of any length): todo holds what is still to
	// print, the next last, each a node to render or, with n nil, text.
	type item struct {
		n    *expr.Node
		text string
	}
	var b strings.Builder
	todo := []item{{n: root}}
	for len(todo) > 0 {
		it := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		n := it.n
		if n == nil {
			b.WriteString(it.text)
			continue
		}
		if s, ok := pr.slotOf[n]; ok && s < len(pr.inputs) {
			v := &pl.p.values[pr.inputs[s]]
			if len(v.shape) == 0 {
				// A kernel scalar (see regionKey): it prints as a literal.
				if v.kind != valFixed {
					return ""
				}
				c, ok := constText(v.fixed)
				if !ok {
					return ""
				}
				b.WriteString(c)
				continue
			}
			if _, ok := names[s]; !ok {
				if len(names) == 26 {
					return ""
				}
				names[s] = string(rune('a' + len(names)))
			}
			b.WriteString(names[s])
			continue
		}
		if n.DType() != root.DType() {
			return ""
		}
		args := pl.args(n)
		if n.Op() == expr.OpNeg {
			b.WriteString("-(")
			todo = append(todo, item{text: ")"}, item{n: args[0]})
			continue
		}
		sym, ok := tpkernelOps[n.Op()]
		if !ok {
			return ""
		}
		if len(args) == 1 {
			b.WriteString(sym + "(")
			todo = append(todo, item{text: ")"}, item{n: args[0]})
			continue
		}
		b.WriteString("(")
		todo = append(todo, item{text: ")"}, item{n: args[1]}, item{text: sym}, item{n: args[0]})
	}
	return b.String()
}

// constText prints a 0-d float tensor's value as a Go literal; infinities
// and NaN have none.
func constText(t tensor.Any) (string, bool) {
	var f float64
	switch t := t.(type) {
	case *tensor.Tensor[float64]:
		f = t.Data()[t.Offset()]
	case *tensor.Tensor[float32]:
		f = float64(t.Data()[t.Offset()])
	default:
		return "", false
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "", false
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if math.Signbit(f) {
		s = "(" + s + ")" // -0 too
	}
	return s, true
}

// describeHint prints the suggestion for a region the debug plan shows:
// one of hintLoops or more loops per block, not all of them AVX2 loops.
// (A region of AVX2 loops only, such as W3's on amd64, computes four or
// eight elements an instruction and keeps up with a compiled scalar loop;
// int32 division's loop is 4x a compiled IDIV.)
func describeHint(g *region) string {
	if g.hint == "" || len(g.instrs) < hintLoops {
		return ""
	}
	vectorized := 0
	for _, in := range g.instrs {
		if g.vectorized(in) || g.simdDiv(in) {
			vectorized++
		}
	}
	if vectorized == len(g.instrs) {
		return ""
	}
	return fmt.Sprintf("    %d loops per block; compile them into one: go run github.com/tensorplay/tensorplay/cmd/tpkernel 'NAME=%s'\n", len(g.instrs), g.hint)
}
