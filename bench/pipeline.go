package bench

import (
	"fmt"
	"strings"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/exec"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/internal/nilarg"
	"github.com/tensorplay/tensorplay/tensor"
)

// Pipeline makes a Workload of your own expression, to time, compare and
// profile it with the same runner as the standard set. build is called once
// per size with the runner's Params; it returns the graph (built from your
// tensors, sized from p.Size if you like) and, optionally, a hand-written
// loop that writes the same values into dst (row-major, one element per
// element of the result, with p.Workers goroutines if you want a fair
// ratio). With a hand loop the two outputs are checked as the standard
// workloads are (AllClose, rtol 1e-12 for float64, 1e-5 for float32) and
// the row is refused if they differ; without one the row has no ratio.
//
// Each run evaluates the graph with the runner's executor into a
// preallocated destination, as exec.EvalTo does. Bytes and flops come from
// GraphCost. The workload is MemoryBound; set Bound on the result for a
// compute-bound pipeline.
func Pipeline[T dtype.Float](name, description string, build func(p Params) (e expr.Expr[T], hand func(dst []T), err error)) Workload {
	return Workload{Name: name, Description: description, Bound: MemoryBound, Setup: func(p Params) (*Case, error) {
		if build == nil {
			return nil, &tensor.ArgError{Op: "bench.Pipeline", Reason: "build is nil"}
		}
		e, hand, err := build(p)
		if err != nil {
			return nil, err
		}
		if err := e.Err(); err != nil {
			return nil, err
		}
		out, err := tensor.New[T](e.Shape()...)
		if err != nil {
			return nil, err
		}
		bytes, flops := GraphCost(e)
		c := &Case{
			Shape:      shapeString(e.Shape()),
			Tensorplay: func() error { return exec.EvalToWith(p.Exec, out, e) },
			Bytes:      bytes,
			Flops:      flops,
		}
		if hand != nil {
			ref := make([]T, out.Numel())
			rtol := tolerance[T](1e-12, 1e-5)
			c.HandLoop = func() error { hand(ref); return nil }
			c.Check = func() error { return AllClose(out.Data(), ref, rtol, rtol) }
		}
		return c, nil
	}}
}

// GraphCost estimates the work of evaluating roots once: bytes is every
// tensor read once however many leaves use it (a broadcast leaf counts the elements it stores, not
// the ones it repeats) plus every root written once; flops counts one per
// output element of each elementwise op, one per input element of each
// reduction and 2·m·n·k per matmul. Placeholders are not counted, nor are
// nil roots.
func GraphCost(roots ...expr.Any) (bytes, flops int64) {
	nodes := make([]*expr.Node, 0, len(roots))
	for _, r := range roots {
		if nilarg.Is(r) {
			continue
		}
		if n := r.Node(); n != nil {
			nodes = append(nodes, n)
		}
	}
	read := map[tensor.Any]bool{} // a tensor used by several leaves is read once
	for _, n := range expr.PostOrder(nodes...) {
		switch c := n.Op().Class(); {
		case n.Op() == expr.OpTensor:
			if t := n.Tensor(); !read[t] {
				read[t] = true
				bytes += storedElems(t) * int64(n.DType().Size())
			}
		case c == expr.ClassUnary || c == expr.ClassBinary || c == expr.ClassTernary:
			flops += numel(n.Shape())
		case c == expr.ClassReduce:
			flops += numel(n.Args()[0].Shape())
		case c == expr.ClassMatMul:
			a := n.Args()[0].Shape()
			k := int64(1)
			if len(a) > 0 {
				k = int64(a[len(a)-1])
			}
			flops += 2 * numel(n.Shape()) * k
		}
	}
	for _, n := range nodes {
		bytes += numel(n.Shape()) * int64(n.DType().Size())
	}
	return bytes, flops
}

// storedElems counts the distinct elements a tensor view reads: the product
// of its extents along axes with a non-zero stride.
func storedElems(t tensor.Any) int64 {
	if t == nil {
		return 0
	}
	n := int64(1)
	for i, d := range t.Shape() {
		if t.Strides()[i] != 0 {
			n *= int64(d)
		}
	}
	return n
}

func numel(s tensor.Shape) int64 {
	n := int64(1)
	for _, d := range s {
		n *= int64(d)
	}
	return n
}

// shapeString prints a shape as the standard rows do: 1000x1000, 1000000.
func shapeString(s tensor.Shape) string {
	if len(s) == 0 {
		return "scalar"
	}
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = fmt.Sprint(d)
	}
	return strings.Join(parts, "x")
}
