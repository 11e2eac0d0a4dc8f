// Package autograd is reverse-mode differentiation as a graph transform:
// Grad(y, wrt...) walks y's expression graph backwards and returns, for
// each wrt node, an ordinary expression that computes ∂y/∂wrt. Nothing is
// evaluated; the gradients are evaluated by package exec like any graph, so
// the backward pass is fused, tiled and parallel too, and gradients of
// gradients work (differentiate a gradient expression again).
//
//	x := expr.Of(a)
//	y := x.Mul(x).Sin().Sum()
//	gs, err := autograd.GradOf(y, x)   // gs[0] = 2x·cos(x²), as a graph
//	dx, err := exec.Eval(gs[0])
//
// # Rules
//
// One table (ruleTable) has one VJP rule per differentiable op, keyed by
// expr.Op: given a node and the gradient of its value, a rule builds the
// gradients of the node's operands. Every elementwise op has a row (floor,
// ceil, round and sign have zero gradients); maximum and minimum split the
// gradient evenly on ties, as PyTorch does; max and min reductions share it
// evenly among the elements equal to the result (amax's rule); prod is
// exact where elements are zero; matmul covers 1-D operands and broadcast
// batch axes; the shape ops pass the gradient back through their adjoints
// (reshape, inverse permute, SumTo for expand, Embed for Slice and Slice for
// Embed). The gradient of a broadcast operand is the upstream gradient
// summed back to the operand's shape with SumTo (PyTorch's sum_to_size).
//
// Comparisons, argmax/argmin, any/all, logical ops, div_trunc, div_floor,
// and integer, bool and complex values have no gradient: a path through
// them contributes nothing (the condition of a Where, for instance), and a
// wrt node reachable only through them is a *NotDifferentiableError. A wrt
// node y does not depend on at all gets zeros.
//
// # Determinism
//
// The graph Grad builds depends only on y's graph: contributions to a node
// are summed in one fixed order. The sums SumTo and the reductions of the
// rules compute are exec's fixed-partition pairwise reductions, so repeated
// backward passes give bit-identical gradients, whatever the number of
// workers.
//
// # Scope
//
// Gradients are taken for float32 and float64 values of concrete graphs
// (symbolic graphs are specialised first, see expr.Specializer). A nil or
// zero-value expression among the arguments, or an empty wrt list, is a
// *tensor.ArgError naming the function and the argument. Package
// gradcheck checks gradients against central finite differences.
package autograd
