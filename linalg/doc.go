// Package linalg is tensorplay's linear algebra: factorizations, solvers and
// matrix norms over batches of matrices, and the tensor contractions einsum,
// tensordot, outer, inner, vdot and kron.
//
// The two halves work differently.
//
// The matrix functions (Solve, Inv, Det, Slogdet, Cholesky, QR, Eigh, SVD,
// SVDVals, Lstsq, Pinv, MatrixRank, Norm) are eager, like exec.Sort: they
// evaluate their expression inputs on an executor (Using, exec.Default
// otherwise) and return new tensors. A matrix argument is a tensor of shape
// [..., m, n]: the leading axes are batch axes, and the two-operand
// functions (Solve, Lstsq) broadcast them as matmul does. Every matrix is
// factorized by gonum's LAPACK (gonum.org/v1/gonum/lapack/lapack64) in
// float64; float32 inputs are widened to float64 and the results rounded
// back to float32, which is how NumPy's float32 reference values in
// testdata/vectors/ops_linalg.json were made. The matrices of a batch are
// factorized in parallel, at most one goroutine per executor worker; each
// matrix is computed alone, so the results do not depend on the number of
// workers. Decompositions are sign-normalized so that they are unique (see
// QR, Eigh, SVD). A singular matrix (Solve, Inv) or one that is not positive
// definite (Cholesky) is a *SingularError or *NotPositiveDefiniteError
// naming its batch index, never a result full of NaN; wrong shapes are
// *tensor.ShapeError and bad arguments *tensor.ArgError. On error no result
// is returned.
//
// The contractions (Einsum, Tensordot, Outer, Inner, Vdot, Kron) are lazy:
// each returns an expr.Expr planned onto expr's permutes, reshapes, slices,
// broadcasting multiplies, batched MatMul (the packed GEMM) and fused sums,
// never a loop per subscript, so they fuse with the rest of a graph, run on
// any executor and are differentiable by package autograd. Like every
// expression they carry their errors (Err), found when they are built.
package linalg
