// Package exec evaluates expression graphs: it plans them, fuses their
// elementwise parts into single passes over memory, and runs those passes in
// parallel tiles on a fixed pool of workers.
//
//	out, err := exec.Eval(x.Mul(y).Add(x.Exp()))     // a new tensor
//	err = exec.EvalTo(a, expr.Of(a).Add(expr.Of(b))) // in place: a += b
//	err = exec.AddTo(a, b)                           // the same, short
//	outs, err := exec.EvalN(e1, e2, e3)              // one plan, shared work once
//	err = exec.Assign(exec.To(w, wNew), exec.To(b, bNew)) // an optimizer step: all from the old values
//
// # Plans
//
// A graph is compiled into a plan once and cached under its signature: the
// ops, shapes and dtypes of its nodes and the layouts of its tensors (not
// their contents or identity). Evaluating the same graph again, or a graph
// rebuilt the same way over tensors of the same layouts, reuses the plan.
// Planning merges common subexpressions, gives a tensor of its own only to
// results and to nodes that several kernels or a non-fusable op (a view of a
// computed value, a matmul) need, and groups the rest into regions: one
// fused kernel per region. Reductions take their elementwise producer into
// their own kernel, so sum(a*b, 1) makes no a*b temporary.
//
// # Layouts and tiles
//
// Each operand of a kernel gets broadcast strides (0 where it is broadcast);
// size-1 axes drop; axes are ordered by the destination's strides; adjacent
// axes merge when every operand allows (stride[i] == stride[i+1]*size[i+1]).
// A contiguous a*b+c is one flat loop; [R,C]+[1,C] is two loops with a
// unit-stride inner one. Every operand has one access kind (invariant,
// scalar, direct, strided or transposed), decided from its strides by one
// function, and the merged space is cut into blocks by a tile plan taken
// from one table (bufferless rows, panels, bands, strided tiles, short
// rows, long rows; docs/executor.md). A transposed operand is copied
// copyRows rows at a time through AVX2 register transposes
// (internal/simd.Transpose), or a Go loop without AVX2; one driver computes
// every block. A region that uses per-worker buffers computes in
// blocks of one 4 KiB page of its widest element; BlockSize fixes the
// length instead. Blocks are grouped
// into tasks, up to 16 per worker; workers take task numbers from an
// atomic counter. Work below Grain elements runs on the calling goroutine.
//
// # Kernels
//
// A kernel is a block interpreter: per block, operands with unit inner
// stride are sliced in place, operands constant over the block are scalars
// (and use vector-scalar loop variants), others are gathered into a
// per-worker buffer; each node then runs one tight loop over the block
// (kernels_gen.go, written by go generate). Pairs of arithmetic nodes whose
// inner result feeds only the outer one run as one loop (a*b+c), rounding
// exactly as the two loops would. On amd64 with AVX2, float32 and float64
// arithmetic, fused pairs, neg, abs, sqrt and square use internal/simd's
// generated AVX2 loops (the same bits as the Go loops), and so do every
// sized integer type's add and sub and the 16- and 32-bit types' mul when
// not fused into a pair (integer pairs are Go loops); without AVX2 float64
// add, sub, div and scaling use gonum's SSE2 loops. Float exp, log, sin,
// cos, tanh and sigmoid use internal/vmath's block kernels (AVX2 loops,
// float32 in float32 lanes, the same bits as their Go loops), and expm1 and
// log1p its loops over the math package. Dispatch happens once per block,
// never per element, and a fused graph allocates its outputs and nothing
// else large: per-worker buffers are pooled across evaluations.
//
// A region whose graph is that of a registered Kernel (an expression
// compiled ahead of time by cmd/tpkernel) runs the kernel's one loop per
// block instead of a loop per node. A kernel rounds as the nodes do, so
// results are the same bits with or without it; UseCompiledKernels(false)
// turns kernels off.
//
// # Determinism
//
// Elementwise results do not depend on the number of workers. A reduction
// folds each output's elements in logical order (row-major over the reduced
// axes) through a tree fixed by their count, so its bits depend on its
// logical shape and reduced axes alone: not on the input's layout, nor on
// what is fused into it, nor on the number of workers, the executor's
// options or the run (docs/reductions.md).
//
// # Destinations and aliasing
//
// EvalTo(dst, e) writes e into dst, which keeps its shape: e broadcasts to
// dst.Shape() or the evaluation fails. dst may be any strided view and e may
// read dst or any other view of its storage. An input that is exactly dst
// (same storage, offset and strides) is read before each element is written;
// an input that overlaps dst any other way is first copied, so the result is
// always the one computed from the values before the update (NumPy's rule; a
// false alarm only costs the copy). A dst whose elements share memory (a
// broadcast view) is refused with *OverlapError. All checks run before the
// first write: on error dst is unchanged.
//
// # Errors
//
// Eval returns the graph's construction error (see package expr) unchanged,
// so errors.As finds *tensor.BroadcastError and the others. Destination
// errors are *OverlapError, *tensor.ExpandError, *tensor.BroadcastError and
// *InplaceError, in PyTorch's order; placeholders without a matching tensor,
// and tensors bound to nodes that are not placeholders, give *BindError.
// A nil root is ErrNilExpr, a nil executor ErrNilExecutor, and any use of
// an executor after Close ErrClosed. A tensor of the run over the memory
// limit is the *tensor.AllocError, and an integer pow whose exponent tensor
// holds a negative value the *expr.IntegerPowerError; neither writes a
// destination. A panic inside a run (a bug) is recovered on whichever
// goroutine ran it and returned from the call that started the run as an
// *InternalError, with the pool left usable.
//
// # Debugging
//
// Debug(w), or TENSORPLAY_DEBUG=1 for the default executor, prints every
// new plan: its regions with their kernels, merged layouts and tiles.
package exec
