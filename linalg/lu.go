package linalg

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// general is the n×m row-major matrix held in data.
func general(rows, cols int, data []float64) blas64.General {
	return blas64.General{Rows: rows, Cols: cols, Stride: max(cols, 1), Data: data}
}

// Solve returns x with a·x = b for square a (numpy.linalg.solve,
// torch.linalg.solve), by LU factorization with partial pivoting (LAPACK
// getrf/getrs). a is [..., n, n]; b is a stack of vectors [..., n] when it
// has one dimension fewer than a (NumPy 1.24's rule), else of matrices
// [..., n, k]. The batch axes broadcast as matmul's do; each matrix of a
// is factorized once. An exactly singular matrix (a zero pivot) is a
// *SingularError whose Batch indexes a's own batch axes.
func Solve[T Float](a, b expr.Expr[T], opts ...Option) (*tensor.Tensor[T], error) {
	const op = "linalg.Solve"
	c := options(opts)
	sa, err := load(c, op, a, 2)
	if err != nil {
		return nil, err
	}
	if err := square(op, sa); err != nil {
		return nil, err
	}
	sb, vec, err := loadRHS(c, op, sa, a.Shape(), b)
	if err != nil {
		return nil, err
	}
	n, k := sa.n, sb.n
	batch, ia, ib, err := broadcastBatches(op, a.Shape(), b.Shape(), sa, sb)
	if err != nil {
		return nil, err
	}
	// Factorize each matrix of a once, however many right-hand sides share it.
	pivots := make([][]int, sa.count())
	err = c.each(op, sa.batch, n*n*n, func(j int) error {
		pivots[j] = make([]int, n)
		if n > 0 && !lapack64.Getrf(general(n, n, sa.mat(j)), pivots[j]) {
			return &SingularError{Op: op, Batch: unravel(j, sa.batch)}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]float64, numel(batch)*n*k)
	err = c.each(op, batch, n*n*k, func(i int) error {
		if n == 0 || k == 0 {
			return nil
		}
		x := out[i*n*k : (i+1)*n*k]
		copy(x, sb.mat(ib[i]))
		lapack64.Getrs(blas.NoTrans, general(n, n, sa.mat(ia[i])), general(n, k, x), pivots[ia[i]])
		return nil
	})
	if err != nil {
		return nil, err
	}
	if vec {
		return result[T](out, with(batch, n)...)
	}
	return result[T](out, with(batch, n, k)...)
}

// loadRHS loads the right-hand side b of Solve or Lstsq for matrices a of
// shape ashape holding sa: a stack of vectors when b has one dimension fewer
// than a, else of matrices. Its rows must match a's.
func loadRHS[T Float](c config, op string, sa *stack, ashape tensor.Shape, b expr.Expr[T]) (*stack, bool, error) {
	if err := b.Err(); err != nil {
		return nil, false, err
	}
	vec := len(b.Shape()) == len(ashape)-1
	minRank := 2
	if vec {
		minRank = 1
	}
	sb, err := load(c, op, b, minRank)
	if err != nil {
		return nil, false, err
	}
	if sb.m != sa.m {
		bs := b.Shape()
		axis := len(bs) - 2
		if vec {
			axis = len(bs) - 1
		}
		return nil, false, &tensor.ShapeError{Shape: bs, Axis: axis,
			Reason: fmt.Sprintf("%s: b has %d rows, a (shape %v) has %d", op, sb.m, ashape, sa.m)}
	}
	return sb, vec, nil
}

// broadcastBatches broadcasts the batch shapes of two stacks and maps each
// batch index of the result to the matrix of each operand.
func broadcastBatches(op string, ashape, bshape tensor.Shape, sa, sb *stack) (tensor.Shape, []int, []int, error) {
	batch, err := tensor.BroadcastShapes(sa.batch, sb.batch)
	if err != nil {
		return nil, nil, nil, &tensor.ShapeError{Shape: bshape, Axis: -1,
			Reason: fmt.Sprintf("%s: the batch dimensions of a %v and b %v do not broadcast: %v", op, ashape, bshape, err)}
	}
	return batch, broadcastIndex(sa.batch, batch), broadcastIndex(sb.batch, batch), nil
}

// Inv returns the inverse of each square matrix of a [..., n, n]
// (numpy.linalg.inv, torch.linalg.inv), by LU factorization (getrf/getri).
// A singular matrix anywhere in the batch is a *SingularError.
func Inv[T Float](a expr.Expr[T], opts ...Option) (*tensor.Tensor[T], error) {
	const op = "linalg.Inv"
	c := options(opts)
	s, err := load(c, op, a, 2)
	if err != nil {
		return nil, err
	}
	if err := square(op, s); err != nil {
		return nil, err
	}
	n := s.n
	err = c.each(op, s.batch, 2*n*n*n, func(i int) error {
		if n == 0 {
			return nil
		}
		m := general(n, n, s.mat(i))
		ipiv := make([]int, n)
		if !lapack64.Getrf(m, ipiv) {
			return &SingularError{Op: op, Batch: unravel(i, s.batch)}
		}
		work := make([]float64, 64*n)
		if !lapack64.Getri(m, ipiv, work, len(work)) {
			return &SingularError{Op: op, Batch: unravel(i, s.batch)}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return result[T](s.data, with(s.batch, n, n)...)
}

// Det returns the determinant of each square matrix of a [..., n, n], of
// shape [...] (numpy.linalg.det), from its LU factorization. A singular
// matrix has determinant 0, the 0×0 matrix 1.
func Det[T Float](a expr.Expr[T], opts ...Option) (*tensor.Tensor[T], error) {
	sign, logAbs, err := luDet("linalg.Det", a, opts)
	if err != nil {
		return nil, err
	}
	for i, l := range logAbs {
		logAbs[i] = sign.vals[i] * l
	}
	return result[T](logAbs, sign.shape...)
}

// Slogdet returns the sign (1, -1, or 0 for a singular matrix) and the
// natural logarithm of the absolute value of the determinant of each square
// matrix of a [..., n, n], both of shape [...] (numpy.linalg.slogdet). A
// singular matrix gives sign 0 and logabsdet -Inf.
func Slogdet[T Float](a expr.Expr[T], opts ...Option) (sign, logAbsDet *tensor.Tensor[T], err error) {
	s, logs, err := luDet("linalg.Slogdet", a, opts, true)
	if err != nil {
		return nil, nil, err
	}
	if sign, err = result[T](s.vals, s.shape...); err != nil {
		return nil, nil, err
	}
	if logAbsDet, err = result[T](logs, s.shape...); err != nil {
		return nil, nil, err
	}
	return sign, logAbsDet, nil
}

// signs are the signs of a batch's determinants.
type signs struct {
	vals  []float64
	shape []int
}

// luDet factorizes each matrix of a and returns the signs of the
// determinants and either the determinants' absolute values or, with
// logs, their logarithms.
func luDet[T Float](op string, a expr.Expr[T], opts []Option, logs ...bool) (signs, []float64, error) {
	c := options(opts)
	s, err := load(c, op, a, 2)
	if err != nil {
		return signs{}, nil, err
	}
	if err := square(op, s); err != nil {
		return signs{}, nil, err
	}
	n, count := s.n, s.count()
	sg := signs{vals: make([]float64, count), shape: with(s.batch)}
	abs := make([]float64, count)
	log := len(logs) > 0 && logs[0]
	err = c.each(op, s.batch, n*n*n, func(i int) error {
		m := s.mat(i)
		ipiv := make([]int, n)
		if n > 0 {
			lapack64.Getrf(general(n, n, m), ipiv) // a zero pivot gives det 0
		}
		sign, value := 1.0, 1.0
		if log {
			value = 0
		}
		for j := range n {
			u := m[j*n+j]
			if ipiv[j] != j {
				sign = -sign
			}
			if u < 0 {
				sign, u = -sign, -u
			}
			if log {
				value += math.Log(u)
			} else {
				value *= u
			}
			if u == 0 {
				sign = 0
			}
		}
		if sign == 0 && log {
			value = math.Inf(-1)
		}
		sg.vals[i], abs[i] = sign, value
		return nil
	})
	if err != nil {
		return signs{}, nil, err
	}
	return sg, abs, nil
}
