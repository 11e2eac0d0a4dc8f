// Package matmul holds the matrix-product kernels the executor calls: Gemm for
// one product of strided 2-D views and Batched for many. It knows nothing of
// tensors, graphs or broadcasting; package exec maps a matmul node (1-D, 2-D or
// batched with broadcast batch dimensions) onto Matrix views and calls it.
//
// # Views
//
// A Matrix is a window on a slice: Offset, Rows, Cols, and a RowStride and
// ColStride in elements. Transposing (Matrix.T) and slicing (Matrix.Slice)
// only change those numbers. A stride of 0 is a broadcast: every row (or
// column) is the same memory. Operands may have any layout; dst may have any
// layout in which its elements are distinct.
//
// # Dispatch
//
// float32, float64 and complex64 products go to the BLAS gemm registered with
// gonum's blas32, blas64 and cblas64 packages (gonum's pure-Go implementation
// unless a program calls their Use). BLAS wants each matrix row-major with
// unit column stride and a leading dimension of at least its width, possibly
// transposed. So:
//
//   - an operand that is row-major (unit column stride, rows that do not
//     overlap) is passed as is, with blas.NoTrans;
//   - an operand whose transpose is row-major (unit row stride) is passed as
//     that transpose, with blas.Trans, except that a transposed a is copied
//     when b is transposed too or the product is at least 64 columns wide:
//     gonum's gemm runs Trans·NoTrans up to 3x and Trans·Trans 10x slower
//     than NoTrans·NoTrans, and the copy is cheap next to the product;
//   - any other operand (broadcast, overlapping or strided both ways) is
//     copied once into a contiguous buffer;
//   - a row-major dst is written in place; a dst with unit row stride is
//     computed as dstᵀ = bᵀ @ aᵀ, in place; any other dst is computed into a
//     contiguous buffer and copied out.
//
// Complex products are not conjugated (blas.Trans, never blas.ConjTrans).
//
// complex128, the integer types, and any named type (type Celsius float64)
// that the type switch does not catch, use a cache-blocked Go loop in i-k-j
// order: panels of b are packed when their columns are strided, and the inner
// loop runs over contiguous rows of dst and b, four rows of b per pass.
// (gonum's Zgemm is unblocked and serial; the loop is twice as fast on one
// goroutine, and splits over several.) Integer arithmetic wraps, exactly as
// the reference loop in Gemm's comment does.
//
// # Parallelism and reproducibility
//
// gonum's gemm splits large products over GOMAXPROCS goroutines; the Go loop
// splits products of at least 2¹⁸ multiply-adds into bands of rows or columns
// the same way. Batched runs small products of a batch side by side on a given
// number of goroutines. Splitting never changes the order in which any one
// element is summed, so results are the same for every worker count and from
// run to run.
//
// # Preconditions and aliasing
//
// Gemm and Batched check shapes and that each view lies inside its slice, and
// panic if not: the executor checks shapes when a graph is built, so a panic
// here is a bug in the caller. They do not check aliasing: dst must not
// overlap a or b, its elements must be distinct, and the dst views of a batch
// must not overlap one another. The executor stages a destination that
// overlaps an input before calling in.
package matmul
