package exec

import (
	"sync"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/goint"
	"github.com/tensorplay/tensorplay/tensor"
)

// In-place updates, PyTorch's x.add_(y) and NumPy's np.add(x, y, out=x).
//
//	tensorplay               PyTorch              NumPy
//	exec.AddTo(x, y)         x.add_(y)            np.add(x, y, out=x)   x += y
//	exec.SubTo(x, y)         x.sub_(y)            np.subtract(x, y, out=x)
//	exec.MulTo(x, y)         x.mul_(y)            np.multiply(x, y, out=x)
//	exec.DivTo(x, y)         x.div_(y)            np.divide(x, y, out=x)
//	exec.PowTo(x, y)         x.pow_(y)            np.power(x, y, out=x)
//	exec.CopyTo(x, y)        x.copy_(y)           np.copyto(x, y)
//	exec.EvalTo(out, e)      torch.add(a, b, out=out)   np.add(a, b, out=out)
//
// y broadcasts to x's shape; x never changes shape. The checks run in
// PyTorch's order before anything is written: x must not have elements that
// share memory (*OverlapError), x and y must broadcast (*tensor.BroadcastError),
// and y must expand to x's shape (*tensor.ExpandError, or *InplaceError when
// y has more dimensions than x). y may be x itself or any view of x's
// storage: an input that overlaps x partially is copied first, so the result
// is always the one computed from y's values before the update.

// AddTo sets dst = dst + y.
func AddTo[T dtype.Numeric](dst, y *tensor.Tensor[T]) error { return updateTo(expr.OpAdd, dst, y) }

// SubTo sets dst = dst - y.
func SubTo[T dtype.Numeric](dst, y *tensor.Tensor[T]) error { return updateTo(expr.OpSub, dst, y) }

// MulTo sets dst = dst * y.
func MulTo[T dtype.Numeric](dst, y *tensor.Tensor[T]) error { return updateTo(expr.OpMul, dst, y) }

// DivTo sets dst = dst / y (floating and complex T).
func DivTo[T dtype.Numeric](dst, y *tensor.Tensor[T]) error { return updateTo(expr.OpDiv, dst, y) }

// PowTo sets dst = dst ** y.
func PowTo[T dtype.Numeric](dst, y *tensor.Tensor[T]) error { return updateTo(expr.OpPow, dst, y) }

// CopyTo copies src into dst, broadcasting src to dst's shape.
func CopyTo[T dtype.Elem](dst, src *tensor.Tensor[T]) error {
	return updateTo(expr.OpInvalid, dst, src)
}

type updateKey struct {
	op     expr.Op
	dst, y tensor.Any
}

// updates caches the graph of each recent small (op, dst, y), so a repeated
// update builds nothing and reuses its plan: it allocates nothing. The cache
// holds the last few hundred pairs, and so keeps those tensors alive until
// it is cleared (when it fills up); it takes only pairs of at most
// updateCacheBytes, so that what it keeps alive stays small (it once kept
// ten dropped pairs of 32 MiB tensors, 640 MiB, alive). A larger update
// builds its graph each time, which costs little beside the update itself,
// and still reuses its plan.
const updateCacheBytes = 64 << 10

var updates struct {
	sync.Mutex
	graphs map[updateKey]*expr.Node
}

func updateTo[T dtype.Elem](op expr.Op, dst, y *tensor.Tensor[T]) error {
	if dst == nil || y == nil {
		return &InplaceError{Reason: "nil tensor"}
	}
	// Views never change layout, so a cached graph has passed the checks.
	key := updateKey{op, dst, y}
	updates.Lock()
	n := updates.graphs[key]
	updates.Unlock()
	if n == nil {
		if err := checkDst(goint.Sized(dst)); err != nil {
			return err
		}
		if err := checkExpands(dst.Shape(), y.Shape()); err != nil {
			return err
		}
		n = updateGraph(op, dst, y)
		if err := n.Err(); err != nil {
			return err
		}
		if (dst.Numel()+y.Numel())*dtype.Of[T]().Size() <= updateCacheBytes {
			updates.Lock()
			if updates.graphs == nil || len(updates.graphs) >= maxCachedPlans {
				updates.graphs = map[updateKey]*expr.Node{}
			}
			updates.graphs[key] = n
			updates.Unlock()
		}
	}
	return Default.runTo(n, goint.Sized(dst), nil)
}

func updateGraph[T dtype.Elem](op expr.Op, dst, y *tensor.Tensor[T]) *expr.Node {
	x, v := expr.Of(dst), expr.Of(y)
	switch op {
	case expr.OpAdd:
		return x.Add(v).Node()
	case expr.OpSub:
		return x.Sub(v).Node()
	case expr.OpMul:
		return x.Mul(v).Node()
	case expr.OpDiv:
		return x.Div(v).Node()
	case expr.OpPow:
		return x.Pow(v).Node()
	}
	return v.Node()
}

// checkDst rejects a destination whose elements share memory, or of Go's
// int or uint (see expr.GoIntError): the entry points give the executor
// their int64 and uint64 views (internal/goint), so one here was missed.
func checkDst(d tensor.Any) error {
	switch d.(type) {
	case *tensor.Tensor[int]:
		return &expr.GoIntError{Type: "int"}
	case *tensor.Tensor[uint]:
		return &expr.GoIntError{Type: "uint"}
	}
	if internalOverlap(d.Shape(), d.Strides()) {
		return &OverlapError{Shape: d.Shape().Clone(), Strides: append([]int(nil), d.Strides()...)}
	}
	return checkWritable(d, "exec")
}

// checkExpands reports whether a value of shape v can be written into a
// destination of shape dst without changing dst's shape, with checks 2 and
// 3 of PyTorch's order (docs/inplace.md; check 1 is checkDst's): the
// shapes must broadcast (*tensor.BroadcastError, dst as tensor a), v must
// not have more dimensions than dst (*InplaceError) and must expand to dst
// (*tensor.ExpandError). Every path that writes a destination — the short
// forms, EvalTo and Run — checks with it, so that one case gives one error.
func checkExpands(dst, v tensor.Shape) error {
	if _, err := tensor.BroadcastShapes(dst, v); err != nil {
		return err
	}
	if len(v) > len(dst) {
		b, _ := tensor.BroadcastShapes(dst, v)
		return &InplaceError{Dst: dst.Clone(), Value: b}
	}
	_, err := tensor.BroadcastStrides(v, make([]int, len(v)), dst)
	return err
}

// runTo evaluates root into dst; the dst checks have been made.
func (x *Executor) runTo(root *expr.Node, dst tensor.Any, binds []Binding) error {
	if err := root.Err(); err != nil {
		return err
	}
	roots, dsts := [1]*expr.Node{root}, [1]tensor.Any{dst}
	return x.eval(roots[:], dsts[:], binds, nil)
}
