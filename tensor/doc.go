// Package tensor holds n-dimensional arrays: Shape, the strided Tensor[T]
// over a Go slice, its constructors and zero-copy views, element access,
// NumPy-style printing, and the broadcasting shape algebra with its errors.
//
// # Storage and strides
//
// A Tensor[T] is a window on a []T: element (i0, i1, …) lives at
// Data()[Offset() + i0*Strides()[0] + i1*Strides()[1] + …]. Strides are in
// elements; a negative stride walks the storage backwards (Flip, a slice
// with a negative step, Idx); a stride of 0 repeats one element along an
// axis (a broadcast view, made by Expand or BroadcastTo). New tensors are
// row-major (C order). A Shape of rank 0 is a scalar with one element; an
// extent of 0 is allowed everywhere and makes an empty tensor.
//
// An extent of 0 makes the element count 0 whatever the other extents (see
// Shape.Numel); otherwise the product of the extents must fit int, or the
// shape is a *ShapeError wherever it is made. A new empty tensor's strides
// are row-major with extents of 0 counted as 1, as NumPy's are, and stop at
// math.MaxInt where those products would pass it (only an empty shape can
// get there, and its strides address nothing): strides never overflow.
//
// # The zero Tensor
//
// The zero value Tensor[T]{}, which no constructor returns, reads through
// every method as the empty 1-D tensor FromSlice[T](nil, 0): shape [0],
// strides [1], no storage. IsZero reports whether a tensor is that value,
// for APIs that would rather refuse it. A nil *Tensor is not a tensor.
//
// # Memory limit
//
// Every allocation of storage the package makes is checked first against
// MemoryLimit: by default the machine's memory (on Linux the physical
// memory, or the process's cgroup limit when lower), at most 64 TiB. A
// request over it is an *AllocError, not the runtime's unrecoverable out of
// memory; SetMemoryLimit changes the limit, and CheckAlloc makes the check
// for code that allocates tensor storage itself. Values, Clone and
// Contiguous have no error result and panic with the *AllocError instead,
// as bytes.Buffer panics with ErrTooLarge.
//
// Storage of 4 MiB or more that the package allocates can be backed by
// transparent huge pages on Linux, as NumPy's is (see SetHugePages; off by
// default).
//
// # Invariants
//
// Every element a tensor can reach lies inside its storage; constructors and
// views check this, and AsStrided checks it for layouts built by hand. A
// tensor's shape and strides never change after it is made: view methods
// return new tensors.
//
// # Views and copies
//
// FromSlice wraps the caller's slice without copying. Permute, Transpose, T,
// Slice, Index, Expand, BroadcastTo, Squeeze, Unsqueeze and ReshapeView are
// views: they share storage with their source and never copy, so a Set
// through one is seen through all. Reshape and Flatten are views when the
// strides allow it and copies otherwise (as torch.reshape); Contiguous copies
// only a non-contiguous tensor; Clone and Values always copy.
//
// # Element aliasing
//
// In an expanded view several elements share one memory location. Reading
// them is fine; writing is not: Set on such a tensor returns an
// *InternalOverlapError (see HasInternalOverlap), as PyTorch refuses in-place
// writes into expanded tensors.
//
// # Errors
//
// Functions that can fail on their arguments return an error and never panic:
// *ShapeError (negative extent, element count overflow, data of the wrong
// length), *AxisError, *IndexError, *ExpandError, *ReshapeError, *ArgError
// (zero step, ragged nested slices, repeated axes), *AllocError (storage over
// the memory limit) and, for broadcasting, *BroadcastError and
// *BroadcastConditionError. Their texts follow PyTorch's (or CANN's) wording
// and name the shapes and the axis. Must turns an error into a panic for
// arguments known to be valid; Values, Clone and Contiguous panic with an
// *AllocError over the memory limit. Those are the only panics the package
// raises.
//
// # Broadcasting
//
// BroadcastShapes applies NumPy's rule: right-align the shapes, pad with 1,
// and per axis the extents must be equal or one of them 1 (so 0 matches only
// 0 or 1). Its error names the right-most mismatching axis as PyTorch does:
// "The size of tensor a (2) must match the size of tensor b (3) at
// non-singleton dimension 1". CheckBroadcastShape and BroadcastInferShape are
// CANN's spellings of the same rule, and MergedBroadcastShape computes the
// merged rank that limits the restricted dtypes.
//
// # Printing
//
// *Tensor[T] implements fmt.Formatter with NumPy's layout: %v is numpy's
// str(), %+v a repr naming the dtype, and a precision (%.3v) sets the digits
// after the point. Tensors of more than 1000 elements are summarized with
// "...".
package tensor
