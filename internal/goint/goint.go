// Package goint lets tensors of Go's int and uint through the expression
// and executor layers. Their dtypes are int64's and uint64's (on 64-bit
// platforms, where the types have the same size and layout), and the
// executor's kernels are instantiated for the sized types only: a tensor of
// int enters as a view of its storage typed int64, and a result leaves as a
// view of the int64 storage typed int. Nothing is copied, so a graph reads
// an int tensor when it is evaluated and writes an int destination in
// place, as for any other type, and the overlap checks see one storage.
//
// The conversions reinterpret a tensor's element type with unsafe (the
// header is copied, storage, layout and backing unchanged): int and int64
// (uint and uint64) are distinct Go types with identical representations
// when strconv.IntSize is 64. On other platforms Supported
// is false and expr refuses such tensors with a *expr.GoIntError.
package goint

import (
	"strconv"
	"unsafe"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/tensor"
)

// Supported reports whether int and uint have the sizes of int64 and uint64.
const Supported = strconv.IntSize == 64

// Is reports whether T is int or uint.
func Is[T dtype.Elem]() bool {
	switch any(*new(T)).(type) {
	case int, uint:
		return true
	}
	return false
}

// Sized returns t as a tensor of the sized type of its dtype, sharing its
// storage, layout and offset, when T is int or uint; t itself otherwise.
// A nil t stays nil.
func Sized[T dtype.Elem](t *tensor.Tensor[T]) tensor.Any {
	if t == nil {
		return nil
	}
	switch t := any(t).(type) {
	case *tensor.Tensor[int]:
		return retype[int, int64](t)
	case *tensor.Tensor[uint]:
		return retype[uint, uint64](t)
	}
	return t
}

// SizedAny is Sized for an untyped tensor.
func SizedAny(t tensor.Any) tensor.Any {
	switch t := t.(type) {
	case *tensor.Tensor[int]:
		return Sized(t)
	case *tensor.Tensor[uint]:
		return Sized(t)
	}
	return t
}

// Typed returns t, a tensor the executor made or was given, as a
// *tensor.Tensor[T]: for T int or uint, a view of its int64 or uint64
// storage; otherwise t itself. It returns nil when t is neither.
func Typed[T dtype.Elem](t tensor.Any) *tensor.Tensor[T] {
	if r, ok := t.(*tensor.Tensor[T]); ok {
		return r
	}
	var out any
	switch t := t.(type) {
	case *tensor.Tensor[int64]:
		if _, ok := any(*new(T)).(int); ok {
			out = retype[int64, int](t)
		}
	case *tensor.Tensor[uint64]:
		if _, ok := any(*new(T)).(uint); ok {
			out = retype[uint64, uint](t)
		}
	}
	r, _ := out.(*tensor.Tensor[T])
	return r
}

// retype views t as a tensor of U, which has T's size and layout: a copy
// of t's header (storage, shape, strides, offset, backing) with the
// storage's element type reinterpreted. Tensor[T] and Tensor[U] differ only
// in that element type, so the copy is t's own valid layout and nothing
// can fail.
func retype[T, U dtype.Elem](t *tensor.Tensor[T]) *tensor.Tensor[U] {
	r := *(*tensor.Tensor[U])(unsafe.Pointer(t))
	return &r
}
