package expr_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/expr"
)

// Backward inference (spec 004): a known output and a known operand fix
// the other operand where the known one is 1; where it already matches a
// larger output extent, the other stays unknown.
func ExampleInferBroadcastAdd() {
	b, k := expr.Sym("B"), expr.Known
	out := expr.Dims{b, k(3), k(8), k(8)}
	bias := expr.Dims{b, k(3), k(1), k(1)}
	inf, err := expr.InferBroadcastAdd(nil, bias, out)
	if err != nil {
		panic(err)
	}
	fmt.Println("a =", inf.A)
	for _, d := range inf.Derived {
		fmt.Printf("%s[%d] = %v by %s\n", d.Tensor, d.Axis, d.Value, d.Rule)
	}
	for _, u := range inf.NotInferred {
		fmt.Printf("%s[%d] unknown: %s\n", u.Tensor, u.Axis, u.Why)
	}

	// Forward: known inputs fix the output; a conflict names the axis.
	inf, _ = expr.InferBroadcastAdd(expr.Dims{b, k(1), k(8), k(8)}, bias, nil)
	fmt.Println("out =", inf.Out)
	_, err = expr.InferBroadcastAdd(expr.Dims{b, k(3), k(8), k(8)}, expr.Dims{b, k(3)}, nil)
	fmt.Println(err)
	_, err = expr.InferBroadcastAdd(expr.DimsOf(2, 4, 8), expr.DimsOf(2, 5, 1), nil)
	fmt.Println(err)
	// Output:
	// a = [B, ?, 8, 8]
	// a[0] = B by batch_equal
	// a[2] = 8 by operand_is_one
	// a[3] = 8 by operand_is_one
	// a[1] unknown: known operand already matches the larger output: other is that extent or 1
	// out = [B, 3, 8, 8]
	// expr: broadcast_add: E_CONSTRAINT (rank_mismatch): a=[B, 3, 8, 8], b=[B, 3]: ranks differ; broadcast_add never pads the rank (reshape first)
	// expr: broadcast_add: E_CONSTRAINT (extent_mismatch) at axis 1: a=[2, 4, 8], b=[2, 5, 1]: a=4 and b=5 must be equal or one of them 1
}
