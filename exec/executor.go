package exec

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/goint"
	"github.com/tensorplay/tensorplay/tensor"
)

// Executor evaluates graphs with a fixed pool of workers. Its zero value is
// not usable; create one with New. Executors are safe for concurrent use.
//
// The workers start on first use and stop at Close, or once the executor
// is unreachable (it need not be closed to be collected). Every method and
// function given a nil or closed executor returns an error
// (ErrNilExecutor, ErrClosed).
type Executor struct {
	workers int
	grain   int
	block   int
	debug   io.Writer

	noKernels bool // interpret every region (UseCompiledKernels(false))

	poolOnce sync.Once
	workPool *pool
	closed   atomic.Bool

	cache planCache
}

// Option configures an Executor.
type Option func(*Executor)

// Workers sets the number of goroutines that evaluate (default GOMAXPROCS).
func Workers(n int) Option { return func(x *Executor) { x.workers = max(1, n) } }

// Grain sets the element count below which a kernel runs on the calling
// goroutine alone (default 32768).
func Grain(n int) Option { return func(x *Executor) { x.grain = max(1, n) } }

// BlockSize fixes the number of elements a kernel processes per step. By
// default each kernel chooses: as many as let its per-worker buffers fill
// about 8 KiB of cache (128 to 8192), so blocks stay in L1 while the cost of
// dispatching a block stays small; a kernel that needs no buffers at all
// (one AVX2 loop reading and writing in place, along rows as in [R,C]+[1,C]
// too) takes up to 65536. A fixed
// size applies to every kernel, those included.
func BlockSize(n int) Option { return func(x *Executor) { x.block = max(16, n) } }

// Automatic block sizes.
//
// A region whose kernels use scratch computes in blocks of one 4 KiB page of
// its widest element: 512 float64 or 1024 float32 elements, each block then
// one page of every operand it streams (tensors' storage is page-aligned).
// The first kernel of a block reads memory and the others compute in cache;
// a block that ends where a page ends lets the hardware prefetcher, which
// stops at page boundaries, start on the next page while the block
// computes. Measured round-robin in one process with two workers: the 9-kernel Adam update of 4M float64 ran at 0.96–0.98x a
// hand-written loop in blocks of 512, 0.81–0.84x in blocks of 448, 576 or
// 640, 0.89x in 1024 and 0.64–0.68x in the 128 chosen before from a scratch
// budget; (a*b+c)*(a-b)/(c+1.5) over 1e7 float64 took 0.85–0.9x the time
// of blocks of 128 or 640; in float32 both were fastest in blocks of 1024.
const (
	pageBytes   = 4096
	minBlock    = 128
	maxBlock    = 8192
	directBlock = 65536 // blocks that use no scratch (see lengthenBlocks)
)

// blockFor returns the block length for a kernel that needs scratch bytes of
// buffer per element and whose widest element is widest bytes.
func (x *Executor) blockFor(scratch, widest int) int {
	if x.block > 0 {
		return x.block
	}
	return autoBlock(scratch, widest)
}

// autoBlock is the automatic block length for scratch bytes of buffer per
// element and a widest element of widest bytes.
func autoBlock(scratch, widest int) int {
	if scratch == 0 {
		return maxBlock
	}
	return min(maxBlock, max(minBlock, pageBytes/max(1, widest)))
}

// Debug makes the executor print every plan it builds to w: the fused
// kernels, their merged layouts and their tiles. The TENSORPLAY_DEBUG
// environment variable (any non-empty value) does the same on stderr for the
// default executor.
func Debug(w io.Writer) Option { return func(x *Executor) { x.debug = w } }

// New returns an executor with the given options.
func New(opts ...Option) *Executor {
	x := &Executor{workers: runtime.GOMAXPROCS(0), grain: 32768}
	for _, o := range opts {
		o(x)
	}
	return x
}

// With returns a new executor with x's options and then opts applied: the
// same settings, its own workers and plan cache. bench uses it to run a
// workload on an executor like the caller's but with compiled kernels off.
// A nil x gives New(opts...).
func (x *Executor) With(opts ...Option) *Executor {
	if x == nil {
		return New(opts...)
	}
	y := &Executor{workers: x.workers, grain: x.grain, block: x.block, debug: x.debug, noKernels: x.noKernels}
	for _, o := range opts {
		o(y)
	}
	return y
}

// Workers returns the number of goroutines x evaluates with (0 for a nil x).
func (x *Executor) Workers() int {
	if x == nil {
		return 0
	}
	return x.workers
}

// Close stops x's worker goroutines. Later evaluations with x return
// ErrClosed; evaluations running when Close is called finish on their
// calling goroutines. Closing twice, or a nil x, is harmless. The workers
// start on first use, so an executor that never ran in parallel has none
// to stop; and an executor that is dropped without Close has its workers
// stopped once it is collected.
func (x *Executor) Close() {
	if x == nil {
		return
	}
	x.closed.Store(true)
	x.poolOnce.Do(func() {}) // no pool may start after Close
	if x.workPool != nil {
		x.workPool.close()
	}
}

// pool returns x's workers, starting them on first use; nil after Close.
// The workers hold only the pool, so x can become unreachable while they
// wait: its cleanup then closes the pool and they exit.
func (x *Executor) pool() *pool {
	x.poolOnce.Do(func() {
		p := newPool(x.workers)
		x.workPool = p
		runtime.AddCleanup(x, (*pool).close, p)
	})
	return x.workPool
}

// usable reports why x cannot evaluate: nil or closed.
func (x *Executor) usable() error {
	switch {
	case x == nil:
		return ErrNilExecutor
	case x.closed.Load():
		return ErrClosed
	}
	return nil
}

// eval is evaluate behind the last line of defence: a failure inside the
// run (see failure) is returned as its error, and any other panic, on the
// calling goroutine or (through pool.parallel) on a worker, as an
// *InternalError, so that no evaluation kills the program.
func (x *Executor) eval(roots []*expr.Node, dsts []tensor.Any, binds []Binding, results []tensor.Any) (err error) {
	if err := x.usable(); err != nil {
		return err
	}
	if err := checkBinds(binds); err != nil {
		return err
	}
	defer func() {
		if r := recover(); r != nil {
			err = recoveredError(r)
		}
	}()
	return x.evaluate(roots, dsts, binds, results)
}

// Default is the executor of the package-level functions.
var Default = func() *Executor {
	var opts []Option
	if os.Getenv("TENSORPLAY_DEBUG") != "" {
		opts = append(opts, Debug(os.Stderr))
	}
	return New(opts...)
}()

// Binding gives a placeholder its tensor for one evaluation.
type Binding struct {
	node *expr.Node
	t    tensor.Any // nil for a nil tensor
}

// Bind binds placeholder p to t for an evaluation. Only placeholders can
// be bound, to a tensor of their declared shape: an evaluation given any
// other binding (of another node, of a nil tensor) returns a *BindError.
func Bind[T dtype.Elem](p expr.Expr[T], t *tensor.Tensor[T]) Binding {
	b := Binding{node: p.Node()}
	if t != nil {
		b.t = goint.Sized(t)
	}
	return b
}

// checkBinds refuses the bindings that cannot be honoured: of a node that
// is not a placeholder (the graph would read the node's own value and
// ignore the tensor), of no node (a zero Binding), or of a nil tensor.
// Shapes and dtypes are checked where the placeholders are planned.
func checkBinds(binds []Binding) error {
	for _, b := range binds {
		switch n := b.node; {
		case n == nil:
			return &BindError{Reason: "a zero Binding (make bindings with Bind)"}
		case n.Op() != expr.OpPlaceholder:
			return &BindError{Node: nodeName(n), Reason: "it is not a placeholder; only placeholders can be bound"}
		case b.t == nil || nilTensor(b.t):
			return &BindError{Name: n.Name(), Reason: "bound to a nil tensor"}
		}
	}
	return nil
}

// nodeName names a node by its op, dtype and shape, as graphs print them
// (sum:f64[], tensor:i64[2]).
func nodeName(n *expr.Node) string {
	if n.Err() != nil {
		return fmt.Sprintf("%s (an invalid expression: %v)", n.Op(), n.Err())
	}
	return fmt.Sprintf("%s:%s%v", n.Op(), n.DType().Short(), n.Shape())
}

// Eval evaluates e with the default executor into a new tensor.
func Eval[T dtype.Elem](e expr.Expr[T], binds ...Binding) (*tensor.Tensor[T], error) {
	return EvalWith(Default, e, binds...)
}

// EvalWith evaluates e with executor x into a new tensor.
func EvalWith[T dtype.Elem](x *Executor, e expr.Expr[T], binds ...Binding) (*tensor.Tensor[T], error) {
	if err := x.usable(); err != nil {
		return nil, err
	}
	root := e.Node()
	if err := root.Err(); err != nil {
		return nil, err
	}
	roots := [1]*expr.Node{root}
	var res [1]tensor.Any
	if err := x.eval(roots[:], nil, binds, res[:]); err != nil {
		return nil, err
	}
	return goint.Typed[T](res[0]), nil
}

// EvalN evaluates several expressions of one element type in one plan with
// the default executor: shared subexpressions are computed once and outputs
// of one shape are written by one fused kernel.
func EvalN[T dtype.Elem](es ...expr.Expr[T]) ([]*tensor.Tensor[T], error) {
	return EvalNWith(Default, es)
}

// EvalNWith is EvalN with executor x and placeholder bindings.
func EvalNWith[T dtype.Elem](x *Executor, es []expr.Expr[T], binds ...Binding) ([]*tensor.Tensor[T], error) {
	roots := make([]*expr.Node, len(es))
	for i, e := range es {
		roots[i] = e.Node()
	}
	outs, err := x.Run(roots, nil, binds...)
	if err != nil {
		return nil, err
	}
	res := make([]*tensor.Tensor[T], len(outs))
	for i, o := range outs {
		res[i] = goint.Typed[T](o)
	}
	return res, nil
}

// EvalTo evaluates e into dst with the default executor (see Executor.Run).
func EvalTo[T dtype.Elem](dst *tensor.Tensor[T], e expr.Expr[T], binds ...Binding) error {
	return EvalToWith(Default, dst, e, binds...)
}

// EvalToWith evaluates e into dst with executor x.
func EvalToWith[T dtype.Elem](x *Executor, dst *tensor.Tensor[T], e expr.Expr[T], binds ...Binding) error {
	if err := x.usable(); err != nil {
		return err
	}
	if dst == nil {
		return &InplaceError{Reason: "nil destination"}
	}
	d := goint.Sized(dst)
	if err := checkDst(d); err != nil {
		return err
	}
	return x.runTo(e.Node(), d, binds)
}

// Run evaluates roots in one plan. dsts, when non-nil, has one entry per
// root: a tensor to write the root's value into (it may be read by the
// graph itself), or nil for a new tensor. Destinations whose memory spans
// intersect (tensor.Any.MayOverlap) are refused with an *InplaceError. It
// returns the tensors holding the roots' values. Every check runs before
// anything is written: on error no destination has changed.
func (x *Executor) Run(roots []*expr.Node, dsts []tensor.Any, binds ...Binding) ([]tensor.Any, error) {
	if err := x.usable(); err != nil {
		return nil, err
	}
	out := make([]tensor.Any, len(roots))
	if err := x.run(roots, dsts, binds, out); err != nil {
		return nil, err
	}
	return out, nil
}

// run is Run storing the results in results (if non-nil).
func (x *Executor) run(roots []*expr.Node, dsts []tensor.Any, binds []Binding, results []tensor.Any) error {
	if dsts != nil && len(dsts) != len(roots) {
		return &InplaceError{Reason: "one destination per root is needed"}
	}
	dsts = sizedDsts(dsts)
	// PyTorch's order: a destination with overlapping elements is refused
	// before any shape is looked at.
	for i, d := range dsts {
		if d == nil {
			continue
		}
		if nilTensor(d) {
			return &InplaceError{Reason: fmt.Sprintf("destination %d is a nil tensor (give nil, not a nil *Tensor, for a new tensor)", i)}
		}
		if err := checkDst(d); err != nil {
			return err
		}
		for j, e := range dsts[:i] {
			switch {
			case e == nil:
			case e == d:
				return &InplaceError{Reason: fmt.Sprintf(
					"destinations %d and %d are one tensor (shape %v): each tensor can be written once; combine the two values into one", j, i, d.Shape())}
			case d.MayOverlap(e):
				return &InplaceError{Reason: fmt.Sprintf(
					"destinations %d (shape %v) and %d (shape %v) overlap in memory: the values written would depend on the order of the writes; give each root memory of its own", j, e.Shape(), i, d.Shape())}
			}
		}
	}
	for _, r := range roots {
		if r == nil {
			return ErrNilExpr
		}
		if err := r.Err(); err != nil {
			return err
		}
	}
	return x.eval(roots, dsts, binds, results)
}

// sizedDsts returns dsts with each tensor of Go's int or uint replaced by
// its int64 or uint64 view (see internal/goint); dsts itself when it holds
// none.
func sizedDsts(dsts []tensor.Any) []tensor.Any {
	for i, d := range dsts {
		if s := goint.SizedAny(d); s != d {
			out := slices.Clone(dsts)
			for j := i; j < len(out); j++ {
				out[j] = goint.SizedAny(out[j])
			}
			return out
		}
	}
	return dsts
}
