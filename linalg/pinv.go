package linalg

import (
	"fmt"
	"math"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Lstsq returns the x that minimizes ‖a·x − b‖₂ for each matrix of a
// [..., m, n] (numpy.linalg.lstsq's solution, torch.linalg.lstsq with the
// gelsd driver), the one of least norm when a has not full rank (a wide a
// included). b is a stack of vectors [..., m] when it has one dimension
// fewer than a, else of matrices [..., m, k]; the batch axes broadcast. It
// is computed from the SVD: singular values at most RCond times the largest
// (default max(m, n)·eps) are treated as zero.
func Lstsq[T Float](a, b expr.Expr[T], opts ...Option) (*tensor.Tensor[T], error) {
	const op = "linalg.Lstsq"
	c := options(opts)
	sa, err := load(c, op, a, 2)
	if err != nil {
		return nil, err
	}
	sb, vec, err := loadRHS(c, op, sa, a.Shape(), b)
	if err != nil {
		return nil, err
	}
	batch, ia, ib, err := broadcastBatches(op, a.Shape(), b.Shape(), sa, sb)
	if err != nil {
		return nil, err
	}
	d, err := decompose(c, op, sa, true)
	if err != nil {
		return nil, err
	}
	m, n, k, nrhs := sa.m, sa.n, d.k, sb.n
	rcond := float64(max(m, n)) * eps[T]()
	if c.rcond != nil {
		rcond = *c.rcond
	}
	out := make([]float64, numel(batch)*n*nrhs)
	err = c.each(op, batch, 2*k*(m+n)*nrhs, func(i int) error {
		u, s, vt := d.mats(ia[i])
		bm, x := sb.mat(ib[i]), out[i*n*nrhs:(i+1)*n*nrhs]
		tmp := make([]float64, k)
		cut := cutoff(s, rcond)
		for col := range nrhs {
			for j := range cut { // tmp = diag(1/s)·Uᵀ·b[:, col]
				var acc float64
				for r := range m {
					acc += u[r*k+j] * bm[r*nrhs+col]
				}
				tmp[j] = acc / s[j]
			}
			for r := range n { // x[:, col] = V·tmp
				var acc float64
				for j := range cut {
					acc += vt[j*n+r] * tmp[j]
				}
				x[r*nrhs+col] = acc
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if vec {
		return result[T](out, with(batch, n)...)
	}
	return result[T](out, with(batch, n, nrhs)...)
}

// cutoff is the number of the descending singular values s above rcond
// times the largest.
func cutoff(s []float64, rcond float64) int {
	if len(s) == 0 {
		return 0
	}
	tol := rcond * s[0]
	n := 0
	for n < len(s) && s[n] > tol {
		n++
	}
	return n
}

// Pinv returns the Moore–Penrose pseudo-inverse [..., n, m] of each matrix
// of a [..., m, n] (numpy.linalg.pinv, torch.linalg.pinv), from the SVD:
// singular values at most RCond times the largest (default 1e-15, NumPy's)
// are treated as zero.
func Pinv[T Float](a expr.Expr[T], opts ...Option) (*tensor.Tensor[T], error) {
	const op = "linalg.Pinv"
	c := options(opts)
	st, err := load(c, op, a, 2)
	if err != nil {
		return nil, err
	}
	d, err := decompose(c, op, st, true)
	if err != nil {
		return nil, err
	}
	m, n, k := st.m, st.n, d.k
	rcond := 1e-15
	if c.rcond != nil {
		rcond = *c.rcond
	}
	out := make([]float64, st.count()*n*m)
	err = c.each(op, st.batch, 2*m*n*k, func(i int) error {
		u, s, vt := d.mats(i)
		p := out[i*n*m : (i+1)*n*m]
		cut := cutoff(s, rcond)
		for r := range n { // p = V·diag(1/s)·Uᵀ
			for col := range m {
				var acc float64
				for j := range cut {
					acc += vt[j*n+r] / s[j] * u[col*k+j]
				}
				p[r*m+col] = acc
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return result[T](out, with(st.batch, n, m)...)
}

// MatrixRank returns the rank (int64, shape [...]) of each matrix of a
// [..., m, n] (numpy.linalg.matrix_rank, torch.linalg.matrix_rank): the
// number of singular values above max(S)·max(m, n)·eps of T, or above
// RCond times max(S).
func MatrixRank[T Float](a expr.Expr[T], opts ...Option) (*tensor.Tensor[int64], error) {
	const op = "linalg.MatrixRank"
	c := options(opts)
	st, err := load(c, op, a, 2)
	if err != nil {
		return nil, err
	}
	d, err := decompose(c, op, st, false)
	if err != nil {
		return nil, err
	}
	rcond := float64(max(st.m, st.n)) * eps[T]()
	if c.rcond != nil {
		rcond = *c.rcond
	}
	ranks := make([]int64, st.count())
	for i := range ranks {
		_, s, _ := d.mats(i)
		ranks[i] = int64(cutoff(s, rcond))
	}
	return tensor.FromSlice(ranks, with(st.batch)...)
}

// Ord is the order of a matrix norm (NumPy's ord argument).
type Ord int

// The matrix norms of Norm.
const (
	Fro    Ord = iota // "fro": sqrt of the sum of squares
	Nuc               // "nuc": the sum of the singular values
	Two               // 2: the largest singular value
	NegTwo            // -2: the smallest singular value
	One               // 1: the largest column sum of absolute values
	NegOne            // -1: the smallest column sum of absolute values
	Inf               // inf: the largest row sum of absolute values
	NegInf            // -inf: the smallest row sum of absolute values
)

var ordNames = [...]string{"fro", "nuc", "2", "-2", "1", "-1", "inf", "-inf"}

// String returns NumPy's name of the order ("fro", "2", "-inf").
func (o Ord) String() string {
	if o >= 0 && int(o) < len(ordNames) {
		return ordNames[o]
	}
	return fmt.Sprintf("Ord(%d)", int(o))
}

// Norm returns the matrix norm of the given order of each matrix of a
// [..., m, n], of shape [...] (numpy.linalg.norm over the last two axes,
// torch.linalg.matrix_norm). Nuc, Two and NegTwo come from the singular
// values; the norms of orders 2, -2, ±1 and ±inf of an empty matrix are
// undefined and a *tensor.ArgError, as in NumPy.
func Norm[T Float](a expr.Expr[T], ord Ord, opts ...Option) (*tensor.Tensor[T], error) {
	const op = "linalg.Norm"
	if ord < Fro || ord > NegInf {
		return nil, &tensor.ArgError{Op: op, Reason: fmt.Sprintf("unknown matrix norm order %d", int(ord))}
	}
	c := options(opts)
	st, err := load(c, op, a, 2)
	if err != nil {
		return nil, err
	}
	m, n := st.m, st.n
	if m*n == 0 && ord != Fro && ord != Nuc {
		return nil, &tensor.ArgError{Op: op, Reason: fmt.Sprintf("the %v norm of an empty %d×%d matrix is undefined", ord, m, n)}
	}
	out := make([]float64, st.count())
	switch ord {
	case Nuc, Two, NegTwo:
		d, err := decompose(c, op, st, false)
		if err != nil {
			return nil, err
		}
		for i := range out {
			_, s, _ := d.mats(i)
			switch {
			case ord == Two:
				out[i] = s[0]
			case ord == NegTwo:
				out[i] = s[len(s)-1]
			default:
				for _, v := range s {
					out[i] += v
				}
			}
		}
	default:
		for i := range out {
			out[i] = elementNorm(st.mat(i), m, n, ord)
		}
	}
	return result[T](out, with(st.batch)...)
}

// elementNorm is a norm of the m×n matrix a computed from its elements:
// Fro, or the extreme absolute column (One, NegOne) or row (Inf, NegInf)
// sum.
func elementNorm(a []float64, m, n int, ord Ord) float64 {
	if ord == Fro {
		var ss float64
		for _, v := range a {
			ss += v * v
		}
		return math.Sqrt(ss)
	}
	cols := ord == One || ord == NegOne
	outer, inner := m, n
	if cols {
		outer, inner = n, m
	}
	best := math.Inf(1)
	if ord == One || ord == Inf {
		best = math.Inf(-1)
	}
	for o := range outer {
		var sum float64
		for in := range inner {
			if cols {
				sum += math.Abs(a[in*n+o])
			} else {
				sum += math.Abs(a[o*n+in])
			}
		}
		if ord == One || ord == Inf {
			best = max(best, sum)
		} else {
			best = min(best, sum)
		}
	}
	return best
}
