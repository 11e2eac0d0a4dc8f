package exec

import (
	"fmt"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
)

// fusePairs merges pairs of arithmetic kernels into one loop where the first
// one's result is read only by the second: a*b+c becomes one pass over the
// block instead of two (the product is never stored). keep reports slots
// whose values must stay in their buffers (outputs, reduced values).
func fusePairs(g *region, keep func(slot int) bool) {
	reads := make([]int, len(g.slotDT))
	producer := make([]int, len(g.slotDT))
	for i := range producer {
		producer[i] = -1
	}
	for i, in := range g.instrs {
		for _, a := range in.args {
			reads[a]++
		}
		producer[in.dst] = i
	}
	removed := make([]bool, len(g.instrs))
	for j := range g.instrs {
		out := &g.instrs[j]
		if !fusableOuter(out.op) || out.inner != expr.OpInvalid || g.scalar[out.dst] {
			continue
		}
		for pos := 0; pos < 2; pos++ {
			s := out.args[pos]
			i := producer[s]
			if i < 0 || removed[i] || reads[s] != 1 || keep(s) {
				continue
			}
			in := &g.instrs[i]
			other := out.args[1-pos]
			if !fusableInner(in.op) || in.inner != expr.OpInvalid || g.scalar[in.args[0]] ||
				g.scalar[other] || g.slotDT[in.dst] != g.slotDT[out.dst] ||
				!typedFor(g.slotDT[out.dst]).hasFused(out.op, in.op) {
				continue
			}
			out.inner, out.left, out.innerScalar = in.op, pos == 0, g.scalar[in.args[1]]
			out.args = []int{in.args[0], in.args[1], other}
			removed[i] = true
			break
		}
	}
	kept := g.instrs[:0]
	for i, in := range g.instrs {
		if !removed[i] {
			kept = append(kept, in)
		}
	}
	g.instrs = kept
}

func fusableOuter(op expr.Op) bool {
	return op == expr.OpAdd || op == expr.OpSub || op == expr.OpMul || op == expr.OpDiv
}

func fusableInner(op expr.Op) bool {
	return op == expr.OpAdd || op == expr.OpSub || op == expr.OpMul
}

// inexactOrNumericFusedS is inexactOrNumericFused with a scalar inner operand.
func inexactOrNumericFusedS[T inexact](outer, inner expr.Op, left bool) (func(d, x []T, y T, z []T), bool) {
	if f, ok := numericFusedS[T](outer, inner, left); ok {
		return f, true
	}
	return inexactFusedS[T](outer, inner, left)
}

// inexactOrNumericFused finds fused kernels for floating and complex types,
// which also have the division family.
func inexactOrNumericFused[T inexact](outer, inner expr.Op, left bool) (func(d, x, y, z []T), bool) {
	if f, ok := numericFused[T](outer, inner, left); ok {
		return f, true
	}
	return inexactFused[T](outer, inner, left)
}

func (m *impl[T]) hasFused(outer, inner expr.Op) bool {
	if m.fused == nil || m.unfused != nil && m.unfused(outer, inner) {
		return false
	}
	_, ok := m.fused(outer, inner, true)
	return ok
}

// fusedFor returns the lookups of fused kernels: with stream, the
// streaming forms where there are any for the pair.
func (m *impl[T]) fusedFor(outer, inner expr.Op, left, stream bool) (
	func(outer, inner expr.Op, left bool) (func(d, x, y, z []T), bool),
	func(outer, inner expr.Op, left bool) (func(d, x []T, y T, z []T), bool),
) {
	if stream && m.fusedStream != nil {
		if _, ok := m.fusedStream(outer, inner, left); ok {
			return m.fusedStream, m.fusedSStream
		}
	}
	return m.fused, m.fusedS
}

func (m *impl[T]) fusedInstr(in instrSpec, ds slotAny, args []slotAny) (func(n int), error) {
	outer, inner, left := in.op, in.inner, in.left
	if m.fused == nil {
		return nil, fmt.Errorf("exec: no fused kernels for %s", dtype.Of[T]())
	}
	fused, fusedS := m.fusedFor(outer, inner, left, in.stream)
	if in.innerScalar {
		k, ok := fusedS(outer, inner, left)
		if !ok {
			return nil, fmt.Errorf("exec: no fused %s∘%s kernel for %s", outer, inner, dtype.Of[T]())
		}
		d, x, y, z := ds.(*slot[T]), args[0].(*slot[T]), args[1].(*slot[T]), args[2].(*slot[T])
		return func(n int) { k(d.v[:n], x.v[:n], y.s, z.v[:n]) }, nil
	}
	k, ok := fused(outer, inner, left)
	if !ok {
		return nil, fmt.Errorf("exec: no fused %s∘%s kernel for %s", outer, inner, dtype.Of[T]())
	}
	d, x, y, z := ds.(*slot[T]), args[0].(*slot[T]), args[1].(*slot[T]), args[2].(*slot[T])
	return func(n int) { k(d.v[:n], x.v[:n], y.v[:n], z.v[:n]) }, nil
}
