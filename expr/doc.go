// Package expr builds lazy expression graphs. Building never computes: it
// records what to compute and checks, at once, that it can be computed.
//
//	x, y := expr.Of(a), expr.Of(b)   // leaves over tensors (any strided view)
//	z := x.Mul(y).Add(x.Exp()).Sum(1) // nothing is computed here
//	if err := z.Err(); err != nil {   // ...but every shape is already checked
//		// *tensor.BroadcastError: The size of tensor a (2) must match ...
//	}
//	out, err := exec.Eval(z)          // package exec runs it
//
// # Nodes
//
// A graph is made of one node type, Node, whose Op comes from a closed list;
// ops differ by rows of one table (name, class, accepted dtypes, result
// dtype), and the executor's kernels and autograd's rules key on the same
// Op values. Expr[T] is a cheap typed handle on a node: its methods build
// new nodes, so x.Mul(y).Add(z) reads like NumPy. Comparisons give
// Expr[bool]; changing the element type is explicit (Cast, TrueDiv, Real,
// Imag, CAbs, MeanAs), since Go has no implicit promotion.
//
// # Invariants
//
//   - Every node knows its dtype and shape when it is built, or carries the
//     error that prevented it. Nothing is allocated or computed to find out.
//   - Errors are sticky: an op on an invalid operand returns a node carrying
//     the operand's (first) error; Err reports it, exec.Eval returns it.
//   - Nodes are immutable and may be shared by any number of graphs and
//     goroutines.
//   - Leaves read their tensors when the graph is evaluated, not when it is
//     built: later writes to a tensor are seen by later evaluations.
//
// # Compatibility rules
//
// Binary ops apply package compat's switches when they are built: the
// merged-rank limit of the restricted dtypes (*RestrictedRankError), the
// backwards-compatibility broadcast warning, and the legacy 1-D pointwise
// fallback.
//
// # Symbolic shapes
//
// A placeholder's extents may be known, symbolic (Sym("B"), one extent
// fixed later) or unknown: SymPlaceholder. Every op infers its shape on
// such Dims and checks what the known extents allow (a known 3 against a
// known 4 fails at once; a symbol against 3 passes, since it may be 1 or 3).
// Shape reports -1 for an extent that is not known; Dims gives the symbols.
// Such graphs are built, checked and printed (Summary), not evaluated:
// Specializer replays them with concrete extents, rerunning every check,
// and gives the concrete placeholders to bind. Concrete graphs never take
// the symbolic code paths.
//
// # broadcast_add
//
// BroadcastAdd is an add under spec 004's strict contract: equal rank,
// batch axis 0 never broadcast, other axes equal or 1. A broken contract is
// a *ConstraintError (Code "E_CONSTRAINT", a reason, the lowest offending
// axis and all of them). InferBroadcastAdd runs its shape inference both
// ways on partially known shapes and says what stays unknown and why.
//
// # Summaries
//
// Param marks a tensor leaf as a parameter and Scope names a composite op
// (a linear layer, a pooling); Summary prints a network in spec 004's
// layout: input and output shapes, one row per op or composite, and the
// parameter count.
//
// # Printing
//
// String prints a graph as flat, typed, single-assignment lines:
//
//	%0:f64[2,3] = tensor
//	%1:f64[3] = tensor
//	%2:f64[2,3] = mul %0 %1
//	return %2
package expr
