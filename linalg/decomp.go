package linalg

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"

	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Cholesky returns the lower-triangular L with a = L·Lᵀ for each symmetric
// positive-definite matrix of a [..., n, n] (numpy.linalg.cholesky,
// torch.linalg.cholesky), by LAPACK potrf. Only the lower triangle of a is
// read. A matrix that is not positive definite is a
// *NotPositiveDefiniteError.
func Cholesky[T Float](a expr.Expr[T], opts ...Option) (*tensor.Tensor[T], error) {
	const op = "linalg.Cholesky"
	c := options(opts)
	s, err := load(c, op, a, 2)
	if err != nil {
		return nil, err
	}
	if err := square(op, s); err != nil {
		return nil, err
	}
	n := s.n
	err = c.each(op, s.batch, n*n*n/3, func(i int) error {
		if n == 0 {
			return nil
		}
		m := s.mat(i)
		if _, ok := lapack64.Potrf(blas64.Symmetric{Uplo: blas.Lower, N: n, Stride: n, Data: m}); !ok {
			return &NotPositiveDefiniteError{Op: op, Batch: unravel(i, s.batch)}
		}
		for r := range n {
			clear(m[r*n+r+1 : (r+1)*n])
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return result[T](s.data, with(s.batch, n, n)...)
}

// QR returns the reduced QR factorization a = Q·R of each matrix of a
// [..., m, n] (numpy.linalg.qr, mode "reduced"): Q [..., m, k] with
// orthonormal columns and upper-triangular R [..., k, n], k = min(m, n), by
// LAPACK geqrf/orgqr. It is sign-normalized so that R's diagonal is >= 0
// (each column of Q flipped with its row of R), which makes it unique for a
// matrix of full rank.
func QR[T Float](a expr.Expr[T], opts ...Option) (q, r *tensor.Tensor[T], err error) {
	const op = "linalg.QR"
	c := options(opts)
	s, err := load(c, op, a, 2)
	if err != nil {
		return nil, nil, err
	}
	m, n := s.m, s.n
	k := min(m, n)
	count := s.count()
	qs, rs := make([]float64, count*m*k), make([]float64, count*k*n)
	err = c.each(op, s.batch, 2*m*n*k, func(i int) error {
		if k == 0 {
			return nil
		}
		am := s.mat(i)
		tau := make([]float64, k)
		work := make([]float64, 64*max(m, n))
		lapack64.Geqrf(general(m, n, am), tau, work, len(work))
		qm, rm := qs[i*m*k:(i+1)*m*k], rs[i*k*n:(i+1)*k*n]
		for row := range k {
			copy(rm[row*n+row:(row+1)*n], am[row*n+row:(row+1)*n])
		}
		for row := range m {
			copy(qm[row*k:(row+1)*k], am[row*n:row*n+k])
		}
		lapack64.Orgqr(general(m, k, qm), tau, work, len(work))
		for j := range k {
			if rm[j*n+j] < 0 {
				for col := j; col < n; col++ {
					rm[j*n+col] = -rm[j*n+col]
				}
				for row := range m {
					qm[row*k+j] = -qm[row*k+j]
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if q, err = result[T](qs, with(s.batch, m, k)...); err != nil {
		return nil, nil, err
	}
	if r, err = result[T](rs, with(s.batch, k, n)...); err != nil {
		return nil, nil, err
	}
	return q, r, nil
}

// Eigh returns the eigenvalues w [..., n], ascending, and the orthonormal
// eigenvectors V [..., n, n] (column j belongs to w[j]) of each symmetric
// matrix of a [..., n, n] (numpy.linalg.eigh, torch.linalg.eigh), by LAPACK
// syev. Only the lower triangle is read (Upper for the upper one). Each
// eigenvector is sign-normalized so that its entry of largest absolute
// value (the first such) is positive.
func Eigh[T Float](a expr.Expr[T], opts ...Option) (w, v *tensor.Tensor[T], err error) {
	const op = "linalg.Eigh"
	c := options(opts)
	s, err := load(c, op, a, 2)
	if err != nil {
		return nil, nil, err
	}
	if err := square(op, s); err != nil {
		return nil, nil, err
	}
	n := s.n
	ws := make([]float64, s.count()*n)
	uplo := blas.Lower
	if c.upper {
		uplo = blas.Upper
	}
	err = c.each(op, s.batch, 9*n*n*n, func(i int) error {
		if n == 0 {
			return nil
		}
		m := s.mat(i)
		work := make([]float64, 64*n)
		if !finiteTriangle(m, n, c.upper) || !lapack64.Syev(lapack.EVCompute, blas64.Symmetric{Uplo: uplo, N: n, Stride: n, Data: m}, ws[i*n:(i+1)*n], work, len(work)) {
			return &ConvergenceError{Op: op, Batch: unravel(i, s.batch)}
		}
		normalizeColumns(m, n, n, nil, 0)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if w, err = result[T](ws, with(s.batch, n)...); err != nil {
		return nil, nil, err
	}
	if v, err = result[T](s.data, with(s.batch, n, n)...); err != nil {
		return nil, nil, err
	}
	return w, v, nil
}

// normalizeColumns flips each column j of the rows×cols matrix u whose
// entry of largest absolute value (the first such) is negative, and with it
// row j of the matrix vt with vtCols columns (when vt is not nil).
func normalizeColumns(u []float64, rows, cols int, vt []float64, vtCols int) {
	for j := range cols {
		big, at := -1.0, 0
		for r := range rows {
			if a := math.Abs(u[r*cols+j]); a > big {
				big, at = a, r
			}
		}
		if u[at*cols+j] >= 0 {
			continue
		}
		for r := range rows {
			u[r*cols+j] = -u[r*cols+j]
		}
		if vt != nil {
			row := vt[j*vtCols : (j+1)*vtCols]
			for x := range row {
				row[x] = -row[x]
			}
		}
	}
}

// svdOf is the reduced SVD of one m×n matrix (destroyed): u m×k, s k, vt
// k×n, k = min(m, n), sign-normalized. u and vt may be nil for the
// singular values only.
func svdOf(a []float64, m, n int, u, s, vt []float64) bool {
	k := min(m, n)
	if k == 0 {
		return true
	}
	if !finite(a) {
		return false
	}
	job := lapack.SVDStore
	if u == nil {
		job = lapack.SVDNone
	}
	work := make([]float64, 1)
	gu, gvt := general(m, k, u), general(k, n, vt)
	lapack64.Gesvd(job, job, general(m, n, a), gu, gvt, s, work, -1)
	work = make([]float64, int(work[0]))
	if !lapack64.Gesvd(job, job, general(m, n, a), gu, gvt, s, work, len(work)) {
		return false
	}
	if u != nil {
		normalizeColumns(u, m, k, vt, n)
	}
	return true
}

// svdStack is the reduced SVD of every matrix of s (destroyed), and the
// singular values only when vectors is false.
type svdStack struct {
	u, s, vt []float64
	m, n, k  int
}

func (d *svdStack) mats(i int) (u, s, vt []float64) {
	s = d.s[i*d.k : (i+1)*d.k]
	if d.u != nil {
		u, vt = d.u[i*d.m*d.k:(i+1)*d.m*d.k], d.vt[i*d.k*d.n:(i+1)*d.k*d.n]
	}
	return u, s, vt
}

func decompose(c config, op string, st *stack, vectors bool) (*svdStack, error) {
	m, n := st.m, st.n
	k := min(m, n)
	count := st.count()
	d := &svdStack{s: make([]float64, count*k), m: m, n: n, k: k}
	if vectors {
		d.u, d.vt = make([]float64, count*m*k), make([]float64, count*k*n)
	}
	err := c.each(op, st.batch, 4*m*n*k, func(i int) error {
		u, s, vt := d.mats(i)
		if !svdOf(st.mat(i), m, n, u, s, vt) {
			return &ConvergenceError{Op: op, Batch: unravel(i, st.batch)}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// SVD returns the reduced singular value decomposition a = U·diag(S)·Vh of
// each matrix of a [..., m, n] (numpy.linalg.svd with
// full_matrices=False): U [..., m, k], S [..., k] descending and Vh
// [..., k, n], k = min(m, n), by LAPACK gesvd. Each column of U is
// sign-normalized so that its entry of largest absolute value (the first
// such) is positive, and the matching row of Vh is flipped with it.
func SVD[T Float](a expr.Expr[T], opts ...Option) (u, s, vh *tensor.Tensor[T], err error) {
	const op = "linalg.SVD"
	c := options(opts)
	st, err := load(c, op, a, 2)
	if err != nil {
		return nil, nil, nil, err
	}
	d, err := decompose(c, op, st, true)
	if err != nil {
		return nil, nil, nil, err
	}
	if u, err = result[T](d.u, with(st.batch, d.m, d.k)...); err != nil {
		return nil, nil, nil, err
	}
	if s, err = result[T](d.s, with(st.batch, d.k)...); err != nil {
		return nil, nil, nil, err
	}
	if vh, err = result[T](d.vt, with(st.batch, d.k, d.n)...); err != nil {
		return nil, nil, nil, err
	}
	return u, s, vh, nil
}

// SVDVals returns the singular values [..., k], descending, of each matrix
// of a [..., m, n], k = min(m, n) (torch.linalg.svdvals,
// numpy.linalg.svd with compute_uv=False).
func SVDVals[T Float](a expr.Expr[T], opts ...Option) (*tensor.Tensor[T], error) {
	const op = "linalg.SVDVals"
	c := options(opts)
	st, err := load(c, op, a, 2)
	if err != nil {
		return nil, err
	}
	d, err := decompose(c, op, st, false)
	if err != nil {
		return nil, err
	}
	return result[T](d.s, with(st.batch, d.k)...)
}

// finite reports whether a holds neither NaN nor an infinity.
func finite(a []float64) bool {
	for _, v := range a {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// finiteTriangle reports whether the lower (or upper) triangle of the n×n
// matrix a holds neither NaN nor an infinity.
func finiteTriangle(a []float64, n int, upper bool) bool {
	for r := range n {
		lo, hi := 0, r+1
		if upper {
			lo, hi = r, n
		}
		if !finite(a[r*n+lo : r*n+hi]) {
			return false
		}
	}
	return true
}
