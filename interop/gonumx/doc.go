// Package gonumx moves tensors to and from gonum's matrices and BLAS types,
// sharing storage wherever the two layouts agree.
//
//	d, err := gonumx.Dense(t)        // 2-D Tensor[float64] -> *mat.Dense
//	t, err := gonumx.FromMatrix(m)   // any mat.Matrix -> Tensor[float64]
//	v, err := gonumx.VecDense(t)     // 1-D Tensor[float64] -> *mat.VecDense
//	g, err := gonumx.General32(t)    // 2-D Tensor[float32] -> blas32.General
//
// # Element aliasing
//
// gonum stores a matrix row-major: element (i, j) at Data[i*Stride + j]. A
// tensor with that layout (unit column stride, rows at least a row apart) is
// handed over without a copy, and so is a *mat.Dense coming back: the two
// then share memory, and a write through one is seen by the other, as with
// views of a *mat.Dense. Column-major tensors share too, through Matrix as a
// mat.Transpose, and transposed gonum matrices come back as column-major
// tensor views. Vectors share for any positive stride.
//
// Every other layout is copied: a broadcast tensor (stride 0), one whose
// rows overlap, a 3-D transpose's 2-D slice with no unit stride, and gonum
// matrices that are not dense (triangular, symmetric, diagonal, banded).
// Each function's comment says when it copies. A slice handed to gonum is
// capped at the view's last element, so a gonum receiver reused for a larger
// result allocates rather than writing past the view.
//
// # Shapes
//
// gonum matrices are 2-D with no zero-length dimension and its vectors are
// non-empty; tensors that do not fit are a *tensor.ShapeError. Tensors from
// gonum may be empty (the zero mat.Dense gives shape [0, 0]). A nil tensor,
// a nil matrix or vector (or an interface holding a nil pointer, or the
// transpose of one) is a *tensor.ArgError naming the function.
//
// float64 goes through gonum's mat package; float32, which mat does not
// cover, through blas32.General and blas32.Vector for gonum's float32 BLAS.
package gonumx
