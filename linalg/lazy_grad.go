package linalg

import (
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// The VJP rules of the lazy factorizations (see lazy.go), written in
// expressions: their gradients are graphs like any other, so they fuse,
// are cached, and can be differentiated again.

func solveVJP[T Float](n, g *expr.Node) []*expr.Node {
	a, b := expr.Wrap[T](n.Args()[0]), expr.Wrap[T](n.Args()[1])
	x, gx := expr.Wrap[T](n), expr.Wrap[T](g)
	gb := SolveExpr(mT(a), gx)
	var ga expr.Expr[T]
	if len(b.Shape()) == len(a.Shape())-1 { // vectors: ga = -gb ⊗ x per matrix
		ga = gb.Unsqueeze(len(gb.Shape())).Mul(x.Unsqueeze(len(x.Shape()) - 1)).Neg()
	} else {
		ga = gb.MatMul(mT(x)).Neg()
	}
	return []*expr.Node{ga.SumTo(a.Shape()...).Node(), gb.SumTo(b.Shape()...).Node()}
}

func invVJP[T Float](n, g *expr.Node) []*expr.Node {
	yt := mT(expr.Wrap[T](n))
	return []*expr.Node{yt.MatMul(expr.Wrap[T](g)).MatMul(yt).Neg().Node()}
}

func detVJP[T Float](n, g *expr.Node) []*expr.Node {
	a := expr.Wrap[T](n.Args()[0])
	gd := expr.Wrap[T](g).Mul(expr.Wrap[T](n))
	return []*expr.Node{matrices(gd).Mul(mT(InvExpr(a))).Node()}
}

func logdetVJP[T Float](n, g *expr.Node) []*expr.Node {
	a := expr.Wrap[T](n.Args()[0])
	return []*expr.Node{matrices(expr.Wrap[T](g)).Mul(mT(InvExpr(a))).Node()}
}

func choleskyVJP[T Float](n, g *expr.Node) []*expr.Node {
	l := expr.Wrap[T](n)
	phi := mT(l).MatMul(expr.Wrap[T](g)).Mul(expr.Of(lowerHalfDiag[T](l.Shape()[len(l.Shape())-1])))
	li := InvExpr(l)
	s := mT(li).MatMul(phi).MatMul(li)
	return []*expr.Node{s.Add(mT(s)).MulScalar(0.5).Node()}
}

// mT swaps the last two axes (NumPy's .mT).
func mT[T Float](x expr.Expr[T]) expr.Expr[T] { return x.Transpose(-1, -2) }

// matrices gives a batch of scalars [...] two trailing axes of extent 1, to
// scale the matrices of a [..., n, n] stack.
func matrices[T Float](x expr.Expr[T]) expr.Expr[T] {
	return x.Reshape(append(x.Shape().Clone(), 1, 1)...)
}

// lowerHalfDiag is the n×n mask of Φ: 1 below the diagonal, ½ on it.
func lowerHalfDiag[T Float](n int) *tensor.Tensor[T] {
	m := make([]T, n*n)
	for i := range n {
		for j := range i {
			m[i*n+j] = 1
		}
		m[i*n+i] = 0.5
	}
	return tensor.Must(tensor.FromSlice(m, n, n))
}

func zerosLike[T Float](n *expr.Node) *expr.Node {
	var zero T
	return expr.Scalar(zero).Expand(n.Shape()...).Node()
}
