package linalg

import (
	"fmt"
	"slices"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Tensordot contracts axes axesA of a with axes axesB of b, pair by pair
// (numpy.tensordot(a, b, axes=(axesA, axesB)), torch.tensordot): the
// result's axes are a's other axes, then b's, in order. It is one MatMul
// between a permute and reshape of each operand. Negative axes count from
// the end. A repeated or out-of-range axis is an error (*tensor.ArgError,
// *tensor.AxisError), as are paired extents that differ
// (*tensor.ShapeError); all are carried by the result (Err).
func Tensordot[T dtype.Numeric](a, b expr.Expr[T], axesA, axesB []int) expr.Expr[T] {
	const op = "linalg.Tensordot"
	if err := a.Err(); err != nil {
		return a
	}
	if err := b.Err(); err != nil {
		return b
	}
	if len(axesA) != len(axesB) {
		return fail[T](&tensor.ArgError{Op: op, Reason: fmt.Sprintf("%d axes of a %v paired with %d axes of b %v", len(axesA), axesA, len(axesB), axesB)})
	}
	sa, sb := a.Shape(), b.Shape()
	la, lb := make([]label, len(sa)), make([]label, len(sb))
	for i := range la {
		la[i] = label(i + 1)
	}
	for i := range lb {
		lb[i] = label(len(sa) + i + 1)
	}
	for i := range axesA {
		pa, err := tensor.Axis(axesA[i], len(sa))
		if err != nil {
			return fail[T](err)
		}
		pb, err := tensor.Axis(axesB[i], len(sb))
		if err != nil {
			return fail[T](err)
		}
		if la[pa] <= 0 || lb[pb] <= 0 {
			return fail[T](&tensor.ArgError{Op: op, Reason: fmt.Sprintf("repeated axis in %v or %v", axesA, axesB)})
		}
		if sa[pa] != sb[pb] {
			return fail[T](&tensor.ShapeError{Shape: sb, Axis: pb,
				Reason: fmt.Sprintf("%s: axis %d of a %v has extent %d, axis %d of b has %d", op, axesA[i], sa, sa[pa], axesB[i], sb[pb])})
		}
		lb[pb] = -la[pa]
		la[pa] = -la[pa]
	}
	keep := map[label]bool{}
	for _, l := range slices.Concat(la, lb) {
		keep[l] = l > 0
	}
	return contract(term[T]{a, la}, term[T]{b, lb}, keep).e
}

// TensordotN contracts the last n axes of a with the first n of b
// (numpy.tensordot(a, b, axes=n)); n = 0 is the outer product.
func TensordotN[T dtype.Numeric](a, b expr.Expr[T], n int) expr.Expr[T] {
	if err := a.Err(); err != nil {
		return a
	}
	if err := b.Err(); err != nil {
		return b
	}
	ra, rb := len(a.Shape()), len(b.Shape())
	if n < 0 || n > ra || n > rb {
		return fail[T](&tensor.ArgError{Op: "linalg.TensordotN", Reason: fmt.Sprintf("cannot contract %d axes of shapes %v and %v", n, a.Shape(), b.Shape())})
	}
	axesA, axesB := make([]int, n), make([]int, n)
	for i := range n {
		axesA[i], axesB[i] = ra-n+i, i
	}
	return Tensordot(a, b, axesA, axesB)
}

// Outer returns the outer product out[i, j] = a[i]·b[j] of the flattened
// inputs (numpy.outer; torch.outer takes vectors only).
func Outer[T dtype.Numeric](a, b expr.Expr[T]) expr.Expr[T] {
	return a.Reshape(-1, 1).Mul(b.Reshape(1, -1))
}

// Inner returns the sum product over the last axes of a and b
// (numpy.inner, torch.inner), of shape a.shape[:-1] + b.shape[:-1]; a 0-d
// operand multiplies the other.
func Inner[T dtype.Numeric](a, b expr.Expr[T]) expr.Expr[T] {
	if err := a.Err(); err != nil {
		return a
	}
	if err := b.Err(); err != nil {
		return b
	}
	if len(a.Shape()) == 0 || len(b.Shape()) == 0 {
		return a.Mul(b)
	}
	return Tensordot(a, b, []int{-1}, []int{-1})
}

// Vdot returns the 0-d dot product of the flattened inputs with the first
// one conjugated, sum(conj(a)·b) (numpy.vdot, torch.vdot). They must have
// as many elements (a *tensor.ShapeError otherwise).
func Vdot[T dtype.Numeric](a, b expr.Expr[T]) expr.Expr[T] {
	if err := a.Err(); err != nil {
		return a
	}
	if err := b.Err(); err != nil {
		return b
	}
	na, _ := a.Shape().Numel()
	nb, _ := b.Shape().Numel()
	if na != nb {
		return fail[T](&tensor.ShapeError{Shape: b.Shape(), Axis: -1,
			Reason: fmt.Sprintf("linalg.Vdot: b has %d elements, a %v has %d", nb, a.Shape(), na)})
	}
	return a.Conj().Reshape(-1).MatMul(b.Reshape(-1))
}

// Kron returns the Kronecker product of a and b (numpy.kron, torch.kron):
// the lower-rank operand gets leading 1s, and out[i·B + j] = a[i]·b[j] along
// every axis, B being b's extent there. It is one broadcasting Mul of a and
// b reshaped with interleaved size-1 axes, then a reshape.
func Kron[T dtype.Numeric](a, b expr.Expr[T]) expr.Expr[T] {
	if err := a.Err(); err != nil {
		return a
	}
	if err := b.Err(); err != nil {
		return b
	}
	sa, sb := a.Shape(), b.Shape()
	r := max(len(sa), len(sb))
	pa, pb := slices.Concat(ones(r-len(sa)), sa), slices.Concat(ones(r-len(sb)), sb)
	ia, ib, out := make([]int, 0, 2*r), make([]int, 0, 2*r), make([]int, r)
	for k := range r {
		ia = append(ia, pa[k], 1)
		ib = append(ib, 1, pb[k])
		out[k] = pa[k] * pb[k]
	}
	return a.Reshape(ia...).Mul(b.Reshape(ib...)).Reshape(out...)
}
