package exec

import (
	"github.com/tensorplay/tensorplay/dtype"
)

// Casts go through one canonical buffer per block: complex128 when either
// side is complex, float64 when either side is floating, int64 otherwise
// (integers and bools, which keeps 64-bit integers exact). Each step is one
// loop chosen once per block by a type switch on the slice, never per element.

type castVia uint8

const (
	viaInt castVia = iota
	viaFloat
	viaComplex
)

func castPath(from, to dtype.DType) castVia {
	switch {
	case from.IsComplex() || to.IsComplex():
		return viaComplex
	case from.IsFloat() || to.IsFloat():
		return viaFloat
	}
	return viaInt
}

func realsTo[D, S dtype.Real](d []D, a []S) {
	a = a[:len(d)]
	for i := range d {
		d[i] = D(a[i])
	}
}

func complexTo[D, S dtype.Complex](d []D, a []S) {
	a = a[:len(d)]
	for i := range d {
		d[i] = D(a[i])
	}
}

func realsToComplex[S dtype.Real](d []complex128, a []S) {
	a = a[:len(d)]
	for i := range d {
		d[i] = complex(float64(a[i]), 0)
	}
}

func complexToReal[D dtype.Real](d []D, a []complex128) {
	a = a[:len(d)]
	for i := range d {
		d[i] = D(real(a[i]))
	}
}

func boolsTo[D dtype.Real](d []D, a []bool) {
	a = a[:len(d)]
	for i := range d {
		if a[i] {
			d[i] = 1
		} else {
			d[i] = 0
		}
	}
}

func nonZero[S dtype.Numeric](d []bool, a []S) {
	a = a[:len(d)]
	for i := range d {
		d[i] = a[i] != 0
	}
}

// toInt64 widens an integer or bool block to int64 (bit-preserving for uint64).
func toInt64(d []int64, a any) {
	switch a := a.(type) {
	case *[]bool:
		boolsTo(d, *a)
	case *[]int8:
		realsTo(d, *a)
	case *[]int16:
		realsTo(d, *a)
	case *[]int32:
		realsTo(d, *a)
	case *[]int64:
		copy(d, *a)
	case *[]uint8:
		realsTo(d, *a)
	case *[]uint16:
		realsTo(d, *a)
	case *[]uint32:
		realsTo(d, *a)
	case *[]uint64:
		realsTo(d, *a)
	}
}

func fromInt64(d any, a []int64) {
	switch d := d.(type) {
	case *[]bool:
		nonZero(*d, a)
	case *[]int8:
		realsTo(*d, a)
	case *[]int16:
		realsTo(*d, a)
	case *[]int32:
		realsTo(*d, a)
	case *[]int64:
		copy(*d, a)
	case *[]uint8:
		realsTo(*d, a)
	case *[]uint16:
		realsTo(*d, a)
	case *[]uint32:
		realsTo(*d, a)
	case *[]uint64:
		realsTo(*d, a)
	}
}

func toFloat64(d []float64, a any) {
	switch a := a.(type) {
	case *[]bool:
		boolsTo(d, *a)
	case *[]int8:
		realsTo(d, *a)
	case *[]int16:
		realsTo(d, *a)
	case *[]int32:
		realsTo(d, *a)
	case *[]int64:
		realsTo(d, *a)
	case *[]uint8:
		realsTo(d, *a)
	case *[]uint16:
		realsTo(d, *a)
	case *[]uint32:
		realsTo(d, *a)
	case *[]uint64:
		realsTo(d, *a)
	case *[]float32:
		realsTo(d, *a)
	case *[]float64:
		copy(d, *a)
	}
}

func fromFloat64(d any, a []float64) {
	switch d := d.(type) {
	case *[]bool:
		nonZero(*d, a)
	case *[]int8:
		realsTo(*d, a)
	case *[]int16:
		realsTo(*d, a)
	case *[]int32:
		realsTo(*d, a)
	case *[]int64:
		realsTo(*d, a)
	case *[]uint8:
		realsTo(*d, a)
	case *[]uint16:
		realsTo(*d, a)
	case *[]uint32:
		realsTo(*d, a)
	case *[]uint64:
		realsTo(*d, a)
	case *[]float32:
		realsTo(*d, a)
	case *[]float64:
		copy(*d, a)
	}
}

// toComplex128 widens any block to complex128; f is scratch for real blocks.
func toComplex128(d []complex128, a any, f []float64) {
	switch a := a.(type) {
	case *[]complex64:
		complexTo(d, *a)
	case *[]complex128:
		copy(d, *a)
	default:
		toFloat64(f, a)
		realsToComplex(d, f)
	}
}

func fromComplex128(d any, a []complex128) {
	switch d := d.(type) {
	case *[]complex64:
		complexTo(*d, a)
	case *[]complex128:
		copy(*d, a)
	case *[]bool:
		nonZero(*d, a)
	case *[]int8:
		complexToReal(*d, a)
	case *[]int16:
		complexToReal(*d, a)
	case *[]int32:
		complexToReal(*d, a)
	case *[]int64:
		complexToReal(*d, a)
	case *[]uint8:
		complexToReal(*d, a)
	case *[]uint16:
		complexToReal(*d, a)
	case *[]uint32:
		complexToReal(*d, a)
	case *[]uint64:
		complexToReal(*d, a)
	case *[]float32:
		complexToReal(*d, a)
	case *[]float64:
		complexToReal(*d, a)
	}
}

// castScratch holds the canonical buffers of one worker's casts.
type castScratch struct {
	f32 []float32
	i   []int64
	f   []float64
	c   []complex128
}

// cast converts the n-element block *a (a *[]S) into *d (a *[]D). The
// blocks travel as pointers to slices, boxed once when a kernel is built,
// so that converting them to interfaces allocates nothing per block.
func (s *castScratch) cast(path castVia, d, a any, n int) {
	if s.direct64(d, a) || directBools(d, a) {
		return
	}
	switch path {
	case viaInt:
		if len(s.i) < n {
			s.i = make([]int64, n)
		}
		toInt64(s.i[:n], a)
		fromInt64(d, s.i[:n])
	case viaFloat:
		if len(s.f) < n {
			s.f = make([]float64, n)
		}
		toFloat64(s.f[:n], a)
		fromFloat64(d, s.f[:n])
	case viaComplex:
		if len(s.c) < n {
			s.c = make([]complex128, n)
			s.f = make([]float64, n)
		}
		toComplex128(s.c[:n], a, s.f[:n])
		fromComplex128(d, s.c[:n])
	}
}

// direct64 converts 64-bit integers to float32 and complex64 in one step:
// through float64 they would be rounded twice.
func (s *castScratch) direct64(d, a any) bool {
	switch d := d.(type) {
	case *[]float32:
		switch a := a.(type) {
		case *[]int64:
			realsTo(*d, *a)
			return true
		case *[]uint64:
			realsTo(*d, *a)
			return true
		}
	case *[]complex64:
		if len(s.f32) < len(*d) {
			s.f32 = make([]float32, len(*d))
		}
		f := s.f32[:len(*d)]
		switch a := a.(type) {
		case *[]int64:
			realsTo(f, *a)
		case *[]uint64:
			realsTo(f, *a)
		default:
			return false
		}
		for i, v := range f {
			(*d)[i] = complex(v, 0)
		}
		return true
	}
	return false
}
