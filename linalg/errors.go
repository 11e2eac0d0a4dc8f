package linalg

import "github.com/tensorplay/tensorplay/tensor"

// SingularError reports a matrix that is exactly singular (an LU pivot is
// zero), which Solve and Inv refuse. Batch is the matrix's index among the
// batch axes of its input (a, for Solve), empty for a single matrix; when
// several matrices are singular it names the first in row-major order,
// whatever the number of workers.
type SingularError struct {
	Op    string // the function, e.g. "linalg.Inv"
	Batch []int
}

// Error names the function and the batch index.
func (e *SingularError) Error() string {
	return e.Op + ": " + matrixAt(e.Batch) + " is singular"
}

// NotPositiveDefiniteError reports a matrix that Cholesky cannot factorize:
// it is not (numerically) symmetric positive definite. Batch is as in
// SingularError.
type NotPositiveDefiniteError struct {
	Op    string
	Batch []int
}

// Error names the function and the batch index.
func (e *NotPositiveDefiniteError) Error() string {
	return e.Op + ": " + matrixAt(e.Batch) + " is not positive definite"
}

// ConvergenceError reports an iterative decomposition (Eigh, SVD and the
// functions built on the SVD) that cannot converge: the matrix holds NaN or
// an infinity (NumPy's "SVD did not converge"), or LAPACK gave up. Batch is
// as in SingularError.
type ConvergenceError struct {
	Op    string
	Batch []int
}

// Error names the function and the batch index.
func (e *ConvergenceError) Error() string {
	return e.Op + ": " + matrixAt(e.Batch) + " did not converge (does it hold NaN or infinities?)"
}

// matrixAt words a batch index: "the matrix" or "the matrix at batch index [1 0]".
func matrixAt(batch []int) string {
	if len(batch) == 0 {
		return "the matrix"
	}
	return "the matrix at batch index " + tensor.Shape(batch).String()
}
