// Package dtype names the element types of tensorplay and the rules between
// them: the generic constraints, the DType enum with NumPy's names and sizes,
// type promotion, and the table of dtypes restricted by the CANN merged-rank
// rule.
//
// # Element types
//
// Every Tensor[T] has T in Elem: bool, the signed and unsigned integers,
// float32, float64, complex64 and complex128. Go's int and uint map to the
// 64-bit dtypes (int64, uint64), as on every platform Go supports for numerics.
//
// # Promotion
//
// Promote(a, b) follows NumPy/PyTorch for two tensors: bool < integer <
// floating < complex, then width. tensorplay's typed ops take operands of one
// element type, so Promote is for code that picks the type to Cast to. The
// table, abridged (docs/dtypes.md has all 13×13):
//
//	a \ b      bool   int8   uint8  int16  int32  int64  float32 float64 complex64
//	bool       bool   int8   uint8  int16  int32  int64  float32 float64 complex64
//	int8       int8   int8   int16  int16  int32  int64  float32 float64 complex64
//	uint8      uint8  int16  uint8  int16  int32  int64  float32 float64 complex64
//	uint16     uint16 int32  uint16 int32  int32  int64  float32 float64 complex64
//	uint32     uint32 int64  uint32 int64  int64  int64  float32 float64 complex64
//	uint64     uint64 float64 uint64 float64 float64 float64 float32 float64 complex64
//	float32    float32 ...                               float32 float64 complex64
//	float64    float64 ...                               float64 float64 complex128
//
// Mixed signed/unsigned integers take the smallest signed type that holds
// both; int64 with uint64 has none and gives float64 (NumPy's rule). A float
// meets an integer: the float wins (PyTorch's rule for tensors; NumPy's
// value-independent promotion would widen float32+int32 to float64, which is
// rarely what a user of float32 wants). float64 with complex64 gives complex128.
//
// # The restricted dtypes
//
// Restricted reports complex64, complex128, float64, int16, uint16 and
// uint64: the dtypes for which CANN's hardware limits a broadcast to a merged
// rank below 6. The rule itself lives in package tensor (MergedBroadcastShape)
// and is enforced by package expr; package compat can lift it.
package dtype
