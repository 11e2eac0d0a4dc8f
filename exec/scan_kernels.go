package exec

import (
	"math"

	"github.com/tensorplay/tensorplay/dtype"
	"github.com/tensorplay/tensorplay/expr"
	"github.com/tensorplay/tensorplay/tensor"
)

// scanKind is the fold of a scan step.
type scanKind uint8

const (
	scanSum scanKind = iota
	scanProd
	scanMax // torch.cummax's values: a NaN, once met, stays
	scanMin
	scanLSE // torch.logcumsumexp's log-add-exp
	scanNanSum
	scanNanProd
	scanSoftmax // softmax's normalized lines (softmax.go)
)

func scanKindOf(op expr.Op) scanKind {
	switch op {
	case expr.OpCumProd:
		return scanProd
	case expr.OpCumMax:
		return scanMax
	case expr.OpCumMin:
		return scanMin
	case expr.OpLogCumSumExp:
		return scanLSE
	case expr.OpNanCumSum:
		return scanNanSum
	case expr.OpNanCumProd:
		return scanNanProd
	case expr.OpSoftmax:
		return scanSoftmax
	}
	return scanSum
}

// scanFns are the loops of the scans of one element type. Each op is a
// loop of its own, chosen once per call by a switch, never per element.
type scanFns[T any] struct {
	// run folds in into out (of in's length) from acc, or, when first, from
	// in[0] itself (the first element of a line is its own running value,
	// -0.0 included); it returns the last running value.
	run func(k scanKind, out, in []T, acc T, first bool) T
	// first writes a line block's first row: x, NaN as 0 (1) for the nan
	// kinds.
	first func(k scanKind, dst, x []T)
	// row writes dst = prev (op) x, element by element.
	row func(k scanKind, dst, prev, x []T)
}

// scanFnsOf holds every element type's loops, each boxed once: boxing a
// struct of three functions allocates, and a scan looks its loops up on
// every run.
var scanFnsOf = map[dtype.DType]any{
	dtype.Float32:    scanFns[float32]{floatRun[float32], inexactFirst[float32], floatRow[float32]},
	dtype.Float64:    scanFns[float64]{floatRun[float64], inexactFirst[float64], floatRow[float64]},
	dtype.Complex64:  scanFns[complex64]{complexRun[complex64], inexactFirst[complex64], complexRow[complex64]},
	dtype.Complex128: scanFns[complex128]{complexRun[complex128], inexactFirst[complex128], complexRow[complex128]},
	dtype.Int8:       scanFns[int8]{realRun[int8], intFirst[int8], realRow[int8]},
	dtype.Int16:      scanFns[int16]{realRun[int16], intFirst[int16], realRow[int16]},
	dtype.Int32:      scanFns[int32]{realRun[int32], intFirst[int32], realRow[int32]},
	dtype.Int64:      scanFns[int64]{realRun[int64], intFirst[int64], realRow[int64]},
	dtype.Uint8:      scanFns[uint8]{realRun[uint8], intFirst[uint8], realRow[uint8]},
	dtype.Uint16:     scanFns[uint16]{realRun[uint16], intFirst[uint16], realRow[uint16]},
	dtype.Uint32:     scanFns[uint32]{realRun[uint32], intFirst[uint32], realRow[uint32]},
	dtype.Uint64:     scanFns[uint64]{realRun[uint64], intFirst[uint64], realRow[uint64]},
}

// scanFnsFor returns the loops for T.
func scanFnsFor[T dtype.Numeric]() scanFns[T] { return scanFnsOf[dtype.Of[T]()].(scanFns[T]) }

// nanAs returns v, or z when v is NaN (a complex number with a NaN part).
func nanAs[T inexact](v, z T) T {
	if v != v {
		return z
	}
	return v
}

// start takes a line's first element as its running value when first.
func start[T any](out, in []T, acc T, first bool, first0 func(T) T) ([]T, []T, T) {
	if !first || len(in) == 0 {
		return out[:len(in)], in, acc
	}
	acc = first0(in[0])
	out[0] = acc
	return out[1:len(in)], in[1:], acc
}

func itself[T any](v T) T { return v }

func numericRun[T dtype.Numeric](k scanKind, out, in []T, acc T) T {
	out = out[:len(in)]
	switch k {
	case scanSum, scanNanSum: // the nan kinds arrive here with NaNs replaced, or for integers
		for i, v := range in {
			acc += v
			out[i] = acc
		}
	case scanProd, scanNanProd:
		for i, v := range in {
			acc *= v
			out[i] = acc
		}
	default:
		panic("exec: internal error: scan kind for a numeric type")
	}
	return acc
}

func realRun[T dtype.Real](k scanKind, out, in []T, acc T, first bool) T {
	out, in, acc = start(out, in, acc, first, itself[T])
	out = out[:len(in)]
	switch k {
	case scanMax:
		for i, v := range in {
			if v != v || v >= acc {
				acc = v
			}
			out[i] = acc
		}
		return acc
	case scanMin:
		for i, v := range in {
			if v != v || v <= acc {
				acc = v
			}
			out[i] = acc
		}
		return acc
	}
	return numericRun(k, out, in, acc)
}

func floatRun[T dtype.Float](k scanKind, out, in []T, acc T, first bool) T {
	switch k {
	case scanLSE:
		out, in, acc = start(out, in, acc, first, itself[T])
		out = out[:len(in)]
		for i, v := range in {
			acc = torchLogAddExp(acc, v)
			out[i] = acc
		}
		return acc
	case scanNanSum, scanNanProd:
		return nanRun(k, out, in, acc, first)
	}
	return realRun(k, out, in, acc, first)
}

func complexRun[T dtype.Complex](k scanKind, out, in []T, acc T, first bool) T {
	if k == scanNanSum || k == scanNanProd {
		return nanRun(k, out, in, acc, first)
	}
	out, in, acc = start(out, in, acc, first, itself[T])
	return numericRun(k, out, in, acc)
}

// nanRun is nancumsum's and nancumprod's fold: a NaN adds 0 (multiplies
// by 1).
func nanRun[T inexact](k scanKind, out, in []T, acc T, first bool) T {
	z := T(0)
	if k == scanNanProd {
		z = 1
	}
	out, in, acc = start(out, in, acc, first, func(v T) T { return nanAs(v, z) })
	out = out[:len(in)]
	if k == scanNanSum {
		for i, v := range in {
			acc += nanAs(v, 0)
			out[i] = acc
		}
		return acc
	}
	for i, v := range in {
		acc *= nanAs(v, 1)
		out[i] = acc
	}
	return acc
}

// torchLogAddExp is torch's _log_add_exp_helper: log(exp(a) + exp(b)) as
// max + log1p(exp(min - max)), but a itself when both are the same
// infinity (where min - max is NaN); NaN in either gives NaN.
func torchLogAddExp[T dtype.Float](a, b T) T {
	lo, hi := min(a, b), max(a, b)
	if lo != hi || !math.IsInf(float64(lo), 0) {
		return hi + T(math.Log1p(math.Exp(float64(lo-hi))))
	}
	return a
}

func intFirst[T dtype.Real](k scanKind, dst, x []T) { copy(dst, x) }

func inexactFirst[T inexact](k scanKind, dst, x []T) {
	switch k {
	case scanNanSum:
		for i, v := range x[:len(dst)] {
			dst[i] = nanAs(v, 0)
		}
	case scanNanProd:
		for i, v := range x[:len(dst)] {
			dst[i] = nanAs(v, 1)
		}
	default:
		copy(dst, x)
	}
}

func numericRow[T dtype.Numeric](k scanKind, dst, prev, x []T) {
	prev, x = prev[:len(dst)], x[:len(dst)]
	switch k {
	case scanSum, scanNanSum:
		for i := range dst {
			dst[i] = prev[i] + x[i]
		}
	case scanProd, scanNanProd:
		for i := range dst {
			dst[i] = prev[i] * x[i]
		}
	default:
		panic("exec: internal error: scan kind for a numeric type")
	}
}

func realRow[T dtype.Real](k scanKind, dst, prev, x []T) {
	prev, x = prev[:len(dst)], x[:len(dst)]
	switch k {
	case scanMax:
		for i, v := range x {
			p := prev[i]
			if v != v || v >= p {
				p = v
			}
			dst[i] = p
		}
	case scanMin:
		for i, v := range x {
			p := prev[i]
			if v != v || v <= p {
				p = v
			}
			dst[i] = p
		}
	default:
		numericRow(k, dst, prev, x)
	}
}

func floatRow[T dtype.Float](k scanKind, dst, prev, x []T) {
	switch k {
	case scanLSE:
		prev, x = prev[:len(dst)], x[:len(dst)]
		for i := range dst {
			dst[i] = torchLogAddExp(prev[i], x[i])
		}
	case scanNanSum, scanNanProd:
		nanRow(k, dst, prev, x)
	default:
		realRow(k, dst, prev, x)
	}
}

func complexRow[T dtype.Complex](k scanKind, dst, prev, x []T) {
	if k == scanNanSum || k == scanNanProd {
		nanRow(k, dst, prev, x)
		return
	}
	numericRow(k, dst, prev, x)
}

func nanRow[T inexact](k scanKind, dst, prev, x []T) {
	prev, x = prev[:len(dst)], x[:len(dst)]
	if k == scanNanSum {
		for i := range dst {
			dst[i] = prev[i] + nanAs(x[i], 0)
		}
		return
	}
	for i := range dst {
		dst[i] = prev[i] * nanAs(x[i], 1)
	}
}

// scanSource reads a scan's input as elements of T.
type scanSource[T any] interface {
	// load returns the len(buf) elements from off, stride apart (stride
	// may be negative): the input's own storage when it holds them
	// contiguously as T, else buf filled with them.
	load(buf []T, off, stride int) []T
}

// sameSource is an input of the output's dtype. It holds no state, so one
// serves every task of a run; its pointer is the scanSource (boxing the
// struct would allocate).
type sameSource[T any] struct{ data []T }

func (s *sameSource[T]) load(buf []T, off, stride int) []T {
	if stride == 1 {
		return s.data[off : off+len(buf)]
	}
	for j := range buf {
		buf[j] = s.data[off+j*stride]
	}
	return buf
}

// castSource is an input of another dtype S, gathered into tmp and
// converted as Cast converts (see castScratch).
type castSource[S, T any] struct {
	data []S
	tmp  []S
	in   []S
	out  []T
	path castVia
	cs   castScratch
}

func (c *castSource[S, T]) load(buf []T, off, stride int) []T {
	n := len(buf)
	if cap(c.tmp) < n {
		c.tmp = make([]S, n)
	}
	c.in, c.out = c.tmp[:n], buf
	for j := range c.in {
		c.in[j] = c.data[off+j*stride]
	}
	c.cs.cast(c.path, &c.out, &c.in, n) // pointers to fields: boxing them allocates nothing
	return buf
}

func newCastSource[S, T dtype.Elem](data []S) scanSource[T] {
	return &castSource[S, T]{data: data, path: castPath(dtype.Of[S](), dtype.Of[T]())}
}

// newScanSource returns the reader of in for a scan into T.
func newScanSource[T dtype.Elem](in tensor.Any) scanSource[T] {
	if t, ok := in.(*tensor.Tensor[T]); ok {
		return &sameSource[T]{t.Data()}
	}
	switch t := in.(type) {
	case *tensor.Tensor[bool]:
		return newCastSource[bool, T](t.Data())
	case *tensor.Tensor[int8]:
		return newCastSource[int8, T](t.Data())
	case *tensor.Tensor[int16]:
		return newCastSource[int16, T](t.Data())
	case *tensor.Tensor[int32]:
		return newCastSource[int32, T](t.Data())
	case *tensor.Tensor[int64]:
		return newCastSource[int64, T](t.Data())
	case *tensor.Tensor[uint8]:
		return newCastSource[uint8, T](t.Data())
	case *tensor.Tensor[uint16]:
		return newCastSource[uint16, T](t.Data())
	case *tensor.Tensor[uint32]:
		return newCastSource[uint32, T](t.Data())
	case *tensor.Tensor[uint64]:
		return newCastSource[uint64, T](t.Data())
	case *tensor.Tensor[float32]:
		return newCastSource[float32, T](t.Data())
	case *tensor.Tensor[float64]:
		return newCastSource[float64, T](t.Data())
	case *tensor.Tensor[complex64]:
		return newCastSource[complex64, T](t.Data())
	case *tensor.Tensor[complex128]:
		return newCastSource[complex128, T](t.Data())
	}
	panic("exec: internal error: a scan of an unknown element type")
}
