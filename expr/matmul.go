package expr

import (
	"fmt"

	"github.com/tensorplay/tensorplay/tensor"
)

// MatMul returns the matrix product x @ y with NumPy's matmul rules: 2-D
// operands multiply as matrices; a 1-D x is a row vector and a 1-D y a
// column vector (the added axis is removed from the result); axes before the
// last two are batch axes and broadcast.
func (x Expr[T]) MatMul(y Expr[T]) Expr[T] { return Expr[T]{matmul(x.Node(), y.Node())} }

func matmul(a, b *Node) *Node {
	n, ok := newNode(OpMatMul, a, b)
	if !ok {
		return n
	}
	if err := checkAccepts(OpMatMul, a.dt); err != nil {
		n.err = err
		return n
	}
	if symbolic(a, b) {
		s, err := symMatMul(a.Dims(), b.Dims())
		if err != nil {
			n.err = err
			return n
		}
		n.dt = a.dt
		setDims(n, s)
		return n
	}
	shape, err := matmulShape(a.shape, b.shape)
	if err != nil {
		n.err = err
		return n
	}
	n.dt = a.dt
	setShape(n, shape)
	return n
}

func matmulShape(a, b tensor.Shape) (tensor.Shape, error) {
	if len(a) == 0 || len(b) == 0 {
		return nil, &ShapeOpError{Op: "matmul", Reason: fmt.Sprintf("both arguments need at least 1 dimension, got shapes %v and %v", a, b)}
	}
	am, bm := a, b
	if len(a) == 1 {
		am = tensor.Shape{1, a[0]}
	}
	if len(b) == 1 {
		bm = tensor.Shape{b[0], 1}
	}
	n, k := am[len(am)-2], am[len(am)-1]
	k2, m := bm[len(bm)-2], bm[len(bm)-1]
	if k != k2 {
		return nil, &ShapeOpError{Op: "matmul", Reason: fmt.Sprintf("shapes %v and %v cannot be multiplied (%d != %d)", a, b, k, k2)}
	}
	batch, err := broadcastShape(am[:len(am)-2], bm[:len(bm)-2])
	if err != nil {
		return nil, &ShapeOpError{Op: "matmul", Reason: fmt.Sprintf("batch dimensions of %v and %v do not broadcast: %v", a, b, err)}
	}
	out := append(make(tensor.Shape, 0, len(batch)+2), batch...) // one allocation
	if len(a) > 1 {
		out = append(out, n)
	}
	if len(b) > 1 {
		out = append(out, m)
	}
	return out, nil
}
