package expr_test

import (
	"fmt"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// linear is a fully connected layer, x @ weight + bias, named "linear" in
// summaries.
func linear(x expr.Expr[float32], out int) expr.Expr[float32] {
	d := x.Dims()
	in, _ := d[len(d)-1].Value()
	w := expr.Param("weight", tensor.Must(tensor.Zeros[float32](in, out)))
	b := expr.Param("bias", tensor.Must(tensor.Zeros[float32](out)))
	return expr.Scope("linear", func() expr.Expr[float32] { return x.MatMul(w).Add(b) })
}

// Spec 004, example 1: a per-sample, per-channel conditioning bias. The
// pooled [B, 3] projection is reshaped to [B, 3, 1, 1] and added to every
// spatial position.
func ExampleSummary_conditioningBias() {
	b := expr.Sym("B")
	x := expr.SymPlaceholder[float32]("x", b, expr.Known(3), expr.Known(8), expr.Known(8))
	pooled := expr.Scope("global_avg_pool", func() expr.Expr[float32] { return x.Mean(2, 3) })
	bias := linear(pooled, 3).Reshape(-1, 3, 1, 1)
	y := x.BroadcastAdd(bias)
	fmt.Println(expr.Summary(y))
	// Output:
	// Network: [B, 3, 8, 8] -> [B, 3, 8, 8]  dtype=float32
	// index  name  operation        input shapes                    output shapes
	// 0      n0    global_avg_pool  x=[B, 3, 8, 8]                  out=[B, 3]
	// 1      n1    linear           x=[B, 3]                        out=[B, 3]
	// 2      n2    reshape          x=[B, 3]                        out=[B, 3, 1, 1]
	// 3      n3    broadcast_add    a=[B, 3, 8, 8], b=[B, 3, 1, 1]  out=[B, 3, 8, 8]
	//
	// Parameters: 12
}

// Spec 004, example 3: a [B, 1, D] summary token added to every position of
// a [B, T, D] sequence.
func ExampleSummary_summaryToken() {
	x := expr.SymPlaceholder[float32]("x", expr.Sym("B"), expr.Known(6), expr.Known(4))
	h := linear(x, 8)
	summary := h.MeanKeepDims(1)
	y := h.BroadcastAdd(summary)
	fmt.Println(expr.Summary(y))
	// Output:
	// Network: [B, 6, 4] -> [B, 6, 8]  dtype=float32
	// index  name  operation      input shapes              output shapes
	// 0      n0    linear         x=[B, 6, 4]               out=[B, 6, 8]
	// 1      n1    mean           x=[B, 6, 8]               out=[B, 1, 8]
	// 2      n2    broadcast_add  a=[B, 6, 8], b=[B, 1, 8]  out=[B, 6, 8]
	//
	// Parameters: 40
}
