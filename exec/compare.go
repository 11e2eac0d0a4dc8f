package exec

import (
	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// Comparisons of whole tensors, NumPy's allclose, isclose and array_equal.
// Each evaluates one fused graph with the Default executor.

// NumPy's default tolerances of isclose and allclose.
const (
	DefaultRTol = 1e-5
	DefaultATol = 1e-8
)

// IsClose returns NumPy's isclose(a, b) with its defaults (rtol 1e-5, atol
// 1e-8, NaN unequal): |a-b| <= atol + rtol*|b| elementwise, a and b
// broadcasting; see expr.IsClose.
func IsClose[T dtype.Numeric](a, b *tensor.Tensor[T]) (*tensor.Tensor[bool], error) {
	return IsCloseTol(a, b, DefaultRTol, DefaultATol, false)
}

// IsCloseTol is IsClose with the tolerances and the NaN rule given.
func IsCloseTol[T dtype.Numeric](a, b *tensor.Tensor[T], rtol, atol float64, equalNaN bool) (*tensor.Tensor[bool], error) {
	return Eval(expr.IsClose(expr.Of(a), expr.Of(b), rtol, atol, equalNaN))
}

// AllClose reports NumPy's allclose(a, b) with its defaults: every element
// of the broadcast of a and b is close (see IsClose). Shapes that do not
// broadcast are an error (*tensor.BroadcastError), as in NumPy.
func AllClose[T dtype.Numeric](a, b *tensor.Tensor[T]) (bool, error) {
	return AllCloseTol(a, b, DefaultRTol, DefaultATol, false)
}

// AllCloseTol is AllClose with the tolerances and the NaN rule given.
func AllCloseTol[T dtype.Numeric](a, b *tensor.Tensor[T], rtol, atol float64, equalNaN bool) (bool, error) {
	return item(Eval(expr.IsClose(expr.Of(a), expr.Of(b), rtol, atol, equalNaN).All()))
}

// ArrayEqual reports NumPy's array_equal(a, b): the same shape and equal
// elements (NaN is unequal to itself). Different shapes give false, not an
// error; nil tensors are an error.
func ArrayEqual[T dtype.Elem](a, b *tensor.Tensor[T]) (bool, error) {
	if nilTensor(a) || nilTensor(b) {
		return false, &tensor.ArgError{Op: "exec.ArrayEqual", Reason: "nil tensor"}
	}
	if !a.Shape().Equal(b.Shape()) {
		return false, nil
	}
	return item(Eval(expr.Of(a).Eq(expr.Of(b)).All()))
}

func item(t *tensor.Tensor[bool], err error) (bool, error) {
	if err != nil {
		return false, err
	}
	return t.Item()
}
